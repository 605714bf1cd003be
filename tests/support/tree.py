"""Where the package and its families' folders are, for the tests that read the tree."""

from __future__ import annotations

from pathlib import Path

import agentgym_text

__all__ = ["PACKAGE", "FAMILIES"]

PACKAGE = Path(agentgym_text.__file__).parent
FAMILIES = sorted(p for p in (PACKAGE / "envs").iterdir() if (p / "registration.py").is_file())
"""Every family's folder (one holding a ``registration.py``), sorted."""
