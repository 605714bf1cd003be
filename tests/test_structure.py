"""The shape of the tree: layering, one file name per role in every family, and the new-family recipe of
CONTRIBUTING.md followed by a family written here."""

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import agentgym_text
from agentgym_text.core.registry import unregister_env
from agentgym_text.testing import contract

PACKAGE = Path(agentgym_text.__file__).parent
FAMILIES = sorted(p for p in (PACKAGE / "envs").iterdir() if (p / "registration.py").is_file())
ROLE_FILES = ("env.py", "registration.py", "tasks.py", "expert.py", "prompt.json")
OTHER_NAMES_FOR_ROLES = {"commands.py", "parsing.py", "calls.py", "solver.py", "gold.py", "golden.py",
                         "rendering.py", "text.py", "text_render.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer, forbidden", [
    # core finds families through the ``agentgym_text.envs`` package itself, never through a family's module
    ("core", ("agentgym_text.envs.", "agentgym_text.agents", "agentgym_text.eval", "agentgym_text.wrappers")),
    ("eval", ("agentgym_text.envs",)),
    ("agents", ("agentgym_text.envs.", "agentgym_text.eval")),
    ("wrappers", ("agentgym_text.envs", "agentgym_text.eval", "agentgym_text.agents")),
])
def test_layers_import_only_downwards(layer, forbidden):
    offenders = [
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for name in _imports(path)
        if name.startswith(forbidden)
    ]
    assert offenders == []


FAMILY_DEPENDENCIES = {"webarena": ("webshop",)}
"""The one family built on another: WebArena's shop sells the WebShop catalogue (``webshop/catalogue.py``)."""


def test_families_import_only_core_and_themselves():
    offenders = []
    for family in FAMILIES:
        allowed = ("agentgym_text.core", f"agentgym_text.envs.{family.name}",
                   *(f"agentgym_text.envs.{other}" for other in FAMILY_DEPENDENCIES.get(family.name, ())))
        for path in sorted(family.rglob("*.py")):
            for name in _imports(path):
                if name.startswith("agentgym_text.") and not name.startswith(allowed):
                    offenders.append(f"{path.relative_to(PACKAGE)}: {name}")
    assert offenders == []


@pytest.mark.parametrize("family", FAMILIES, ids=lambda p: p.name)
def test_every_family_has_the_role_files_under_one_name(family):
    assert [name for name in ROLE_FILES if not (family / name).is_file()] == []
    assert sorted(p.name for p in family.glob("*.py") if p.name in OTHER_NAMES_FOR_ROLES) == []


TINY_FAMILY = '''
"""A counter game written from CONTRIBUTING.md's recipe: reach the target number with 'add <k>' actions."""

from agentgym_text.core.info import InvalidReason, difficulty_from_subgoals
from agentgym_text.core.progress import Progress
from agentgym_text.core.registry import register_env
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv

TASKS = TaskSet([
    TaskSpec(f"count-{target}", {"target": target}, goal=f"Reach exactly {target}.",
             difficulty=difficulty_from_subgoals(target // 3), max_steps=20)
    for target in (3, 5, 9)
])


class CounterEnv(TextEnv):
    cheap_admissible_actions = True
    action_format = "'add <1-3>'"
    action_example = "add 1"

    def __init__(self, **kwargs):
        super().__init__(TASKS, **kwargs)
        self.total = 0
        self.target = 0

    def _start(self, task, seed):
        self.total, self.target = 0, int(task.params["target"])
        return Start(observation="The counter shows 0.", goal=task.goal)

    def _act(self, action):
        words = action.lower().split()
        if len(words) != 2 or words[0] != "add" or words[1] not in ("1", "2", "3"):
            return Outcome.invalid("Say 'add 1', 'add 2' or 'add 3'.", InvalidReason.UNPARSABLE)
        self.total += int(words[1])
        if self.total > self.target:
            return Outcome(f"The counter shows {self.total}: past the target.", terminated=True)
        won = self.total == self.target
        return Outcome(f"The counter shows {self.total}.", terminated=won, success=won)

    def _progress(self):
        return Progress(now=self.total / self.target if self.total <= self.target else 0.0)

    def _admissible_actions(self):
        return ["add 1", "add 2", "add 3"]

    def _expert_action(self):
        return f"add {min(3, self.target - self.total)}"


register_env("Tiny/Counter-v0", "tinyfamily:CounterEnv", family="tiny", category="game", task_count=len(TASKS),
             subskill_weights={"Memory": 0, "Planning": 1, "World Modeling": 0, "Self-Reflection": 0,
                               "Grounding": 1, "Spatial Navigation": 0})
'''


def test_a_family_written_from_the_recipe_passes_the_contract_suite_and_is_listed(tmp_path, monkeypatch):
    (tmp_path / "tinyfamily.py").write_text(textwrap.dedent(TINY_FAMILY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}:{':'.join(sys.path)}")
    import tinyfamily  # noqa: F401

    try:
        assert "Tiny/Counter-v0" in {entry.env_id for entry in agentgym_text.list_envs()}
        contract.check_all("Tiny/Counter-v0", imports=["tinyfamily"])
        listing = subprocess.run(
            [sys.executable, "-c", "import tinyfamily; from agentgym_text.cli import main; main(['list'])"],
            capture_output=True, text=True, check=True,
        )
        assert "Tiny/Counter-v0" in listing.stdout and "installed" in listing.stdout
    finally:
        unregister_env("Tiny/Counter-v0")
        sys.modules.pop("tinyfamily", None)


def test_a_missing_engine_names_the_extra_to_install():
    code = (
        "import sys; sys.modules['minigrid'] = None\n"
        "import gymnasium as gym, agentgym_text\n"
        "gym.make('AgentBoard/BabyAI-v0')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "MissingDependency: AgentBoard/BabyAI-v0 needs the 'babyai' extra: pip install 'agentgym-text[babyai]'" in last


def test_import_and_make_of_every_id_print_nothing():
    code = (
        "import gymnasium as gym, agentgym_text\n"
        "from tests.conftest import USABLE_ENV_IDS\n"
        "for env_id in USABLE_ENV_IDS:\n"
        "    env = gym.make(env_id); env.reset(seed=0); env.step('check valid actions'); env.close()\n"
    )
    # a first run may build generated data into the cache (with a notice and a progress bar): warm it first
    for _ in range(2):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                cwd=Path(__file__).parents[1])
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == "" and result.stderr == ""
