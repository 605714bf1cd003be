"""Record AgentBoard's own WebShop (server, text scraper and harness loop) on our catalogue and goals (a reference for
tests, never a runtime dependency).

Runs AgentBoard's ``environment/WebShop/web_agent_site`` (its Flask app, ``engine/engine.py``, ``engine/goal.py``,
``engine/normalize.py``, templates) and its client ``environment/webshop_env.py`` UNMODIFIED, read from a snapshot of
hkust-nlp/AgentBoard (the git mirror named by ``--git-dir``, else ``$AGENTBOARD_GIT_DIR``) into
``/tmp/agentboard-webshop-src``, in a separate virtual environment (``/tmp/agentboard-webshop-venv``: AgentBoard's
pins for Flask, Werkzeug, beautifulsoup4, requests, thefuzz 0.19 (difflib's matcher, as its requirements install
it), rich, rank_bm25, cleantext, PyYAML, python-dotenv). The server runs on a local port; each step does what
AgentBoard's harness (``tasks/webshop.py``) does: ``reset[]`` first (step 0, not ours), then the action, its two
exception texts, the client's ``sub_reward`` as the progress, and ``HEAD /failed`` after an episode that did not buy.

What is ours (``--prepare``, run in our venv): the data the server loads, written into AgentBoard's layout under the
source folder (``data/webshop/test.jsonl`` = 251 goal lines from our shipped tasks, in AgentBoard's format with our
difficulty labels; ``data/webshop/data/items_shuffle.json`` and ``items_ins_v2.json`` = the products the recorded
searches list, in WebShop's scraped format), and the episodes' actions (our env with ``agentboard_fixes=False``, a
seeded mix of expert steps, listed actions and actions aimed at AgentBoard's error paths). Two engines are replaced
(``sys.modules``), as the tool recorder replaces the web: pyserini's ``LuceneSearcher`` answers each query with our
catalogue's ranking (recorded by ``--prepare``; the search is ours, not Lucene's), and spaCy's ``en_core_web_lg``
tags as nouns exactly the vocabulary nouns our reward uses (its tagger cannot run here without the model).

``--data DIR --progress-out OUT`` also writes the 251 lines as ``DIR/webshop/test.jsonl`` and the recorded
progress as ``OUT/webshop.json`` for ``benchmarks/agentboard_data.py``.

Usage::

    python tests/reference/record_webshop.py --setup --git-dir PATH      # venv + AgentBoard source under /tmp
    PYTHONPATH=. .venv/bin/python tests/reference/record_webshop.py --prepare
    /tmp/agentboard-webshop-venv/bin/python tests/reference/record_webshop.py --record
"""

from __future__ import annotations

import json
import random
import sys
import threading
import types
from pathlib import Path

from agentboard_source import copy_files, git, import_env_module, main, make_venv  # sibling: on sys.path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = HERE / "webshop_agentboard.json"
VENV = Path("/tmp/agentboard-webshop-venv")
SRC = Path("/tmp/agentboard-webshop-src")
DATA = SRC / "data" / "webshop"
PREPARED = SRC / "prepared.json"
PINS = (
    "werkzeug==2.2.2",
    "Flask==2.1.2",
    "beautifulsoup4==4.11.1",
    "PyYAML==6.0",
    "requests==2.27.1",
    "rich==12.4.4",
    "thefuzz==0.19.0",
    "rank_bm25==0.2.2",
    "cleantext==1.1.4",
    "python-dotenv",
    "tqdm",
)
SHOP = "agentboard/environment/WebShop/web_agent_site"
OTHER_FILES = (
    "agentboard/environment/webshop_env.py",
    "agentboard/common/registry.py",
    "agentboard/utils/common_exception.py",
    "agentboard/utils/logging/agent_logger.py",
)
EPISODES = 80
SEED = 2027
MAX_ACTIONS = 29  # AgentBoard's 30 steps minus the reset[] its harness sends first


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    names = [
        name
        for name in git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", SHOP).decode().split("\n")
        if name and not name.endswith("chromedriver")
    ]
    copy_files(git_dir, [*names, *OTHER_FILES], SRC)


# ---- --prepare (our venv): goals, products, searches, actions ---------------------------------------------
def goal_line(task) -> dict:
    """One line of AgentBoard's webshop/test.jsonl for a shipped task (the server's goal and the task's label)."""
    from agentgym_text.envs.webshop.catalogue import open_catalogue
    from agentgym_text.envs.webshop.reward import Goal

    goal = Goal.from_params(task.params)
    target = open_catalogue().product(goal.asin)
    return {
        "goal": goal.instruction,
        "difficulty": task.difficulty,
        "additional_info": {
            "product_id": goal.asin,
            "category": target.category,
            "query": goal.query,
            "product_name": target.title,
            "product_category": goal.product_category,
            "attributes": list(goal.attributes),
            "price_upper": goal.price_upper,
            "product_options": list(goal.options),
            "weight": 1,
        },
    }


def product_record(product) -> dict:
    """A product in WebShop's scraped format (what ``engine.load_products`` reads)."""
    return {
        "asin": product.asin,
        "name": product.title,
        "full_description": product.description,
        "small_description": list(product.bullets),
        "pricing": f"${product.price:.2f}",
        "customization_options": {
            group: [{"value": value, "image": None} for value in values] for group, values in product.options
        }
        or None,
        "category": product.category,
        "query": product.query,
        "product_category": product.product_category,
        "images": [""],
    }


def odd_action(rng: random.Random, env) -> str:
    """An action aimed at one of AgentBoard's error paths or quirks."""
    page = env.session.page
    choices = [
        "click[Back to Search]",
        "search[red dress]",
        "click[Next >]",
        "click[< Prev]",
        "buy it now",
        "click[B000000000]",
        "click[Buy Now]",
        "click[Description]",
        "reset[]",
    ]
    if page == "results":
        choices += ["click[Next >]"] * 4
    return rng.choice(choices)


def plan_episode(rng: random.Random, env, index: int) -> list[str]:
    """Play task ``index`` in our env (fixes off) with a seeded mix; the actions played."""
    env.reset(options={"task_index": index})
    mode = rng.random()
    actions: list[str] = []
    while not env.episode_over and len(actions) < MAX_ACTIONS:
        roll = rng.random()
        if roll < 0.4 + 0.5 * (mode < 0.3):
            action = env.expert_action() or "click[Back to Search]"
        elif roll < 0.85:
            listed = [a for a in env.admissible_actions() if a != "click[Buy Now]" or rng.random() < 0.3]
            products = [a for a in listed if a.startswith("click[B0")]
            if products and rng.random() < 0.6:  # other products' pages: where AgentBoard's item score bites
                listed = products
            action = rng.choice(listed or ["click[Back to Search]"])
        else:
            action = odd_action(rng, env)
        actions.append(action)
        env.step(action)
    return actions


def prepare() -> None:
    from agentgym_text.envs.webshop.catalogue import open_catalogue
    from agentgym_text.envs.webshop.env import WebShopEnv
    from agentgym_text.envs.webshop.generator import product_types
    from agentgym_text.envs.webshop.tasks import shipped_tasks

    tasks = shipped_tasks()
    catalogue = open_catalogue()
    env = WebShopEnv(agentboard_fixes=False)
    rng = random.Random(SEED)
    indexes = sorted(rng.sample(range(len(tasks)), EPISODES))
    episodes = [{"task_index": i, "task_id": tasks[i].task_id, "actions": plan_episode(rng, env, i)} for i in indexes]
    queries = {a[len("search[") : -1] for e in episodes for a in e["actions"] if a.startswith("search[")}
    queries |= {f"{t.plural}" for t in product_types()}
    searches = {query: catalogue.search(query) for query in sorted(queries)}
    asins = {asin for hits in searches.values() for asin in hits}
    asins |= {task.params["asin"] for task in tasks}
    products = [catalogue.product(asin) for asin in sorted(asins)]
    DATA.joinpath("data").mkdir(parents=True, exist_ok=True)
    (DATA / "test.jsonl").write_text("".join(json.dumps(goal_line(task)) + "\n" for task in tasks))
    (DATA / "data" / "items_shuffle.json").write_text(json.dumps([product_record(p) for p in products]))
    (DATA / "data" / "items_ins_v2.json").write_text(
        json.dumps({p.asin: {"attributes": list(p.attributes)} for p in products})
    )
    (DATA / "data" / "items_human_ins.json").write_text("{}")
    nouns = {p.title: list(p.nouns) for p in products}
    PREPARED.write_text(json.dumps({"episodes": episodes, "searches": searches, "nouns": nouns}))
    print(f"prepared {len(episodes)} episodes, {len(searches)} searches, {len(products)} products")


# ---- --record (reference venv): AgentBoard's server, client and harness loop --------------------------------
def install_engines(prepared: dict) -> None:
    """pyserini's LuceneSearcher answering with our recorded ranking; spaCy tagging our vocabulary nouns."""
    searches, nouns = prepared["searches"], prepared["nouns"]

    class Hit:
        def __init__(self, docid: str):
            self.docid = docid

    class Doc:
        def __init__(self, asin: str):
            self._asin = asin

        def raw(self) -> str:
            return json.dumps({"id": self._asin})

    class LuceneSearcher:
        def __init__(self, path: str):
            pass

        def search(self, keywords: str, k: int = 10) -> list:
            # the client puts quote_plus(query) in the URL path, which Flask does not turn back into spaces
            query = keywords.replace("+", " ")
            if query not in searches:
                raise KeyError(f"no recorded search for {query!r}: run --prepare again")
            return [Hit(asin) for asin in searches[query][:k]]

        def doc(self, docid: str) -> Doc:
            return Doc(docid)

    class Token:
        def __init__(self, text: str):
            self.text, self.pos_ = text, "NOUN"

    def load(name: str):
        return lambda text: [Token(noun) for noun in nouns[text]]

    lucene = types.ModuleType("pyserini.search.lucene")
    lucene.LuceneSearcher = LuceneSearcher
    for name, module in (
        ("pyserini", types.ModuleType("pyserini")),
        ("pyserini.search", types.ModuleType("pyserini.search")),
        ("pyserini.search.lucene", lucene),
    ):
        sys.modules[name] = module
    spacy = types.ModuleType("spacy")
    spacy.load = load
    sys.modules["spacy"] = spacy


def start_server() -> str:
    from werkzeug.serving import make_server

    sys.path.insert(0, str(SRC / "agentboard" / "environment" / "WebShop"))
    from web_agent_site.app import app

    server = make_server("127.0.0.1", 0, app, threaded=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def play(env, web_url: str, session: str, actions: list[str], page_number_error) -> dict:
    """AgentBoard's ``evaluate_env`` loop with our actions after its reset[]: observations and progress."""
    import requests

    env.sub_reward, env.reward = 0.0, 0.0
    observations, progress, valid, done = [], [], [], False
    observation, _, done, _, _ = env.step(session, "reset[]")
    last = observation
    first = observation
    for action in actions:
        grounding = False
        try:
            observation, reward, done, sub_reward, grounding = env.step(session, action)
            last = observation
        except AssertionError:
            observation = (
                "You can only click the button showed in the observation. Elements within square "
                "brackets (like [Buy Now]) indicate clickable buttons or links. The recent observation "
                f"is: \n{last}"
            )
        except page_number_error:
            observation = (
                f"The page number is limited to 5, please choose another action. The recent observation is: \n{last}"
            )
        observations.append(observation)
        progress.append(env.sub_reward)
        valid.append(bool(grounding))
        if done:
            break
    if not done:
        requests.head(f"{web_url}/failed")
    return {
        "first": first,
        "goal": env.get_goal(),
        "observations": observations,
        "valid": valid,
        "progress": progress,
        "done": bool(done),
    }


def record(args) -> None:
    import os

    prepared = json.loads(PREPARED.read_text())
    install_engines(prepared)
    os.chdir(SRC)
    web_url = start_server()
    sys.path.insert(0, str(SRC / "agentboard"))
    module = import_env_module(SRC, "webshop_env")
    from utils.common_exception import PageNumberError

    env = module.Webshop(web_url=web_url)
    episodes = []
    for episode in prepared["episodes"]:
        played = play(env, web_url, f"fixed_{episode['task_index']}", episode["actions"], PageNumberError)
        steps = len(played["progress"])
        episodes.append({"task_id": episode["task_id"], "actions": episode["actions"][:steps], **played})
    commit = (SRC / "COMMIT").read_text().strip()
    OUT.write_text(json.dumps({"agentboard_commit": commit, "episodes": episodes}, indent=1) + "\n")
    steps = sum(len(e["progress"]) for e in episodes)
    print(f"recorded {len(episodes)} episodes, {steps} steps -> {OUT}")


def write_benchmark_files(data: Path | None, progress_out: Path | None) -> None:
    """The data folder's webshop/test.jsonl and OUT/webshop.json for benchmarks/agentboard_data.py."""
    if data is not None:
        (data / "webshop").mkdir(parents=True, exist_ok=True)
        (data / "webshop" / "test.jsonl").write_text((DATA / "test.jsonl").read_text())
    if progress_out is not None:
        progress_out.mkdir(parents=True, exist_ok=True)
        recorded = json.loads(OUT.read_text())["episodes"]
        rows = [{k: e[k] for k in ("task_id", "actions", "progress")} for e in recorded]
        (progress_out / "webshop.json").write_text(json.dumps({"episodes": rows}) + "\n")


def options(parser) -> None:
    parser.add_argument("--prepare", action="store_true", help="write the server's data and the actions (our venv)")
    parser.add_argument("--data", type=Path, default=None, help="also write DIR/webshop/test.jsonl")
    parser.add_argument("--progress-out", type=Path, default=None, help="also write OUT/webshop.json")


if __name__ == "__main__":
    arguments = main(__doc__, setup, record, options)
    if arguments.prepare:
        sys.path.insert(0, str(ROOT))
        prepare()
    if arguments.data or arguments.progress_out:
        write_benchmark_files(arguments.data, arguments.progress_out)
