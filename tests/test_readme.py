"""The README's Python examples run as written (in order, sharing one namespace)."""

import os
import re
from pathlib import Path

import gymnasium as gym


def test_readme_python_examples_run(tmp_path):
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks
    namespace: dict = {}
    cwd = os.getcwd()
    os.chdir(tmp_path)  # examples may write runs/...
    try:
        for block in blocks:
            exec(compile(block, "README.md", "exec"), namespace)  # our own documentation, not model output
    finally:
        os.chdir(cwd)
        for value in namespace.values():
            if isinstance(value, (gym.Env, gym.vector.VectorEnv)):
                value.close()
