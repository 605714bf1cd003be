"""Doctest collection of ``agentgym_text``: skip the modules that import an optional framework at the top (they
are Inspect AI task files and the like) when that framework is not installed."""

import importlib.util

_NEEDS = {"agentgym_text/integrations/inspect.py": "inspect_ai"}

collect_ignore = [path for path, module in _NEEDS.items() if importlib.util.find_spec(module) is None]
