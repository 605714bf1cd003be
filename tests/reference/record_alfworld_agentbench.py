"""Record AgentBench v0.2's own ALFWorld task on games generated here (a reference for tests, never a runtime dependency).

Runs AgentBench's ``src/server/tasks/alfworld/{task.py, environment.py, utils.py}`` UNMODIFIED, with its
``src/server/task.py`` and ``src/typings``, taken from THUDM/AgentBench at v0.2 (commit 41e6807), in a separate virtual
environment with alfworld 0.4.2, textworld 1.7.0, nltk and pydantic 1 from PyPI, on the first two games of each type
of ``AgentBench/ALFWorld-v0``'s default set, exported in ALFWorld's layout under a data root with a split file in
AgentBench's format (``data/alfworld/standard.json``) that AgentBench's ``ALFWorld`` task loads itself. A scripted
agent stands in for the model (the session's ``action``): per game, our expert's plan with slips (a near-miss
command, an unknown command, a reply with a thought, an upper-case command) and a seeded random walk over the
listed commands (near misses, thoughts, repeated replies, a reply without ``ACTION:``). Every message AgentBench
injects, the command it played, and the sample's status and result go to ``tests/reference/alfworld_agentbench.json``,
which ``tests/test_alfworld_agentbench.py`` replays on ``AgentBench/ALFWorld-v0`` with ``strict=True``.

Two harness steps, neither changing AgentBench's files: ``alfworld.agents.modules.generic`` (imported by
AgentBench's ``environment.py``, unused on this path) needs torch, so a stub ``torch`` module stands in for it; and
``src/server/tasks/__init__.py``'s siblings are not imported (the task module is imported on its own).

Usage (three stages; the first and last run inside the reference venv, the middle one in ours)::

    python tests/reference/record_alfworld_agentbench.py --setup --git-dir PATH   # a git mirror of THUDM/AgentBench
    PYTHONPATH=. .venv/bin/python tests/reference/record_alfworld_agentbench.py --export
    /tmp/agentbench-hh-venv/bin/python tests/reference/record_alfworld_agentbench.py --record
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "alfworld_agentbench.json"
VENV = Path("/tmp/agentbench-hh-venv")
SRC = Path("/tmp/agentbench-hh-src")
WORK = Path("/tmp/agentbench-hh-work")
COMMIT = "41e6807"
"""AgentBench v0.2."""
TASK_DIR = "src/server/tasks/alfworld"
FILES = (
    "src/server/task.py",
    "src/typings/__init__.py",
    "src/typings/config.py",
    "src/typings/exception.py",
    "src/typings/general.py",
    "src/typings/output.py",
    "src/typings/request.py",
    "src/typings/status.py",
    "src/utils/__init__.py",
    "src/utils/max_flow.py",
    "src/utils/others.py",
    "src/utils/rules.py",
    f"{TASK_DIR}/task.py",
    f"{TASK_DIR}/environment.py",
    f"{TASK_DIR}/utils.py",
    f"{TASK_DIR}/configs/base_config.yaml",
    f"{TASK_DIR}/prompts/alfworld_multiturn_plan_first.json",
    "configs/tasks/alfworld.yaml",
)
PINS = ("alfworld==0.4.2", "textworld[pddl]==1.7.0", "PyYAML", "jsonlines", "nltk", "pydantic<2", "gym", "tqdm")
PER_TYPE = 2
"""Games recorded per task type (the first ones of the default set)."""
MAX_STEP = 35
"""AgentBench v0.2's ``max_step`` (``configs/tasks/alfworld.yaml``)."""
SPLIT_KEYS = {
    "pick": "pick_and_place",
    "clean": "pick_clean_then_place",
    "heat": "pick_heat_then_place",
    "cool": "pick_cool_then_place",
    "look": "look_at_obj",
    "picktwo": "pick_two_obj",
}


# ---- --setup ------------------------------------------------------------------------------------------------------
def setup(git_dir: str) -> None:
    if not (VENV / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", *PINS], check=True)
    for name in FILES:
        path = SRC / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = subprocess.run(
            ["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:{name}"], check=True, capture_output=True
        ).stdout
        path.write_bytes(text)
    (SRC / "COMMIT").write_text(COMMIT + "\n")


# ---- --export: our venv -------------------------------------------------------------------------------------------
def export() -> None:
    from agentgym_text.envs.alfworld.engine import World
    from agentgym_text.envs.alfworld.expert import expert_command
    from agentgym_text.envs.alfworld.gamefile import _grammar_text, domain_text, export_game, game_name
    from agentgym_text.envs.alfworld.tasks import agentbench_tasks, load_world

    tasks, games = agentbench_tasks(MAX_STEP)
    data = WORK / "data"
    (data / "logic").mkdir(parents=True, exist_ok=True)
    (data / "logic" / "alfred.pddl").write_text(domain_text())
    (data / "logic" / "alfred.twl2").write_text(_grammar_text())
    split: dict[str, list[str]] = {key: [] for key in SPLIT_KEYS.values()}
    plans, per_type = [], {}
    for task in tasks:
        short = task.params["task_type"]
        if per_type.get(short, 0) >= PER_TYPE:
            continue
        per_type[short] = per_type.get(short, 0) + 1
        world = load_world(games, task.task_id)
        relative = f"json_2.1.1/valid_unseen/{game_name(world)}"
        export_game(world, data / relative)
        split[SPLIT_KEYS[short]].append(f"{relative}/game.tw-pddl")
        engine, plan = World(world), []
        engine.reset()
        while (command := expert_command(engine)) is not None:
            engine.step(command)
            plan.append(command)
        plans.append({"task_id": task.task_id, "name": game_name(world), "plan": plan})
    (WORK / "data" / "alfworld").mkdir(parents=True, exist_ok=True)
    (WORK / "data" / "alfworld" / "standard.json").write_text(json.dumps(split, indent=1))
    (WORK / "plans.json").write_text(json.dumps(plans, indent=1))
    print(f"wrote {len(plans)} games, the split and the plans to {WORK}")


# ---- --record: the reference venv ---------------------------------------------------------------------------------
def _listed(observation: str) -> list[str]:
    return [line for line in observation.split("AVAILABLE ACTIONS: ", 1)[-1].split("\n") if line]


def _near_miss(command: str) -> str:
    words = command.split()
    return " ".join(words[:2] + ["the"] + words[2:]) if len(words) > 2 else command + " now"


class Script:
    """The stand-in agent: the reply for each step, from the plan or a seeded walk over the listed commands."""

    def __init__(self, plan: list[str], walk: bool, seed: int):
        self.plan, self.walk, self.rng, self.step, self.last = list(plan), walk, random.Random(seed), 0, ""

    def reply(self, observation: str) -> str:
        self.step += 1
        if self.walk:
            roll = self.rng.random()
            listed = [c for c in _listed(observation) if c != "help"]  # our help action answers "help" itself
            command = self.rng.choice(listed)
            if roll < 0.08 and self.last:
                text = self.last
            elif roll < 0.1:
                text = f"I will {command}."
            elif roll < 0.25:
                text = f"ACTION: {_near_miss(command)}"
            elif roll < 0.4:
                text = f"THOUGHT: next I try {command}.\n ACTION: {command}\nand then more."
            else:
                text = f"ACTION: {command}"
        elif self.step == 1:
            text = "THOUGHT: first I look around.\n ACTION: look"
        elif self.step == 2:
            text = "ACTION: dance with the broom"
        elif self.step == 4:
            text = f"ACTION: {self.plan.pop(0).upper()}" if self.plan else "ACTION: inventory"
        elif self.step == 3:
            text = f"ACTION: {_near_miss(self.plan[0])}" if self.plan else "ACTION: inventory"
            self.plan.pop(0)
        else:
            text = f"ACTION: {self.plan.pop(0)}" if self.plan else "ACTION: inventory"
        self.last = text
        return text


def record(args) -> None:
    from importlib.metadata import version

    sys.modules.setdefault("torch", types.ModuleType("torch"))  # alfworld's generic.py imports it; unused here
    sys.path.insert(0, str(SRC))
    for package, folder in (
        ("src", SRC / "src"),
        ("src.server", SRC / "src/server"),
        ("src.server.tasks", SRC / "src/server/tasks"),
    ):
        stub = types.ModuleType(package)
        stub.__path__ = [str(folder)]
        sys.modules[package] = stub
    from src.server.task import Session  # noqa: E402  (AgentBench's, unmodified)
    from src.server.tasks.alfworld.task import ALFWorld  # noqa: E402
    from src.typings import AgentOutput  # noqa: E402

    plans = json.loads((WORK / "plans.json").read_text())
    os.chdir(WORK)  # AgentBench reads data/alfworld/<split>.json from the working folder
    task = ALFWorld(
        name="alfworld-std",
        data_path=str(WORK / "data"),
        config_path=str(SRC / TASK_DIR / "configs/base_config.yaml"),
        prompts_path=str(SRC / TASK_DIR / "prompts/alfworld_multiturn_plan_first.json"),
        split="standard",
        max_step=MAX_STEP,
    )
    episodes = []
    for index, game in enumerate(plans):
        assert task.data_files[index].endswith(game["name"] + "/game.tw-pddl"), (task.data_files[index], game)
        for walk in (False, True):
            script = Script(game["plan"], walk, 2 * index + walk)
            session = Session()
            shown: list[str] = []
            replies: list[str] = []
            inject = session.inject

            def capture(item, inject=inject, shown=shown):
                if isinstance(item, dict) and item.get("role") == "user":
                    shown.append(item["content"])
                inject(item)

            async def action(*_, script=script, shown=shown, replies=replies):
                replies.append(script.reply(shown[-1]))
                return AgentOutput(content=replies[-1])

            session.inject = capture
            session.action = action
            outcome = asyncio.run(task.start_sample(index, session))
            log = outcome.result["log"]
            first = outcome.result["init_prompt"]
            observations = shown[shown.index(first) + 1 :]
            episodes.append(
                {
                    "task_id": game["task_id"],
                    "name": game["name"],
                    "walk": walk,
                    "init_prompt": first,
                    "replies": replies,
                    "played": [entry["action"] for entry in log],
                    "observations": observations,
                    "status": str(outcome.status.value),
                    "result": bool(outcome.result["result"]),
                }
            )
    about = (
        f"AgentBench v0.2's ALFWorld task (THUDM/AgentBench {COMMIT}, src/server/tasks/alfworld, unmodified) with "
        f"alfworld {version('alfworld')}, textworld {version('textworld')}, nltk {version('nltk')}, on {len(plans)} "
        "of our generated games (the first two of each type of AgentBench/ALFWorld-v0's default set): the expert's "
        "plan with slips and a seeded random walk per game, written by tests/reference/record_alfworld_agentbench.py"
    )
    body = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)
    OUT.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{body}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {OUT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setup", action="store_true", help="create the reference venv and copy AgentBench's files")
    parser.add_argument("--export", action="store_true", help="write games, the split and plans (our venv)")
    parser.add_argument("--record", action="store_true", help="record (run with the reference venv's python)")
    parser.add_argument("--git-dir", default=None, help="a git mirror of THUDM/AgentBench (for --setup)")
    args = parser.parse_args()
    if args.setup:
        if not args.git_dir or not Path(args.git_dir).is_dir():
            parser.error("--setup needs --git-dir, a git mirror of THUDM/AgentBench holding commit 41e6807")
        setup(args.git_dir)
    if args.export:
        export()
    if args.record:
        record(args)


if __name__ == "__main__":
    main()
