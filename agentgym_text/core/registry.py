"""Registering families' env ids with gymnasium, and the metadata ``list_envs()`` shows.

Each family has a light ``registration.py`` that calls ``declare(Family(...))`` (``core.family``) with string entry
points, so importing the package never imports an engine. ``import agentgym_text`` imports every family's
registration (``agentgym_text.envs.register_all``) before anything else of the package runs. ``list_envs()`` gives
one ``EnvEntry`` per id: the id's own declaration and its family's.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import gymnasium as gym
from gymnasium.envs.registration import WrapperSpec

from agentgym_text.core.family import CATEGORIES, DifficultyRule, EnvId, Family, TrainSplit

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable  # Python 3.11+; the annotation is only read by tools

__all__ = [
    "EnvEntry",
    "EnvLoader",
    "MissingDependency",
    "declare",
    "undeclare",
    "list_envs",
    "get_entry",
    "families",
    "family_folder",
    "entry_status",
    "extra_installed",
    "reads_whole_replies",
    "install_hint",
    "CATEGORIES",
]

_ENTRIES: dict[str, EnvEntry] = {}
_FAMILIES: dict[str, Family] = {}

_STEP_LIMIT = WrapperSpec(
    name="StepLimit",
    entry_point="agentgym_text.core.step_limit:StepLimit",
    kwargs={"max_steps": None},
)


class MissingDependency(ImportError):
    """An env's optional engine is not installed; the message names the extra that installs it."""


def install_hint(env_id: str, extra: str) -> str:
    return f"{env_id} needs the '{extra}' extra: pip install 'agentgym-text[{extra}]'"


@dataclass(frozen=True)
class EnvLoader:
    """The entry point gymnasium calls: imports the env class only then, and turns a missing optional engine
    into one line naming the extra (instead of a bare ``ModuleNotFoundError`` from deep inside)."""

    entry_point: str
    env_id: str
    extra: str
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __call__(self, **kwargs):
        module_name, _, class_name = self.entry_point.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and not error.name.startswith("agentgym_text") and self.extra != "core":
                raise MissingDependency(
                    f"{install_hint(self.env_id, self.extra)} (missing module {error.name!r})"
                ) from error
            raise
        return getattr(module, class_name)(**kwargs)


def extra_installed(extra: str) -> bool:
    """Whether every package the project's ``extra`` asks for is installed ("core" always is)."""
    if extra == "core":
        return True
    from importlib import metadata

    from packaging.requirements import Requirement

    try:
        requirements = metadata.requires("agentgym-text") or []
    except metadata.PackageNotFoundError:
        return True
    for line in requirements:
        requirement = Requirement(line)
        if requirement.marker is None or not requirement.marker.evaluate({"extra": extra}):
            continue
        try:
            metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            return False
    return True


@dataclass(frozen=True)
class EnvEntry:
    """One registered id: its own declaration (``spec``) and its family's (``declaration``)."""

    spec: EnvId
    declaration: Family

    @property
    def env_id(self) -> str:
        return self.spec.env_id

    @property
    def family(self) -> str:
        return self.declaration.name

    @property
    def category(self) -> str:
        return self.declaration.category

    @property
    def task_count(self) -> int:
        return self.spec.task_count

    @property
    def description(self) -> str:
        return self.spec.description

    @property
    def subskill_weights(self) -> Mapping[str, int]:
        return self.spec.subskill_weights

    @property
    def subskill_source(self) -> str:
        return self.spec.subskill_source

    @property
    def max_steps(self) -> int | None:
        return self.spec.max_steps

    @property
    def agentboard_task(self) -> str | None:
        return self.spec.agentboard_task

    @property
    def agentbench_task(self) -> str | None:
        return self.spec.agentbench_task

    @property
    def requires(self) -> str:
        return self.declaration.requires

    @property
    def thread_safe(self) -> bool:
        return self.declaration.thread_safe

    @property
    def whole_replies(self) -> bool:
        return self.declaration.whole_replies

    @property
    def threads_share(self) -> Mapping[str, Any]:
        return self.declaration.threads_share

    @property
    def text_formats(self) -> tuple[str, ...]:
        return self.declaration.text_formats

    @property
    def difficulty(self) -> DifficultyRule:
        return self.declaration.difficulty

    @property
    def train_split(self) -> TrainSplit:
        return self.declaration.train_split

    def missing_setting(self) -> str | None:
        """What the env still needs before ``gym.make`` without kwargs can work (a program, a setting), or None."""
        family = self.declaration
        absent = [name for name in family.programs if shutil.which(name) is None]
        if absent:
            return f"the program(s) {', '.join(absent)} (`make system` installs them)"
        if family.setting and not os.environ.get(family.setting):
            return f"{family.setting_help or 'a setting'} (set {family.setting})"
        return None


def entry_status(entry: EnvEntry) -> str:
    """ "installed", or what is missing: the extra to install, or a program or setting the family needs."""
    if not extra_installed(entry.requires):
        return f"not installed: pip install 'agentgym-text[{entry.requires}]'"
    missing = entry.missing_setting()
    return f"needs {missing}" if missing else "installed"


def declare(family: Family) -> None:
    """Register every id of ``family`` with gymnasium (each wrapped in ``StepLimit`` with the per-task budget)."""
    previous = _FAMILIES.get(family.name)
    if previous is not None and previous != family:
        raise ValueError(f"family {family.name!r} is declared twice, differently")
    for spec in family.ids:
        owner = _ENTRIES.get(spec.env_id)
        if owner is not None and owner.family != family.name:
            raise ValueError(f"{spec.env_id} is declared by the families {owner.family!r} and {family.name!r}")
        if spec.env_id not in gym.registry:
            gym.register(
                id=spec.env_id,
                entry_point=EnvLoader(spec.entry_point, spec.env_id, family.requires),
                kwargs=dict(spec.kwargs),
                max_episode_steps=spec.max_steps,
                additional_wrappers=(_STEP_LIMIT,),
                # The contract suite runs gymnasium's full checker on every id; the passive one breaks the env for
                # good when a first reset raises (a bad task_id): it then fails the next step with a TypeError.
                disable_env_checker=True,
            )
        _ENTRIES[spec.env_id] = EnvEntry(spec, family)
    _FAMILIES[family.name] = family


def undeclare(name: str) -> None:
    """Remove a declared family and its ids (from gymnasium's registry too); an unknown name is ignored."""
    family = _FAMILIES.pop(name, None)
    for spec in family.ids if family else ():
        _ENTRIES.pop(spec.env_id, None)
        gym.registry.pop(spec.env_id, None)


def get_entry(env_id: str) -> EnvEntry:
    """The entry of a registered id; ``KeyError`` naming it otherwise."""
    try:
        return _ENTRIES[env_id]
    except KeyError:
        raise KeyError(f"unknown env id {env_id!r}; `agentgym-text list` shows them") from None


def families() -> list[Family]:
    """Every declared family, sorted by name."""
    return [_FAMILIES[name] for name in sorted(_FAMILIES)]


def family_folder(name: str) -> Traversable | None:
    """The folder of the declared family ``name``, which holds its data files (``prompt.json``): the package of
    its env's entry point (the recipe puts ``env.py`` in the family's folder). None when no such family is declared.

    >>> family_folder("mastermind").joinpath("prompt.json").is_file(), family_folder("no-such-family")
    (True, None)
    """
    family = _FAMILIES.get(name)
    if family is None:
        return None
    module = family.ids[0].entry_point.partition(":")[0]
    return resources.files(module.rpartition(".")[0])


def reads_whole_replies(env_id: str) -> bool:
    """Whether agents should send ``env_id`` a model's whole reply (see ``EnvEntry.whole_replies``)."""
    entry = _ENTRIES.get(env_id)
    return bool(entry and entry.whole_replies)


def list_envs() -> list[EnvEntry]:
    """Every id this package registers, sorted by id."""
    return [_ENTRIES[key] for key in sorted(_ENTRIES)]
