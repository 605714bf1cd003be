"""Record AgentBoard's own WebArena browser env on our sites: its progress rate along scripted episodes (a reference
for tests, never a runtime dependency).

Runs AgentBoard's ``environment/browser_env`` (``ScriptBrowserEnv``, its actions, observation processors and
progress evaluators) UNMODIFIED, read from a snapshot of hkust-nlp/AgentBoard (the git mirror named by
``--git-dir``, else ``$AGENTBOARD_GIT_DIR``) into ``/tmp/agentboard-webarena-src``, in a separate virtual
environment (``/tmp/agentboard-webarena-venv``: gymnasium, numpy, beartype 0.12 as AgentBoard pins it, Pillow,
nltk, requests and Playwright at our version, since it drives Debian's Chromium: AgentBoard's pin 1.32 predates
it), with AgentBoard's WebArena settings (accessibility tree, viewport only, 1280x720, slow_mo 100, 2.5 s after each
action). ``BrowserType.launch`` is given Debian's Chromium (Playwright's own browser download is not used); nothing
else is replaced.

Our five sites are served by our package in a child process (our venv) and reset before each episode; the site
variables AgentBoard reads (SHOPPING, SHOPPING_ADMIN, REDDIT, GITLAB, WIKIPEDIA, and PREFIX, the host its ``goto``
accepts) name them. The tasks are a spread of
our shipped configs (url_match, program_html with page and JavaScript locators, string_match), given to AgentBoard's
env as WebArena configs with the placeholders filled, as WebArena's own generation step does; the annotation lines
the replay test writes are the same configs in AgentBoard's line format. The actions: each task's gold steps
(elements named by role and accessible name, found in AgentBoard's own observation) with seeded detours (scrolls,
go_back, goto other pages of the site), sent through AgentBoard's ``extract_action`` and
``create_id_based_action`` as its harness does; after each step the env's ``progress_score``, and the episode ends
at 1.0 as the harness ends it.

Usage::

    python tests/reference/record_webarena.py --setup --git-dir PATH     # venv + AgentBoard source under /tmp
    /tmp/agentboard-webarena-venv/bin/python tests/reference/record_webarena.py --record
"""

from __future__ import annotations

import ast
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from agentboard_source import copy_files, git, import_env_module, main, make_venv  # sibling: on sys.path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = HERE / "webarena_agentboard.json"
TASKS = ROOT / "agentgym_text" / "envs" / "webarena" / "tasks.json"
VENV = Path("/tmp/agentboard-webarena-venv")
SRC = Path("/tmp/agentboard-webarena-src")
OUR_PYTHON = Path(os.environ.get("AGENTGYM_PYTHON", ROOT / ".venv" / "bin" / "python"))  # our venv, for the sites
PINS = ("playwright==1.65.2", "gymnasium", "numpy", "beartype==0.12.0", "Pillow", "nltk", "requests")
OTHER_FILES = ("agentboard/common/registry.py", "agentboard/utils/logging/agent_logger.py")
CHROMIUM = "/usr/bin/chromium"
SEED = 2028
MAX_SCROLLS = 4
PER_KIND = {"url_match": 5, "program_html": 9, "string_match": 3}
PLACEHOLDERS = {
    "shopping": "__SHOPPING__",
    "shopping_admin": "__SHOPPING_ADMIN__",
    "reddit": "__REDDIT__",
    "gitlab": "__GITLAB__",
    "wikipedia": "__WIKIPEDIA__",
}
SITES_DRIVER = """
import json, sys
from agentgym_text.envs.webarena.sites import SiteServer
server = SiteServer()
print(json.dumps(server.start()), flush=True)
for line in sys.stdin:
    server.reset()
    print("ok", flush=True)
server.close()
"""


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    folder = "agentboard/environment/browser_env"
    names = [n for n in git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", folder).decode().split("\n") if n]
    copy_files(git_dir, [*names, *OTHER_FILES], SRC)


def sample_tasks(configs: list[dict]) -> list[dict]:
    """A spread of our shipped configs per evaluation kind (JavaScript locators included)."""
    chosen = []
    for kind, count in PER_KIND.items():
        pool = [c for c in configs if c["eval"]["eval_types"] == [kind]]
        if kind == "program_html":
            scripted = [c for c in pool if any(t["locator"] for t in c["eval"]["program_html"])]
            chosen += scripted[:: max(1, len(scripted) // 3)][:3]
            pool = [c for c in pool if c not in chosen]
            count -= 3
        chosen += pool[:: max(1, len(pool) // count)][:count]
    return chosen


def fill(text: str, sites: dict[str, str]) -> str:
    for name in sorted(PLACEHOLDERS, key=lambda n: -len(PLACEHOLDERS[n])):
        text = text.replace(PLACEHOLDERS[name], sites[name])
    return text


def filled_config(config: dict, sites: dict[str, str]) -> dict:
    """The config as WebArena's generation step writes it (hosts for placeholders), without our own keys."""
    done = json.loads(fill(json.dumps(config), sites))
    for key in ("gold", "progress", "db_checks"):
        done.pop(key, None)
    done["storage_state"], done["require_login"] = None, False
    return done


_NODE = re.compile(r"\[(\d+)\] (\S+) ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


_TEXT_ROLES = ("searchbox", "textbox", "combobox", "spinbutton")


def find(observation: str, role: str, name: str, nth: int) -> str | None:
    """The id AgentBoard's observation gives the nth element of this role and name (its ``repr`` of the name);
    else, as our expert matches, any text field role and the name without case."""
    nodes = [(node, r, ast.literal_eval(quoted)) for node, r, quoted in _NODE.findall(observation)]
    found = [node for node, r, n in nodes if r == role and n == name]
    if len(found) <= nth:
        loose = name.strip().lower()
        found = [
            node
            for node, r, n in nodes
            if (r == role or (role in _TEXT_ROLES and r in _TEXT_ROLES)) and n.strip().lower() == loose
        ]
    return found[nth] if len(found) > nth else None


def detour(rng: random.Random, config: dict) -> list[dict]:
    """A detour that comes back to the page it left, so the gold steps still apply after it."""
    site = config["sites"][0]
    return rng.choice(
        [
            [{"action": "scroll", "direction": "down"}, {"action": "scroll", "direction": "up"}],
            [{"action": "goto", "url": PLACEHOLDERS[site] + "/?x=1"}, {"action": "go_back"}],
            [{"action": "goto", "url": PLACEHOLDERS[site] + "/"}, {"action": "go_back"}],
        ]
    )


def plan(rng: random.Random, config: dict) -> list[dict]:
    steps = []
    for step in config["gold"]:
        if step["action"] == "stop":
            continue
        if rng.random() < 0.35:
            steps += detour(rng, config)
        steps.append(step)
    return steps


def action_text(step: dict, observation: str, sites: dict[str, str]) -> str | None:
    kind = step["action"]
    if kind in ("click", "type"):
        node = find(observation, step["role"], step["name"], int(step.get("nth") or 0))
        if node is None:
            return None
        if kind == "type":
            return f"type [{node}] [{step['text']}] [{int(step.get('enter', 1))}]"
        return f"click [{node}]"
    if kind == "goto":
        return f"goto [{fill(step['url'], sites)}]"
    if kind == "scroll":
        return f"scroll [{step['direction']}]"
    return kind


def play(env, step: dict, text: str, extract, create) -> dict:
    """One step as AgentBoard's harness takes it (``extract_action``, ``create_id_based_action``, ``env.step``)."""
    action = create(extract(f"In summary, the next action is @{text}@"))
    env.history.append(action)
    env.step(action)
    return {"step": step, "found": True, "url": env.page.url, "progress": env.progress_score}


def launch_with_debian_chromium() -> None:
    from playwright.sync_api import BrowserType

    launch = BrowserType.launch

    def with_chromium(self, *args, **kwargs):
        kwargs.setdefault("executable_path", CHROMIUM)
        return launch(self, *args, **kwargs)

    BrowserType.launch = with_chromium


def record(args) -> None:
    driver = subprocess.Popen(
        [str(OUR_PYTHON), "-c", SITES_DRIVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    sites = json.loads(driver.stdout.readline())
    os.environ.update(
        SHOPPING=sites["shopping"],
        SHOPPING_ADMIN=sites["shopping_admin"],
        REDDIT=sites["reddit"],
        GITLAB=sites["gitlab"],
        WIKIPEDIA=sites["wikipedia"],
        MAP="http://127.0.0.1:9",
        HOMEPAGE="PASS",
        PREFIX="http://127.0.0.1",  # AgentBoard's goto refuses URLs outside its deployment's host
    )
    launch_with_debian_chromium()
    sys.path.insert(0, str(SRC / "agentboard"))
    browser_env = import_env_module(SRC, "browser_env")
    from environment.browser_env.actions import create_id_based_action as create
    from environment.browser_env.help_function import extract_action as extract

    env = browser_env.ScriptBrowserEnv(
        headless=True,
        slow_mo=100,
        observation_type="accessibility_tree",
        current_viewport_only=True,
        viewport_size={"width": 1280, "height": 720},
        save_trace_enabled=False,
        sleep_after_execution=2.5,
    )
    rng = random.Random(SEED)
    episodes = []
    try:
        for config in sample_tasks(json.loads(TASKS.read_text())):
            driver.stdin.write("reset\n")
            driver.stdin.flush()
            driver.stdout.readline()
            env.reset(options={"config_file": filled_config(config, sites)})
            steps = []
            for step in plan(rng, config):
                text = action_text(step, env.state["observation"]["text"], sites)
                scrolls = 0
                while text is None and scrolls < MAX_SCROLLS:  # below the viewport: scroll, as our expert does
                    scrolls += 1
                    done = play(env, {"action": "scroll", "direction": "down"}, "scroll [down]", extract, create)
                    steps.append(done)
                    text = action_text(step, env.state["observation"]["text"], sites)
                if text is None:
                    steps.append({"step": step, "found": False})
                    break
                steps.append(play(env, step, text, extract, create))
                if env.progress_score == 1.0:
                    break
            episodes.append({"task_id": f"webarena-original-{config['task_id']:03d}", "steps": steps})
            print(config["task_id"], config["eval"]["eval_types"], [s.get("progress") for s in steps], flush=True)
    finally:
        env.close()
        driver.stdin.close()
        driver.wait(timeout=30)
    commit = (SRC / "COMMIT").read_text().strip()
    OUT.write_text(json.dumps({"agentboard_commit": commit, "sites": sites, "episodes": episodes}, indent=1) + "\n")
    print(f"recorded {len(episodes)} episodes, {sum(len(e['steps']) for e in episodes)} steps -> {OUT}")


if __name__ == "__main__":
    main(__doc__, setup, record)
