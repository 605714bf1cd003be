"""The shape of the tree: layering (``tests/support/layering.py``), one file name per role in every family, and the
new-family recipe of CONTRIBUTING.md followed by a family written here."""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentgym_text.core.registry import families
from tests.support.layering import LAYERS, ROOT, import_cycles, unit_edges, wrong_way_imports
from tests.support.tree import FAMILIES, PACKAGE

ROLE_FILES = ("env.py", "registration.py", "tasks.py", "expert.py", "prompt.json")
OTHER_NAMES_FOR_ROLES = {
    "commands.py",
    "parsing.py",
    "calls.py",
    "solver.py",
    "gold.py",
    "golden.py",
    "rendering.py",
    "text.py",
    "text_render.py",
}
OWN_TEXT = "clear"
"""The text format in a family's own words: its ordinary role files (env, actions, render) speak it."""
DECLARED_TEXTS = {family.name: family.text_formats for family in families()}
OTHER_TEXTS = sorted({name for formats in DECLARED_TEXTS.values() for name in formats} - {OWN_TEXT})


def test_imports_follow_the_layer_order():
    """The order of ``tests/support/layering.py`` (DESIGN.md's "Layers"), over every module of the package."""
    assert wrong_way_imports(PACKAGE) == []


def test_every_top_level_unit_has_a_place_in_the_layer_order():
    modules = [
        path.name.removesuffix(".py")
        for path in PACKAGE.glob("*")
        if path.suffix == ".py" or (path.is_dir() and any(path.rglob("*.py")))
    ]
    assert {ROOT if name == "__init__" else name for name in modules} == set(LAYERS)


def test_no_import_cycles_between_units():
    assert import_cycles(unit_edges(PACKAGE)) == []
    assert import_cycles(unit_edges(PACKAGE, families_as_envs=False)) == []


PLANTED = {
    # a file planted in a copy of the package -> (its code, the edge the checker must report)
    "core/planted_module_level.py": ("import agentgym_text.integrations.chat\n", "core -> integrations"),
    "wrappers/planted_lazy.py": (
        "def make():\n    from agentgym_text.agents import make_agent\n    return make_agent\n",
        "wrappers -> agents",
    ),
    "testing/planted_importlib.py": (
        'import importlib\n\nGAME = importlib.import_module("agentgym_text.envs.mastermind.game")\n',
        "testing -> envs/mastermind",
    ),
    "eval/planted_entry_point.py": (
        'ENTRY_POINT = "agentgym_text.integrations.group:GroupEnv"\n',
        "eval -> integrations",
    ),
    "agents/planted_fstring.py": (
        "from importlib import resources\n\n\ndef folder(family):\n"
        '    return resources.files(f"agentgym_text.envs.{family}")\n',
        "agents -> envs/*",
    ),
    "integrations/planted_relative.py": ("from .. import cli\n", "integrations -> cli"),
    "envs/sudoku/planted_other_family.py": (
        "from agentgym_text.envs.mastermind.game import CodeRules\n",
        "envs/sudoku -> envs/mastermind",
    ),
    "envs/mastermind/planted_upward.py": (
        "def rows():\n    from agentgym_text.eval.store import read_jsonl\n    return read_jsonl\n",
        "envs/mastermind -> eval",
    ),
}


def test_the_layer_checker_sees_every_form_of_wrong_way_import(tmp_path):
    copy = tmp_path / "agentgym_text"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, (code, _) in PLANTED.items():
        (copy / name).write_text(code, encoding="utf-8")
    (copy / "planted_unit.py").write_text("", encoding="utf-8")
    found = wrong_way_imports(copy)
    for name, (_, edge) in PLANTED.items():
        assert [line for line in found if line.startswith(f"{name}:")] != [], name
        assert all(f"({edge})" in line for line in found if line.startswith(f"{name}:")), found
    assert "planted_unit.py: planted_unit is not a unit of the layer order" in found
    assert len(found) == len(PLANTED) + 1, found


def test_the_layer_checker_reads_the_declared_family_dependencies():
    """WebArena's shop sells the WebShop catalogue (WebBrowsing records on WebArena's sites): allowed because the
    families declare ``depends_on``; without the declarations exactly those imports are flagged."""
    undeclared = wrong_way_imports(PACKAGE, depends_on={})
    declared = {f"(envs/{family.name} -> envs/{other})" for family in families() for other in family.depends_on}
    assert "(envs/webarena -> envs/webshop)" in declared
    assert undeclared and all(any(edge in line for edge in declared) for line in undeclared)


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
        others = (role, "agentboard_data")  # agentboard_data.py: the role file reading AgentBoard's data folder
        assert sorted(p.name for p in family.glob(f"{text_format}_*") if p.stem not in others) == []


def test_a_missing_engine_names_the_extra_to_install():
    code = (
        "import sys; sys.modules['minigrid'] = None\n"
        "import gymnasium as gym, agentgym_text\n"
        "gym.make('AgentBoard/BabyAI-v0')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert (
        "MissingDependency: AgentBoard/BabyAI-v0 needs the 'babyai' extra: pip install 'agentgym-text[babyai]'" in last
    )


def test_import_and_make_of_every_id_print_nothing():
    code = (
        "import gymnasium as gym, agentgym_text\n"
        "from tests.conftest import USABLE_ENV_IDS\n"
        "for env_id in USABLE_ENV_IDS:\n"
        "    env = gym.make(env_id); env.reset(seed=0); env.step('check valid actions'); env.close()\n"
    )
    # a first run may build generated data into the cache (with a notice and a progress bar): warm it first
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1]
        )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == "" and result.stderr == ""


HISTORY = re.compile(r"\bissue\s*#?\d+|\bje-fast\b", re.IGNORECASE)
"""The project's own history: an issue number or a work branch's name, which a reader of the docs knows nothing of."""
DOCUMENTED = ("agentgym_text", "benchmarks", "README.md", "CONTRIBUTING.md")


def test_the_package_and_its_docs_speak_in_the_present_tense():
    """No tracked ``.py`` or ``.md`` file of the package, ``benchmarks/`` or the top-level docs cites an issue or a
    branch: each states what holds now (history stays in git log)."""
    repo = Path(__file__).parents[1]
    listed = subprocess.run(["git", "ls-files", *DOCUMENTED], capture_output=True, text=True, cwd=repo)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    paths = [name for name in listed.stdout.splitlines() if name.endswith((".py", ".md"))]
    assert "benchmarks/README.md" in paths
    found = [
        f"{name}:{number}: {match.group()}"
        for name in paths
        if (repo / name).is_file()
        for number, line in enumerate((repo / name).read_text(encoding="utf-8").splitlines(), 1)
        for match in HISTORY.finditer(line)
    ]
    assert found == []


_MODE_OPTIONS = {"text_format", "agentboard_fixes"}


def _mode_option_reads(path: Path) -> list[str]:
    """Where a module reads ``text_format`` or ``agentboard_fixes`` (an attribute, or a key such as
    ``kwargs.get("text_format")``); docstrings and comments do not count."""

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for node in ast.walk(tree)
        if (isinstance(node, ast.Attribute) and node.attr in _MODE_OPTIONS)
        or (isinstance(node, ast.Constant) and node.value in _MODE_OPTIONS and id(node) not in docstrings)
    ]


@pytest.mark.parametrize("family", families(), ids=lambda family: family.name)
def test_no_family_reads_its_text_format_outside_its_modes(family):
    """``text_format`` and ``agentboard_fixes`` are read by core, which makes ``self.mode``; a family's modules other
    than its text modes (``<format>_text``) never read them."""
    folder = PACKAGE / "envs" / family.name
    text_roles = {f"{text_format}_text" for text_format in family.text_formats}
    found = [
        place
        for path in sorted(folder.rglob("*.py"))
        if not text_roles & {part.removesuffix(".py") for part in path.relative_to(folder).parts}
        for place in _mode_option_reads(path)
    ]
    assert found == []


def _private_names_of_other_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("agentgym_text"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.module}.{alias.name}")
                target = PACKAGE.parent.joinpath(*node.module.split("."), alias.name)
                if target.with_suffix(".py").is_file() or (target / "__init__.py").is_file():
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules |= {alias.asname for alias in node.names if alias.name.startswith("agentgym_text") and alias.asname}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names():
    """A name with a leading underscore is its module's own: another module that needs it gets a public name."""
    assert [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _private_names_of_other_modules(path)] == []
