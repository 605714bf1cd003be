"""Expert demonstrations per second per family on one core, and the size of 10,000 episodes on disk.

For each id, ``agentgym-text demos`` (``integrations.demos.make_demos``) plays ``--episodes`` training instances with
one slot (``--num-envs 1``, in this process) into a fresh folder under the ``ours`` protocol, and the script prints:
episodes/s (wall clock, including the plan's env construction and writing the files), the CPU time of the process
per episode (``time.process_time``: steadier than the wall on a shared machine), rows per episode, and the bytes of
``demos.jsonl`` per episode and extrapolated to 10,000 episodes (a linear extrapolation from the measured sample: rows
and their lengths depend on the instances drawn, so a small sample is a rough figure). The run folder also holds the
eval files (``episodes.jsonl``, ``trajectories.jsonl``) and ``dialogues.jsonl``: their bytes are printed too.

    .venv/bin/python benchmarks/demos.py [--episodes 20] [--envs ID,ID] [--protocol ours]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from agentgym_text.integrations.demos import DEMOS, DemoConfig, make_demos

__all__ = ["main"]

DEFAULT_ENVS = "AgentQuest/Mastermind-v0,AgentQuest/Sudoku-v0,AgentBoard/BabyAI-v0,AgentBoard/PDDL-v0"
EXTRAPOLATE_TO = 10_000


def _measure(env_id: str, episodes: int, protocol: str, folder: Path) -> dict[str, float]:
    started, cpu = time.perf_counter(), time.process_time()
    result = make_demos(DemoConfig(envs=[env_id], episodes=episodes, protocol=protocol, progress_bar=False), folder)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    played = max(1, result.episodes)
    demos = (folder / DEMOS).stat().st_size
    everything = sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
    return {
        "episodes": result.episodes,
        "solved": result.solved,
        "eps_per_s": result.episodes / wall,
        "cpu_ms": 1000 * cpu / played,
        "rows_per_ep": result.rows / max(1, result.written),
        "kb_per_ep": demos / max(1, result.written) / 1024,
        "demos_gb": demos / max(1, result.written) * EXTRAPOLATE_TO / 1e9,
        "folder_gb": everything / played * EXTRAPOLATE_TO / 1e9,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=20, help="training instances per id (default 20)")
    parser.add_argument("--envs", default=DEFAULT_ENVS, help="comma-separated ids")
    parser.add_argument("--protocol", default="ours", help="ours (agentboard/agentbench need a checkout)")
    args = parser.parse_args(argv)
    print(
        f"{'env id':<28} {'eps':>4} {'solved':>6} {'eps/s':>7} {'cpu ms/ep':>9} {'rows/ep':>7} {'KiB/ep':>7} "
        f"{'demos.jsonl 10k eps':>19} {'folder 10k eps':>14}"
    )
    with tempfile.TemporaryDirectory() as root:
        for env_id in [part.strip() for part in args.envs.split(",") if part.strip()]:
            row = _measure(env_id, args.episodes, args.protocol, Path(root) / env_id.replace("/", "_"))
            print(
                f"{env_id:<28} {row['episodes']:>4} {row['solved']:>6} {row['eps_per_s']:>7.1f} "
                f"{row['cpu_ms']:>9.0f} {row['rows_per_ep']:>7.1f} {row['kb_per_ep']:>7.0f} "
                f"{row['demos_gb']:>16.2f} GB {row['folder_gb']:>11.2f} GB"
            )
    print(f"(10k figures: linear extrapolation from {args.episodes} episodes per id)")


if __name__ == "__main__":
    main()
