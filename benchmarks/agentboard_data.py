"""AgentBoard's data folder on the AgentBoard ids: per task, the instances loaded, the difficulty labels that agree
with this package's own, and progress agreement with AgentBoard's rule on recorded trajectories.

Progress agreement needs trajectories recorded from AgentBoard's own env fed the same data folder: each reference
recorder (``tests/reference/record_<family>.py --record --data DIR --progress-out OUT``) writes
``OUT/<task>.json`` = ``{"episodes": [{"task_id": ..., "actions": [...], "progress": [...]}]}`` with AgentBoard's
progress after each action. This script replays the actions on our env made with ``agentboard_data=DIR`` and
counts the steps (and the episodes' final values) whose progress equals AgentBoard's.

Run: .venv/bin/python benchmarks/agentboard_data.py --data DIR [--recorded OUT] [--ids AgentBoard/BabyAI-v0,...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

# benchmarks/alfworld.py would shadow the alfworld package: keep this folder off the path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import gymnasium as gym  # noqa: E402

import agentgym_text  # noqa: F401,E402  (registers the ids)
from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError  # noqa: E402
from agentgym_text.core.registry import entry_status, get_entry, list_envs  # noqa: E402

__all__ = ["difficulty_agreement", "progress_agreement"]


def _tasks(env_id: str, **kwargs) -> list:
    env = gym.make(env_id, **kwargs)
    try:
        return list(env.unwrapped.tasks)
    finally:
        env.close()


def difficulty_agreement(env_id: str, folder: Path) -> tuple[int, int, int]:
    """(instances loaded, instances that are also ours, of those whose difficulty label equals ours)."""
    theirs = _tasks(env_id, agentboard_data=str(folder))
    ours = {task.task_id: task.difficulty for task in _tasks(env_id)}
    shared = [task for task in theirs if task.task_id in ours]
    return len(theirs), len(shared), sum(task.difficulty == ours[task.task_id] for task in shared)


def progress_agreement(env_id: str, folder: Path, recorded: Path, fixes: bool = False) -> tuple[int, int, int, int]:
    """(steps agreeing, steps, episodes whose final progress agrees, episodes) on the recorded trajectories, with
    AgentBoard's metric bugs kept (``agentboard_fixes=False``, where the id speaks AgentBoard's text) unless
    ``fixes``."""
    episodes = json.loads(recorded.read_text())["episodes"]
    kwargs = {} if fixes or "agentboard" not in get_entry(env_id).text_formats else {"agentboard_fixes": False}
    env = gym.make(env_id, agentboard_data=str(folder), max_episode_steps=10_000, **kwargs)
    steps = agree = final_agree = 0
    try:
        for episode in episodes:
            env.reset(seed=0, options={"task_id": episode["task_id"]})
            progress = 0.0
            for action, expected in zip(episode["actions"], episode["progress"], strict=True):
                _, _, terminated, truncated, info = env.step(action)
                progress = info["progress_rate"]
                steps += 1
                agree += abs(progress - expected) < 1e-9
                if terminated or truncated:
                    break
            final = episode["progress"][-1] if episode["progress"] else 0.0
            final_agree += abs(progress - final) < 1e-9
    finally:
        env.close()
    return agree, steps, final_agree, len(episodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="AgentBoard's data folder (<task>/test.jsonl)")
    parser.add_argument("--recorded", type=Path, default=None, help="folder of <task>.json recordings (see above)")
    parser.add_argument("--fixes", action="store_true", help="compare with agentboard_fixes on (default: off)")
    parser.add_argument("--ids", default="", help="comma-separated AgentBoard ids (default: every installed one)")
    args = parser.parse_args()
    os.environ.pop(SETTING, None)  # "ours" means made without the data folder
    wanted = {name.strip() for name in args.ids.split(",") if name.strip()}
    print(f"{'id':28} {'task':15} {'loaded':>7} {'own labels = file':>18} {'progress: steps agree':>22} {'final':>9}")
    for entry in list_envs():
        if not entry.agentboard_task or (wanted and entry.env_id not in wanted):
            continue
        task_file = args.data / entry.agentboard_task / "test.jsonl"
        status = entry_status(entry)
        if status != "installed" or not task_file.is_file():
            print(
                f"{entry.env_id:28} {entry.agentboard_task:15} skipped: {status if status != 'installed' else 'no ' + str(task_file)}"
            )
            continue
        try:
            loaded, shared, same = difficulty_agreement(entry.env_id, args.data)
        except AgentBoardDataError as error:
            print(f"{entry.env_id:28} {entry.agentboard_task:15} refused: {error}")
            continue
        progress = "-"
        final = "-"
        recording = args.recorded / f"{entry.agentboard_task}.json" if args.recorded else None
        if recording is not None and recording.is_file():
            agree, steps, final_agree, episodes = progress_agreement(entry.env_id, args.data, recording, args.fixes)
            progress, final = f"{agree}/{steps}", f"{final_agree}/{episodes}"
        print(
            f"{entry.env_id:28} {entry.agentboard_task:15} {loaded:>7} {f'{same}/{shared}':>18} {progress:>22} {final:>9}"
        )


if __name__ == "__main__":
    main()
