"""Record the requests AgentBoard's harness sends (a reference for tests, never a runtime dependency).

AgentBoard's UNMODIFIED task runners (``agentboard/tasks/{babyai,alfworld,scienceworld,jericho,pddl}.py``, their
``evaluate_env``, and ALFWorld's ``evaluate``), agents (``agents/vanilla_agent.py``, ``agents/react_agent.py``),
LLM class (``llm/openai_gpt.py``, its ``generate`` and ``num_tokens_from_messages``) and config loader
(``eval_main.py``'s ``load_config``) run on the fake checkout of ``tests/support/agentboard_checkout.py``, fed this
suite's observations by a replaying env and a scripted model, and every request the LLM class sends is written to
``tests/reference/agentboard_protocol.json``; ``tests/test_agentboard_protocol_replay.py`` checks that the
``agentboard`` protocol sends the same, byte for byte.

What stands in for AgentBoard's parts that cannot run here:

- the prompt literals of ``make_prompt`` (and nothing else) in AgentBoard's two agent files are swapped, at
  ``--setup``, for the fake checkout's: the protocol's own ``ast`` reader finds them in AgentBoard's file, so the
  setup also proves that reader on the real source;
- ``openai`` is a stub whose ``ChatCompletion.create`` records its arguments and answers the scripted reply;
  ``tiktoken`` is a stub whose encoding counts whitespace-separated words (``encoding_for_model`` raises
  ``KeyError``, so AgentBoard falls back to ``get_encoding``), the counter the trimming test gives the protocol;
- the envs replay the episodes ``--play`` recorded from this suite's envs, giving each runner what AgentBoard's env
  would: BabyAI's goal with "then"/"after you" read as "and" (``babyai_env.py``), ALFWorld's reset text as
  banner, room and task paragraphs and a gamefile path naming the task type, ScienceWorld's first text split at its
  first newline into reset text and inventory (the runner joins them with a newline), Jericho's goal and first
  text from the fake checkout's dicts (AgentBoard's env loader's lookup), PDDL's game name. Jericho's game files are
  not available here, so its observations are written by ``--play``, not played;
- ``eval_main.main``'s copy of ``check_actions``/``check_inventory``/``init_prompt_path`` into the agent config and
  the PDDL and ALFWorld runners' ``__init__`` lines that load their prompt files (and null PDDL's agent prompt path)
  are repeated here; the runners are made without ``__init__`` (which loads AgentBoard's data and envs).

Usage (three stages)::

    PYTHONPATH=. python tests/reference/record_agentboard_protocol.py --play       # our venv: play the episodes
    PYTHONPATH=. python tests/reference/record_agentboard_protocol.py --setup --git-dir PATH   # venv + sources
    /tmp/agentboard-proto-venv/bin/python tests/reference/record_agentboard_protocol.py --record

``--setup`` creates ``/tmp/agentboard-proto-venv`` (pyyaml) and writes AgentBoard's needed files from a git mirror
of hkust-nlp/AgentBoard (``--git-dir``, else ``$AGENTBOARD_GIT_DIR``) to ``/tmp/agentboard-proto-src``, with the
fake checkout next to them. Nothing of AgentBoard's code is copied into this repository.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import sys
import types
from pathlib import Path

from agentboard_source import copy_files, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "agentboard_protocol.json"
VENV = Path("/tmp/agentboard-proto-venv")
SRC = Path("/tmp/agentboard-proto-src")
FAKE = SRC / "fake-checkout"
FILES = (
    "agentboard/agents/__init__.py",
    "agentboard/agents/base_agent.py",
    "agentboard/agents/vanilla_agent.py",
    "agentboard/agents/react_agent.py",
    "agentboard/common/registry.py",
    "agentboard/llm/openai_gpt.py",
    "agentboard/tasks/base_task.py",
    "agentboard/tasks/babyai.py",
    "agentboard/tasks/alfworld.py",
    "agentboard/tasks/scienceworld.py",
    "agentboard/tasks/jericho.py",
    "agentboard/tasks/pddl.py",
    "agentboard/utils/logging/agent_logger.py",
    "agentboard/eval_main.py",
    "eval_configs/main_results_all_tasks.yaml",
)
PINS = ("pyyaml",)
MODEL = "gpt-3.5-turbo-0613"
TURNS = 8
TRIM_TURNS = 30
TRIM_CONTEXT = 420
"""The trimming episode's context length, in words (the stub encoding's tokens)."""

# ---- --play (our venv) ----------------------------------------------------------------------------------------

REPLY_FORMATS = (
    "{a}",
    "Action: {a}",
    "I need to know what I can do.\nAction: {a}",
    "The next action is to {a}",
    "My next action:\n\n{a}",
    "'{a}'",
    "{a}\nThen I will keep exploring.",
    "Action: {a}.",
)
"""Scripted replies, one format a turn: bare, prefixed, multi-line, 'next action'/'is to' lines, quotes, a period."""

REACT_TURNS = (
    ("Think: I should look around first.", "Action: {a}"),
    ("Action: {a}",),
    ("Let me see.", "Action: {a}"),
    ("Think: one.", "Think: two.", "Think: three.", "Action: {a}"),
    ("Action: {a}\nand then more",),
    ("Think: a plan\nwith a second line", "Action: {a}"),
    ("Action: {a}",),
    ("Action: {a}",),
)
"""ReactAgent's turns: thoughts, a reply that is neither (forces an action), three thoughts in a row."""

FALLBACK_ACTIONS = ("look around", "open door to kitchen", "go to kitchen", "inventory", "pick up axe", "wait")


def _episodes_to_play() -> list[dict]:
    """(env id, style, task id, turns, context window) of every recorded episode."""
    import gymnasium as gym

    import agentgym_text  # noqa: F401

    def task_ids(env_id: str) -> list[str]:
        env = gym.make(env_id)
        try:
            return [task.task_id for task in env.unwrapped.tasks]
        finally:
            env.close()

    babyai_goals = {task.task_id: task.goal for task in gym.make("AgentBoard/BabyAI-v0").unwrapped.tasks}
    babyai = [
        next(i for i, goal in babyai_goals.items() if " then " in goal),
        next(i for i, goal in babyai_goals.items() if "after you" in goal),
        next(iter(babyai_goals)),
    ]
    alfworld = task_ids("AgentBoard/AlfWorld-v0")
    pick = [next(i for i in alfworld if i.startswith(f"alfworld-{kind}-")) for kind in ("heat", "pick", "look", "clean")]
    science = task_ids("AgentBoard/ScienceWorld-v0")
    kinds: list[str] = []
    for task_id in science:
        if task_id.rsplit("-", 1)[0] not in [k.rsplit("-", 1)[0] for k in kinds]:
            kinds.append(task_id)
    plan: list[dict] = []
    for env_id, ids in (
        ("AgentBoard/BabyAI-v0", babyai + [babyai[0]]),
        ("AgentBoard/AlfWorld-v0", pick),
        ("AgentBoard/ScienceWorld-v0", kinds[:4]),
        ("AgentBoard/PDDL-v0", ["pddl-blocksworld-p01", "pddl-gripper-p01", "pddl-barman-p01", "pddl-tyreworld-p01"]),
        ("AgentBoard/Jericho-v0", ["jericho-zork1", "jericho-905", "jericho-acorncourt", "jericho-detective"]),
    ):
        for index, task_id in enumerate(ids):
            plan.append({"env_id": env_id, "task_id": task_id, "style": "react" if index == 3 else "vanilla"})
    plan.append(
        {"env_id": "AgentBoard/PDDL-v0", "task_id": "pddl-gripper-p02", "style": "vanilla", "trim": TRIM_CONTEXT}
    )
    return plan


class _JerichoStandIn:
    """Jericho's games are not available here: observations written for the episode."""

    def __init__(self, task_id: str):
        self.task_id = task_id

    def reset(self) -> tuple[str, dict]:
        first = "West of a house. There is a small mailbox here."
        info = {"goal": "Play the game.", "task_id": self.task_id, "first_observation": first}
        return first, {**info, "admissible_actions": ["open mailbox", "go north", "take leaflet"]}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if "check" in action.lower() and "action" in action.lower():
            text = "You can take the following actions: open mailbox, go north, take leaflet, check valid actions"
        else:
            text = f"You try to {action or 'wait'}. Time passes."
        return text, 0.0, False, False, {"admissible_actions": ["open mailbox", "go north", "take leaflet"]}

    def close(self) -> None:
        pass


def _action(rng: random.Random, turn: int, info: dict, env_id: str) -> str:
    if turn == 2:
        return "check valid actions"
    listed = [a for a in info.get("admissible_actions") or [] if "check" not in a and a not in ("help", "look")]
    if env_id == "AgentBoard/BabyAI-v0":  # no goal reached within the recorded turns
        listed = [a for a in listed if a.startswith(("turn", "move"))]
    action = rng.choice(listed or list(FALLBACK_ACTIONS))
    if env_id == "AgentBoard/AlfWorld-v0" and turn == 5:
        return "put the cup in the sinkbasin 1."
    if env_id == "AgentBoard/Jericho-v0" and turn == 4:
        return "take lamp, then go north. Quickly"
    if env_id == "AgentBoard/BabyAI-v0" and turn == 6:
        return action.title()
    return action


def play(checkout: Path) -> list[dict]:
    """Play every planned episode under the 'agentboard' protocol on the fake checkout, with scripted replies."""
    import gymnasium as gym

    from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
    from agentgym_text.agents.protocols.agentboard.tokens import TokenCounter
    from agentgym_text.agents.protocols.base import Opening
    from agentgym_text.envs.pddl.agentboard_data import GAMES

    pddl_game = {domain: game for game, (domain, _, _) in GAMES.items()}
    episodes = []
    for index, plan in enumerate(_episodes_to_play()):
        env_id, task_id, style = plan["env_id"], plan["task_id"], plan["style"]
        trim = plan.get("trim")
        protocol = AgentBoardProtocol(checkout, style=style, model=MODEL)
        if trim:
            protocol.counter = TokenCounter(lambda text: len(text.split()), "words", per_message=3)
            protocol.room = trim - protocol.max_tokens
        rng = random.Random(index)
        if env_id == "AgentBoard/Jericho-v0":
            env = _JerichoStandIn(task_id)
            observation, info = env.reset()
        else:
            env = gym.make(env_id, max_episode_steps=40)
            observation, info = env.reset(seed=index, options={"task_id": task_id})
        keep = ("goal", "task_id", "first_observation", "task_type")
        opening = {
            "goal": info["goal"],
            "observation": observation,
            "info": {key: info[key] for key in keep if key in info},
        }
        family = env_id.split("/")[1].split("-")[0].lower()
        dialogue = protocol.begin(Opening(env_id, info["goal"], observation, opening["info"], family))
        turns = []
        for turn in range(TRIM_TURNS if trim else TURNS):
            action = _action(rng, turn, info, env_id)
            scripted = REACT_TURNS[turn % len(REACT_TURNS)] if style == "react" else (REPLY_FORMATS[turn % 8],)
            replies = [reply.format(a=action) for reply in scripted]
            reading = None
            for reply in replies:
                dialogue.request()
                reading = dialogue.read(reply)
            assert reading is not None and not reading.again, (task_id, turn, replies)
            sent = reading.action or ""
            observation, _, terminated, truncated, info = env.step(sent)
            seen = dialogue.observe(observation, info)
            turns.append({"replies": replies, "env_action": sent, "observation": seen, "done": bool(terminated)})
            if terminated or truncated:
                break
        env.close()
        episode = {"env_id": env_id, "task_id": task_id, "style": style, "opening": opening, "turns": turns}
        if trim:
            episode["context_length"] = trim
        if env_id == "AgentBoard/PDDL-v0":
            episode["agentboard_game"] = pddl_game[task_id.split("-")[1]]
        episodes.append(episode)
        print(f"played {env_id} {task_id} ({style}): {len(turns)} turns", file=sys.stderr)
    return episodes


# ---- --setup (our venv) ---------------------------------------------------------------------------------------


def _swap_literals(path: Path, cls: str, swaps: dict[str, str]) -> None:
    """Replace, in ``cls.make_prompt`` of the file at ``path``, every string literal whose value is a key of
    ``swaps`` by its value (the only change made to AgentBoard's code)."""
    source = path.read_text()
    lines = source.splitlines(keepends=True)
    edits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for function in node.body:
                if isinstance(function, ast.FunctionDef) and function.name == "make_prompt":
                    for constant in ast.walk(function):
                        if isinstance(constant, ast.Constant) and constant.value in swaps:
                            assert constant.lineno == constant.end_lineno
                            edits.append((constant.lineno, constant.col_offset, constant.end_col_offset, constant.value))
    assert edits, f"no literal of {cls}.make_prompt found in {path}"
    for lineno, start, end, value in sorted(edits, reverse=True):
        line = lines[lineno - 1].encode()
        lines[lineno - 1] = (line[:start] + repr(swaps[value]).encode() + line[end:]).decode()
    path.write_text("".join(lines))


def setup(git_dir: str) -> None:
    sys.path.insert(0, str(REPO))
    from dataclasses import asdict

    from agentgym_text.agents.protocols.agentboard.checkout import Checkout
    from tests.support.agentboard_checkout import write_checkout

    make_venv(VENV, PINS)
    copy_files(git_dir, FILES, SRC)
    write_checkout(FAKE)
    real, fake = Checkout(SRC), Checkout(FAKE)
    for react, relative, cls in ((False, "vanilla_agent.py", "VanillaAgent"), (True, "react_agent.py", "ReactAgent")):
        swaps = {
            value: asdict(fake.literals(react))[name]
            for name, value in asdict(real.literals(react)).items()
            if value
        }
        _swap_literals(SRC / "agentboard" / "agents" / relative, cls, swaps)
    print(f"AgentBoard's files in {SRC}, the fake checkout in {FAKE}, the venv in {VENV}")


# ---- --record (the reference venv) ----------------------------------------------------------------------------


class _Calls:
    """The scripted model: the replies still to give, and every request the stub ``openai`` received."""

    replies: list[str] = []
    requests: list[dict] = []

    @classmethod
    def create(cls, **kwargs):
        cls.requests.append(
            {key: kwargs[key] for key in ("messages", "temperature", "max_tokens", "stop")}
        )
        if not cls.replies:
            raise RuntimeError("the runner asked for more replies than the episode has")
        return {"choices": [{"message": {"content": cls.replies.pop(0)}}]}


class _Words:
    def encode(self, text: str) -> list[str]:
        return text.split()


def _stubs(root: Path) -> None:
    """The modules AgentBoard's files import that are not needed (or stand in for an API)."""
    openai = types.ModuleType("openai")
    openai.ChatCompletion = types.SimpleNamespace(create=_Calls.create)
    openai.api_base = ""
    tiktoken = types.ModuleType("tiktoken")

    def encoding_for_model(model):
        raise KeyError(model)

    tiktoken.encoding_for_model = encoding_for_model
    tiktoken.get_encoding = lambda name: _Words()
    sys.modules["openai"] = openai
    sys.modules["tiktoken"] = tiktoken
    for name in ("numpy", "jsonlines", "wandb"):
        sys.modules[name] = types.ModuleType(name)
    environment = types.ModuleType("environment")
    environment.load_environment = lambda name, config: config["env"]
    sys.modules["environment"] = environment
    logger = types.ModuleType("utils.logging.logger")

    class TaskLogger:
        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    logger.TaskLogger = TaskLogger
    sys.modules["utils.logging.logger"] = logger
    for package in ("llm", "tasks"):
        stub = types.ModuleType(package)
        stub.__path__ = [str(root / package)]
        sys.modules[package] = stub
    sys.modules["llm"].load_llm = None  # replaced below, once the registry is importable


class _Replay:
    """An env that answers the recorded observations, and notes the actions it is given."""

    difficulty = "easy"
    won = False

    def __init__(self, episode: dict):
        self.episode = episode
        self.turns = list(episode["turns"])
        self.actions: list[str] = []
        self.opening = episode["opening"]
        self.cur_task_name = "task/trial"
        self.game_name = episode.get("agentboard_game", episode["task_id"])

    def step(self, action: str):
        self.actions.append(action)
        if not self.turns:
            raise RuntimeError("the runner stepped past the recorded turns")
        turn = self.turns.pop(0)
        return turn["observation"], 0.0, turn["done"], {}

    # BabyAI, PDDL
    def _get_obs(self) -> str:
        return self.opening["info"]["first_observation"]

    def _get_goal(self) -> str:
        goal = self.opening["goal"]
        if self.episode["env_id"] == "AgentBoard/BabyAI-v0":  # babyai_env.py's reading of the mission
            if "then" in goal:
                goal = goal.replace("then", "and")
            if "after you" in goal:
                goal = goal.replace("after you", "and")
        return goal

    # ALFWorld
    def reset(self):
        if self.episode["env_id"] == "AgentBoard/ScienceWorld-v0":
            first = self.opening["info"]["first_observation"]
            return first.split("\n", 1)[0], {}
        text = (
            "-= Welcome to TextWorld, ALFRED! =-\n\n"
            + self.opening["info"]["first_observation"]
            + "\n\nYour task is to: "
            + self.opening["goal"]
        )
        gamefile = f"/data/json_2.1.1/valid_unseen/{self.opening['info']['task_type']}-Cup-None-SinkBasin-1/trial_T0/game.tw-pddl"
        return [text], {"extra.gamefile": [gamefile]}

    def get_action_space(self, abstract=True):
        return []

    # ScienceWorld
    def load(self, *args, **kwargs) -> None:
        pass

    def inventory(self) -> str:
        return self.opening["info"]["first_observation"].split("\n", 1)[1]


class _JerichoReplay(_Replay):
    """AgentBoard's Jericho env loader gives the goal and first text of its dicts ("Not written yet." otherwise)."""

    def __init__(self, episode: dict, goals: dict, first: dict):
        super().__init__(episode)
        self.game_name = episode["task_id"].removeprefix("jericho-")
        self.goal = goals.get(self.game_name, "Not written yet.")
        self.first = first.get(self.game_name, "Not written yet.")

    def _get_obs(self) -> str:
        return self.first

    def _get_goal(self) -> str:
        return self.goal


def record(args: argparse.Namespace) -> None:
    root = SRC / "agentboard"
    sys.path.insert(0, str(root))
    _stubs(root)
    os.environ["OPENAI_API_KEY"] = "not-used"
    os.environ["PROJECT_PATH"] = str(FAKE)
    import copy
    import importlib
    import re

    import yaml
    from common.registry import registry

    importlib.import_module("llm.openai_gpt")
    agents = importlib.import_module("agents")
    # eval_main.py's config loader, its two functions run as they are
    loader: dict = {"re": re, "os": os, "yaml": yaml}
    tree = ast.parse((root / "eval_main.py").read_text())
    wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("path_constructor", "load_config")]
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "eval_main.py", "exec"), loader)
    options = argparse.Namespace(log_path="", project_name="", baseline_dir="", wandb=False, max_num_steps=30)
    llm_config, agent_config, env_config, _ = loader["load_config"](
        str(FAKE / "eval_configs" / "main_results_all_tasks.yaml"), options
    )
    jericho_dicts = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in ast.parse((FAKE / "agentboard" / "environment" / "jericho_env.py").read_text()).body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in ("game_goals", "game_init_obs")
    }
    runners = {
        "AgentBoard/BabyAI-v0": ("babyai", "EvalBabyai"),
        "AgentBoard/AlfWorld-v0": ("alfworld", "Evalalfworld"),
        "AgentBoard/ScienceWorld-v0": ("scienceworld", "EvalScienceworld"),
        "AgentBoard/Jericho-v0": ("jericho", "EvalJericho"),
        "AgentBoard/PDDL-v0": ("pddl", "EvalPddl"),
    }
    data = json.loads(OUT.read_text())
    for episode in data["episodes"]:
        task, cls_name = runners[episode["env_id"]]
        module = importlib.import_module(f"tasks.{task}")
        agent_task_config = agent_config.copy()  # eval_main.main's wiring
        for key in env_config[task]:
            if key in ["check_actions", "check_inventory", "init_prompt_path"]:
                agent_task_config[key] = env_config[task][key]
        if episode["style"] == "react":
            agent_task_config["name"] = "ReactAgent"
        model_config = dict(llm_config[MODEL])
        if "context_length" in episode:
            model_config["context_length"] = episode["context_length"]
        llm = registry.get_llm_class(model_config["name"]).from_config(model_config)
        runner = getattr(module, cls_name).__new__(getattr(module, cls_name))
        if task == "pddl":  # EvalPddl.__init__: the agent's prompt path is nulled, the game prompts loaded
            prompt_path = agent_task_config.get("init_prompt_path", None)
            agent_task_config["init_prompt_path"] = None
            runner.init_prompt_game_dict = json.load(open(prompt_path))
        if task == "alfworld":  # Evalalfworld.__init__ loads its prompt file
            runner.prompts = json.load(open(agent_task_config["init_prompt_path"]))
        runner.agent = agents.load_agent(agent_task_config["name"], agent_task_config, llm)
        runner.max_num_steps = len(episode["turns"])
        runner.agentboard = sys.modules["utils.logging.logger"].TaskLogger()
        runner.baseline_dir = None
        if task == "jericho":
            env = _JerichoReplay(episode, jericho_dicts["game_goals"], jericho_dicts["game_init_obs"])
        else:
            env = _Replay(episode)
        runner.env_configs = [{"env": env}]
        _Calls.replies = [reply for turn in episode["turns"] for reply in turn["replies"]]
        _Calls.requests = []
        if task == "alfworld":
            runner.env_cfg = {"env": env}
            runner.num_exams = 1
            runner.evaluate()
        elif task == "scienceworld":
            runner.env = env
            runner.simplification_str = ""
            runner.evaluate_env(0, "task", 0, episode["opening"]["goal"])
        else:
            runner.evaluate_env(0)
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
        sys.path.insert(0, str(REPO))
        from tests.support.agentboard_checkout import write_checkout

        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            played = play(write_checkout(Path(folder)))
        OUT.write_text(
            json.dumps(
                {
                    "about": "Requests of AgentBoard's harness (its task runners, agents, LLM class and config loader, "
                    "unmodified but for make_prompt's literals) on the fake checkout of "
                    "tests/support/agentboard_checkout.py, fed this suite's observations (Jericho's written) and "
                    "scripted replies, written by tests/reference/record_agentboard_protocol.py",
                    "model": MODEL,
                    "episodes": played,
                },
                indent=1,
            )
            + "\n"
        )
