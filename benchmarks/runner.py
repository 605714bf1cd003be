"""Runner overhead and throughput: the OpenAI-compatible agent against a zero-latency scripted server.

The server (a separate process, so it does not share the runner's interpreter) answers every request at once
with the Mastermind expert's guess, read from the prompt. For N = 1, 4, 16 concurrent envs it prints:
episodes/s (end to end, and without env construction), and per step the runner's own overhead (ms: wall time
minus env construction, env calls and the agent's request time), the agent's time (prompt building, HTTP
round trip through the ``openai`` client, parsing) and the env's time. The expert agent (no HTTP) is the
baseline.

With ``--latency 50,800`` it instead compares, against a server whose every reply takes a uniform random 50-800 ms,
the runner (each episode on its own: a reply steps its episode at once, a freed slot starts the next episode)
with a lock-step baseline written here (a gymnasium ``SyncVectorEnv`` stepping all sub-envs together, the agent
asked for all of them at once, so every step waits for the slowest reply): episodes/s at 16 concurrent against 1.

With ``--profile`` it plays ``--episodes`` episodes of each of ``--envs`` on ``--concurrent`` slots against the
zero-latency server (the expert's guess for Mastermind; ``--reply`` answers every request with one text instead, so
the other ids play to their step budget), prints the runner process's CPU time per step (an unprofiled run), then
profiles a second run with cProfile in every thread of the runner process (the slots' threads merged, each timed by
its own CPU clock) and prints the top functions by cumulative time, by own time, and this package's by own time.

    .venv/bin/python benchmarks/runner.py [--episodes 60] [--sizes 1,4,16]
    .venv/bin/python benchmarks/runner.py --latency 50,800 [--episodes 60] [--concurrent 16] [--single-episodes 16] [--ray]
    .venv/bin/python benchmarks/runner.py --profile [--envs ID,ID] [--reply TEXT] [--episodes 60] [--concurrent 16]
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing as mp
import pstats
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

# benchmarks/ray.py would shadow Ray for ``--ray``: keep this folder off the import path;
# the repository's root on it, for the tests' scripted policy
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.append(str(Path(__file__).resolve().parents[1]))

__all__ = ["main"]

ENV_ID = "AgentQuest/Mastermind-v0"


def _serve(
    queue: mp.Queue[str], stop: mp.Event, latency_ms: tuple[float, float] | None = None, reply: str | None = None
) -> None:
    from agentgym_text.testing.chat_server import ScriptedChatServer
    from tests.support.scripted_policies import mastermind_policy

    policy = mastermind_policy() if reply is None else (lambda messages: reply)
    if latency_ms is not None:
        rng, lock, expert = random.Random(0), threading.Lock(), policy

        def policy(messages):  # the server answers each request in its own thread: the delays overlap
            with lock:
                delay = rng.uniform(*latency_ms) / 1000
            time.sleep(delay)
            return expert(messages)

    with ScriptedChatServer(policy) as server:
        queue.put(server.base_url)
        stop.wait()


def _measure(
    agent_name: str, num_envs: int, episodes: int, base_url: str | None, vector_mode: str = "sync"
) -> dict[str, float]:
    from agentgym_text.agents import make_agent
    from agentgym_text.agents.llm_config import LLMConfig
    from agentgym_text.eval import EvalConfig, run_eval

    settings = (
        {"config": LLMConfig(model="scripted", base_url=base_url, api_key="bench")} if agent_name == "openai" else {}
    )
    agent = make_agent(agent_name, **settings)
    calls: list[float] = []
    act = agent.act

    def timed_act(turns):  # the span from the first model call to the last reply
        calls.append(time.perf_counter())
        decisions = act(turns)
        calls.append(time.perf_counter())
        return decisions

    agent.act = timed_act
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        result = run_eval(
            agent,
            EvalConfig(
                envs=ENV_ID, tasks=str(episodes), num_envs=num_envs, vector_mode=vector_mode, progress_bar=False
            ),
            Path(folder),
        )
        wall = time.perf_counter() - started
    agent.close()
    timings = result.timings
    steps = max(timings["steps"], 1.0)
    return {
        "episodes": result.finished,
        "steps": steps,
        "ep_per_s": result.finished / wall,
        "ep_per_s_no_setup": result.finished / max(wall - timings["setup_s"], 1e-9),
        "overhead_ms": 1000 * timings["overhead_s"] / steps,
        "agent_ms": 1000 * timings["agent_s"] / steps,
        "env_ms": 1000 * timings["env_s"] / steps,
        "setup_s": timings["setup_s"],
        "ep_per_s_calls": result.finished / max(max(calls) - min(calls), 1e-9) if calls else 0.0,
    }


def _lockstep(num_envs: int, episodes: int, base_url: str) -> dict[str, float]:
    """The lock-step baseline: ``num_envs`` sub-envs of a SyncVectorEnv step together; at each step the agent is
    asked for every running sub-env at once (its requests overlap) and the step waits for all replies. A sub-env
    whose episode ended is reset to the next planned episode before the next step."""
    import gymnasium as gym
    import numpy as np
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from agentgym_text.agents import make_agent
    from agentgym_text.agents.llm_config import LLMConfig
    from agentgym_text.eval.plan import plan_env, resolve_env_ids
    from agentgym_text.eval.records import EpisodeLog
    from agentgym_text.eval.runner import _turn
    from agentgym_text.eval.slots import unbatch_info
    from agentgym_text.wrappers.repetition import RepetitionTracker

    agent = make_agent("openai", config=LLMConfig(model="scripted", base_url=base_url, api_key="bench"))
    wrappers = agent.env_wrappers()

    def make() -> gym.Env:
        env = RepetitionTracker(gym.make(ENV_ID))
        for wrapper in wrappers:
            env = wrapper(env)
        return env

    plans = plan_env(resolve_env_ids(ENV_ID)[0], str(episodes))
    envs = SyncVectorEnv([make] * num_envs, autoreset_mode=AutoresetMode.DISABLED)
    running: list[EpisodeLog | None] = [None] * num_envs
    pending = list(reversed(plans))
    finished = steps = 0

    def start(index: int) -> None:
        if not pending:
            running[index] = None
            return
        plan = pending.pop()
        mask = np.zeros(num_envs, dtype=bool)
        mask[index] = True
        seeds = [plan.seed if i == index else None for i in range(num_envs)]
        obs, infos = envs.reset(seed=seeds, options={"task_id": plan.task_id, "reset_mask": mask})
        running[index] = EpisodeLog(plan)
        running[index].begin(str(obs[index]), unbatch_info(infos, index))

    started = time.perf_counter()
    for index in range(num_envs):
        start(index)
    while any(running):
        active = [i for i, episode in enumerate(running) if episode is not None]
        decisions = agent.act([_turn(i, running[i], {}) for i in active])
        actions = ["" for _ in range(num_envs)]
        for i, decision in zip(active, decisions):
            actions[i] = decision.action or ""
        # every sub-env steps (lock-step); idle ones (no episode left) get a help action, not counted
        actions = [a if running[i] is not None else "check valid actions" for i, a in enumerate(actions)]
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        for i, decision in zip(active, decisions):
            info = unbatch_info(infos, i)
            running[i].record_step(
                decision, actions[i], str(obs[i]), float(rewards[i]), bool(terminations[i]), bool(truncations[i]), info
            )
            steps += 1
            if terminations[i] or truncations[i] or decision.finish_reason:
                finished += 1
                start(i)
        for i in range(num_envs):  # idle sub-envs that ended: reset them to keep the vector env steppable
            if running[i] is None and (terminations[i] or truncations[i]):
                mask = np.zeros(num_envs, dtype=bool)
                mask[i] = True
                envs.reset(options={"reset_mask": mask})
    wall = time.perf_counter() - started
    envs.close()
    agent.close()
    return {"episodes": finished, "steps": steps, "ep_per_s": finished / wall, "wall": wall}


def _independent(num_envs: int, episodes: int, base_url: str, vector_mode: str = "sync") -> dict[str, float]:
    """The runner; on Ray, timed from the first model call to the last reply (the slots' setup times add up over
    threads, and the actors start one after another inside that span, so the Ray figure is a lower bound)."""
    row = _measure("openai", num_envs, episodes, base_url, vector_mode)
    rate = row["ep_per_s_calls"] if vector_mode == "ray" else row["ep_per_s_no_setup"]
    return {"episodes": row["episodes"], "steps": row["steps"], "ep_per_s": rate, "wall": row["episodes"] / rate}


def _latency_comparison(args: argparse.Namespace) -> None:
    low, high = (float(x) for x in args.latency.split(","))
    base_url, stop, server = _start_server((low, high))
    try:
        print(f"{ENV_ID}, scripted server answering each request after a uniform {low:.0f}-{high:.0f} ms")
        print(f"{'runner':<12} {'N':>3} {'episodes':>8} {'steps':>6} {'wall s':>7} {'ep/s':>7}")
        single_episodes = args.single_episodes
        rates = {}
        for name, measure in (("independent", _independent), ("lock-step", _lockstep)):
            for size, count in ((1, single_episodes), (args.concurrent, args.episodes)):
                row = measure(size, count, base_url)
                rates[name, size] = row["ep_per_s"]
                print(
                    f"{name:<12} {size:>3} {row['episodes']:>8} {int(row['steps']):>6} {row['wall']:>7.2f} "
                    f"{row['ep_per_s']:>7.2f}"
                )
        if args.ray:  # each slot's env in a Ray actor (Ray started for the run: setup, not counted)
            row = _independent(args.concurrent, args.episodes, base_url, vector_mode="ray")
            rates["independent on ray", args.concurrent] = row["ep_per_s"]
            rates["independent on ray", 1] = rates["independent", 1]
            print(
                f"{'indep. ray':<12} {args.concurrent:>3} {row['episodes']:>8} {int(row['steps']):>6} "
                f"{row['wall']:>7.2f} {row['ep_per_s']:>7.2f}"
            )
        for name in ("independent", "lock-step") + (("independent on ray",) if args.ray else ()):
            ratio = rates[name, args.concurrent] / rates[name, 1]
            print(
                f"{name}: {args.concurrent} concurrent give {ratio:.1f}x the episodes/s of 1 (N=1: in-process runner)"
            )
        print(
            "ep/s = episodes / wall time without env construction (the runner on Ray: from the first model call to "
            "the last reply, its actors starting one after another within that span)"
        )
    finally:
        stop.set()
        server.join(timeout=10)


def _start_server(latency_ms: tuple[float, float] | None, reply: str | None = None) -> tuple[str, mp.Event, mp.Process]:
    context = mp.get_context("spawn")
    queue, stop = context.Queue(), context.Event()
    server = context.Process(target=_serve, args=(queue, stop, latency_ms, reply), daemon=True)
    server.start()
    return queue.get(timeout=60), stop, server


def _profiled(run: Callable[[], object]) -> pstats.Stats:
    """Run ``run()`` with cProfile in this thread and in every thread started meanwhile (cProfile sees one thread
    only: ``threading.setprofile`` starts a profiler in each new thread); the profiles merged. The clock is each
    thread's CPU time, so time spent waiting (on the server, a lock, a socket) does not count."""
    profiles = [cProfile.Profile(time.thread_time)]
    lock = threading.Lock()

    def start_in_thread(frame, event, arg):  # the new thread's first profile event: hand over to cProfile
        sys.setprofile(None)
        profile = cProfile.Profile(time.thread_time)
        with lock:
            profiles.append(profile)
        profile.enable()

    threading.setprofile(start_in_thread)
    profiles[0].enable()
    try:
        run()
    finally:
        profiles[0].disable()
        threading.setprofile(None)
    stats = pstats.Stats(profiles[0])
    for profile in profiles[1:]:
        profile.disable()
        stats.add(profile)
    return stats


def _profile(args: argparse.Namespace) -> None:
    from agentgym_text.agents import make_agent
    from agentgym_text.agents.llm_config import LLMConfig
    from agentgym_text.eval import EvalConfig, run_eval

    base_url, stop, server = _start_server(None, args.reply)
    try:

        def run() -> tuple[float, float, float, int, int]:
            agent = make_agent("openai", config=LLMConfig(model="scripted", base_url=base_url, api_key="bench"))
            config = EvalConfig(
                envs=args.envs, tasks=str(args.episodes), num_envs=args.concurrent, progress_bar=args.progress
            )
            with tempfile.TemporaryDirectory() as folder:
                cpu, wall = time.process_time(), time.perf_counter()
                result = run_eval(agent, config, Path(folder))
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            agent.close()
            return wall, cpu, result.timings["steps"], result.finished, result.planned

        wall, cpu, steps, finished, planned = run()
        print(
            f"{args.envs}: {finished} of {planned} episodes, {int(steps)} steps on {args.concurrent} slots "
            f"({'the reply ' + repr(args.reply) if args.reply else 'the expert'} from a zero-latency server)"
        )
        print(
            f"unprofiled: wall {wall:.2f} s, {steps / wall:.1f} steps/s; runner process CPU {cpu:.2f} s, "
            f"{1000 * cpu / max(steps, 1):.3f} ms/step"
        )
        stats = _profiled(run)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("tottime").print_stats("agentgym_text", args.top)  # this package's own functions
    finally:
        stop.set()
        server.join(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=60)
    parser.add_argument("--sizes", default="1,4,16")
    parser.add_argument("--latency", default=None, help="'LOW,HIGH' ms: compare the runner with lock-step")
    parser.add_argument("--concurrent", type=int, default=16, help="with --latency: concurrent episodes")
    parser.add_argument("--single-episodes", type=int, default=16, help="with --latency: episodes played at N=1")
    parser.add_argument("--ray", action="store_true", help="with --latency: also the runner on Ray (needs Ray)")
    parser.add_argument("--profile", action="store_true", help="profile the runner process (see above)")
    parser.add_argument("--envs", default=ENV_ID, help="with --profile: the env ids played (comma-separated)")
    parser.add_argument("--reply", default=None, help="with --profile: the server's one reply (else the expert's)")
    parser.add_argument("--top", type=int, default=25, help="with --profile: functions shown per table")
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=True, help="with --profile: the progress bar"
    )
    args = parser.parse_args()
    if args.profile:
        _profile(args)
        return
    if args.latency:
        _latency_comparison(args)
        return
    sizes = [int(size) for size in args.sizes.split(",")]
    base_url, stop, server = _start_server(None)
    try:
        print(f"{ENV_ID}, {args.episodes} episodes per row, scripted server at {base_url} (zero latency)")
        print(
            f"{'agent':<7} {'N':>3} {'episodes':>8} {'steps':>6} {'ep/s':>7} {'ep/s*':>7} "
            f"{'overhead ms/step':>16} {'agent ms/step':>13} {'env ms/step':>11} {'setup s':>8}"
        )
        for agent_name in ("openai", "expert"):
            for size in sizes:
                row = _measure(agent_name, size, args.episodes, base_url)
                print(
                    f"{agent_name:<7} {size:>3} {row['episodes']:>8} {int(row['steps']):>6} {row['ep_per_s']:>7.2f} "
                    f"{row['ep_per_s_no_setup']:>7.2f} {row['overhead_ms']:>16.3f} {row['agent_ms']:>13.3f} "
                    f"{row['env_ms']:>11.3f} {row['setup_s']:>8.2f}"
                )
        print("ep/s* = episodes/s without env construction (setup s); overhead = runner's own time per step")
    finally:
        stop.set()
        server.join(timeout=10)


if __name__ == "__main__":
    main()
