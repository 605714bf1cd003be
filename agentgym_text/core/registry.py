"""Registering env ids with gymnasium, plus the metadata ``list_envs()`` shows (family, category, task count).

Each family has a light ``registration.py`` that calls ``register_env`` with a string entry point, so
importing the package never imports an engine.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import gymnasium as gym
from gymnasium.envs.registration import WrapperSpec

from agentgym_text.core.info import SUBSKILLS

__all__ = [
    "EnvEntry",
    "EnvLoader",
    "MissingDependency",
    "register_env",
    "unregister_env",
    "list_envs",
    "extra_installed",
    "reads_whole_replies",
    "install_hint",
    "CATEGORIES",
    "register_all",
    "REGISTRATION_ERRORS",
]

CATEGORIES = ("embodied", "game", "web", "tool")
"""AgentBoard's task categories; every env belongs to one (AgentQuest's puzzles count as games)."""

_ENTRIES: dict[str, "EnvEntry"] = {}
REGISTRATION_ERRORS: dict[str, str] = {}
"""Families whose registration module failed to import, with the error (the suite's tests assert none)."""

_STEP_LIMIT = WrapperSpec(
    name="StepLimit",
    entry_point="agentgym_text.wrappers.step_limit:StepLimit",
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
                raise MissingDependency(f"{install_hint(self.env_id, self.extra)} (missing module {error.name!r})") from error
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
    """What ``list_envs()`` reports for one registered id."""

    env_id: str
    family: str
    category: str
    task_count: int
    requires: str
    description: str
    subskill_weights: Mapping[str, int] = field(default_factory=dict)
    """AgentBoard sub-skill -> weight (Table 7 for AgentBoard's tasks; ours, by its criteria, elsewhere)."""
    subskill_source: str = "ours"
    """Where the weights come from: "AgentBoard Table 7", or "ours" (same criteria, our judgement)."""
    max_steps: int | None = None
    """The step budget when it is the same for every task (also ``env.spec.max_episode_steps``)."""
    whole_replies: bool = False
    """The env reads a model's whole reply (its own ``Action:`` format), not one action line out of it."""
    setting: str | None = None
    """An environment variable the env needs when not given as a kwarg (e.g. the folder of game files)."""
    setting_help: str = ""
    """What that variable holds, in a few words ("Jericho game files")."""
    programs: tuple[str, ...] = ()
    """Programs the env runs (found on PATH), e.g. ``("bwrap",)``; ``make`` installs them."""
    thread_safe: bool = False
    """Several envs of this id may run in threads of one process at once (established by a test that does so);
    otherwise the runner and the other places that run envs side by side give each its own worker process."""

    def missing_setting(self) -> str | None:
        """What the env still needs before ``gym.make`` without kwargs can work (a program, a setting), or None."""
        absent = [name for name in self.programs if shutil.which(name) is None]
        if absent:
            return f"the program(s) {', '.join(absent)} (`make system` installs them)"
        if self.setting and not os.environ.get(self.setting):
            return f"{self.setting_help or 'a setting'} (set {self.setting})"
        return None


def register_env(
    env_id: str,
    entry_point: str,
    *,
    family: str,
    category: str,
    task_count: int,
    requires: str = "core",
    description: str = "",
    kwargs: dict | None = None,
    subskill_weights: Mapping[str, int] | None = None,
    subskill_source: str = "ours",
    max_steps: int | None = None,
    setting: str | None = None,
    setting_help: str = "",
    whole_replies: bool = False,
    programs: tuple[str, ...] = (),
    thread_safe: bool = False,
) -> None:
    """Register ``env_id`` with gymnasium (wrapped in ``StepLimit`` with the per-task default budget).

    A family's prompt for LLM agents (system, instruction, one in-context example) is ``prompt.json`` in the
    family's folder; ``subskill_weights`` are its AgentBoard sub-skill weights (Table 7 where the paper has
    the task). ``max_steps``, when every task has the same budget, becomes ``spec.max_episode_steps``.
    """
    if category not in CATEGORIES:
        raise ValueError(f"category must be one of {CATEGORIES}, not {category!r}")
    if subskill_weights and set(subskill_weights) != set(SUBSKILLS):
        raise ValueError(f"subskill_weights needs exactly the keys {SUBSKILLS}")
    if env_id not in gym.registry:
        gym.register(
            id=env_id,
            entry_point=EnvLoader(entry_point, env_id, requires),
            kwargs=kwargs or {},
            max_episode_steps=max_steps,
            additional_wrappers=(_STEP_LIMIT,),
            # The contract suite runs gymnasium's full checker on every id; the passive one breaks the env for
            # good when a first reset raises (a bad task_id): it then fails the next step with a TypeError.
            disable_env_checker=True,
        )
    _ENTRIES[env_id] = EnvEntry(
        env_id=env_id, family=family, category=category, task_count=task_count, requires=requires,
        description=description, subskill_weights=dict(subskill_weights or {}), subskill_source=subskill_source,
        max_steps=max_steps, whole_replies=whole_replies, setting=setting, setting_help=setting_help,
        programs=tuple(programs), thread_safe=thread_safe,
    )


def unregister_env(env_id: str) -> None:
    """Remove an id registered with ``register_env`` (from gymnasium's registry too); unknown ids are ignored."""
    _ENTRIES.pop(env_id, None)
    gym.registry.pop(env_id, None)


def reads_whole_replies(env_id: str) -> bool:
    """Whether agents should send ``env_id`` a model's whole reply (see ``EnvEntry.whole_replies``)."""
    entry = _ENTRIES.get(env_id)
    return bool(entry and entry.whole_replies)


def list_envs() -> list[EnvEntry]:
    """Every id this package registers, sorted by id."""
    register_all()
    return [_ENTRIES[key] for key in sorted(_ENTRIES)]


def register_all() -> None:
    """Import every family's ``registration`` module (each is light: no engine imports).

    A family whose registration fails is reported with a warning and left out, so one broken family does
    not take the others down; ``REGISTRATION_ERRORS`` keeps what went wrong.
    """
    import agentgym_text.envs as envs

    for module in pkgutil.iter_modules(envs.__path__):
        if not module.ispkg:
            continue
        name = f"{envs.__name__}.{module.name}.registration"
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
