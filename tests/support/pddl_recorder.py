"""The PDDL reference recorder (``tests/reference/record_pddl.py``: its probe forms and outcome codes), loaded as a
module; it imports only the standard library."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

__all__ = ["RECORDER"]

REFERENCE_FOLDER = Path(__file__).resolve().parents[1] / "reference"


def _recorder():
    """tests/reference/record_pddl.py (its probe forms and outcome codes; it imports only the standard library)."""
    folder = REFERENCE_FOLDER
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("record_pddl", folder / "record_pddl.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


RECORDER = _recorder()
