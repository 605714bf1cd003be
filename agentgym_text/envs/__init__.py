"""Task families, one subpackage each; every subpackage has a light ``registration.py``."""
