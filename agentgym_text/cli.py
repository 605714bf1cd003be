"""``agentgym-text``: list envs, play one in the terminal, evaluate agents, write reports, run the demo."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import gymnasium as gym

import agentgym_text
from agentgym_text.agents import AGENT_NAMES
from agentgym_text.core.info import HELP_ACTION, FinishReason
from agentgym_text.core.registry import MissingDependency, entry_status, extra_installed

if TYPE_CHECKING:
    from agentgym_text.eval.runner import RunResult

__all__ = ["main", "COMMANDS"]


def _cmd_list(args: argparse.Namespace) -> int:
    entries = agentgym_text.list_envs()
    width = max(len(entry.env_id) for entry in entries)
    print(f"{'env id':<{width}}  {'category':<9} {'tasks':>5}  {'needs':<14} status")
    for entry in entries:
        status = entry_status(entry)
        print(f"{entry.env_id:<{width}}  {entry.category:<9} {entry.task_count:>5}  {entry.requires:<14} {status}")
    return 0


def _make(env_id: str, **kwargs) -> gym.Env:
    """gym.make with the errors a user can fix turned into ``UserError``."""
    known = {entry.env_id for entry in agentgym_text.list_envs()}
    if env_id not in known:
        raise UserError(f"unknown env id {env_id!r}; `agentgym-text list` shows them")
    try:
        return gym.make(env_id, **kwargs)
    except (MissingDependency, FileNotFoundError) as error:
        raise UserError(str(error)) from None


class UserError(Exception):
    """An error the user can fix from its one-line message; the CLI prints it and exits with 2."""


def _cmd_tasks(args: argparse.Namespace) -> int:
    env = _make(args.env_id)
    try:
        for task in env.unwrapped.tasks:
            if args.jsonl:
                print(
                    json.dumps(
                        {
                            "env_id": args.env_id,
                            "task_id": task.task_id,
                            "difficulty": task.difficulty,
                            "max_steps": task.max_steps,
                            "goal": task.goal,
                        },
                        ensure_ascii=False,
                    )
                )
            else:
                goal = " ".join(task.goal.split())
                print(f"{task.task_id}\t{task.difficulty or '-'}\t{goal[:120]}")
    finally:
        env.close()
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    env = _make(args.env_id)
    options = {"task_id": args.task} if args.task else None
    try:
        obs, info = env.reset(seed=args.seed, options=options)
    except ValueError:
        env.close()
        raise UserError(f"unknown task {args.task!r}; `agentgym-text tasks {args.env_id}` lists them") from None
    print(f"Task {info['task_id']} ({info['difficulty']})\nGoal: {info['goal']}\n\n{obs}")
    print(f"\n(type '{HELP_ACTION}', 'expert' for the expert's move, or 'quit')")
    while True:
        try:
            action = input("> ")
        except EOFError:
            break
        if action.strip() == "quit":
            break
        if action.strip() == "expert":
            action = env.unwrapped.expert_action() or ""
            print(f"expert: {action}")
        obs, reward, terminated, truncated, info = env.step(action)
        flag = "" if info["valid"] else f"  [invalid: {info['invalid_reason']}]"
        print(f"{obs}\n(progress {info['progress_rate']:.2f}, reward {reward:+.2f}){flag}")
        if terminated or truncated:
            print(f"Episode over: {info['finish_reason']}")
            break
    env.close()
    return 0


def _check_report_dependencies() -> None:
    if not extra_installed("report"):
        raise UserError(
            "the report needs the 'report' extra: pip install 'agentgym-text[report]' (or pass --no-report)"
        )


def _run_and_report(agent, config, out: Path, *, report: bool = True) -> RunResult:
    """Run ``agent`` into ``out`` and print what was played, what was not and the headline rates."""
    from agentgym_text.agents.llm import AgentUnavailable
    from agentgym_text.eval.compare import fmt_rate, load_run
    from agentgym_text.eval.runner import run_eval

    try:
        result = run_eval(agent, config, out)
    except AgentUnavailable as error:
        raise UserError(f"{error}") from None
    except ValueError as error:  # an empty selection, a run folder holding another run
        raise UserError(str(error)) from None
    finally:
        agent.close()
    episodes_file = out / "episodes.jsonl"
    in_folder = result.planned - sum(1 for row in result.unplayed if row["task_id"] is not None)
    if result.planned and result.skipped == result.planned:
        print(f"{agent.name}: all {result.planned} episodes already in {episodes_file}; use --rerun to play them again")
    else:
        again = f", {result.replayed} of them again" if result.replayed else ""
        print(
            f"{agent.name}: {result.finished} episodes played{again}, {result.skipped} already done: "
            f"{in_folder} of {result.planned} planned episodes in {out}"
        )
    if len(result.by_env) > 1:
        for env_id, counts in result.by_env.items():
            print(
                f"  {env_id}: {counts['finished']} played, {counts['skipped']} already done, "
                f"{counts['unplayed']} not played, of {counts['planned']}"
            )
    for error in result.errors:
        print(f"  error: {error}", file=sys.stderr)
    _print_unplayed(result.unplayed)
    if result.agent_errors:
        print(
            f"  {result.agent_errors} episodes ended because the agent could not be reached (agent_error); "
            "run the same command again to play them",
            file=sys.stderr,
        )
    if result.engine_errors:
        print(
            f"  {result.engine_errors} episodes ended because their engine died (engine_error); run the same "
            "command again to play them",
            file=sys.stderr,
        )
    if episodes_file.exists():
        run = load_run(out)
        (out / "metrics.json").write_text(json.dumps(run.metrics, indent=2, ensure_ascii=False) + "\n")
        overall = run.metrics["overall"] or {}
        lost = run.metrics["agent_errors"] + run.metrics["engine_errors"]
        scored = int(overall.get("episodes", 0))
        note = f"; {lost} agent_error/engine_error episodes left out" if lost else ""
        partial = (
            ""
            if result.complete
            else f"; PARTIAL: {result.planned - scored} of {result.planned} planned episodes are not in these rates"
        )
        print(
            f"  success {fmt_rate(overall.get('success_rate'))}%  progress {fmt_rate(overall.get('progress_rate'))}%"
            f"  grounding {fmt_rate(overall.get('grounding_accuracy'))}%  (macro over envs, {scored} episodes"
            f"{note}{partial})"
        )
        out_of_budget = _out_of_budget(run.episodes)
        if out_of_budget:
            print(f"  {out_of_budget}")
        if report:
            from agentgym_text.eval.report import write_report

            print(f"  report: {write_report([out])}")
    return result


def _out_of_budget(episodes: list[dict]) -> str | None:
    """A line counting the episodes that ran out of their step budget, per env id; None when none did.

    >>> _out_of_budget([{"env_id": "A", "finish_reason": "step_limit"}, {"env_id": "B", "finish_reason": "success"}])
    '1 of 2 episodes ran out of their step budget (A: 1)'
    """
    counts = Counter(row["env_id"] for row in episodes if row.get("finish_reason") == FinishReason.STEP_LIMIT.value)
    if not counts:
        return None
    each = ", ".join(f"{env_id}: {count}" for env_id, count in sorted(counts.items()))
    return f"{sum(counts.values())} of {len(episodes)} episodes ran out of their step budget ({each})"


def _print_unplayed(unplayed: list[dict], shown: int = 10) -> None:
    if not unplayed:
        return
    print(
        f"  {len(unplayed)} planned episodes were not played (listed in run.json under 'unplayed'; the same "
        "command plays them):",
        file=sys.stderr,
    )
    for row in unplayed[:shown]:
        task = row["task_id"] if row["task_id"] is not None else "(its tasks could not be listed)"
        print(f"    {row['env_id']} {task}: {row['reason']}", file=sys.stderr)
    if len(unplayed) > shown:
        print(f"    ... and {len(unplayed) - shown} more", file=sys.stderr)


def _with_agentboard_data(env_args: dict, folder: str | None) -> dict:
    """``--agentboard-data``: the folder goes to every id that plays an AgentBoard task (an id's own
    ``--env-arg ID:agentboard_data=`` wins)."""
    if not folder:
        return env_args
    from agentgym_text.core.registry import list_envs

    for entry in list_envs():
        if entry.agentboard_task:
            env_args.setdefault(entry.env_id, {}).setdefault("agentboard_data", folder)
    return env_args


def _cmd_eval(args: argparse.Namespace) -> int:
    """Roll an agent out over task sets; results go to --out (resumable)."""
    from agentgym_text.agents import make_agent
    from agentgym_text.eval.plan import parse_env_args
    from agentgym_text.eval.runner import EvalConfig

    if not args.no_report:
        _check_report_dependencies()
    if args.backend == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise UserError("--backend ray needs Ray: pip install 'agentgym-text[ray]'")
    try:
        config = EvalConfig(
            envs=args.envs,
            tasks=args.tasks,
            max_steps=args.max_steps,
            num_envs=args.num_envs,
            vector_mode="ray" if args.backend == "ray" else args.vector_mode,
            ray_address=args.address,
            seed=args.seed,
            repeats=args.repeats,
            progress_bar=not args.quiet,
            stop_after_repeats=args.stop_after_repeats,
            env_args=_with_agentboard_data(parse_env_args(args.env_arg), args.agentboard_data),
            replay="all" if args.rerun else "failed" if args.rerun_failed else "agent_error",
        )
        if args.agent == "openai":
            from agentgym_text.agents.llm_config import LLMConfig

            llm = LLMConfig.from_args(args)
            if not llm.model:
                raise UserError("--model is required with --agent openai")
            agent = make_agent("openai", config=llm)
        else:
            agent = make_agent(args.agent, **({"seed": args.seed} if args.agent == "random" else {}))
    except ValueError as error:
        raise UserError(str(error)) from None
    out = Path(args.out or f"runs/{args.agent}")
    code = 0 if _run_and_report(agent, config, out, report=not args.no_report).complete else 1
    if args.wandb:
        from agentgym_text.eval.wandb_log import log_to_wandb

        log_to_wandb(out, project=args.wandb_project)
    return code


def _cmd_demos(args: argparse.Namespace) -> int:
    """Play the experts on training (or test) instances and write chat rows for SFT into --out/demos.jsonl."""
    from agentgym_text.agents.protocols import CheckoutError
    from agentgym_text.integrations.demos import DEMOS, DemoConfig, make_demos
    from agentgym_text.integrations.mixture import parse_mixture

    try:
        config = DemoConfig(
            envs=[part for part in (args.envs or "").split(",") if part.strip()],
            episodes=args.episodes,
            split=args.split,
            protocol=args.protocol,
            style=args.style,
            history_tokens=args.history_tokens,
            mix=dict(parse_mixture(args.mix).weights) if args.mix else None,
            detours=args.detours,
            all_episodes=args.all_episodes,
            seed=args.seed,
            num_envs=args.num_envs,
            vector_mode=args.vector_mode,
            agentboard_dir=args.agentboard_dir,
            agentbench_dir=args.agentbench_dir,
            progress_bar=not args.quiet,
        )
        if not config.envs and not config.mix:
            raise UserError("name the ids with --envs (or --mix)")
        result = make_demos(config, args.out)
    except (ValueError, CheckoutError, MissingDependency) as error:
        raise UserError(str(error)) from None
    run = result.run
    print(
        f"{result.out}: played {run.finished} episodes ({run.skipped} already in the folder); "
        f"{result.solved} of {result.episodes} solved; {result.rows} rows from {result.written} episodes in "
        f"{result.out / DEMOS}"
    )
    for line in result.mismatches[:5]:
        print(f"  the protocol did not read the expert's reply back: {line}", file=sys.stderr)
    _print_unplayed(run.unplayed)
    for error in run.errors:
        print(f"  error: {error}", file=sys.stderr)
    return 0 if run.complete and not result.mismatches else 1


def _cmd_report(args: argparse.Namespace) -> int:
    """Write the HTML report of one run, or of several side by side."""
    from agentgym_text.eval.report import write_report

    try:
        path = write_report(args.runs, out=args.out)
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 2
    print(path)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    """Expert and random agents on the quick split of every registered env, then the comparison report."""
    from agentgym_text.agents import make_agent
    from agentgym_text.eval.report import write_report
    from agentgym_text.eval.runner import EvalConfig

    _check_report_dependencies()
    out = Path(args.out)
    statuses = {entry.env_id: entry_status(entry) for entry in agentgym_text.list_envs()}
    installed = [env_id for env_id, status in statuses.items() if status == "installed"]
    for env_id, status in statuses.items():
        if status != "installed":
            print(f"demo: not planned: {env_id} ({status})")
    config = EvalConfig(
        envs=installed, tasks=args.tasks, max_steps=args.max_steps, num_envs=args.num_envs, progress_bar=not args.quiet
    )
    folders = []
    planned = played = 0
    complete = True
    for agent_name in ("expert", "random"):
        result = _run_and_report(make_agent(agent_name), config, out / agent_name, report=False)
        planned += result.planned
        played += (
            result.planned
            - sum(1 for row in result.unplayed if row["task_id"] is not None)
            - result.agent_errors
            - result.engine_errors
        )
        complete = complete and result.complete
        if (out / agent_name / "episodes.jsonl").exists():
            folders.append(out / agent_name)
    if folders:
        print(f"report: {write_report(folders, out=out / 'report.html').resolve()}")
    print(f"demo: {played} of {planned} planned episodes played" + ("" if complete else " (INCOMPLETE: see above)"))
    return 0 if complete and folders else 1


_SERVER_MODULES = ("openenv", "uvicorn", "fastapi", "starlette", "websockets", "pydantic")


def _cmd_serve(args: argparse.Namespace) -> int:
    """Serve one env id, or a multi-task set, over OpenEnv (OpenEnv's server; one env per client session)."""
    from agentgym_text.integrations.mixture import parse_mixture

    entries = {entry.env_id: entry for entry in agentgym_text.list_envs()}
    try:
        env_ids = parse_mixture(args.env).env_ids
    except ValueError as error:
        raise UserError(str(error)) from None
    for env_id in env_ids:
        status = entry_status(entries[env_id])
        if status != "installed":
            raise UserError(f"{env_id} cannot be served: {status}")
    from agentgym_text.integrations.openenv_server import serve

    protocol = None
    if args.protocol is not None:
        from agentgym_text.agents.protocols import make_protocol

        try:  # a missing checkout or an id the protocol does not cover stops here, before the server starts
            protocol = make_protocol(
                args.protocol, agentboard_dir=args.agentboard_dir, agentbench_dir=args.agentbench_dir
            )
            protocol.check(env_ids)
        except ValueError as error:  # CheckoutError is one
            raise UserError(str(error)) from None
    print(f"serving {args.env} on ws://{args.host}:{args.port}/ws (up to {args.max_sessions} sessions)", flush=True)
    try:
        serve(
            args.env,
            host=args.host,
            port=args.port,
            max_sessions=args.max_sessions,
            idle_timeout=args.idle_timeout,
            size=args.size,
            mix_seed=args.mix_seed,
            protocol=protocol,
        )
    except MissingDependency as error:
        raise UserError(str(error)) from None
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] in _SERVER_MODULES:
            raise UserError(
                f"serve needs the 'openenv' extra: pip install 'agentgym-text[openenv]' (missing module {error.name!r})"
            ) from None
        extras = sorted({entries[env_id].requires for env_id in env_ids})
        raise UserError(
            f"{args.env} needs the {', '.join(repr(extra) for extra in extras)} extra: pip install 'agentgym-text[{','.join(extras)}]' "
            f"(missing module {error.name!r})"
        ) from None
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "list": (_cmd_list, "list every env id with its category, task count and whether it is installed"),
    "tasks": (_cmd_tasks, "list the tasks of an env id: id, difficulty, goal (one line each)"),
    "play": (_cmd_play, "play an env in the terminal"),
    "eval": (_cmd_eval, "evaluate an agent (expert, random, openai) over task sets"),
    "demos": (_cmd_demos, "expert demonstrations as chat rows for SFT (TRL's SFTTrainer, HF datasets)"),
    "report": (_cmd_report, "write the HTML report of one run or compare several"),
    "demo": (_cmd_demo, "expert and random agents on a quick split of every env, then the report"),
    "serve": (_cmd_serve, "serve an env id over OpenEnv (needs the 'openenv' extra)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentgym-text", description=__doc__)
    parser.add_argument("--version", action="version", version=f"agentgym-text {agentgym_text.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (_, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        if name == "tasks":
            command.add_argument("env_id", help="an env id from `agentgym-text list`")
            command.add_argument("--jsonl", action="store_true", help="one JSON object per task")
        elif name == "play":
            command.add_argument("env_id", help="an env id from `agentgym-text list`")
            command.add_argument("--task", default=None, help="a task_id (default: drawn by --seed)")
            command.add_argument("--seed", type=int, default=None, help="the reset seed (default: none)")
        elif name == "eval":
            _add_eval_arguments(command)
        elif name == "demos":
            _add_demos_arguments(command)
        elif name == "report":
            command.add_argument("runs", nargs="+", help="run folders written by `agentgym-text eval`")
            command.add_argument(
                "--out",
                default=None,
                help="HTML path (default: <run>/report.html, or <parent>/compare-<a>-vs-<b>.html for several runs)",
            )
        elif name == "demo":
            command.add_argument(
                "--out", default="runs/demo", help="folder for both runs and the report (default runs/demo)"
            )
            command.add_argument(
                "--tasks", default="quick", help="as for eval: 'quick' (default: 2 easy + 2 hard per env), 'all', N"
            )
            command.add_argument("--max-steps", type=int, default=None, help="step budget (default: per task)")
            command.add_argument("--num-envs", type=int, default=4, help="concurrent episodes per env id (default 4)")
            command.add_argument("--quiet", action="store_true", help="no progress bar")
        elif name == "serve":
            command.add_argument(
                "--env", required=True, help="the env id to serve, or a multi-task set: ID=WEIGHT,ID=WEIGHT"
            )
            command.add_argument(
                "--size", type=int, default=None, help="rows of a multi-task set's task API (default 200)"
            )
            command.add_argument("--mix-seed", type=int, default=0, help="the seed of a multi-task set's row order")
            command.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
            command.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
            command.add_argument("--max-sessions", type=int, default=8, help="concurrent client sessions")
            command.add_argument(
                "--idle-timeout",
                type=float,
                default=None,
                help="end a session idle this many seconds (its engine is closed)",
            )
            _add_serve_protocol_arguments(command)
    return parser


def _add_checkout_arguments(command: argparse.ArgumentParser) -> None:
    """``--agentboard-dir`` and ``--agentbench-dir``: the originals' checkouts a protocol reads."""
    from agentgym_text.agents.protocols import AGENTBENCH_DIR_SETTING, AGENTBOARD_DIR_SETTING

    command.add_argument(
        "--agentboard-dir",
        default=None,
        help=f"with --protocol agentboard: a checkout of hkust-nlp/AgentBoard (default ${AGENTBOARD_DIR_SETTING})",
    )
    command.add_argument(
        "--agentbench-dir",
        default=None,
        help=f"with --protocol agentbench: a checkout of THUDM/AgentBench v0.2 (default ${AGENTBENCH_DIR_SETTING})",
    )


def _add_serve_protocol_arguments(command: argparse.ArgumentParser) -> None:
    from agentgym_text.agents.protocols import PROTOCOLS

    command.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default=None,
        help="an agent protocol: the action is the model's whole reply, the observation's 'messages' the protocol's "
        "next request (default: none, the env's own text)",
    )
    _add_checkout_arguments(command)


def _add_slot_arguments(command: argparse.ArgumentParser, vector_mode_help: str) -> None:
    command.add_argument("--num-envs", type=int, default=1, help="concurrent episodes per env id (slots)")
    command.add_argument("--vector-mode", choices=("sync", "async"), default="sync", help=vector_mode_help)


def _add_demos_arguments(command: argparse.ArgumentParser) -> None:
    from agentgym_text.agents.prompts import STYLES
    from agentgym_text.agents.protocols import PROTOCOLS

    command.add_argument("--envs", default=None, help="comma-separated env ids (default: the ids of --mix)")
    command.add_argument(
        "--split", choices=("train", "test"), default="train", help="the instances to play (default train)"
    )
    command.add_argument(
        "--episodes", type=int, required=True, help="instances to play in all, shared among the ids (see --mix)"
    )
    command.add_argument("--out", required=True, help="run folder; demos.jsonl is written there; reruns resume it")
    command.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default="ours",
        help="the requests the rows hold and the reply format of the expert's turns (default ours)",
    )
    command.add_argument(
        "--style", choices=STYLES, default="vanilla", help="the prompt style (react: replies still carry no thought)"
    )
    command.add_argument(
        "--history-tokens", type=int, default=3000, help="with --protocol ours: the history window (default 3000)"
    )
    command.add_argument(
        "--mix",
        default=None,
        metavar="ID=W,ID=W",
        help="weights of the ids: each gets its share of --episodes (default: equal shares)",
    )
    command.add_argument(
        "--detours",
        type=float,
        default=0.0,
        metavar="P",
        help="per step, with probability P (seeded), a random admissible action instead of the expert's; those "
        "turns are marked (weight 0) and the expert recovers",
    )
    command.add_argument("--all-episodes", action="store_true", help="also write the episodes the expert did not solve")
    command.add_argument("--seed", type=int, default=0, help="seed of the detours (default 0)")
    _add_slot_arguments(command, "each env in this process (sync) or in a worker process (async)")
    _add_checkout_arguments(command)
    command.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_eval_arguments(command: argparse.ArgumentParser) -> None:
    from agentgym_text.agents.llm_config import LLMConfig

    command.add_argument("--agent", required=True, choices=AGENT_NAMES, help="who plays: " + ", ".join(AGENT_NAMES))
    command.add_argument("--envs", default="all", help="'all' or comma-separated env ids")
    command.add_argument(
        "--tasks", default="quick", help="'all', 'quick' (2 easy + 2 hard per env), N (first N), 'i:j', or task ids"
    )
    command.add_argument("--max-steps", type=int, default=None, help="step budget (default: per task)")
    _add_slot_arguments(command, "with --backend local: each env in this process (sync) or in a worker process (async)")
    command.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="ray: each of the --num-envs envs in a Ray actor (needs the 'ray' extra)",
    )
    command.add_argument(
        "--address",
        default=None,
        help="with --backend ray: an existing cluster ('auto', 'ray://host:10001'); "
        "default: start Ray on this machine for the run",
    )
    command.add_argument(
        "--env-arg",
        action="append",
        default=[],
        metavar="[ENV_ID:]KEY=VALUE",
        help="a gym.make kwarg for every env of the run, or for one id (repeatable), e.g. "
        "text_format=clear; JSON values are read as such (numbers, true/false)",
    )
    command.add_argument(
        "--agentboard-data",
        default=None,
        metavar="DIR",
        help="AgentBoard's data folder (<DIR>/<task>/test.jsonl): the AgentBoard ids play its instances and score "
        "progress with its annotations (default: $AGENTGYM_TEXT_AGENTBOARD_DATA, else this package's own)",
    )
    command.add_argument("--seed", type=int, default=0, help="base seed of the run's resets (default 0)")
    command.add_argument("--repeats", type=int, default=1, help="episodes per task")
    command.add_argument(
        "--stop-after-repeats",
        type=int,
        default=None,
        help="end an episode after this many repeated actions in a row (finish: repetition)",
    )
    command.add_argument("--out", default=None, help="run folder (default runs/<agent>); reruns resume it")
    again = command.add_mutually_exclusive_group()
    again.add_argument("--rerun", action="store_true", help="play every episode again (the folder starts over)")
    again.add_argument(
        "--rerun-failed",
        action="store_true",
        help="also play again the episodes that did not succeed (agent_error ones always are)",
    )
    command.add_argument("--no-report", action="store_true", help="do not write report.html")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.add_argument("--wandb", action="store_true", help="also log to Weights & Biases (needs wandb)")
    command.add_argument("--wandb-project", default="agentgym-text", help="with --wandb: the project name")
    LLMConfig.add_arguments(command.add_argument_group("openai agent (any OpenAI-compatible endpoint)"))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command][0](args)
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `agentgym-text tasks ID | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
