"""Record the requests AgentBoard's WebShop and tool runners send (a reference for tests, never a runtime dependency).

AgentBoard's UNMODIFIED ``agentboard/tasks/webshop.py`` (``EvalWebshop.evaluate_env``) and ``agentboard/tasks/tool.py``
(``EvalTool.evaluate_env``), with its agents, LLM class and config loader as in ``record_agentboard_protocol.py``
(whose stubs, literal swap and scripted model this recorder reuses), run on the fake checkout of
``tests/support/agentboard_checkout_web_tools.py``, fed this suite's observations; every request is written to
``tests/reference/agentboard_protocol_web_tools.json`` and ``tests/test_agentboard_protocol_web_tools_replay.py``
checks that the ``agentboard`` protocol sends the same, byte for byte.

Stand-ins: the replaying envs answer the recorded observations (WebShop's first ``reset[]`` with this suite's first
page; the sheet env's ``reset_question_env`` with AgentBoard's (action, "You are now in <sheet>\\n" + values) pair,
the values from this suite's first text); ``requests``/``bs4``/``dotenv``/``ToolDataset`` are empty stubs and
``tool.py``'s ``time.sleep`` for sheets is not waited. The runners are made without ``__init__``. WebArena's
``webbrowse.py`` is not recorded here (its loop needs AgentBoard's browser env package).

Usage::

    PYTHONPATH=. python tests/reference/record_agentboard_protocol_web_tools.py --play
    PYTHONPATH=. python tests/reference/record_agentboard_protocol_web_tools.py --setup --git-dir PATH
    /tmp/agentboard-proto-venv2/bin/python tests/reference/record_agentboard_protocol_web_tools.py --record
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import types
from pathlib import Path

import record_agentboard_protocol as base  # sibling: this folder is on sys.path
from agentboard_source import copy_files, main, make_venv

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "agentboard_protocol_web_tools.json"
VENV = Path("/tmp/agentboard-proto-venv2")
SRC = Path("/tmp/agentboard-proto-src2")
FAKE = SRC / "fake-checkout"
FILES = base.FILES + (
    "agentboard/tasks/webshop.py",
    "agentboard/tasks/tool.py",
    "agentboard/utils/tool/helpers.py",
    "agentboard/utils/common_exception.py",
)
MODEL = base.MODEL
TURNS = 8
PLAN = (
    ("AgentBoard/WebShop-v0", None, "vanilla", 3),
    ("AgentBoard/ToolQuery-v0", "academia", "vanilla", 1),
    ("AgentBoard/ToolQuery-v0", "movie", "vanilla", 1),
    ("AgentBoard/ToolQuery-v0", "weather", "vanilla", 1),
    ("AgentBoard/ToolQuery-v0", "academia", "react", 1),
    ("AgentBoard/ToolOperation-v0", "todo", "vanilla", 2),
    ("AgentBoard/ToolOperation-v0", "sheet", "vanilla", 1),
)
"""(env id, tool, style, episodes) of the recorded episodes."""
TOOL_FORMATS = (
    "{a}",
    "Action: {a}",
    "I will call a tool.\nAction: {a}",
    "I am not sure what to do.",
    "  {a}  ",
    "{a}\nThen I will read the answer.",
    "Action: {a}",
    "{a}",
)
"""The tool episodes' replies (tool.py reads them unparsed for the config's model): bare, prefixed, multi-line, one
without 'with Action Input:' (tool.py's format error), padded."""


SHOP_FORMATS = (
    "{a}",
    "Action: {a}",
    "I will go on with this: {a}",
    "I need to look.\nAction: {a}",
    "The next action is to {a}",
    "Next: {a} and then I compare prices",
    "{a}\nThen I will keep looking.",
    "'{a}'",
)
"""WebShop's replies: bare, prefixed, ones only ``clean_action`` cuts (no 'action' for the parser), multi-line."""


def _action(rng: random.Random, info: dict) -> str:
    listed = [a for a in info.get("admissible_actions") or [] if "finish" not in a and "check" not in a]
    return rng.choice(listed) if listed else "check_valid_actions with Action Input: {}"


def play(checkout: Path) -> list[dict]:
    import gymnasium as gym

    from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
    from agentgym_text.agents.protocols.base import Opening

    episodes = []
    index = 0
    for env_id, tool, style, count in PLAN:
        for seed in range(count):
            index += 1
            rng = random.Random(index)
            protocol = AgentBoardProtocol(checkout, style=style, model=MODEL)
            env = gym.make(env_id, **({"tool": tool} if tool else {}))
            observation, info = env.reset(seed=seed)
            opening = {
                "goal": info["goal"],
                "observation": observation,
                "info": {key: info[key] for key in ("goal", "task_id", "first_observation")},
            }
            dialogue = protocol.begin(Opening(env_id, info["goal"], observation, opening["info"], "x"))
            turns = []
            for turn in range(TURNS):
                action = _action(rng, info)
                if env_id == "AgentBoard/WebShop-v0":
                    replies = [SHOP_FORMATS[turn % 8].format(a=action)]
                elif style == "react":
                    replies = [r.format(a=action) for r in base.REACT_TURNS[turn % len(base.REACT_TURNS)]]
                else:
                    replies = [TOOL_FORMATS[turn % 8].format(a=action)]
                reading = None
                for reply in replies:
                    dialogue.request()
                    reading = dialogue.read(reply)
                assert reading is not None and not reading.again
                if reading.action is None:
                    observation, terminated, info_seen = "", False, {}
                else:
                    observation, _, terminated, truncated, info = env.step(reading.action)
                    info_seen = info
                seen = dialogue.observe(observation, info_seen)
                turns.append(
                    {"replies": replies, "env_action": reading.action, "observation": seen, "done": bool(terminated)}
                )
                if terminated:
                    break
            env.close()
            episodes.append(
                {"env_id": env_id, "task_id": info["task_id"], "style": style, "opening": opening, "turns": turns}
            )
            print(f"played {env_id} {info['task_id']} ({style}): {len(turns)} turns", file=sys.stderr)
    return episodes


def setup(git_dir: str) -> None:
    sys.path.insert(0, str(REPO))
    from dataclasses import asdict

    from agentgym_text.agents.protocols.agentboard.checkout import Checkout
    from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout

    make_venv(VENV, base.PINS)
    copy_files(git_dir, FILES, SRC)
    write_web_tools_checkout(FAKE)
    real, fake = Checkout(SRC), Checkout(FAKE)
    for react, relative, cls in ((False, "vanilla_agent.py", "VanillaAgent"), (True, "react_agent.py", "ReactAgent")):
        swaps = {value: asdict(fake.literals(react))[name] for name, value in asdict(real.literals(react)).items() if value}
        base._swap_literals(SRC / "agentboard" / "agents" / relative, cls, swaps)
    # tool.py's own literals (init_obs, the format error) are swapped for the fake checkout's the same way
    from agentgym_text.agents.protocols.agentboard.tool import tool_texts

    ours, theirs = tool_texts(fake), tool_texts(real)
    path = SRC / "agentboard" / "tasks" / "tool.py"
    text = path.read_text()
    for name in ("weather", "other", "format_error"):
        old = getattr(theirs, name)
        for quoted in (json.dumps(old), repr(old)):
            if quoted in text:
                text = text.replace(quoted, repr(getattr(ours, name)))
                break
        else:
            raise SystemExit(f"tool.py's {name} literal not found as written")
    path.write_text(text)
    print(f"AgentBoard's files in {SRC}, the fake checkout in {FAKE}, the venv in {VENV}")


class _ShopReplay:
    def __init__(self, episode: dict):
        self.episode = episode
        self.turns = list(episode["turns"])
        self.actions: list[str] = []
        self.sub_reward = self.reward = 0.0

    def step(self, idx, action):
        if action == "reset[]" and not self.actions:
            self.actions.append(action)
            return self.episode["opening"]["info"]["first_observation"], 0.0, False, 0.0, True
        self.actions.append(action)
        turn = self.turns.pop(0)
        return turn["observation"], 0.0, turn["done"], 0.0, True

    def get_goal(self):
        return self.episode["opening"]["goal"]


class _ToolReplay:
    def __init__(self, episode: dict):
        self.turns = list(episode["turns"])
        self.first = episode["opening"]["info"]["first_observation"]
        self.actions: list[str] = []
        self.reward = 0.0
        self.weather_toolkits = types.SimpleNamespace()
        self.todo_toolkits = types.SimpleNamespace()

    def step(self, action, action_path=None):
        self.actions.append(action)
        while self.turns and self.turns[0]["env_action"] is None:  # turns the runner answered without the env
            self.turns.pop(0)
        turn = self.turns.pop(0)
        return turn["observation"], 0.0, turn["done"], {}

    def reset_question_env(self, question, sheet_name):  # sheet_env.py's pair, the values from our first text
        values = self.first.split(f"You are now in {sheet_name}\n", 1)[1]
        return f"open_sheet with Action Input: {{'name': '{sheet_name}'}}", f"You are now in {sheet_name}\n" + values


def record(args: argparse.Namespace) -> None:
    root = SRC / "agentboard"
    sys.path.insert(0, str(root))
    base._stubs(root)
    for name in ("requests", "bs4", "bs4.element", "dotenv", "utils.tool.data_utils"):
        sys.modules[name] = types.ModuleType(name)
    sys.modules["requests"].head = lambda *a, **k: None
    sys.modules["bs4"].BeautifulSoup = object
    sys.modules["bs4.element"].Comment = object
    sys.modules["dotenv"].load_dotenv = lambda *a, **k: None
    sys.modules["utils.tool.data_utils"].ToolDataset = object
    os.environ["OPENAI_API_KEY"] = "not-used"
    os.environ["PROJECT_PATH"] = str(FAKE)
    import ast
    import importlib
    import re

    import yaml
    from common.registry import registry

    importlib.import_module("llm.openai_gpt")
    agents = importlib.import_module("agents")
    loader: dict = {"re": re, "os": os, "yaml": yaml}
    tree = ast.parse((root / "eval_main.py").read_text())
    wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("path_constructor", "load_config")]
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "eval_main.py", "exec"), loader)
    options = argparse.Namespace(log_path="", project_name="", baseline_dir="", wandb=False, max_num_steps=30)
    llm_config, agent_config, env_config, _ = loader["load_config"](
        str(FAKE / "eval_configs" / "main_results_all_tasks.yaml"), options
    )
    data = json.loads(OUT.read_text())
    for episode in data["episodes"]:
        shop = episode["env_id"] == "AgentBoard/WebShop-v0"
        task = "webshop" if shop else ("tool-query" if "Query" in episode["env_id"] else "tool-operation")
        module = importlib.import_module("tasks.webshop" if shop else "tasks.tool")
        agent_task_config = agent_config.copy()
        for key in env_config[task]:
            if key in ["check_actions", "check_inventory", "init_prompt_path"]:
                agent_task_config[key] = env_config[task][key]
        if episode["style"] == "react":
            agent_task_config["name"] = "ReactAgent"
        model_config = dict(llm_config[MODEL])
        if not shop:  # tool.py's __init__ passes the LLM entry's use_parser on
            agent_task_config["use_parser"] = model_config.get("use_parser", True)
        llm = registry.get_llm_class(model_config["name"]).from_config(model_config)
        replies = [reply for turn in episode["turns"] for reply in turn["replies"]]
        _Calls = base._Calls
        _Calls.requests = []
        if shop:
            runner = module.EvalWebshop.__new__(module.EvalWebshop)
            runner.max_num_steps = len(episode["turns"]) + 1
            runner.difficulties = ["easy"]
            env = _ShopReplay(episode)
            _Calls.replies = replies + ["click[Back to Search]"]  # the last request's reply is never executed
        else:
            runner = module.EvalTool.__new__(module.EvalTool)
            runner.run_config = {"max_num_steps": len(episode["turns"])}
            env = _ToolReplay(episode)
            runner.env_config = {"env": env}
            tool = episode["task_id"].rsplit("-", 1)[0]
            goal = episode["opening"]["goal"]
            place = {"current_date": "2023-01-01", "current_location": "Nowhere"}
            runner.dataset = types.SimpleNamespace(
                goals=[goal], ground_truths=[None], ground_truth_subgoals=[[]], tools=[tool], goal_types=[0],
                difficulties=["easy"], init_configs=[place], action_path=[[]],
            )  # fmt: skip
            runner.init_prompt_path = agent_task_config["init_prompt_path"]  # EvalTool.__init__'s two lines
            agent_task_config["init_prompt_path"] = None
            module.time = types.SimpleNamespace(sleep=lambda seconds: None)
            _Calls.replies = replies
        runner.agent = agents.load_agent(agent_task_config["name"], agent_task_config, llm)
        runner.agentboard = sys.modules["utils.logging.logger"].TaskLogger()
        runner.env = env
        runner.evaluate_env("fixed_0" if shop else 0)
        assert not _Calls.replies, f"{episode['task_id']}: {len(_Calls.replies)} replies left unused"
        episode["requests"] = copy.deepcopy(_Calls.requests)
        episode["env_actions"] = env.actions
        print(f"recorded {episode['task_id']} ({episode['style']}): {len(_Calls.requests)} requests", file=sys.stderr)
    data["commit"] = (SRC / "COMMIT").read_text().strip()
    OUT.write_text(json.dumps(data, indent=1) + "\n")


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--play", action="store_true", help="play the episodes (our venv, PYTHONPATH=the repo)")


if __name__ == "__main__":
    arguments = main(__doc__, setup, record, _options)
    if arguments.play:
        import tempfile

        sys.path.insert(0, str(REPO))
        from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout

        with tempfile.TemporaryDirectory() as folder:
            played = play(write_web_tools_checkout(Path(folder)))
        about = (
            "Requests of AgentBoard's WebShop and tool runners (unmodified but for the prompt literals) on the fake "
            "checkout of tests/support/agentboard_checkout_web_tools.py, fed this suite's observations and scripted "
            "replies, written by tests/reference/record_agentboard_protocol_web_tools.py"
        )
        OUT.write_text(json.dumps({"about": about, "model": MODEL, "episodes": played}, indent=1) + "\n")
