"""``agentgym-text``: list envs, play one in the terminal, run the demo."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

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


def _cmd_demo(args: argparse.Namespace) -> int:
    """The expert on the first task of every env: a quick end-to-end check of the installation."""
    for entry in agentgym_text.list_envs():
        env = gym.make(entry.env_id)
        obs, info = env.reset(seed=0, options={"task_index": 0})
        terminated = truncated = False
        while not (terminated or truncated):
            obs, _, terminated, truncated, info = env.step(env.unwrapped.expert_action() or "")
        print(f"{entry.env_id:<32} {info['task_id']:<28} steps={info['step']:<4} "
              f"progress={info['progress_rate']:.2f} finish={info['finish_reason']}")
        env.close()
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "list": (_cmd_list, "list every env id with its category and task count"),
    "play": (_cmd_play, "play an env in the terminal"),
    "demo": (_cmd_demo, "run the expert once on every env"),
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return COMMANDS[args.command][0](args)


if __name__ == "__main__":
    sys.exit(main())
