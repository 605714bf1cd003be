"""The README's Python examples run as written (in order, sharing one namespace) and print what they say they print:
a ``print(...)  # -> text`` line must print ``text`` (its last print, where the line runs more than once)."""

import io
import os
import re
import sys
from pathlib import Path

import gymnasium as gym

SHOWN = re.compile(r"^\s*print\(.*#\s*->\s*(.*?)\s*$")


def _printer(printed: dict[int, str]):
    """A ``print`` that keeps what each line of the block printed, by line number."""

    def record(*args, **kwargs) -> None:
        buffer = io.StringIO()
        print(*args, **{**kwargs, "file": buffer})
        printed[sys._getframe(1).f_lineno] = buffer.getvalue().rstrip("\n")

    return record


def test_readme_python_examples_run(tmp_path):
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks
    namespace: dict = {}
    shown = checked = 0
    cwd = os.getcwd()
    os.chdir(tmp_path)  # examples may write runs/...
    try:
        for block in blocks:
            printed: dict[int, str] = {}
            namespace["print"] = _printer(printed)
            exec(compile(block, "README.md", "exec"), namespace)  # our own documentation, not model output
            for number, line in enumerate(block.splitlines(), 1):
                match = SHOWN.match(line)
                if match:
                    shown += 1
                    assert printed.get(number) == match.group(1), (
                        f"README line {line.strip()!r} printed {printed.get(number)!r}"
                    )
                    checked += 1
        assert checked == shown >= 8
    finally:
        os.chdir(cwd)
        for value in namespace.values():
            if isinstance(value, (gym.Env, gym.vector.VectorEnv)):
                value.close()
