"""ScienceWorld throughput and footprint: text env vs raw ``scienceworld``, JVM start time, RSS per instance.

Run: ``python benchmarks/scienceworld.py [--repeats 3] [--task-index 0] [--text-format agentboard|clear]``; ``--memory-episodes 300`` measures the
JVM's RSS along 300 episodes instead, with the env's default JVM recycling (``--jvm-restart-every`` /
``--jvm-max-rss-mib`` change it, 0 turns it off); ``--takeover 5`` plays 5 random admissible actions on every
shipped task and then lets the expert finish; ``--shared-jvm 1 8 32 [--jvm own|shared] [--episodes 3]`` measures
the memory of N envs in this process, a JVM each or sharing one; ``--swap-cost`` times a pool's switch between two
simulators; ``--format-ratio 0 30 70 --repeats 5`` compares the time a step of AgentBoard's text with clear's,
task by task.

All loops replay the same gold path from reset, interleaved. The text env, "raw" ``ScienceWorldEnv.step`` (what
AgentBoard calls) and "raw server.step" (the bare simulator call, the floor any wrapper can reach) share the env's
JVM; a second JVM started with default options (identity hashes not pinned) measures what determinism costs.
The text env skips the per-step valid-action listing the raw ``step`` does, so it can be faster than raw.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# This file's name shadows the `scienceworld` package when run as a script: drop its folder from the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE] + [os.path.dirname(_HERE)]

import gymnasium as gym  # noqa: E402

import agentgym_text  # noqa: F401,E402
from agentgym_text.envs.scienceworld.tasks import load_instances  # noqa: E402


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc: the JVM's, all its threads)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _timed(play) -> float:
    started = time.perf_counter()
    play()
    return time.perf_counter() - started


def memory_over_episodes(episodes: int, restart_every: int | None, max_rss_mib: float | None, every: int = 10) -> None:
    """JVM RSS of one env along ``episodes`` gold-path episodes over the shipped tasks, JVM recycled as told."""
    instances = load_instances()
    kwargs = {"jvm_restart_every": restart_every, "jvm_max_rss_mib": max_rss_mib}
    env = gym.make("AgentBoard/ScienceWorld-v0", **{k: v for k, v in kwargs.items() if v != "default"})
    text_env = env.unwrapped
    print(
        f"{episodes} gold-path episodes over the shipped tasks in one env: jvm_restart_every="
        f"{text_env.jvm_restart_every}, jvm_max_rss_mib={text_env.jvm_max_rss_mib}"
    )
    started = time.perf_counter()
    peak, failures, steps = 0.0, 0, 0
    for episode in range(episodes):
        index = (episode * 7) % len(instances)  # a spread of task types
        env.reset(options={"task_index": index})
        for action in instances[index]["gold_actions"]:
            *_, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        failures += not info["success"]
        rss = text_env.jvm_rss_mib
        peak = max(peak, rss)
        if (episode + 1) % every == 0:
            print(
                f"after {episode + 1:3d} episodes: JVM RSS {rss:5.0f} MiB (peak so far {peak:5.0f}), "
                f"{text_env.jvm_restarts} restarts, {time.perf_counter() - started:6.0f} s",
                flush=True,
            )
    elapsed = time.perf_counter() - started
    print(
        f"{episodes} episodes, {steps} steps in {elapsed:.0f} s ({steps / elapsed:.1f} steps/s incl. resets and "
        f"restarts); JVM restarts {text_env.jvm_restarts}; peak RSS {peak:.0f} MiB; episodes without success "
        f"{failures}"
    )
    env.close()


def expert_takeover(random_steps: int) -> None:
    """Every shipped task once: ``random_steps`` random admissible actions (seed = task index), then the expert."""
    import numpy as np

    env = gym.make("AgentBoard/ScienceWorld-v0")
    tally: dict[str, int] = {}
    for index, task_id in enumerate(env.unwrapped.task_ids):
        rng = np.random.default_rng(index)
        env.reset(options={"task_id": task_id})
        outcome = ""
        for _ in range(random_steps):
            actions = env.unwrapped.admissible_actions()
            *_, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
            if terminated or truncated:
                outcome = "ended by the random actions"
                break
        while not outcome:
            action = env.unwrapped.expert_action()
            if action is None:
                outcome = "expert gave up (reason logged)"
                break
            *_, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                outcome = "expert succeeded" if info["success"] else "expert failed"
        tally[outcome] = tally.get(outcome, 0) + 1
    env.close()
    handed = sum(count for outcome, count in tally.items() if outcome.startswith("expert"))
    print(f"{len(env.unwrapped.task_ids)} tasks, {random_steps} random admissible actions, then the expert:")
    for outcome, count in sorted(tally.items()):
        print(f"  {outcome:32s} {count:3d}")
    print(f"expert recovers {tally.get('expert succeeded', 0)} of the {handed} episodes handed to it")


AGENTBOARD_CALLS = (
    "step",
    "getScore",
    "getCompleted",
    "getNumMoves",
    "freeActionLook",
    "freeActionInventory",
    "freeActionTaskDesc",
    "getValidActionObjectCombinations",
    "getValidActionObjectCombinationsJSON",
)
"""The simulator calls of one step in AgentBoard's text: scienceworld's ``step`` and AgentBoard's validity listing."""


def agentboard_calls(task_indices: list[int], steps: int) -> None:
    """Wall time of each simulator call of an AgentBoard-text step along gold paths, whether the first (unread)
    listing changes what follows (the same path replayed without it, observations and listings compared), and the
    same step made in one call inside the JVM (``jvm_calls``), compared with the simulator's own calls."""
    import collections

    from agentgym_text.envs.scienceworld.engine import Combinations
    from agentgym_text.envs.scienceworld.jvm_calls import helper_for

    instances = load_instances()
    env = gym.make("AgentBoard/ScienceWorld-v0")
    wall: dict[str, float] = collections.defaultdict(float)
    cpu: dict[str, float] = collections.defaultdict(float)
    count = 0
    differ = {"observations": 0, "listings": 0, "in_jvm": 0}
    for index in task_indices:
        gold = instances[index]["gold_actions"][:steps]
        runs = []
        for with_first_listing in (True, False):
            env.reset(options={"task_index": index})
            server = env.unwrapped._engine._sim.server
            # the CPU time of the JVM thread serving this Python thread's py4j calls: what the load does not change
            threads = env.unwrapped._engine._sim._gateway.jvm.java.lang.management.ManagementFactory.getThreadMXBean()
            observations, listings = [], []
            for action in gold:
                for name in AGENTBOARD_CALLS:
                    if name == "getValidActionObjectCombinations" and not with_first_listing:
                        continue
                    started, cpu_started = time.perf_counter(), threads.getCurrentThreadCpuTime()
                    value = server.step(action) if name == "step" else getattr(server, name)()
                    if with_first_listing:  # the times of AgentBoard's own sequence only
                        wall[name] += time.perf_counter() - started
                        cpu[name] += (threads.getCurrentThreadCpuTime() - cpu_started) / 1e9
                    if name == "step":
                        observations.append(str(value))
                    elif name == "getValidActionObjectCombinationsJSON":
                        listings.append(str(value))
                count += with_first_listing
            runs.append((observations, listings))
        env.reset(options={"task_index": index})
        sim = env.unwrapped._engine._sim
        helper = helper_for(sim)
        if helper is not None:
            for action, observation, listing in zip(gold, *runs[0]):
                started, cpu_started = time.perf_counter(), threads.getCurrentThreadCpuTime()
                text, _, _, combinations = helper.step_then_list(sim.server, action)
                wall["in_jvm"] += time.perf_counter() - started
                cpu["in_jvm"] += (threads.getCurrentThreadCpuTime() - cpu_started) / 1e9
                ours, theirs = list(Combinations(combinations)), list(Combinations(listing))
                differ["in_jvm"] += (text, ours) != (observation, theirs)
        differ["observations"] += sum(a != b for a, b in zip(runs[0][0], runs[1][0]))
        differ["listings"] += sum(a != b for a, b in zip(runs[0][1], runs[1][1]))
    env.close()
    print(f"simulator calls of one AgentBoard-text step, tasks {task_indices}, {steps} gold actions each")
    print(f"  {'ms a call':40s} {'wall':>7s} {'JVM CPU':>8s}")
    for name in AGENTBOARD_CALLS:
        print(f"  {name:40s} {wall[name] / count * 1000:7.2f} {cpu[name] / count * 1000:8.2f}")
    total_wall, total_cpu = (sum(times[name] for name in AGENTBOARD_CALLS) / count * 1000 for times in (wall, cpu))
    print(f"  {'total':40s} {total_wall:7.2f} {total_cpu:8.2f}")
    print(
        f"without the first (unread) listing: {differ['observations']} of {count} observations and "
        f"{differ['listings']} of {count} validity listings differ"
    )
    if "in_jvm" in wall:
        print(
            f"  {'in one call (AgentBoardCalls.stepThenList)':40s} {wall['in_jvm'] / count * 1000:7.2f} {cpu['in_jvm'] / count * 1000:8.2f}"
        )
        print(
            f"the in-JVM step: {differ['in_jvm']} of {count} steps differ from the calls above (observation or listing)"
        )
    else:
        print("the in-JVM step is not available here (no javac): the env makes the calls above")
    print("JVM CPU: the CPU time of the JVM thread that serves the calls (garbage collection and JIT not included)")


def format_ratio(task_indices: list[int], repeats: int) -> None:
    """AgentBoard's text against the clear format: an env of each in this process, each task's gold path played
    by both in turn ``repeats`` times after a warm-up; per task the median wall time a step and the median CPU time a
    step (this process and the env's JVM, all its threads: steadier than wall time on a loaded machine)."""
    import statistics

    instances = load_instances()
    envs = {name: gym.make("AgentBoard/ScienceWorld-v0", text_format=name) for name in ("clear", "agentboard")}

    def a_step(env: gym.Env, index: int) -> tuple[float, float]:
        env.reset(options={"task_index": index})
        pid = env.unwrapped.jvm_pid
        steps, started = 0, time.perf_counter()
        cpu_started = time.process_time() + _cpu_seconds(pid)
        for action in instances[index]["gold_actions"]:
            *_, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        cpu = time.process_time() + _cpu_seconds(pid) - cpu_started
        return (time.perf_counter() - started) / steps, cpu / steps

    print(f"AgentBoard's text against clear: gold paths, median of {repeats} runs after a warm-up, ms a step")
    print(
        f"  {'task':50s} {'wall: clear':>11s} {'agentboard':>10s} {'ratio':>5s}   {'CPU: clear':>10s} "
        f"{'agentboard':>10s} {'ratio':>5s}"
    )
    totals = [0.0, 0.0, 0.0, 0.0]
    for index in task_indices:
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
        for run in range(repeats + 1):
            for name, env in envs.items():
                measured = a_step(env, index)
                if run:
                    times[name].append(measured)
        medians = [statistics.median(t[k] for t in times[name]) * 1000 for k in (0, 1) for name in envs]
        totals = [total + median for total, median in zip(totals, medians)]
        label = f"{index} {instances[index]['task_name']}"
        print(_ratio_row(label, medians))
    print(_ratio_row("all (sums of the medians)", totals))
    for env in envs.values():
        env.close()


def _ratio_row(label: str, medians: list[float]) -> str:
    wall_clear, wall_agentboard, cpu_clear, cpu_agentboard = medians
    return (
        f"  {label:50s} {wall_clear:11.2f} {wall_agentboard:10.2f} {wall_agentboard / wall_clear:5.2f}   "
        f"{cpu_clear:10.2f} {cpu_agentboard:10.2f} {cpu_agentboard / cpu_clear:5.2f}"
    )


def shared_jvm_memory(counts: list[int], episodes: int, jvm: str, text_format: str) -> None:
    """N envs in this process, with a JVM each (``jvm="own"``) or one pool's JVM (``"shared"``), each playing
    ``episodes`` gold-path episodes (every env a different task, the envs stepping in turn so that every world is
    live at once); then RSS/PSS of this process and its JVMs against the same before the envs were made."""
    from agentgym_text.envs.scienceworld.pool import JvmPool
    from benchmarks.scale import memory_tree_mib

    instances = load_instances()
    print(f"{episodes} gold-path episodes per env, text_format={text_format}, jvm={jvm}; memory of this process tree")
    print(f"{'envs':>4s} {'JVMs':>4s} {'PSS MiB':>8s} {'PSS/env':>8s} {'RSS MiB':>8s} {'steps/s':>8s} {'cpu s':>6s}")
    for count in counts:
        rss0, pss0 = memory_tree_mib(os.getpid())
        pool = JvmPool() if jvm == "shared" else "own"
        envs = [gym.make("AgentBoard/ScienceWorld-v0", text_format=text_format, jvm=pool) for _ in range(count)]
        steps, started, cpu = 0, time.perf_counter(), time.process_time()
        try:
            for episode in range(episodes):
                plays = []
                for number, env in enumerate(envs):
                    index = (number * 7 + episode * 13) % len(instances)
                    env.reset(options={"task_index": index})
                    plays.append(list(instances[index]["gold_actions"]))
                while any(plays):
                    for env, gold in zip(envs, plays):
                        if gold:
                            *_, terminated, truncated, _ = env.step(gold.pop(0))
                            steps += 1
                            if terminated or truncated:
                                gold.clear()
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            rss, pss = memory_tree_mib(os.getpid())
            jvms = len({env.unwrapped.jvm_pid for env in envs})
        finally:
            for env in envs:
                env.close()
        print(
            f"{count:4d} {jvms:4d} {pss - pss0:8.0f} {(pss - pss0) / count:8.0f} {rss - rss0:8.0f} "
            f"{steps / elapsed:8.1f} {cpu:6.1f}",
            flush=True,
        )


def swap_cost(calls: int = 200) -> None:
    """Time to give a pool's JVM another simulator's globals, against a call on the simulator already in place."""
    from agentgym_text.envs.scienceworld.pool import JvmPool

    pool = JvmPool()
    first, second = pool.simulator(), pool.simulator()
    for simulator in (first, second):
        simulator.load("boil", 0, "openDoors,openContainers")
    jvm = first.jvm
    wall, cpu = time.perf_counter(), time.process_time()
    for number in range(calls):
        with jvm.lock:
            jvm.activate(second if number % 2 else first)
    print(
        f"switching simulators: {(time.perf_counter() - wall) / calls * 1000:.3f} ms wall, "
        f"{(time.process_time() - cpu) / calls * 1000:.3f} ms CPU in Python"
    )
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        first.server.getNumMoves()
    print(
        f"a call on the simulator in place: {(time.perf_counter() - wall) / calls * 1000:.3f} ms wall, "
        f"{(time.process_time() - cpu) / calls * 1000:.3f} ms CPU in Python"
    )
    first.close()
    second.close()


def _optional(value: str) -> float | str | None:
    return "default" if value == "default" else (None if float(value) == 0 else float(value))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--task-index", type=int, default=0)
    parser.add_argument(
        "--text-format",
        choices=("agentboard", "clear"),
        default="agentboard",
        help="the env's text: AgentBoard's (its simulator calls every step) or this package's",
    )
    parser.add_argument("--memory-episodes", type=int, default=0, help="only measure RSS along this many episodes")
    parser.add_argument(
        "--jvm-restart-every",
        type=_optional,
        default="default",
        help="episodes per JVM in the memory mode (0: never restart; default: the env's default)",
    )
    parser.add_argument(
        "--jvm-max-rss-mib",
        type=_optional,
        default="default",
        help="RSS limit in the memory mode (0: none; default: the env's default)",
    )
    parser.add_argument(
        "--takeover",
        type=int,
        default=0,
        metavar="N",
        help="only measure the expert taking over after N random actions on every shipped task",
    )
    parser.add_argument(
        "--format-ratio",
        type=int,
        nargs="*",
        metavar="TASK_INDEX",
        help="only compare AgentBoard's text with clear on these tasks' gold paths (--repeats runs each)",
    )
    parser.add_argument(
        "--calls",
        type=int,
        nargs="*",
        metavar="TASK_INDEX",
        help="only time each simulator call of AgentBoard's step on these tasks' gold paths (25 actions each)",
    )
    parser.add_argument(
        "--shared-jvm",
        type=int,
        nargs="*",
        metavar="N",
        help="only measure the memory of N envs in this process playing --episodes gold paths each (--jvm)",
    )
    parser.add_argument("--episodes", type=int, default=3, help="episodes per env with --shared-jvm")
    parser.add_argument("--jvm", choices=("own", "shared"), default="shared", help="the envs' JVMs with --shared-jvm")
    parser.add_argument("--swap-cost", action="store_true", help="only time a pool's switch between simulators")
    args = parser.parse_args()
    if args.swap_cost:
        swap_cost()
        return
    if args.shared_jvm:
        shared_jvm_memory(args.shared_jvm, args.episodes, args.jvm, args.text_format)
        return
    if args.calls:
        agentboard_calls(args.calls, 25)
        return
    if args.format_ratio:
        format_ratio(args.format_ratio, args.repeats)
        return
    if args.takeover:
        expert_takeover(args.takeover)
        return
    if args.memory_episodes:
        restart_every = args.jvm_restart_every
        memory_over_episodes(
            args.memory_episodes,
            restart_every if restart_every in (None, "default") else int(restart_every),
            args.jvm_max_rss_mib,
        )
        return
    instance = load_instances()[args.task_index]
    gold = instance["gold_actions"]
    options = {"task_index": args.task_index}
    print(
        f"task {instance['task_name']} variation {instance['variation']}: {len(gold)} gold actions x "
        f"{args.repeats} repeats (+1 warm-up), the step loops interleaved; text_format={args.text_format}"
    )

    from scienceworld import ScienceWorldEnv

    started = time.perf_counter()
    bare = ScienceWorldEnv("", envStepLimit=10**9)  # a JVM with default options: no pinned identity hashes
    jvm_start = time.perf_counter() - started
    bare.load(instance["task_name"], instance["variation"], instance["simplifications"], generateGoldPath=False)

    python_rss_before = _rss_mib(os.getpid())
    env = gym.make("AgentBoard/ScienceWorld-v0", text_format=args.text_format)
    first_reset = _timed(lambda: env.reset(options=options))
    sim = env.unwrapped._engine._sim  # the raw scienceworld.ScienceWorldEnv inside our engine

    def play_text_env() -> None:
        for action in gold:
            *_, info = env.step(action)
        assert info["success"], "the gold path should solve the task"

    def play_raw() -> None:
        for action in gold:
            sim.step(action)

    def play_server() -> None:
        for action in gold:
            sim.server.step(action)

    def play_bare_server() -> None:
        for action in gold:
            bare.server.step(action)

    totals = {"text": 0.0, "raw": 0.0, "server": 0.0, "bare": 0.0}
    cpu = {"python": 0.0, "jvm": 0.0}
    warm_resets = []
    for repeat in range(args.repeats + 1):
        warm_resets.append(_timed(lambda: env.reset(options=options)))
        cpu_before = (time.process_time(), _cpu_seconds(env.unwrapped.jvm_pid))
        text_time = _timed(play_text_env)
        cpu_text = (time.process_time() - cpu_before[0], _cpu_seconds(env.unwrapped.jvm_pid) - cpu_before[1])
        sim.reset()
        raw_time = _timed(play_raw)
        sim.reset()
        server_time = _timed(play_server)
        bare.server.reset()
        bare_time = _timed(play_bare_server)
        if repeat:  # the first round warms the JIT up
            totals["text"] += text_time
            cpu["python"] += cpu_text[0]
            cpu["jvm"] += cpu_text[1]
            totals["raw"] += raw_time
            totals["server"] += server_time
            totals["bare"] += bare_time
    jvm_rss = _rss_mib(env.unwrapped.jvm_pid)
    python_rss_delta = _rss_mib(os.getpid()) - python_rss_before
    env.close()
    bare.close()

    fresh = gym.make("AgentBoard/ScienceWorld-v0", fresh_jvm_per_episode=True)
    fresh.reset(options=options)
    fresh_resets = [_timed(lambda: fresh.reset(options=options)) for _ in range(args.repeats)]
    for action in gold:
        fresh.step(action)
    fresh_jvm_rss = _rss_mib(fresh.unwrapped.jvm_pid)
    fresh.close()

    steps = args.repeats * len(gold)
    rate = {key: steps / value for key, value in totals.items()}
    print(f"JVM start (scienceworld.ScienceWorldEnv()):   {jvm_start:6.2f} s")
    print(f"text env first reset (JVM start + load):      {first_reset:6.2f} s")
    print(f"text env reset, JVM reused (default):         {sum(warm_resets[1:]) / args.repeats:6.2f} s")
    print(f"text env reset, fresh_jvm_per_episode=True:   {sum(fresh_resets) / len(fresh_resets):6.2f} s")
    print(f"raw ScienceWorldEnv.step:                     {rate['raw']:8.1f} steps/s")
    print(f"raw server.step (simulator call only):        {rate['server']:8.1f} steps/s")
    print(
        f"raw server.step, JVM with default options:    {rate['bare']:8.1f} steps/s  "
        f"(pinned identity hashes cost {100 * (rate['bare'] / rate['server'] - 1):+.0f}% time per step)"
    )
    print(f"text env step:                                {rate['text']:8.1f} steps/s")
    print(
        f"text env CPU per step:                        {cpu['python'] / steps * 1000:8.1f} ms Python + "
        f"{cpu['jvm'] / steps * 1000:.1f} ms JVM (all its threads; wall time depends on the machine's load)"
    )
    print(
        f"text env time per step / raw step:            {rate['raw'] / rate['text']:6.2f}x  "
        f"(overhead {100 * (rate['raw'] / rate['text'] - 1):+.0f}%; budget +20%)"
    )
    print(
        f"text env time per step / server.step:         {rate['server'] / rate['text']:6.2f}x  "
        f"(overhead {100 * (rate['server'] / rate['text'] - 1):+.0f}%)"
    )
    print(
        f"RSS per env instance: JVM {jvm_rss:.0f} MiB after {args.repeats + 1} x 3 episodes in one JVM (default), "
        f"{fresh_jvm_rss:.0f} MiB after one episode in a fresh JVM; Python {python_rss_delta:+.0f} MiB"
    )


if __name__ == "__main__":
    main()
