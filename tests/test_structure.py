"""The shape of the tree: layering, one file name per role in every family, and the new-family recipe of
CONTRIBUTING.md followed by a family written here."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import agentgym_text
from agentgym_text.core.registry import families

PACKAGE = Path(agentgym_text.__file__).parent
FAMILIES = sorted(p for p in (PACKAGE / "envs").iterdir() if (p / "registration.py").is_file())
ROLE_FILES = ("env.py", "registration.py", "tasks.py", "expert.py", "prompt.json")
OTHER_NAMES_FOR_ROLES = {"commands.py", "parsing.py", "calls.py", "solver.py", "gold.py", "golden.py",
                         "rendering.py", "text.py", "text_render.py"}
OWN_TEXT = "clear"
"""The text format in a family's own words: its ordinary role files (env, actions, render) speak it."""
DECLARED_TEXTS = {family.name: family.text_formats for family in families()}
OTHER_TEXTS = sorted({name for formats in DECLARED_TEXTS.values() for name in formats} - {OWN_TEXT})


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


@pytest.mark.parametrize("family", FAMILIES, ids=lambda p: p.name)
def test_each_other_text_format_lives_under_one_name(family):
    """A format other than the family's own words lives in ``<format>_text.py``, or in the package
    ``<format>_text/`` when it needs several modules, exactly when the family declares it; no other module is
    named after it (AgentBoard's text was ``agentboard_mode.py``, ``agentboard_api.py``, ... beside it)."""
    for text_format in OTHER_TEXTS:
        role = f"{text_format}_text"
        present = (family / f"{role}.py").is_file() or (family / role / "__init__.py").is_file()
        assert present == (text_format in DECLARED_TEXTS[family.name]), f"{family.name}: {role}"
        assert sorted(p.name for p in family.glob(f"{text_format}_*") if p.stem != role) == []


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
