"""Record the requests AgentBench v0.2's own task servers send (references for the ``agentbench`` protocol's replay
tests, never a runtime dependency): DBBench, OS interaction, knowledge graph, lateral thinking, WebShop, ALFWorld and
Mind2Web.

Runs AgentBench's ``src/server/task.py`` (``Session``, ``filter_messages``) and ``src/typings`` UNMODIFIED, and each
task's own loop (``DBBench.start_sample``, ``OSInteraction._judge``, ``KnowledgeGraph.start_sample``,
``LateralThinkingPuzzle.start_sample``) with one change only: the texts the protocol reads are the stand-in
checkout's (``tests/support/agentbench_checkout.py``), put in the same places (the protocol's own ``locate`` finds
them in both; for LTP the ``ENPrompter`` class is the stand-in's), so no AgentBench prompt enters this repository.
Stubs stand in for what needs a server, each fed what this suite's env gave for the same reply:

- DB: ``Interaction.Container`` (Docker + MySQL) returns the results the env printed (step info ``sql_result``);
- OS: the container's ``execute`` returns the env's raw command output (``os_output``), ``execute_independent``
  succeeds; ``docker`` is a stub module;
- KG: ``api.py``'s functions return ``"Observation: "`` + the env's observation (``##`` in place of the variable's
  number, as ``api.py`` writes it) or raise when the env refused the call; ``SparqlExecuter`` is a stub;
- WebShop: ``WebAgentTextEnv`` (WebShop's Java search engine and product files) is a stub that shows the page and
  the Available Actions dict the env printed (split off its text at its heading) and records the actions it got;
- ALFWorld: ``SingleAlfredTWEnv`` (alfworld, textworld) is a stub that shows the intro (behind a banner) and each
  step's text with the admissible commands the env listed, and records the commands it got; ``utils.py`` (BLEU) is
  v0.2's, ``jsonlines`` a stub module; ``ALFWorld.__init__`` runs on the stand-in's config and prompts files;
- LTP: the host model (``eval_agent``) answers the hosting dialogue with the env's host reply (``host_reply``) and
  "No" to the bookkeeping prompts; ``pandas``, ``src.configs`` and ``src.client.agent`` are stubs (nltk is real).
- Mind2Web: ``Mind2Web.start_sample``, ``format_input_multichoice`` (texts swapped in ``task.py`` and
  ``dataloader.py``) and ``data_utils/dom_utils.py`` run unmodified on lxml; ``__init__`` (the data set, a
  tokenizer, a pickle of ranks) is not run: the object gets the attributes it sets (the prompt file, ``top_k`` 10 and
  ``candidates_num`` 5 as in v0.2's config, ``data``), and ``addict``, ``transformers``, ``datasets`` and ``torch``
  are stub modules. Each request of ours is one v0.2 sample (``tests/support/mind2web_agentbench_items.samples``:
  the env's page, task, previous actions and its candidates, gold and ranked distractors); with 5 candidates or
  fewer ``start_sample``'s tournament is one call, whose message list is the reference. v0.2's prediction
  (``final_prediction``: the element and the operation) is kept too.

The session's controller is a scripted agent: it records every message list it is sent (roles mapped as
AgentBench's HTTP agent maps them) and answers with the scripted replies.

Usage (two stages; the second runs in a venv with pydantic 1, numpy, PyYAML, requests, nltk and lxml)::

    PYTHONPATH=. .venv/bin/python tests/reference/record_agentbench_protocol.py --export --git-dir PATH
    /tmp/agentbench-venv/bin/python tests/reference/record_agentbench_protocol.py --record --git-dir PATH

``PATH`` is a git mirror of THUDM/AgentBench (``git clone --mirror https://github.com/THUDM/AgentBench``), else
``$AGENTBENCH_GIT_DIR``.

``--tasks webshop,alfworld`` (on both stages) records only those tasks (the default: all; ``agentbench_filter_messages.json``
is written only then). ``--real`` (on both stages) runs the same sessions with v0.2's own modules as they are, as the checkout our protocol
reads and as the code that runs, and only prints whether every request was equal (nothing is written here: the
output would hold AgentBench's texts).

``--recorded-pages`` (on both stages) also prints whether the env's page and choices equal what v0.2's
``prune_tree``/``get_tree_repr`` make of the same page and candidates, for every step of the 122 shipped recorded
WebBrowsing tasks (recorded at their first use: Chromium and the sites), each page in Mind2Web's form (its text runs
as ``<text>`` elements); nothing is written here.

``--export`` plays each id under our protocol with the scripted replies of ``tests/support/agentbench_scripts.py`` on the items of
``tests/support/{db,os,kg,mind2web}_agentbench_items.py`` and the puzzles of ``tests/support/agentbench_scripts.py``, keeps what the env gave and writes v0.2's
task modules with the stand-in texts; ``--record`` runs them and writes ``tests/reference/agentbench_<task>.json``,
which ``tests/test_agentbench_protocol_<task>.py`` replay.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = Path("/tmp/agentbench-protocol-work")
COMMIT = "41e6807"
"""AgentBench v0.2."""
UNMODIFIED = (
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
    "src/server/tasks/alfworld/utils.py",
    "src/server/tasks/mind2web/data_utils/__init__.py",
    "src/server/tasks/mind2web/data_utils/dom_utils.py",
)
MODULES = {
    "dbbench": "src/server/tasks/dbbench/__init__.py",
    "os_interaction": "src/server/tasks/os_interaction/task.py",
    "knowledgegraph": "src/server/tasks/knowledgegraph/task.py",
    "ltp": "src/server/tasks/ltp/task.py",
    "webshop": "src/server/tasks/webshop/__init__.py",
    "alfworld": "src/server/tasks/alfworld/task.py",
    "mind2web": "src/server/tasks/mind2web/task.py",
}
ALSO_SWAPPED = {"mind2web": ("src/server/tasks/mind2web/dataloader.py",)}
"""Other modules whose texts a task's ``locate`` finds (it is then called with every module of the task)."""


def module_paths(task: str) -> tuple[str, ...]:
    return (MODULES[task], *ALSO_SWAPPED.get(task, ()))


EXTRA_FILES = (
    "configs/tasks/alfworld.yaml",
    "src/server/tasks/alfworld/prompts/alfworld_multiturn_plan_first.json",
    "configs/tasks/mind2web.yaml",
    "data/mind2web/prompt/llm_prompt_cot.json",
)
"""Other files a protocol reads (with ``--real``: v0.2's; else the stand-in checkout's)."""
REAL = WORK / "real"
"""With ``--real``: where the real checkout's texts and what both sides sent go (never into this repository)."""


def out_path(task: str, real: bool = False) -> Path:
    return (REAL if real else HERE) / f"agentbench_{task}.json"


# ---- --export (our venv) -----------------------------------------------------------------------------------------
def _show(git_dir: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:{path}"], capture_output=True, text=True, check=True
    ).stdout


def swap_texts(task: str, real: dict[str, str], fake: dict[str, str]) -> dict[str, str]:
    """v0.2's modules ``real`` (path -> text) with the texts the protocol reads replaced by the stand-in's ``fake``
    ones (each node ``locate`` finds in ``real`` gets the source of the node it finds in ``fake``, in the same
    module)."""
    import importlib

    from agentgym_text.agents.protocols.agentbench.source import TaskSource

    locate = importlib.import_module(f"agentgym_text.agents.protocols.agentbench.{task}").locate
    nodes, owners = {}, {}
    for name, texts in (("real", real), ("fake", fake)):
        folder = WORK / "swap" / name
        sources = []
        for relative, text in texts.items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).write_text(text)
            sources.append((relative, TaskSource(folder, relative)))
        nodes[name] = locate(*(source for _, source in sources))
        owners[name] = {
            key: next(relative for relative, source in sources if any(n is node for n in ast.walk(source.tree)))
            for key, node in nodes[name].items()
        }
    assert owners["real"] == owners["fake"], "the stand-in puts each text in the module v0.2 does"

    def offset(text: str, line: int, column: int) -> int:
        starts = [0]
        for row in text.splitlines(keepends=True):
            starts.append(starts[-1] + len(row))
        return starts[line - 1] + len(text.splitlines(keepends=True)[line - 1].encode()[:column].decode())

    swapped = {}
    for relative, text in real.items():
        spans = []
        for key, node in nodes["real"].items():
            if owners["real"][key] != relative:
                continue
            replacement = ast.get_source_segment(fake[relative], nodes["fake"][key])
            assert replacement is not None
            spans.append(
                (
                    offset(text, node.lineno, node.col_offset),
                    offset(text, node.end_lineno, node.end_col_offset),
                    replacement,
                )
            )
        for start, end, replacement in sorted(spans, reverse=True):
            text = text[:start] + replacement + text[end:]
        swapped[relative] = text
    return swapped


def export(
    git_dir: str, real: bool = False, tasks: tuple[str, ...] = tuple(MODULES), recorded_pages: bool = False
) -> None:
    sys.path.insert(0, str(ROOT))
    import gymnasium as gym

    import agentgym_text  # noqa: F401  (registers the ids)
    from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
    from agentgym_text.testing.chat_server import ScriptedChatServer
    from tests.support import db_agentbench_items, kg_agentbench_items, os_agentbench_items
    from tests.support.agentbench_checkout import write_checkout
    from tests.support.agentbench_replay import play
    from tests.support.agentbench_scripts import (
        DB_SCRIPTS,
        ENV_IDS,
        KG_SCRIPTS,
        LTP_PUZZLES,
        LTP_SCRIPTS,
        OS_SCRIPTS,
        WEBSHOP_SCRIPTS,
        ALFWORLD_SCRIPTS,
        host_policy,
        write_workbook,
    )

    import shutil

    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    checkout = write_checkout(WORK / "checkout")
    if real:  # v0.2's own task modules are the checkout, and run as they are
        checkout = REAL / "checkout"
        for relative in (*(p for t in MODULES for p in module_paths(t)), *EXTRA_FILES):
            (checkout / relative).parent.mkdir(parents=True, exist_ok=True)
            (checkout / relative).write_text(_show(git_dir, relative))
    protocol = AgentBenchProtocol(checkout)
    for task in MODULES:
        if task not in tasks:
            continue
        original = {relative: _show(git_dir, relative) for relative in module_paths(task)}
        fake = {relative: (checkout / relative).read_text() for relative in original}
        for relative, text in (original if real else swap_texts(task, original, fake)).items():
            (WORK / "modules" / relative).parent.mkdir(parents=True, exist_ok=True)
            (WORK / "modules" / relative).write_text(text)

    def run(task: str, env: Any, scripts: dict[int, list[str]], item: Any, samples: Any = None) -> None:
        episodes = []
        for index, replies in scripts.items():
            start = env.reset(options={"task_index": index})[1]
            first = start["first_observation"] if task in ("webshop", "alfworld") else None
            played = play(protocol, ENV_IDS[task], env, index, replies)
            episodes.append(
                {
                    "samples": samples(env, played) if samples else None,
                    "index": index,
                    "item": start.get("task_type") if task == "alfworld" else item(index),
                    "replies": replies[: len(played["requests"])],
                    "infos": played["infos"],
                    "observations": played["observations"],
                    "ours": played["requests"],
                    "first": first,
                    "actions": played["actions"],
                    "end": played["end"],
                }
            )
        (WORK / f"{task}_export.json").write_text(json.dumps(episodes, ensure_ascii=False, indent=1))
        print(f"{task}: exported {len(episodes)} episodes")

    if "webshop" in tasks:
        env = gym.make("AgentBench/WebShop-v0", **protocol.env_kwargs("AgentBench/WebShop-v0")).unwrapped
        run("webshop", env, WEBSHOP_SCRIPTS, lambda i: None)
        env.close()

    if "alfworld" in tasks:
        env = gym.make("AgentBench/ALFWorld-v0", **protocol.env_kwargs("AgentBench/ALFWorld-v0")).unwrapped
        run("alfworld", env, ALFWORLD_SCRIPTS, lambda i: None)
        env.close()

    if "mind2web" in tasks:
        from tests.support import mind2web_agentbench_items
        from tests.support.agentbench_scripts import MIND2WEB_SCRIPTS
        from tests.support.mind2web_agentbench_items import samples

        items = mind2web_agentbench_items.write_items(WORK / "mind2web")
        kwargs = protocol.env_kwargs("AgentBench/WebBrowsing-v0")
        env = gym.make("AgentBench/WebBrowsing-v0", task_file=str(items), **kwargs).unwrapped
        run("mind2web", env, MIND2WEB_SCRIPTS, lambda i: None, samples)
        env.close()

    if "dbbench" in tasks:
        items = db_agentbench_items.write_items(WORK)
        env = gym.make("AgentBench/DB-v0", task_file=str(items)).unwrapped
        run("dbbench", env, DB_SCRIPTS, lambda i: db_agentbench_items.ITEMS[i])
        env.close()
    if "os_interaction" in tasks:
        root = os_agentbench_items.write_items(WORK / "os")
        env = gym.make(
            "AgentBench/OS-v0",
            task_file=str(root / "data/1/sample.json"),
            script_dir=str(root / "scripts/1"),
            sandbox="bwrap",
            prewarm=False,
        ).unwrapped
        run("os_interaction", env, OS_SCRIPTS, lambda i: os_agentbench_items.GROUP_1[i])
        env.close()

    if "knowledgegraph" in tasks:
        folder = WORK / "kg"
        folder.mkdir()
        with kg_agentbench_items.sparql_endpoint() as url:
            env = gym.make(
                "AgentBench/KG-v0",
                task_file=str(kg_agentbench_items.write_items(folder)),
                sparql_url=url,
                ontology_dir=str(kg_agentbench_items.write_ontology(folder)),
            ).unwrapped
            run("knowledgegraph", env, KG_SCRIPTS, lambda i: kg_agentbench_items.ITEMS[i])
            env.close()

    if recorded_pages:
        export_recorded_pages()
    if "ltp" not in tasks:
        return
    workbook = write_workbook(WORK / "standard.xlsx")
    with ScriptedChatServer(host_policy) as server:
        env = gym.make(
            "AgentBench/LateralThinking-v0",
            task_file=str(workbook),
            host_model="scripted",
            host_base_url=server.base_url,
        ).unwrapped
        run("ltp", env, LTP_SCRIPTS, lambda i: LTP_PUZZLES[i])
        env.close()


def export_recorded_pages() -> None:
    """Every step of the shipped recorded WebBrowsing tasks: the page in Mind2Web's form, the candidates, and the
    env's page and choice texts."""
    import itertools

    import gymnasium as gym

    from agentgym_text.envs.webbrowsing.render import ask

    env = gym.make("AgentBench/WebBrowsing-v0").unwrapped
    steps = []
    for index in range(len(env.tasks.task_ids)):
        env.reset(options={"task_index": index})
        annotation = env._annotation
        for number, step in enumerate(annotation.steps):
            question = ask(annotation, number, env.num_candidates)
            ids = itertools.count()
            html = re.sub(  # the recorder writes text runs bare (escaped, so never holding "<")
                r">([^<]*[^<\s][^<]*)<",
                lambda m, ids=ids: f'><text backend_node_id="t{next(ids)}">{m.group(1)}</text><',
                step.html,
            )
            steps.append(
                {
                    "task": index,
                    "step": number,
                    "html": html,
                    "candidates": [uid for uid, _ in question.choices],
                    "page": question.page,
                    "choices": [text for _, text in question.choices],
                }
            )
    env.close()
    (WORK / "recorded_pages.json").write_text(json.dumps(steps, ensure_ascii=False))
    print(f"recorded pages: exported {len(steps)} steps")


def compare_recorded_pages() -> int:
    """How many steps' pages or choices differ from what v0.2's ``dom_utils`` make of them (the first shown)."""
    import lxml.etree
    from src.server.tasks.mind2web.data_utils.dom_utils import get_tree_repr, prune_tree

    steps = json.loads((WORK / "recorded_pages.json").read_text())
    differing = 0
    for step in steps:
        tree = prune_tree(lxml.etree.fromstring(step["html"]), step["candidates"])
        page, mapping = get_tree_repr(tree, id_mapping={}, keep_html_brackets=True)
        choices = [
            " ".join(get_tree_repr(node, id_mapping=mapping, keep_html_brackets=True)[0].split()[:10])
            for node in tree.xpath("//*[@backend_node_id]")
        ]
        if (page, choices) != (step["page"], step["choices"]):
            if not differing:
                print(f"task {step['task']} step {step['step']}:\n ours {step['page']}\n v0.2 {page}")
            differing += 1
    print(f"recorded pages: {len(steps) - differing} of {len(steps)} steps equal")
    return differing


# ---- --record (the reference venv) -------------------------------------------------------------------------------
STUBS = {
    "src/server/tasks/alfworld/environment.py": """
STEPS = []
COMMANDS = []


class SingleAlfredTWEnv:
    def __init__(self, config, data_item):
        self.data_item = data_item

    def init_env(self, batch_size):
        assert batch_size == 1
        return self

    def reset(self):
        text, commands, _ = STEPS.pop(0)
        return ["-= Welcome to TextWorld, ALFRED! =-\\n\\n" + text], {
            "extra.gamefile": [self.data_item],
            "admissible_commands": [commands],
        }

    def step(self, actions):
        COMMANDS.append(actions[0])
        text, commands, won = STEPS.pop(0)
        return [text], None, [won is not None], {"won": [won], "admissible_commands": [commands]}
""",
    "src/server/tasks/webshop/web_agent_site/__init__.py": "",
    "src/server/tasks/webshop/web_agent_site/envs/__init__.py": "",
    "src/server/tasks/webshop/web_agent_site/envs/web_agent_text_env.py": """
PAGES = []
ACTIONS = []


class WebAgentTextEnv:
    def __init__(self, observation_mode, human_goals):
        assert (observation_mode, human_goals) == ("text", True)

    def reset(self, index):
        self.observation, self.available_actions, self.done = PAGES.pop(0)

    def get_available_actions(self):
        return self.available_actions

    def step(self, action):
        ACTIONS.append(action)
        self.observation, self.available_actions, self.done = PAGES.pop(0)
        return self.observation, 0, self.done, None
""",
    "src/server/tasks/dbbench/Interaction.py": """
RESULTS = []


class Container:
    def execute(self, sql, database=None, data=()):
        if database is None or sql.startswith(("drop database", "select md5(")):
            return None
        return RESULTS.pop(0)

    def delete(self):
        pass
""",
    "src/server/tasks/knowledgegraph/api.py": """
import json
import re

CURRENT = {}


def _step(*arguments):
    if not CURRENT.get("valid"):
        raise ValueError("refused here as the env refused it")
    text = "Observation: " + CURRENT["observation"]
    made = re.match(r"Observation: variable #(\\d+), ", text)
    if made:
        return "variable", text.replace("#" + made.group(1), "##", 1)
    return None, text


def get_relations(*arguments):
    return _step(*arguments)


get_neighbors = intersection = union = count = get_attributes = argmax = argmin = get_relations


def final_execute(variable, sparql_executor):
    return []
""",
    "src/server/tasks/knowledgegraph/utils/__init__.py": "",
    "src/server/tasks/knowledgegraph/utils/sparql_executer.py": """
class SparqlExecuter:
    def __init__(self, url=None):
        self.url = url
""",
    "src/configs.py": """
class ConfigLoader:
    def load_from(self, path):
        return {}
""",
    "src/client/__init__.py": "",
    "src/client/agent.py": """
class AgentClient:
    pass
""",
}


def _fake_modules() -> None:
    docker = types.ModuleType("docker")
    docker.models = types.ModuleType("docker.models")
    docker.models.containers = types.ModuleType("docker.models.containers")
    docker.models.containers.Container = object
    sys.modules.update(
        {
            "docker": docker,
            "docker.models": docker.models,
            "docker.models.containers": docker.models.containers,
            "pandas": types.ModuleType("pandas"),
        }
    )
    # Mind2Web's task module loads its data, tokenizer and addict config in __init__, which is not run
    for name, attributes in {
        "addict": {"Dict": dict},
        "transformers": {"AutoTokenizer": None},
        "datasets": {"load_dataset": None},
        "torch": {},
        "torch.utils": {},
        "torch.utils.data": {"Dataset": object},
    }.items():
        module = types.ModuleType(name)
        module.__dict__.update(attributes)
        sys.modules.setdefault(name, module)


class ScriptedAgent:
    """The session's controller: records each message list and answers with the next reply."""

    def __init__(self, replies: list[str], on_reply=None):
        self.replies = list(replies)
        self.sent: list[list[dict[str, str]]] = []
        self.on_reply = on_reply

    async def env_pull(self, history):
        from src.typings import AgentOutput

        self.sent.append([{"role": {"agent": "assistant"}.get(m.role, m.role), "content": m.content} for m in history])
        if self.on_reply is not None:
            self.on_reply(len(self.sent) - 1)
        return AgentOutput(content=self.replies.pop(0))


def _session(agent: ScriptedAgent):
    from src.server.task import Session

    session = Session()
    session.controller = agent
    return session


def record_dbbench(episodes: list[dict]) -> list[dict]:
    from src.server.tasks import dbbench
    from src.server.tasks.dbbench import Interaction

    data = WORK / "items.jsonl"
    data.write_text("".join(json.dumps(e["item"], ensure_ascii=False) + "\n" for e in episodes))
    task = dbbench.DBBench(name="dbbench-std", data_file=str(data), max_round=15)
    recorded = []
    for position, episode in enumerate(episodes):
        Interaction.RESULTS[:] = [info["sql_result"] for info in episode["infos"] if "sql_result" in info]
        agent = ScriptedAgent(episode["replies"])
        output = asyncio.run(task.start_sample(position, _session(agent)))
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "answer": output.result["answer"],
                "fed": [info.get("sql_result") for info in episode["infos"]],
            }
        )
        assert not Interaction.RESULTS, "every result the env printed was asked for"
    return recorded


def record_os_interaction(episodes: list[dict]) -> list[dict]:
    from src.server.tasks.os_interaction import task as os_task

    recorded = []
    for episode in episodes:
        outputs = [info["os_output"] for info in episode["infos"] if "os_output" in info]

        class Container:
            def execute(self, command):
                return types.SimpleNamespace(output=outputs.pop(0).encode("utf-8"), exit_code=0)

            def execute_independent(self, command, *params):
                return types.SimpleNamespace(output=b"", exit_code=0)

        config = os_task.JudgeConfig()
        config.description = episode["item"]["description"]
        config.match = {"answer": "3", "strip": True}
        task = os_task.OSInteraction.__new__(os_task.OSInteraction)
        task.round_limit = 8
        agent = ScriptedAgent(episode["replies"])
        output = asyncio.run(task._judge(_session(agent), config, Container()))
        assert not outputs, "every output the env printed was asked for"
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "fed": [info.get("os_output") for info in episode["infos"]],
            }
        )
    return recorded


def record_knowledgegraph(episodes: list[dict]) -> list[dict]:
    from src.server.tasks.knowledgegraph import api
    from src.server.tasks.knowledgegraph import task as kg_task

    data = WORK / "kg_items.json"
    data.write_text(json.dumps([e["item"] for e in episodes], ensure_ascii=False))
    task = kg_task.KnowledgeGraph(data_file=str(data), sparql_url=None, round=15, name="kg-std")
    recorded = []
    for position, episode in enumerate(episodes):
        infos, observations = episode["infos"], episode["observations"]

        def feed(reply: int) -> None:
            api.CURRENT.clear()
            if reply < len(infos):
                api.CURRENT.update(valid=infos[reply]["valid"], observation=observations[reply])

        agent = ScriptedAgent(episode["replies"], feed)
        output = asyncio.run(task.start_sample(position, _session(agent)))
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "actions": output.result["actions"] if output.result else None,
                "fed": [[info["valid"], text] for info, text in zip(infos, observations)],
            }
        )
    return recorded


def record_ltp(episodes: list[dict]) -> list[dict]:
    from src.server.tasks.ltp import task as ltp_task

    recorded = []
    for episode in episodes:
        infos = episode["infos"]
        current: dict[str, Any] = {}

        class Host:
            def inference(self, history):
                if len(history) > 1:
                    return current["host_reply"]
                return "No."

        def feed(reply: int) -> None:
            current.clear()
            if reply < len(infos):
                current.update(infos[reply])

        task = ltp_task.LateralThinkingPuzzle.__new__(ltp_task.LateralThinkingPuzzle)
        task.rounds = 25
        task.inputs = [tuple(episode["item"])]
        task.eval_agent = Host()
        agent = ScriptedAgent(episode["replies"] + [""], feed)  # an empty reply ends a game that is still going
        output = asyncio.run(task.start_sample(0, _session(agent)))
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent[: len(episode["replies"])],
                "status": output.status.value,
                "fed": [i.get("host_reply") for i in infos],
            }
        )
    return recorded


def record_webshop(episodes: list[dict]) -> list[dict]:
    from src.server.tasks import webshop
    from src.server.tasks.webshop.web_agent_site.envs import web_agent_text_env as stub

    task = webshop.WebShop(name="webshop-std")
    recorded = []
    for episode in episodes:
        texts = [episode["first"], *episode["observations"]]
        done = [False] * len(texts)
        done[-1] = episode["end"] not in ("step_limit", "invalid_format", None)
        heading = "\n\nAvailable Actions:\n"  # where the env puts the dict (agentbench/webshop.py ACTIONS_HEADING)
        stub.PAGES[:] = [(*text.rpartition(heading)[::2], over) for text, over in zip(texts, done)]
        stub.ACTIONS.clear()
        agent = ScriptedAgent(episode["replies"])
        output = asyncio.run(task.start_sample(episode["index"], _session(agent)))
        assert not stub.PAGES, "every page the env showed was asked for"
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "actions": list(stub.ACTIONS),
                "fed": episode["observations"],
            }
        )
    return recorded


CHECKOUT = WORK / "checkout"
"""The checkout whose files the recording reads (``REAL / "checkout"`` with ``--real``)."""


def _prompts_path(checkout: Path) -> str:
    for line in (checkout / "configs/tasks/alfworld.yaml").read_text().splitlines():
        if line.strip().startswith("prompts_path:"):
            return line.split(":", 1)[1].strip().strip("\"'")
    raise SystemExit("no prompts_path")


def record_alfworld(episodes: list[dict]) -> list[dict]:
    import os

    sys.modules.setdefault("jsonlines", types.ModuleType("jsonlines"))
    from src.server.tasks.alfworld import environment as stub
    from src.server.tasks.alfworld import task as hh

    folder = WORK / "hh"
    (folder / "data/alfworld").mkdir(parents=True, exist_ok=True)
    games = [f"{e['item']}-Bread-None-CounterTop-1/trial_{e['index']}/game.tw-pddl" for e in episodes]
    (folder / "data/alfworld/standard.json").write_text(json.dumps({"all": games}))
    (folder / "config.yaml").write_text("{}\n")
    here = os.getcwd()
    os.chdir(folder)  # ALFWorld.__init__ reads data/alfworld/<split>.json from the working folder
    try:
        task = hh.ALFWorld(
            name="alfworld-std",
            data_path=str(folder / "games"),
            config_path=str(folder / "config.yaml"),
            prompts_path=str(CHECKOUT / _prompts_path(CHECKOUT)),
            split="standard",
            max_step=35,
        )
    finally:
        os.chdir(here)
    heading = " AVAILABLE ACTIONS: "  # the env's text: observation + heading + commands, one a line + newline
    recorded = []
    for position, episode in enumerate(episodes):
        texts = [episode["first"], *episode["observations"]]
        won: list[bool | None] = [None] * len(texts)
        if episode["end"] in ("success", "failure"):
            won[-1] = episode["end"] == "success"
        stub.STEPS[:] = [(t.partition(heading)[0], t.partition(heading)[2][:-1].split("\n"), w) for t, w in zip(texts, won)]
        stub.COMMANDS.clear()
        agent = ScriptedAgent(episode["replies"] + ["(the replies ran out)"])
        output = asyncio.run(task.start_sample(position, _session(agent)))
        assert not stub.STEPS, "every step the env took was asked for"
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent[: len(episode["replies"])],
                "status": output.status.value,
                "commands": list(stub.COMMANDS),
                "fed": episode["observations"],
            }
        )
    return recorded


MIND2WEB_TOP_K, MIND2WEB_GROUP = 10, 5
"""v0.2's ``configs/tasks/mind2web.yaml``: ``eval.topk`` (the negatives kept, by rank) and ``train.num_candidates``
(the candidates of one call)."""


def _config_value(relative: str, key: str) -> str:
    for line in (CHECKOUT / relative).read_text().splitlines():
        if line.strip().startswith(f"{key}:"):
            return line.split(":", 1)[1].strip().strip("\"'")
    raise SystemExit(f"no {key} in {relative}")


def record_mind2web(episodes: list[dict]) -> list[dict]:
    """v0.2's ``Mind2Web.start_sample`` once per sample (``__init__``, which loads the data and a tokenizer, is
    replaced by the attributes it sets); with at most ``MIND2WEB_GROUP`` candidates its tournament is one call."""
    import random

    from src.server.tasks.mind2web import task as m2w

    random.seed(123)  # configs/tasks/mind2web.yaml seed, as __init__ seeds it
    recorded = []
    for episode in episodes:
        task = m2w.Mind2Web.__new__(m2w.Mind2Web)
        task.top_k, task.candidates_num = MIND2WEB_TOP_K, MIND2WEB_GROUP
        task.prompt_template = json.loads(
            (CHECKOUT / _config_value("configs/tasks/mind2web.yaml", "llm_prompt")).read_text()
        )
        task.data = [
            ({key: value for key, value in sample.items() if key != "choices"}, None) for sample in episode["samples"]
        ]
        requests, predictions, statuses = [], [], []
        for position, (sample, reply) in enumerate(zip(episode["samples"], episode["replies"])):
            assert len(sample["choices"]) <= MIND2WEB_GROUP and sample["pos_ids"], "one call per sample"
            agent = ScriptedAgent([reply])
            output = asyncio.run(task.start_sample(position, _session(agent)))
            assert len(agent.sent) == 1, "one call per sample"
            requests.append(agent.sent[0])
            predictions.append(list(output.result["final_prediction"]))
            statuses.append(output.status.value)
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": requests,
                "predictions": predictions,
                "statuses": statuses,
                "fed": [sample["choices"] for sample in episode["samples"]],
            }
        )
    return recorded


def record_filter() -> list[dict]:
    """``Session._calc_segments`` and ``Session.filter_messages`` on the seeded histories of
    ``tests/support/agentbench_histories.py``: each message's segments, how many turns were sent, and what was added
    to the first."""
    import importlib.util

    from src.server.task import Session
    from src.typings import ChatHistoryItem

    spec = importlib.util.spec_from_file_location("histories", ROOT / "tests/support/agentbench_histories.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = []
    for history in module.histories():
        sent = Session().filter_messages([ChatHistoryItem(**m) for m in history])
        assert [m.content for m in sent[1:]] == [m["content"] for m in history[len(history) - len(sent) + 1 :]]
        cases.append(
            {
                "segments": [Session._calc_segments(m["content"]) for m in history],
                "sent": len(sent),
                "first_added": sent[0].content[len(history[0]["content"]) :],
                "roles": [m.role for m in sent],
            }
        )
    return cases


def record(
    git_dir: str, real: bool = False, tasks: tuple[str, ...] = tuple(MODULES), recorded_pages: bool = False
) -> None:
    global CHECKOUT
    CHECKOUT = REAL / "checkout" if real else WORK / "checkout"
    src = WORK / "agentbench"
    for path in UNMODIFIED:
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(_show(git_dir, path))
    for task, relative in MODULES.items():
        if task not in tasks:
            continue
        for path in module_paths(task):
            (src / path).parent.mkdir(parents=True, exist_ok=True)
            (src / path).write_text((WORK / "modules" / path).read_text())
        init = (src / relative).parent / "__init__.py"
        if not init.exists():
            init.write_text(_show(git_dir, str(Path(relative).parent / "__init__.py")))
    for path, text in STUBS.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    for package in ("src", "src/server", "src/server/tasks"):
        (src / package / "__init__.py").touch()
    _fake_modules()
    sys.path.insert(0, str(src))
    recorders = {
        "dbbench": record_dbbench,
        "os_interaction": record_os_interaction,
        "knowledgegraph": record_knowledgegraph,
        "ltp": record_ltp,
        "webshop": record_webshop,
        "alfworld": record_alfworld,
        "mind2web": record_mind2web,
    }
    differing = compare_recorded_pages() if recorded_pages else 0
    for task, recorder in recorders.items():
        if task not in tasks:
            continue
        episodes = json.loads((WORK / f"{task}_export.json").read_text())
        recorded = recorder(episodes)
        if real:  # no file: compare what our protocol sent with what v0.2 sent, both with v0.2's own texts
            for ours, theirs in zip(episodes, recorded):
                same = ours["ours"] == theirs["requests"]
                differing += not same
                print(f"{task} item {ours['index']}: {len(theirs['requests'])} requests, {'equal' if same else 'DIFFER'}")
            continue
        note = (
            f"THUDM/AgentBench {COMMIT} {', '.join(module_paths(task))} (texts: tests/support/agentbench_checkout.py)"
        )
        out_path(task).write_text(
            json.dumps({"source": note, "episodes": recorded}, ensure_ascii=False, indent=1) + "\n"
        )
        print(f"wrote {out_path(task)}")
    if not real and set(tasks) == set(MODULES):
        note = f"THUDM/AgentBench {COMMIT} src/server/task.py Session.filter_messages and _calc_segments"
        out_path("filter_messages").write_text(
            json.dumps({"source": note, "cases": record_filter()}, ensure_ascii=False) + "\n"
        )
        print(f"wrote {out_path('filter_messages')}")
    if differing:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--export", action="store_true")
    parser.add_argument("--record", action="store_true")
    parser.add_argument(
        "--git-dir",
        default=os.environ.get("AGENTBENCH_GIT_DIR"),
        help="a git mirror of THUDM/AgentBench (default: $AGENTBENCH_GIT_DIR)",
    )
    parser.add_argument(
        "--real", action="store_true", help="v0.2's own texts on both sides; compare, write nothing here"
    )
    parser.add_argument("--tasks", default=",".join(MODULES), help="which tasks (comma-separated; default all)")
    parser.add_argument(
        "--recorded-pages", action="store_true", help="compare the pages of the recorded WebBrowsing tasks too"
    )
    args = parser.parse_args()
    if not args.git_dir:
        parser.error("name a git mirror of THUDM/AgentBench with --git-dir or $AGENTBENCH_GIT_DIR")
    tasks = tuple(args.tasks.split(","))
    if args.export:
        export(args.git_dir, args.real, tasks, args.recorded_pages)
    if args.record:
        record(args.git_dir, args.real, tasks, args.recorded_pages)


if __name__ == "__main__":
    main()
