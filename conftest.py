"""Doctest collection of ``agentgym_text``: skip the modules that import an optional framework at the top (they
are Inspect AI task files and the like) when that framework is not installed."""

import importlib.util

_NEEDS = {
    "agentgym_text/integrations/inspect.py": "inspect_ai",
    "agentgym_text/integrations/skyrl_env.py": "skyrl_gym",
    "agentgym_text/integrations/openenv_env.py": "openenv",
}

collect_ignore = [path for path, module in _NEEDS.items() if importlib.util.find_spec(module) is None]
