"""AgentBench's ALFWorld split files (``data/alfworld/{standard,dev}.json``): ``{task type: [game paths]}``.

Each path is relative to the ALFWorld data root (``$ALFWORLD_DATA``), e.g.
``json_2.1.1/valid_unseen/<task>/<trial>/game.tw-pddl``; ``task_file=`` names the split and ``game_dir=`` the root.
Tasks keep the file's order; ids are AgentBoard's ``task/trial`` names. Every game is read once when the env is
made, so a missing file, a game the engine cannot play (sliced objects, movable receptacles) or a malformed split
is an error naming it then, never during an episode.
"""

from __future__ import annotations

import json
from pathlib import Path

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.alfworld.registration import FAMILY

__all__ = ["split_tasks", "SplitFileError", "AGENTBENCH_TYPES"]

AGENTBENCH_TYPES = (
    "pick_and_place",
    "pick_clean_then_place",
    "pick_heat_then_place",
    "pick_cool_then_place",
    "look_at_obj",
    "pick_two_obj",
)
"""The split files' keys, in their order; a game's folder name starts with its key (AgentBench picks the one-shot
example by that prefix)."""


class SplitFileError(ValueError):
    """A split file or one of its games cannot be used; the message names the file and the entry."""


def _entries(task_file: Path) -> list[str]:
    try:
        data = json.loads(task_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SplitFileError(
            f"{task_file}: no such file (AgentBench's data/alfworld/standard.json or dev.json)"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SplitFileError(f"{task_file}: not a JSON file ({error})") from None
    if not isinstance(data, dict) or not data:
        raise SplitFileError(f"{task_file}: expected {{task type: [game paths]}}, as AgentBench's split files are")
    paths = []
    for key, games in data.items():
        if not isinstance(games, list) or not all(isinstance(game, str) and game for game in games):
            raise SplitFileError(f"{task_file}: {key!r} must map to a list of game paths")
        paths.extend(games)
    if not paths:
        raise SplitFileError(f"{task_file}: the split names no games")
    return paths


def split_tasks(task_file: str | Path, game_dir: str | Path | None, max_steps: int) -> TaskSet:
    """One task per game of the split, in file order, each with ``max_steps``."""
    from agentgym_text.envs.alfworld.downloaded import UnsupportedGame, task_name, world_from_game
    from agentgym_text.envs.alfworld.subgoals import subgoal_count

    task_file = Path(task_file).expanduser()
    if game_dir is None:
        raise SplitFileError(
            f"task_file={str(task_file)!r} needs game_dir=, the ALFWorld data root its paths are relative to "
            "(AgentBench's $ALFWORLD_DATA, holding json_2.1.1/)"
        )
    root = Path(game_dir).expanduser()
    tasks = []
    for relative in _entries(task_file):
        if Path(relative).is_absolute() or ".." in Path(relative).parts:
            raise SplitFileError(f"{task_file}: {relative!r} is not a path inside game_dir")
        game_file = root / relative
        if not game_file.is_file() or not (game_file.parent / "traj_data.json").is_file():
            raise SplitFileError(
                f"{task_file}: {relative!r}: no game.tw-pddl with traj_data.json at {game_file.parent} "
                f"(game_dir={str(root)!r} must be the ALFWorld data root)"
            )
        if "movable" in str(game_file.parent) or "Sliced" in str(game_file.parent):
            raise SplitFileError(
                f"{task_file}: {relative!r}: the engine cannot play games with movable receptacles or sliced "
                "objects (ALFWorld's own listing skips them too)"
            )
        alfworld_type = game_file.parent.parent.name.split("-", 1)[0]
        if not alfworld_type.startswith(AGENTBENCH_TYPES):
            raise SplitFileError(f"{task_file}: {relative!r}: the folder names no ALFWorld task type")
        try:
            world = world_from_game(game_file)
        except UnsupportedGame as error:
            raise SplitFileError(f"{task_file}: {relative!r}: {error}") from None
        except (OSError, ValueError, KeyError, StopIteration) as error:
            raise SplitFileError(f"{task_file}: {relative!r}: not a readable ALFWorld game ({error!r})") from None
        tasks.append(
            TaskSpec(
                task_id=task_name(game_file),
                params={"game_file": str(game_file), "alfworld_type": alfworld_type},
                goal=world["goal"]["sentence"] + "." if world["goal"]["sentence"] else "",
                difficulty=FAMILY.difficulty.label(subgoal_count(alfworld_type)),
                max_steps=max_steps,
            )
        )
    names = [task.task_id for task in tasks]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise SplitFileError(f"{task_file}: games named twice: {', '.join(repeated)}")
    return TaskSet(tasks)
