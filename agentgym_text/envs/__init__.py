"""Task families, one subpackage each; every subpackage has a light ``registration.py`` that declares it."""

from __future__ import annotations

import importlib
import pkgutil
import warnings

__all__ = ["register_all", "REGISTRATION_ERRORS"]

REGISTRATION_ERRORS: dict[str, str] = {}
"""Families whose registration module failed to import, with the error (the suite's tests assert none)."""


def register_all() -> None:
    """Import every family's ``registration`` module (each is light: no engine imports).

    A family whose registration fails is reported with a warning and left out, so one broken family does
    not take the others down; ``REGISTRATION_ERRORS`` keeps what went wrong.
    """
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        name = f"{__name__}.{module.name}.registration"
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                continue
            REGISTRATION_ERRORS[module.name] = repr(error)
            warnings.warn(f"agentgym_text: family {module.name!r} not registered: {error!r}", stacklevel=2)
        except Exception as error:  # a broken family must not break `import agentgym_text`
            REGISTRATION_ERRORS[module.name] = repr(error)
            warnings.warn(f"agentgym_text: family {module.name!r} not registered: {error!r}", stacklevel=2)
