"""``agentgym-text``: list envs, play one in the terminal, evaluate agents, write reports, run the demo."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import gymnasium as gym

import agentgym_text
from agentgym_text.core.info import HELP_ACTION

__all__ = ["main", "COMMANDS"]


def _cmd_list(args: argparse.Namespace) -> int:
    entries = agentgym_text.list_envs()
    width = max(len(entry.env_id) for entry in entries)
    print(f"{'env id':<{width}}  {'category':<9} {'tasks':>5}  needs")
    for entry in entries:
        print(f"{entry.env_id:<{width}}  {entry.category:<9} {entry.task_count:>5}  {entry.requires}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    env = gym.make(args.env_id)
    options = {"task_id": args.task} if args.task else None
    obs, info = env.reset(seed=args.seed, options=options)
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


def _run_and_report(agent_name: str, settings: dict, config, out: Path, *, report: bool = True) -> int:
    from agentgym_text.agents import make_agent
    from agentgym_text.eval.compare import load_run
    from agentgym_text.eval.runner import run_eval

    agent = make_agent(agent_name, **settings)
    try:
        result = run_eval(agent, config, out)
    finally:
        agent.close()
    print(f"{agent_name}: {result.finished} episodes played, {result.skipped} already done, "
          f"{result.planned} planned -> {out}")
    for error in result.errors:
        print(f"  error: {error}", file=sys.stderr)
    if (out / "episodes.jsonl").exists():
        run = load_run(out)
        (out / "metrics.json").write_text(json.dumps(run.metrics, indent=2, ensure_ascii=False) + "\n")
        overall = run.metrics["overall"] or {}
        from agentgym_text.eval.compare import fmt_rate

        print(f"  success {fmt_rate(overall.get('success_rate'))}%  progress {fmt_rate(overall.get('progress_rate'))}%"
              f"  grounding {fmt_rate(overall.get('grounding_accuracy'))}%  (macro over envs)")
        if report:
            from agentgym_text.eval.report import write_report

            print(f"  report: {write_report([out])}")
    return 0 if result.complete else 1


def _cmd_eval(args: argparse.Namespace) -> int:
    """Roll an agent out over task sets; results go to --out (resumable)."""
    from agentgym_text.eval.runner import EvalConfig

    settings: dict = {}
    if args.agent == "random":
        settings = {"seed": args.seed}
    elif args.agent == "openai":
        settings = {
            "model": args.model, "base_url": args.base_url, "api_key": args.api_key, "style": args.style,
            "temperature": args.temperature, "max_tokens": args.max_tokens, "history_tokens": args.history_tokens,
            "context_window": args.context_window, "timeout": args.timeout, "max_retries": args.max_retries,
        }
        if not args.model:
            print("--model is required with --agent openai", file=sys.stderr)
            return 2
    config = EvalConfig(
        envs=args.envs, tasks=args.tasks, max_steps=args.max_steps, num_envs=args.num_envs,
        vector_mode=args.vector_mode, seed=args.seed, repeats=args.repeats, progress_bar=not args.quiet,
        stop_after_repeats=args.stop_after_repeats,
    )
    out = Path(args.out or f"runs/{args.agent}")
    try:
        code = _run_and_report(args.agent, settings, config, out, report=not args.no_report)
    except ValueError as error:  # unknown env id, a run folder holding another agent's run, bad settings
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.wandb:
        from agentgym_text.eval.wandb_log import log_to_wandb

        log_to_wandb(out, project=args.wandb_project)
    return code


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
    from agentgym_text.eval.report import write_report
    from agentgym_text.eval.runner import EvalConfig

    out = Path(args.out)
    config = EvalConfig(envs="all", tasks=args.tasks, max_steps=args.max_steps, num_envs=args.num_envs,
                        progress_bar=not args.quiet)
    folders = []
    for agent_name in ("expert", "random"):
        _run_and_report(agent_name, {}, config, out / agent_name, report=False)
        if (out / agent_name / "episodes.jsonl").exists():
            folders.append(out / agent_name)
    if not folders:
        print("no episode finished; nothing to report", file=sys.stderr)
        return 1
    path = write_report(folders, out=out / "report.html")
    print(f"report: {path.resolve()}")
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "list": (_cmd_list, "list every env id with its category and task count"),
    "play": (_cmd_play, "play an env in the terminal"),
    "eval": (_cmd_eval, "evaluate an agent (expert, random, openai) over task sets"),
    "report": (_cmd_report, "write the HTML report of one run or compare several"),
    "demo": (_cmd_demo, "expert and random agents on a quick split of every env, then the report"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentgym-text", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (_, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        if name == "play":
            command.add_argument("env_id")
            command.add_argument("--task", default=None, help="a task_id (default: drawn by --seed)")
            command.add_argument("--seed", type=int, default=None)
        elif name == "eval":
            _add_eval_arguments(command)
        elif name == "report":
            command.add_argument("runs", nargs="+", help="run folders written by `agentgym-text eval`")
            command.add_argument("--out", default=None, help="HTML path (default: <run>/report.html, or "
                                 "<parent>/compare-<a>-vs-<b>.html for several runs)")
        elif name == "demo":
            command.add_argument("--out", default="runs/demo")
            command.add_argument("--tasks", default="quick")
            command.add_argument("--max-steps", type=int, default=None)
            command.add_argument("--num-envs", type=int, default=4)
            command.add_argument("--quiet", action="store_true")
    return parser


def _add_eval_arguments(command: argparse.ArgumentParser) -> None:
    import os

    command.add_argument("--agent", required=True, choices=("expert", "random", "openai"))
    command.add_argument("--envs", default="all", help="'all' or comma-separated env ids")
    command.add_argument("--tasks", default="quick",
                         help="'all', 'quick' (2 easy + 2 hard per env), N (first N), 'i:j', or task ids")
    command.add_argument("--max-steps", type=int, default=None, help="step budget (default: per task)")
    command.add_argument("--num-envs", type=int, default=1, help="sub-envs per vector env (concurrent episodes)")
    command.add_argument("--vector-mode", choices=("sync", "async"), default="sync")
    command.add_argument("--seed", type=int, default=0)
    command.add_argument("--repeats", type=int, default=1, help="episodes per task")
    command.add_argument("--stop-after-repeats", type=int, default=None,
                         help="end an episode after this many repeated actions in a row (finish: repetition)")
    command.add_argument("--out", default=None, help="run folder (default runs/<agent>); reruns resume it")
    command.add_argument("--no-report", action="store_true")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.add_argument("--wandb", action="store_true", help="also log to Weights & Biases (needs wandb)")
    command.add_argument("--wandb-project", default="agentgym-text")
    llm = command.add_argument_group("openai agent")
    llm.add_argument("--model", default=None)
    llm.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"))
    llm.add_argument("--api-key", default=os.environ.get("OPENAI_API_KEY"))
    llm.add_argument("--style", choices=("vanilla", "react"), default="vanilla")
    llm.add_argument("--temperature", type=float, default=0.0)
    llm.add_argument("--max-tokens", type=int, default=256)
    llm.add_argument("--history-tokens", type=int, default=3000)
    llm.add_argument("--context-window", type=int, default=None)
    llm.add_argument("--timeout", type=float, default=60.0)
    llm.add_argument("--max-retries", type=int, default=6)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return COMMANDS[args.command][0](args)


if __name__ == "__main__":
    sys.exit(main())
