"""AgentBoard/PDDL-v0 throughput against raw pddlgym, and planner time per shipped problem.

Both sides play the same random valid-action agent on the same shipped problems: each step it lists the
applicable actions (pddlgym: ``action_space.all_ground_literals``; text env: ``admissible_actions()``), picks one
uniformly, and steps; rates are per second of the stepping thread's CPU time (this machine is shared, so
wall-clock rates follow the neighbours' load). The text env also renders the observation, parses the action text,
scores progress and puts the admissible list in ``info``. pddlgym's ``PDDLEnv`` cannot load Tyreworld as is (its
``open``/``close`` operators share names with predicates, which pddlgym's operators-as-actions mode forbids), so the raw side
uses a copy with those two operators renamed; nothing else differs. No extra installs pddlgym (its gym 0.26 has no
wheel): ``pip install pddlgym==0.0.7`` (Python 3.10 or 3.11) for the raw column; without it the rest still runs.

It also prints the CPU cost of listing admissible actions, and, when ``AGENTGYM_TEXT_AGENTBOARD_PDDL`` points at a
copy of AgentBoard's ``pddlgym/pddl`` folder, how many of its problem files load and are solved by the expert
within AgentBoard's 30 steps, and the load and planning time per file.

    .venv/bin/python benchmarks/pddl.py [--steps 300] [--problems 4]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np

import agentgym_text  # noqa: F401
from agentgym_text.envs.pddl.planner import Planner
from agentgym_text.envs.pddl.problem_files import PROBLEM_DIR, domain_path, load
from agentgym_text.envs.pddl.tasks import shipped_tasks

DOMAINS = ("blocksworld", "gripper", "barman", "tyreworld")
NO_PDDLGYM = "raw pddlgym: not measured, pddlgym is not installed (pip install pddlgym==0.0.7, Python 3.10 or 3.11)"


def _raw_env(domain: str, problem_files: list[Path], workdir: Path):
    with (
        warnings.catch_warnings(),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        warnings.simplefilter("ignore")
        from pddlgym.core import PDDLEnv
    domain_text = domain_path(domain).read_text()
    if domain == "tyreworld":
        domain_text = re.sub(r"\(:action (open|close)\b", r"(:action \1-container", domain_text)
    domain_file = workdir / f"{domain}.pddl"
    domain_file.write_text(domain_text)
    problem_dir = workdir / domain
    problem_dir.mkdir()
    for path in problem_files:
        (problem_dir / path.name).write_text(path.read_text())
    with contextlib.redirect_stdout(io.StringIO()):
        return PDDLEnv(str(domain_file), str(problem_dir), operators_as_actions=True, dynamic_action_space=True)


def raw_steps_per_second(domain: str, problem_files: list[Path], steps: int, workdir: Path) -> float:
    env = _raw_env(domain, problem_files, workdir)
    rng = np.random.default_rng(0)
    total, elapsed = 0, 0.0
    for index in range(len(problem_files)):
        env.fix_problem_index(index)
        obs, _ = env.reset()
        start = time.thread_time()
        for _ in range(steps):
            actions = sorted(env.action_space.all_ground_literals(obs), key=str)
            obs, reward, done, truncated, _ = env.step(actions[int(rng.integers(len(actions)))])
            total += 1
            if done:
                obs, _ = env.reset()
        elapsed += time.thread_time() - start
    return total / elapsed


def text_steps_per_second(task_ids: list[str], steps: int) -> float:
    env = gym.make("AgentBoard/PDDL-v0", max_episode_steps=10**9).unwrapped
    rng = np.random.default_rng(0)
    total, elapsed = 0, 0.0
    for task_id in task_ids:
        env.reset(options={"task_id": task_id})
        start = time.thread_time()
        for _ in range(steps):
            actions = env.admissible_actions()
            _, _, terminated, truncated, _ = env.step(actions[int(rng.integers(len(actions)))])
            total += 1
            if terminated:
                env.reset(options={"task_id": task_id})
        elapsed += time.thread_time() - start
    return total / elapsed


def engine_steps_per_second(task_ids: list[str], steps: int) -> float:
    """Our grounded engine alone (no text): list applicable ground actions, apply one."""
    rng = np.random.default_rng(0)
    total, elapsed = 0, 0.0
    for task in shipped_tasks():
        if task.task_id not in task_ids:
            continue
        ground = load(task.params["domain"], PROBLEM_DIR / task.params["problem"]).ground
        state = ground.init
        start = time.thread_time()
        for _ in range(steps):
            actions = ground.applicable(state)
            state = actions[int(rng.integers(len(actions)))].apply(state)
            total += 1
            if ground.is_goal(state):
                state = ground.init
        elapsed += time.thread_time() - start
    return total / elapsed


def planner_times() -> list[tuple[str, float, int]]:
    rows = []
    for task in shipped_tasks():
        loaded = load(task.params["domain"], PROBLEM_DIR / task.params["problem"])
        planner = Planner(loaded.ground)  # fresh: no cached plans
        start = time.process_time()
        plan = planner.plan(loaded.ground.init)
        rows.append((task.task_id, time.process_time() - start, len(plan)))
    return rows


def listing_costs_ms(steps: int = 30) -> dict[str, list[float]]:
    """CPU time of ``admissible_actions()`` after each random valid step, per domain, on every shipped task."""
    env = gym.make("AgentBoard/PDDL-v0", list_admissible_actions=False).unwrapped
    rng = np.random.default_rng(0)
    costs: dict[str, list[float]] = {domain: [] for domain in DOMAINS}
    for task in shipped_tasks():
        env.reset(options={"task_id": task.task_id})
        for _ in range(steps):
            if env.episode_over:
                break
            start = time.thread_time()
            actions = env.admissible_actions()
            costs[task.params["domain"]].append((time.thread_time() - start) * 1000)
            env.step(actions[int(rng.integers(len(actions)))])
    return costs


def agentboard_files(root: Path) -> None:
    """Load each AgentBoard problem file with ``problem_file=`` (AgentBoard's 30 steps) and let the expert play it."""
    print(f"AgentBoard problem files under {root} (problem_file=, AgentBoard's budget of 30 steps):")
    for domain in ("gripper", "barman", "tyreworld", "blockworld"):
        files = sorted((root / domain).glob("*.pddl"))
        loaded = solved = 0
        planning: list[float] = []
        walls: list[float] = []
        for path in files:
            start, wall = time.process_time(), time.perf_counter()
            try:
                env = gym.make("AgentBoard/PDDL-v0", domain=domain, problem_file=str(path))
            except Exception as error:  # report, keep counting
                print(f"  {path.name}: does not load ({type(error).__name__}: {str(error)[:100]})")
                continue
            loaded += 1
            env.reset(seed=0)
            info: dict = {}
            while not env.unwrapped.episode_over and info.get("step", 0) < env.unwrapped.step_budget:
                _, _, _, _, info = env.step(env.unwrapped.expert_action())
            planning.append(time.process_time() - start)  # the expert plans at its first action
            walls.append(time.perf_counter() - wall)
            solved += bool(info.get("success"))
        print(
            f"  {domain:11s} {len(files):3d} files, {loaded:3d} load, {solved:3d} solved; load + plan + play CPU time "
            f"median {statistics.median(planning):.2f} s, max {max(planning):.2f} s "
            f"(wall-clock max {max(walls):.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="random steps per problem")
    parser.add_argument("--problems", type=int, default=4, help="shipped problems per domain (the last ones)")
    args = parser.parse_args()
    print(
        f"random valid-action agent, {args.steps} steps on each of the last {args.problems} shipped problems per domain"
    )
    has_pddlgym = importlib.util.find_spec("pddlgym") is not None
    if not has_pddlgym:
        print(NO_PDDLGYM)
    print(
        f"{'domain':12s} {'raw pddlgym steps/s':>20s} {'text env steps/s':>17s} {'ratio':>6s} "
        f"{'own engine (no text) steps/s':>29s}"
    )
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for domain in DOMAINS:
            tasks = [t for t in shipped_tasks(domain)][-args.problems :]
            files = [PROBLEM_DIR / t.params["problem"] for t in tasks]
            workdir = Path(tmp) / domain
            workdir.mkdir()
            raw = raw_steps_per_second(domain, files, args.steps, workdir) if has_pddlgym else float("nan")
            text = text_steps_per_second([t.task_id for t in tasks], args.steps)
            engine = engine_steps_per_second([t.task_id for t in tasks], args.steps)
            ratios.append(text / raw)
            print(f"{domain:12s} {raw:20.0f} {text:17.0f} {text / raw:6.2f} {engine:29.0f}")
    if has_pddlgym:
        print(f"minimum ratio text/raw: {min(ratios):.2f} (target >= 0.50)")
    rows = planner_times()
    times = [seconds for _, seconds, _ in rows]
    slowest = max(rows, key=lambda row: row[1])
    print(
        f"planner CPU time (fresh, from the initial state) over {len(rows)} shipped problems: median {statistics.median(times):.3f} s, "
        f"max {slowest[1]:.3f} s ({slowest[0]}, plan length {slowest[2]}), total {sum(times):.1f} s"
    )
    for domain in DOMAINS:
        domain_times = [seconds for task_id, seconds, _ in rows if f"-{domain}-" in task_id]
        print(f"  {domain:12s} median {statistics.median(domain_times):.3f} s, max {max(domain_times):.3f} s")
    for domain, costs in listing_costs_ms().items():
        costs.sort()
        print(
            f"admissible-action listing, {domain:12s}: mean {statistics.mean(costs):.3f} ms, "
            f"p95 {costs[int(0.95 * (len(costs) - 1))]:.3f} ms (CPU time, {len(costs)} states)"
        )
    root = os.environ.get("AGENTGYM_TEXT_AGENTBOARD_PDDL")
    if root:
        agentboard_files(Path(root))


if __name__ == "__main__":
    main()
