"""Record the requests AgentBoard's WebArena runner sends (a reference for tests, never a runtime dependency).

AgentBoard's UNMODIFIED ``agentboard/tasks/webbrowse.py`` (``EvalWebBrowse.evaluate_env``: the state template, the
``agent.reset``/``agent.update`` calls, the loop) and the ``_extract_action`` of
``environment/browser_env/help_function.py`` (taken from AgentBoard's file with ``ast``), with the agents, LLM class
and config loader as in ``record_agentboard_protocol.py``, run on the fake checkout of
``tests/support/agentboard_checkout_web_tools.py``; every request is written to
``tests/reference/agentboard_protocol_webarena.json`` and ``tests/test_agentboard_protocol_webarena_replay.py`` checks
that the ``agentboard`` protocol sends the same, byte for byte.

What does NOT run: AgentBoard's browser env package (``environment/browser_env``: playwright, the accessibility tree,
the action builders, the evaluators, ``early_stop``) cannot run offline here. Stand-ins: a replaying env whose
``state`` holds this suite's page text and URL (split out of our env's "WINDOWED PAGE:{...}\\nURL: ..." text); the
action builders are stubs (an ``id`` action, ``stop`` for "stop ..."), ``map_url_to_real``/``map_url_to_local`` are
the identity (this suite's env shows the real-world URLs already), ``early_stop`` never stops (with the stand-in
config's thresholds, 5 as AgentBoard's, no recorded episode reaches one; the rule itself is tested on its own in
``tests/test_agentboard_protocol_web_tools.py``), evaluators score 0;
the replaying env's ``step`` returns its ``state["observation"]`` itself, so the runner's parse-error overwrite
(``obs["text"] = error_obs``) shows in the next state, as the facts of AgentBoard's runs say. ``_extract_action``'s
parse-error message is swapped for the fake checkout's. The actions noted are what AgentBoard's ``_extract_action``
takes from each reply (None: its parse error).

Usage::

    PYTHONPATH=. python tests/reference/record_agentboard_protocol_webarena.py --play
    PYTHONPATH=. python tests/reference/record_agentboard_protocol_webarena.py --setup --git-dir PATH
    /tmp/agentboard-proto-venv3/bin/python tests/reference/record_agentboard_protocol_webarena.py --record
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import random
import sys
import types
from pathlib import Path

import record_agentboard_protocol as base  # sibling: this folder is on sys.path
import record_agentboard_protocol_web_tools as web_tools
from agentboard_source import copy_files, main, make_venv

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "agentboard_protocol_webarena.json"
VENV = Path("/tmp/agentboard-proto-venv3")
SRC = Path("/tmp/agentboard-proto-src3")
FAKE = SRC / "fake-checkout"
ENV_ID = "AgentBoard/WebArena-v0"
FILES = base.FILES + (
    "agentboard/tasks/webbrowse.py",
    "agentboard/environment/browser_env/help_function.py",
)
MODEL = base.MODEL
TURNS = 8
EPISODES = 3
FORMATS = (
    "Let's think step by step. The next action I will perform is @{a}@",
    "Action: @{a}@",
    "I will look around first.\nAction: @{a}@",
    "{a}",
    "@{a}@",
    "@{a}@\nThen I will read the page again.",
    "Action: I do @{a}@ now",
    "  @{a}@  ",
)
"""The replies: wrapped in '@' after a sentence, prefixed, multi-line, one without '@' (a parse error), padded."""
SPLIT = "\n}\nURL: "


def _action(rng: random.Random, info: dict) -> str:
    listed = [a for a in info.get("admissible_actions") or [] if not a.startswith("stop")]
    return rng.choice(listed) if listed else "scroll [down]"


def play(checkout: Path) -> list[dict]:
    import gymnasium as gym

    from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
    from agentgym_text.agents.protocols.base import Opening

    episodes = []
    for seed in range(EPISODES):
        rng = random.Random(100 + seed)
        protocol = AgentBoardProtocol(checkout, style="vanilla", model=MODEL)
        env = gym.make(ENV_ID)
        observation, info = env.reset(seed=seed)
        opening = {
            "goal": info["goal"],
            "observation": observation,
            "info": {key: info[key] for key in ("goal", "task_id", "first_observation")},
        }
        dialogue = protocol.begin(Opening(ENV_ID, info["goal"], observation, opening["info"], "x"))
        turns = []
        for turn in range(TURNS):
            reply = FORMATS[turn % len(FORMATS)].format(a=_action(rng, info))
            dialogue.request()
            reading = dialogue.read(reply)
            if reading.action is None:  # AgentBoard's parse error: the env is given nothing
                seen, terminated, truncated = dialogue.observe("", {}), False, False
            else:
                observation, _, terminated, truncated, info = env.step(reading.action)
                seen = dialogue.observe(observation, info)
            assert SPLIT in seen
            turns.append({"replies": [reply], "env_action": reading.action, "observation": seen, "done": terminated})
            if terminated or truncated:
                break
        env.close()
        episodes.append({"env_id": ENV_ID, "task_id": info["task_id"], "style": "vanilla", "opening": opening,
                         "turns": turns})  # fmt: skip
        print(f"played {info['task_id']}: {len(turns)} turns", file=sys.stderr)
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
    ours = asdict(fake.literals(False))
    swaps = {value: ours[name] for name, value in asdict(real.literals(False)).items() if value}
    base._swap_literals(SRC / "agentboard" / "agents" / "vanilla_agent.py", "VanillaAgent", swaps)
    print(f"AgentBoard's files in {SRC}, the fake checkout in {FAKE}, the venv in {VENV}")


class _WebReplay:
    """The browser env's surface ``evaluate_env`` reads: ``state`` (page text, page URL), ``history``, ``goal``."""

    def __init__(self, episode: dict):
        self.turns = list(episode["turns"])
        self.goal = episode["opening"]["goal"]
        self.history: list = []
        self.reward = self.progress_score = 0.0
        self.page = None
        self.actions: list[str | None] = []
        self._show(episode["opening"]["info"]["first_observation"])

    def _show(self, text: str) -> None:
        head, url = text.split(SPLIT, 1)
        page = head.removeprefix("WINDOWED PAGE:{\n")
        self.state = {
            "observation": {"text": page},
            "info": {"page": types.SimpleNamespace(url=url), "observation_metadata": {}},
        }

    def step(self, action):
        self.actions.append(action.get("text"))
        turn = self.turns.pop(0)
        self._show(turn["observation"])
        return self.state["observation"], 0.0, turn["done"], self.state["info"]


def _extract_action(source_root: Path) -> ast.FunctionDef:
    """AgentBoard's ``_extract_action`` with its parse-error message (the raised f-string) swapped for the fake
    checkout's, the only change."""

    def function(root: Path) -> ast.FunctionDef:
        tree = ast.parse((root / "agentboard/environment/browser_env/help_function.py").read_text())
        return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_extract_action")

    def raised(node: ast.FunctionDef) -> ast.Call:
        return next(n.exc for n in ast.walk(node) if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Call))

    theirs, ours = function(source_root), function(FAKE)
    raised(theirs).args[0] = raised(ours).args[0]
    return theirs


def _browser_stubs(root: Path) -> None:
    """The browser env modules ``webbrowse.py`` imports; ``extract_action`` is AgentBoard's ``_extract_action``."""
    import re

    def module(name: str, **attrs) -> types.ModuleType:
        made = types.ModuleType(name)
        made.__path__ = []
        for key, value in attrs.items():
            setattr(made, key, value)
        sys.modules[name] = made
        return made

    beartype = module("beartype", beartype=lambda f: f)
    beartype.door = module("beartype.door", is_bearable=lambda *a: True)
    module("playwright")
    module("playwright._impl")
    module("playwright._impl._api_types", Error=type("Error", (Exception,), {}), TimeoutError=TimeoutError)

    class ActionParsingError(Exception):
        pass

    def id_action(parsed: str) -> dict:
        return {"action_type": "stop" if parsed.startswith("stop") else "id", "text": parsed}

    module(
        "environment.browser_env.actions",
        Action=dict,
        ActionParsingError=ActionParsingError,
        ActionTypes=types.SimpleNamespace(STOP="stop"),
        create_id_based_action=id_action,
        create_playwright_action=id_action,
        create_none_action=lambda: {"action_type": "none", "text": None},
        create_stop_action=lambda answer: {"action_type": "stop", "text": None},
    )
    module("environment.browser_env.utils", StateInfo=dict)
    wanted = [_extract_action(root.parent)]
    space: dict = {"re": re, "beartype": lambda f: f, "ActionParsingError": ActionParsingError}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "help_function.py", "exec"), space)

    class RenderHelper:
        def render(self, *args, **kwargs) -> None:
            pass

    module(
        "environment.browser_env.help_function",
        RenderHelper=RenderHelper,
        map_url_to_real=lambda url: url,
        extract_action=space["_extract_action"],  # then map_url_to_local: the identity here
        log_progress_score=lambda *a: None,
        transform_format=lambda data: data,
        get_action_description=lambda action, *a, **k: str(action),
        early_stop=lambda history, thresholds: (False, False, ""),
    )
    module(
        "environment.browser_env.evaluation_function",
        evaluator_router=lambda config: lambda **kwargs: 0.0,
        progress_evaluator_router=lambda config: ({}, []),
    )
    sys.modules["environment"].browser_env = sys.modules["environment.browser_env"] = module("environment.browser_env")


def record(args: argparse.Namespace) -> None:
    root = SRC / "agentboard"
    sys.path.insert(0, str(root))
    base._stubs(root)
    _browser_stubs(root)
    sys.modules["requests"] = types.ModuleType("requests")
    os.environ["OPENAI_API_KEY"] = "not-used"
    os.environ["PROJECT_PATH"] = str(FAKE)
    import importlib
    import re

    import yaml
    from common.registry import registry

    importlib.import_module("llm.openai_gpt")
    sys.modules["llm"].load_llm = lambda *a, **k: None
    agents = importlib.import_module("agents")
    module = importlib.import_module("tasks.webbrowse")
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
        agent_task_config = agent_config.copy()
        for key in env_config["webarena"]:
            if key in ["check_actions", "check_inventory", "init_prompt_path"]:
                agent_task_config[key] = env_config["webarena"][key]
        model_config = dict(llm_config[MODEL])
        llm = registry.get_llm_class(model_config["name"]).from_config(model_config)
        base._Calls.requests = []
        base._Calls.replies = [reply for turn in episode["turns"] for reply in turn["replies"]]
        runner = module.EvalWebBrowse.__new__(module.EvalWebBrowse)
        runner.max_num_steps = len(episode["turns"])
        runner.test_file_list = ["config_0.json"]
        runner.difficulties = ["easy"]
        runner.action_set_tag = "id_accessibility_tree"
        runner.render_helper = sys.modules["environment.browser_env.help_function"].RenderHelper()
        runner.render_screenshot = False
        runner.early_stop_thresholds = {}
        runner.agent = agents.load_agent(agent_task_config["name"], agent_task_config, llm)
        runner.agentboard = sys.modules["utils.logging.logger"].TaskLogger()
        runner.env = env = _WebReplay(episode)
        runner.evaluate_env(0)
        assert not base._Calls.replies, f"{episode['task_id']}: {len(base._Calls.replies)} replies left unused"
        episode["requests"] = copy.deepcopy(base._Calls.requests)
        episode["env_actions"] = env.actions
        print(f"recorded {episode['task_id']}: {len(base._Calls.requests)} requests", file=sys.stderr)
    data["commit"] = (SRC / "COMMIT").read_text().strip()
    OUT.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    arguments = main(__doc__, setup, record, web_tools._options)
    if arguments.play:
        import tempfile

        sys.path.insert(0, str(REPO))
        from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout

        with tempfile.TemporaryDirectory() as folder:
            played = play(write_web_tools_checkout(Path(folder)))
        about = (
            "Requests of AgentBoard's WebArena runner tasks/webbrowse.py (unmodified but for the prompt literals; "
            "its browser env stubbed) on the fake checkout of tests/support/agentboard_checkout_web_tools.py, fed "
            "this suite's observations and scripted replies, written by "
            "tests/reference/record_agentboard_protocol_webarena.py"
        )
        OUT.write_text(json.dumps({"about": about, "model": MODEL, "episodes": played}, indent=1) + "\n")
