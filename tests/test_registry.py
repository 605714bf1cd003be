"""Registration: every family registers, import stays light, counts and the README table agree."""

import re
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text
from agentgym_text.core.registry import CATEGORIES, families
from agentgym_text.envs import REGISTRATION_ERRORS
from tests.conftest import ALL_ENV_IDS, env_param

ENGINE_MODULES = [
    "minigrid",
    "pyperplan",
    "gym",
    "scienceworld",
    "py4j",
    "textworld",
    "jericho",
    "openai",
    "matplotlib",
]


def test_every_family_registers_without_errors():
    agentgym_text.list_envs()
    assert REGISTRATION_ERRORS == {}


def test_import_is_light_no_engine_is_imported():
    code = "import sys, agentgym_text; agentgym_text.list_envs(); print(sorted(sys.modules))"
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = [name for name in ENGINE_MODULES if f"'{name}'" in modules]
    assert loaded == []


@pytest.mark.parametrize("family", families(), ids=lambda family: family.name)
def test_declared_text_formats_are_the_env_classes(family):
    """The declaration names the texts its ids' env classes speak, in order: an id that plays another harness's
    protocol (AgentBench's) has an env class of its own whose modes hold that protocol."""
    spoken: list[str] = []
    for spec in family.ids:
        module, name = spec.entry_point.split(":")
        env_class = getattr(pytest.importorskip(module), name)
        assert set(env_class.text_formats) <= set(family.text_formats), spec.env_id
        spoken += [text for text in env_class.text_formats if text not in spoken]
    assert tuple(spoken) == family.text_formats


@pytest.mark.parametrize("env_id", [env_param(env_id) for env_id in ALL_ENV_IDS])
def test_listed_task_count_matches_the_env(env_id):
    entry = next(e for e in agentgym_text.list_envs() if e.env_id == env_id)
    env = gym.make(env_id)
    try:
        assert len(env.unwrapped.task_ids) == entry.task_count
        assert entry.category in CATEGORIES
    finally:
        env.close()


def test_readme_table_lists_every_env_with_its_task_count():
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    rows = dict(re.findall(r"^\| `([^`]+)` \| \w+ \| (\d+) \|", readme, flags=re.MULTILINE))
    assert rows == {entry.env_id: str(entry.task_count) for entry in agentgym_text.list_envs()}


def _training_cell(entry) -> str:
    """What the README's "training tasks" column says for an id: its split's declared size, or a dash and a
    footnote for the family's reason."""
    split = entry.train_split
    if not split.available:
        return f"—[^train-{entry.family}]"
    size = split.size_of(entry.env_id)
    assert size is not None, f"{entry.env_id}: an available TrainSplit declares its size"
    return f"{size:,}"


def test_readme_table_gives_every_id_its_declared_training_tasks():
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    cells = dict(re.findall(r"^\| `([^`]+)` \| \w+ \| \d+ \| ([^|]+?) \|", readme, flags=re.MULTILINE))
    entries = agentgym_text.list_envs()
    assert cells == {entry.env_id: _training_cell(entry) for entry in entries}
    for entry in entries:
        if not entry.train_split.available:
            note = f"[^train-{entry.family}]: {entry.train_split.unavailable}."
            assert note in readme, f"the README's footnote for {entry.env_id} is not {note!r}"
