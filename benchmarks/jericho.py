"""AgentBoard/Jericho-v0 against raw jericho, valid-action times, and TextWorld build/reset/step against raw textworld.

Jericho: both sides play the same commands (a game's whole walkthrough, from ``game=<file>`` so the episode does
not end at the task's milestone, under the emulator seed jericho's walkthrough is written for): raw ``FrotzEnv.step`` against ``env.step`` of ``gym.make`` (input checks,
rendering, progress from the engine state, info). Valid actions: the first call in a state (cold; our
tokenizer, jericho's templates and its world-diff filter) and a repeat in the same world state (cached).

TextWorld: the time to generate and compile one game of each challenge (into a fresh cache folder), then reset
and step (the expert's commands) through ``gym.make`` against ``textworld.start`` with the same requested infos.

    .venv/bin/python benchmarks/jericho.py --game-dir ../shared/jericho-game-suite [--repeats 3] [--no-textworld]
    .venv/bin/python benchmarks/jericho.py --game-dir ../shared/jericho-game-suite --random-play 10
    .venv/bin/python benchmarks/jericho.py --game-dir ../shared/jericho-game-suite --resets
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

# this file is named like the jericho package: keep its folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import gymnasium as gym  # noqa: E402

import agentgym_text  # noqa: E402,F401

GAMES = ("zork1", "905", "detective", "acorncourt", "library", "reverb")


def _walkthrough(path: Path) -> tuple[list[str], int]:
    """The game's walkthrough and the emulator seed under which it plays to the end."""
    from jericho import FrotzEnv

    from agentgym_text.envs.jericho.actions import expand_abbreviations

    env = FrotzEnv(str(path))
    commands = [expand_abbreviations(c) for c in env.get_walkthrough()]
    seed = int(env.bindings.get("seed") or 1)
    env.close()
    return commands, seed


def jericho_steps(path: Path, repeats: int) -> tuple[float, float, int]:
    """Median steps/s of raw jericho and of the env over the same commands under the same emulator seed."""
    from jericho import FrotzEnv

    commands, seed = _walkthrough(path)
    raw_rates, our_rates = [], []
    for _ in range(repeats):
        env = gym.make("AgentBoard/Jericho-v0", game=str(path), max_episode_steps=len(commands) + 1)
        env.reset(seed=1)
        game = env.unwrapped._game  # the env seeds the emulator from its own RNG; replay under the walkthrough's
        game.load(game.path, game.md5, seed)
        env.unwrapped._state = game.state()
        steps, elapsed = 0, 0.0
        for command in commands:
            start = time.perf_counter()
            *_, terminated, truncated, _ = env.step(command)
            elapsed += time.perf_counter() - start
            steps += 1
            if terminated or truncated:
                break
        our_rates.append(steps / elapsed)
        env.close()
        raw = FrotzEnv(str(path), seed=seed)
        raw.reset()
        start = time.perf_counter()
        for command in commands[:steps]:
            raw.step(command)
        raw_rates.append(steps / (time.perf_counter() - start))
        raw.close()
    return statistics.median(raw_rates), statistics.median(our_rates), steps


def valid_action_times(game_dir: Path) -> list[tuple[str, float, float, int]]:
    from agentgym_text.envs.jericho import valid_actions as module

    rows = []
    env = gym.make("AgentBoard/Jericho-v0", game_dir=str(game_dir)).unwrapped
    for game in GAMES:
        env.reset(seed=0, options={"task_id": f"jericho-{game}"})
        module._CACHE.clear()
        start = time.perf_counter()
        actions = env.admissible_actions()
        cold = time.perf_counter() - start
        start = time.perf_counter()
        env.admissible_actions()
        cached = time.perf_counter() - start
        rows.append((game, cold, cached, len(actions)))
    env.close()
    return rows


def random_play_times(
    game_dir: Path, states: int, seed: int = 0, games: list[str] | None = None, think: float | None = None
) -> dict[str, list[tuple[float, float]]]:
    """Valid-action times (wall s, CPU s) at each new state of random play: ``states`` states per game. CPU:
    this process's, plus with a pool its busiest worker's (the critical path of a listing on idle cores).

    Each step plays a random action of the listing (seeded), so the states are the ones an agent exploring
    at random meets. ``think`` None: the cache is bypassed, so every figure is a first call in its state. A
    number: the env prefetches each new state's listing, the agent thinks that many seconds after each step,
    then asks (the latency a help request sees).
    """
    import random

    from agentgym_text.envs.jericho import valid_actions as module
    from agentgym_text.envs.jericho.filter_pool import shared_pool
    from agentgym_text.envs.jericho.tasks import make_tasks

    rng = random.Random(seed)
    rows: dict[str, list[tuple[float, float]]] = {}
    env = gym.make("AgentBoard/Jericho-v0", game_dir=str(game_dir)).unwrapped
    module._CACHE.clear()
    pool = shared_pool()
    for task in make_tasks():
        name = task.params["game"]
        if games and name not in games:
            continue
        env.reset(seed=seed, options={"task_id": task.task_id})
        times = rows.setdefault(name, [])
        for _ in range(states):
            if think is not None:
                time.sleep(think)
            wall, cpu = time.perf_counter(), time.process_time()
            actions = module.valid_actions(env._game, use_cache=think is not None)
            cpu = time.process_time() - cpu
            if pool is not None and think is None:  # the workers' share: the busiest one's CPU
                cpu += pool.busiest_cpu
            times.append((time.perf_counter() - wall, cpu))
            if not actions:
                break
            *_, terminated, truncated, _ = env.step(rng.choice(actions))
            if terminated or truncated:
                break
    env.close()
    return rows


PARSER_GARBAGE = (
    "__import__('os').system('echo hi')",
    "99999",
    "<script>alert(1)</script>",
    "xyzzy plugh",
    "DROP TABLE tasks;--",
)
"""Commands the parser refuses in its own words: each step of them runs the whole validity rule."""


def reset_and_refusal_times(game_dir: Path, text_format: str) -> list[tuple[str, float, float, float, float]]:
    """Per game of the 20: the first reset in this process (the game's parser replies are learned), a second
    reset (cached), learning alone (``parser_errors.learn``; 0 where the module is absent), and the mean time of
    a step the parser refuses (``PARSER_GARBAGE``, the quickest of 5 rounds of 100)."""
    try:
        from agentgym_text.envs.jericho import parser_errors
    except ImportError:  # the code before the learned replies, for a before/after comparison
        parser_errors = None
    from agentgym_text.envs.jericho.tasks import make_tasks

    rows = []
    env = gym.make("AgentBoard/Jericho-v0", game_dir=str(game_dir), text_format=text_format, max_episode_steps=9999)
    for task in make_tasks():
        options = {"task_id": task.task_id}
        start = time.perf_counter()
        env.reset(seed=0, options=options)
        first = time.perf_counter() - start
        start = time.perf_counter()
        env.reset(seed=0, options=options)
        again = time.perf_counter() - start
        learn = 0.0
        if parser_errors is not None:
            start = time.perf_counter()
            parser_errors.learn(env.unwrapped._game)
            learn = time.perf_counter() - start
        rounds = []
        for _ in range(5):  # the quickest round: the least disturbed by other processes
            start = time.perf_counter()
            for action in PARSER_GARBAGE * 20:
                env.step(action)
            rounds.append((time.perf_counter() - start) / (len(PARSER_GARBAGE) * 20))
        refusal = min(rounds)
        rows.append((task.params["game"], first, again, learn, refusal))
    env.close()
    return rows


def print_reset_times(text_format: str) -> None:
    rows = reset_and_refusal_times(Path(os.environ["AGENTGYM_TEXT_JERICHO_DIR"]), text_format)
    print(f"text_format={text_format!r}: reset (first in the process, again), learning alone, a refused step")
    print(f"{'game':12s} {'first ms':>9s} {'again ms':>9s} {'learn ms':>9s} {'refused us':>10s}")
    for game, first, again, learn, refusal in rows:
        print(f"{game:12s} {first * 1000:9.1f} {again * 1000:9.1f} {learn * 1000:9.1f} {refusal * 1e6:10.1f}")
    columns = list(zip(*[row[1:] for row in rows]))
    medians = [statistics.median(column) for column in columns]
    print(
        f"{'median':12s} {medians[0] * 1000:9.1f} {medians[1] * 1000:9.1f} {medians[2] * 1000:9.1f} "
        f"{medians[3] * 1e6:10.1f}"
    )


def dictionary_duplicates(game_dir: Path, states: int, seed: int = 0) -> None:
    """Candidates a state and how many differ once each word is read as the game's parser reads it (cut to its
    dictionary's word length; a word outside the dictionary kept whole): the turns pruning could save."""
    import random

    from agentgym_text.envs.jericho import valid_actions as module
    from agentgym_text.envs.jericho.tasks import make_tasks

    rng = random.Random(seed)
    env = gym.make("AgentBoard/Jericho-v0", game_dir=str(game_dir)).unwrapped
    print(f"{'game':12s} {'states':>6s} {'candidates':>10s} {'distinct':>9s} {'unreadable':>10s}")
    for task in make_tasks():
        env.reset(seed=seed, options={"task_id": task.task_id})
        game = env._game
        dictionary = game.dictionary()
        cut = max(len(word) for word in dictionary)
        total = distinct = unreadable = visited = 0
        for _ in range(states):
            names, held = module.candidate_names(game.frotz, dictionary)
            candidates = module.candidate_actions(game.frotz.act_gen.templates, names, held)
            read = [tuple(w[:cut] if w[:cut] in dictionary else "?" + w for w in c.split()) for c in candidates]
            total, distinct, visited = total + len(candidates), distinct + len(set(read)), visited + 1
            unreadable += sum(any(w.startswith("?") for w in words) for words in read)
            actions = module.valid_actions(game)
            if not actions:
                break
            *_, terminated, truncated, _ = env.step(rng.choice(actions))
            if terminated or truncated:
                break
        print(f"{task.params['game']:12s} {visited:6d} {total:10d} {distinct:9d} {unreadable:10d}")
    env.close()


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def print_random_play(rows: dict[str, list[tuple[float, float]]]) -> None:
    print(f"{'game':12s} {'states':>6s} {'p50 ms':>8s} {'p90 ms':>8s} {'max ms':>8s} {'p90 cpu ms':>10s}")
    every: list[tuple[float, float]] = []
    for name, times in [*rows.items()]:
        every.extend(times)
        walls, cpus = [t[0] for t in times], [t[1] for t in times]
        print(
            f"{name:12s} {len(times):6d} {_quantile(walls, 0.5) * 1000:8.1f} {_quantile(walls, 0.9) * 1000:8.1f} "
            f"{max(walls) * 1000:8.1f} {_quantile(cpus, 0.9) * 1000:10.1f}"
        )
    walls, cpus = [t[0] for t in every], [t[1] for t in every]
    print(
        f"{'overall':12s} {len(every):6d} {_quantile(walls, 0.5) * 1000:8.1f} {_quantile(walls, 0.9) * 1000:8.1f} "
        f"{max(walls) * 1000:8.1f} {_quantile(cpus, 0.9) * 1000:10.1f}"
    )


def textworld_figures(repeats: int) -> list[tuple]:
    import textworld

    from agentgym_text.envs.textworld.generator import INFOS, build_game
    from agentgym_text.envs.textworld.tasks import make_tasks

    rows = []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["AGENTGYM_TEXT_CACHE"] = cache
        for env_id, challenge in (
            ("TextWorld/Coin-v0", "coin"),
            ("TextWorld/Treasure-v0", "treasure"),
            ("TextWorld/Cooking-v0", "cooking"),
        ):
            task = make_tasks(challenge)[-1]
            start = time.perf_counter()
            files = build_game(challenge, task.params["settings"], task.params["seed"], quiet=True)
            build = time.perf_counter() - start
            commands = files.walkthrough
            raw = textworld.start(str(files.path), request_infos=textworld.EnvInfos(**INFOS))
            raw_reset, raw_step, our_reset, our_step = [], [], [], []
            env = gym.make(env_id)
            for _ in range(repeats):
                start = time.perf_counter()
                raw.reset()
                raw_reset.append(time.perf_counter() - start)
                start = time.perf_counter()
                for command in commands:
                    raw.step(command)
                raw_step.append((time.perf_counter() - start) / len(commands))
                start = time.perf_counter()
                env.reset(seed=0, options={"task_id": task.task_id})
                our_reset.append(time.perf_counter() - start)
                start = time.perf_counter()
                for command in commands:
                    env.step(command)
                our_step.append((time.perf_counter() - start) / len(commands))
            raw.close()
            env.close()
            rows.append(
                (
                    env_id,
                    task.task_id,
                    build,
                    statistics.median(raw_reset),
                    statistics.median(our_reset),
                    statistics.median(raw_step),
                    statistics.median(our_step),
                    len(commands),
                )
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game-dir", default=os.environ.get("AGENTGYM_TEXT_JERICHO_DIR"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-textworld", action="store_true")
    parser.add_argument(
        "--random-play",
        type=int,
        default=0,
        metavar="STATES",
        help="only: valid-action times over random play, STATES new states per game of the 20 (p50/p90/max)",
    )
    parser.add_argument("--games", nargs="*", help="with --random-play: only these games")
    parser.add_argument(
        "--workers", type=int, default=0, help="with --random-play: a pool of this many emulator processes"
    )
    parser.add_argument(
        "--think",
        type=float,
        metavar="SECONDS",
        help="with --random-play and --workers: prefetch each new state's listing, ask after SECONDS",
    )
    parser.add_argument(
        "--resets",
        action="store_true",
        help="only: reset times of the 20 tasks (first, cached), learning the parser's replies, a refused step",
    )
    parser.add_argument(
        "--duplicates", type=int, metavar="STATES", help="only: candidates the game's parser reads alike"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.resets:
        os.environ["AGENTGYM_TEXT_JERICHO_DIR"] = args.game_dir
        for text_format in ("agentboard", "clear"):
            print_reset_times(text_format)
        return
    if args.duplicates:
        dictionary_duplicates(Path(args.game_dir), args.duplicates)
        return
    if args.random_play:
        from agentgym_text.envs.jericho.filter_pool import WORKERS_VARIABLE
        from agentgym_text.envs.jericho.valid_actions import PREFETCH_VARIABLE

        os.environ[WORKERS_VARIABLE] = str(args.workers)
        os.environ[PREFETCH_VARIABLE] = "1" if args.think is not None else "0"
        mode = "cold (cache bypassed)" if args.think is None else f"prefetched, asked {args.think} s after each step"
        pool = (
            f", a pool of {args.workers} emulator processes (CPU: this process + busiest worker)"
            if args.workers
            else ""
        )
        print(f"Valid actions over random play: {args.random_play} new states per game, {mode}{pool}")
        times = random_play_times(Path(args.game_dir), args.random_play, games=args.games, think=args.think)
        print_random_play(times)
        return
    if args.game_dir:
        game_dir = Path(args.game_dir)
        print("Jericho: the whole walkthrough through raw FrotzEnv.step and through gym.make (game=<file>)")
        print(f"{'game':12s} {'commands':>8s} {'raw steps/s':>12s} {'env steps/s':>12s} {'ratio':>6s}")
        for game in ("zork1", "detective", "905"):
            raw, ours, count = jericho_steps(game_dir / f"{game}.z5", args.repeats)
            print(f"{game:12s} {count:8d} {raw:12.0f} {ours:12.0f} {ours / raw:6.2f}")
        print("\nValid actions at each task's start (cold: first call; cached: same world state again)")
        print(f"{'game':12s} {'cold s':>8s} {'cached ms':>10s} {'actions':>8s}")
        for game, cold, cached, count in valid_action_times(game_dir):
            print(f"{game:12s} {cold:8.2f} {cached * 1000:10.2f} {count:8d}")
    else:
        print("Jericho skipped: pass --game-dir or set AGENTGYM_TEXT_JERICHO_DIR")
    if not args.no_textworld:
        print("\nTextWorld: one game per challenge built into a fresh cache, then reset/step against textworld.start")
        print(
            f"{'env id':22s} {'task':28s} {'build s':>8s} {'raw reset ms':>12s} {'env reset ms':>12s} "
            f"{'raw step ms':>11s} {'env step ms':>11s} {'ratio':>6s}"
        )
        for env_id, task_id, build, rr, orr, rs, os_, _count in textworld_figures(args.repeats):
            print(
                f"{env_id:22s} {task_id:28s} {build:8.1f} {rr * 1000:12.1f} {orr * 1000:12.1f} "
                f"{rs * 1000:11.2f} {os_ * 1000:11.2f} {rs / os_:6.2f}"
            )


if __name__ == "__main__":
    main()
