"""The BabyAI levels: AgentBoard's 28 (x 4 seeds), every level minigrid registers, and building one quietly."""

from __future__ import annotations

import logging
from functools import lru_cache

__all__ = [
    "AGENTBOARD_LEVELS",
    "AGENTBOARD_SEEDS",
    "ENGINE_VERSIONS",
    "level_name",
    "engine_id",
    "all_levels",
    "make_engine",
]

logger = logging.getLogger(__name__)

AGENTBOARD_LEVELS: tuple[str, ...] = (
    "GoToRedBallGrey", "GoToRedBall", "GoToRedBallNoDists", "GoToObjS6", "GoToLocalS8N7", "GoToObjMazeS7",
    "GoToImpUnlock", "GoToSeqS5R2", "GoToRedBlueBall", "GoToDoor", "GoToObjDoor", "Open", "OpenRedDoor",
    "OpenDoorLoc", "OpenRedBlueDoorsDebug", "OpenDoorsOrderN4Debug", "Pickup", "UnblockPickup", "PickupLoc",
    "PickupDistDebug", "PickupAbove", "Unlock", "UnlockLocalDist", "UnlockPickupDist", "BlockedUnlockPickup",
    "UnlockToUnlock", "FindObjS7", "KeyCorridorS6R3",
)  # fmt: skip
"""AgentBoard's level order (its label file is level-major, seed-minor)."""

AGENTBOARD_SEEDS: tuple[int, ...] = (1234, 1235, 1236, 1237)

ENGINE_VERSIONS = {"GoToObjS6": "v1"}
"""minigrid 3 deprecates ``BabyAI-GoToObjS6-v0`` (wrong registry parameters); ``-v1`` is its replacement."""

ENGINE_KWARGS = {"GoToObjS6": {"room_size": 4}}
"""Level parameters that reproduce AgentBoard's worlds: its GoToObjS6 is minigrid 2.3's ``-v0``, a GoToObj with
``room_size=4`` (the parameter ``-v1`` corrected to 6), so the same seeds give AgentBoard's worlds."""


def level_name(level: str) -> str:
    """ "BossLevel" from "BossLevel", "BabyAI-BossLevel-v0" or "babyai-bosslevel" (case-insensitive)."""
    text = level.strip()
    if text.lower().startswith("babyai-"):
        text = text[len("babyai-") :]
    head, _, version = text.rpartition("-v")
    if head and version.isdigit():
        text = head
    by_lower = {name.lower(): name for name in all_levels()}
    try:
        return by_lower[text.lower()]
    except KeyError:
        raise ValueError(f"unknown BabyAI level {level!r}; known levels: {', '.join(all_levels())}") from None


def engine_id(level: str) -> str:
    """minigrid's gymnasium id for a level name."""
    name = level_name(level)
    return f"BabyAI-{name}-{ENGINE_VERSIONS.get(name, 'v0')}"


def all_levels() -> list[str]:
    """Every BabyAI level name minigrid registers (sorted)."""
    return list(_level_names())


@lru_cache(maxsize=1)
def _level_names() -> tuple[str, ...]:
    import gymnasium as gym
    import minigrid  # noqa: F401  (registers the BabyAI ids)

    return tuple(
        sorted({env_id[len("BabyAI-") :].rsplit("-v", 1)[0] for env_id in gym.registry if env_id.startswith("BabyAI-")})
    )


def _generation_note(*args: object, sep: str | None = " ", **_print_options: object) -> None:
    logger.debug("minigrid: %s", (" " if sep is None else sep).join(map(str, args)))


@lru_cache(maxsize=1)
def _quiet_level_generation() -> None:
    # RoomGridLevel._gen_grid prints "Sampling rejected: ..." (and "Timeout during mission generation") to stdout
    # at every rejected sample; these prints, the module's only ones, go to our logger at DEBUG instead.
    from minigrid.envs.babyai.core import roomgrid_level

    roomgrid_level.print = _generation_note


def make_engine(level: str):
    """A bare minigrid BabyAI env (no gymnasium wrappers: the text env drives it step by step)."""
    import gymnasium as gym

    spec = gym.spec(engine_id(level))
    _quiet_level_generation()
    return spec.make(**ENGINE_KWARGS.get(level_name(level), {})).unwrapped
