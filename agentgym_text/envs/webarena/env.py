"""``AgentBoard/WebArena-v0``: WebArena's tasks in a real headless Chromium, on sites the package serves.

The envs of a process share one Chromium (started at the first reset, closed by the last env's ``close()``;
``share_browser=False``: one of its own) and one Playwright driver (``chromium.BrowserThread``), each env in a
browser context of its own, fresh every episode (no cookies or history carried over) and, with the package's
sites, one fresh copy of every site database per episode (``SiteServer.reset``). With ``sites={...}`` and
``task_config=...`` the env drives a user's own WebArena deployment on WebArena's task files instead (the sites are
then not reset between episodes: reset them as WebArena's own scripts do).

Site URLs are shown under WebArena's public names (``http://onestopmarket.com`` for the shop, ...) as AgentBoard
does, and mapped back in ``goto``: the served ports change from run to run, the observations must not.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.webarena.actions import GRAMMAR, parse_action
from agentgym_text.envs.webarena.agentboard_text import AgentBoardWebArena
from agentgym_text.envs.webarena.browser import AXNode, Browser, PageState, SessionHandle, close_parts
from agentgym_text.envs.webarena.expert import Expert
from agentgym_text.envs.webarena.registration import FAMILY
from agentgym_text.envs.webarena.render import DEFAULT_MAX_CHARS, render_page
from agentgym_text.envs.webarena.urls import UrlMap

__all__ = ["WebArenaEnv", "load_task_config", "CLICKABLE_ROLES"]

CLICKABLE_ROLES = (
    "link",
    "button",
    "checkbox",
    "radio",
    "tab",
    "menuitem",
    "option",
    "combobox",
    "switch",
    "treeitem",
    "columnheader",
)
_TYPEABLE_ROLES = ("textbox", "searchbox", "combobox", "spinbutton")


def load_task_config(path: str | Path) -> TaskSet:
    """WebArena's task file (a list of configs, or one config, or a folder of ``<n>.json`` files) as a TaskSet."""
    path = Path(path)
    if path.is_dir():
        configs = [json.loads(p.read_text()) for p in sorted(path.glob("*.json"), key=lambda p: (len(p.stem), p.stem))]
    else:
        data = json.loads(path.read_text())
        configs = data if isinstance(data, list) else [data]
    tasks = []
    for config in configs:
        goal = config.get("intent", "")
        subgoals = len(config.get("eval", {}).get("program_html", []) or []) + 1
        tasks.append(
            TaskSpec(
                f"webarena-{int(config['task_id']):03d}",
                params=config,
                goal=goal,
                difficulty=FAMILY.difficulty.label(subgoals),
                max_steps=30,
            )
        )
    return TaskSet(tasks)


class WebArenaEnv(TextEnv):
    """WebArena in a real browser: read ``[id] role 'name'`` lines, act with ``click [id]``, ``type [id] [text]``...

    Keyword arguments: ``task_config`` (WebArena's ``test.raw.json`` or a folder of per-task configs: your tasks,
    on the served sites unless ``sites`` is given); ``sites`` (site name -> base URL of your own deployment) and
    optional ``auth_dir`` (its ``.auth`` folder of
    storage states) and ``db_paths`` (site -> SQLite file, for the ``db_checks`` extension); ``judge_model`` (with ``judge_base_url``; key in ``OPENAI_API_KEY``) or ``llm`` (a callable
    ``messages -> reply text``) to judge ``fuzzy_match`` answers with a chat model as WebArena does (without
    one, fuzzy answers are matched by rules); ``chromium_path``; ``share_browser`` (default True: the envs of a
    process share one Chromium, each in its own browser context; False: a Chromium of its own);
    ``max_obs_chars`` (the tree is cut there, default 7680 = WebArena's 1920 tokens x 4); ``show_real_urls`` (off: WebArena's site names);
    ``agentboard_data`` (AgentBoard's data folder, else ``$AGENTGYM_TEXT_AGENTBOARD_DATA``: its 245 WebArena
    tasks from ``webarena/test.jsonl``, with its difficulty labels; they need ``sites=``, WebArena's own sites);
    ``split="train"`` (with ``num_tasks``, 200 by default) plays the training tasks (``training.py``) instead of
    the 245 test tasks; ``agentboard_fixes=False`` scores progress exactly as AgentBoard does, bugs included,
    gives no progress bump on a solved task and ends the episode, solved, when progress reaches 1.0 (AgentBoard's rule;
    ``agentboard_text.py``).

    >>> env = WebArenaEnv()
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> obs.startswith("WINDOWED PAGE:{"), info["progress_rate"]
    (True, 0.0)
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    >>> env.close()
    """

    cheap_admissible_actions = True
    modes = (AgentBoardWebArena,)
    action_format = "one WebArena action: " + GRAMMAR
    action_example = "click [12]"

    def __init__(
        self,
        sites: dict[str, str] | None = None,
        task_config: str | Path | None = None,
        auth_dir: str | Path | None = None,
        db_paths: dict[str, str | Path] | None = None,
        llm: Callable[[list[dict]], str] | None = None,
        judge_model: str | None = None,
        judge_base_url: str | None = None,
        chromium_path: str | None = None,
        share_browser: bool = True,
        max_obs_chars: int = DEFAULT_MAX_CHARS,
        show_real_urls: bool = False,
        agentboard_data: str | os.PathLike[str] | None = None,
        split: str = "test",
        num_tasks: int | None = None,
        **kwargs,
    ):
        from agentgym_text.envs.webarena.agentboard_data import load_lines

        if split not in ("test", "train"):
            raise ValueError(f"split must be 'test' or 'train', not {split!r}")
        if split == "train" and (task_config is not None or agentboard_data is not None):
            raise ValueError("split='train' plays the package's training tasks: drop task_config/agentboard_data")
        if num_tasks is not None and split != "train":
            raise ValueError("num_tasks= sizes the training split: pass split='train' with it")
        agentboard_tasks = None if split == "train" else load_lines(agentboard_data)
        if agentboard_tasks is not None and task_config is not None:
            raise ValueError("agentboard_data and task_config both name the tasks: pass one of them")
        self._agentboard_tasks = agentboard_tasks is not None
        if agentboard_tasks is not None:
            task_config = None
        elif sites is not None and task_config is None:
            raise ValueError(
                "a deployment of your own (sites=...) needs its task file: task_config=<WebArena's "
                "test.raw.json or a folder of task configs>; the shipped tasks only fit the served sites"
            )
        if agentboard_tasks is not None:
            tasks = agentboard_tasks
        elif task_config is not None:
            tasks = load_task_config(task_config)
        elif split == "train":
            from agentgym_text.envs.webarena.training import training_tasks

            tasks = training_tasks(num_tasks)
        else:
            from agentgym_text.envs.webarena.tasks import TASKS

            tasks = TASKS
        super().__init__(tasks, **kwargs)
        self._own_sites = sites is None
        self._site_urls = dict(sites or {})
        self._auth_dir = Path(auth_dir) if auth_dir else None
        self._db_paths = {name: Path(path) for name, path in (db_paths or {}).items()}
        if llm is None and judge_model:
            from agentgym_text.envs.webarena.judge import make_judge

            llm = make_judge(judge_model, judge_base_url)
        self._llm = llm
        self._chromium_path = chromium_path
        self._share_browser = share_browser
        self._max_obs_chars = max_obs_chars
        self._show_real_urls = show_real_urls
        self._server = None
        self._browser: Browser | None = None
        self._session: SessionHandle | None = None
        self._urls = UrlMap({})
        self._shown: dict[int, AXNode] = {}
        self._state: PageState | None = None
        self._tracker = None
        self._config: dict[str, Any] = {}
        self._expert = Expert()
        self._page_text = ""
        self._progress_value = 0.0

    # ---- set-up --------------------------------------------------------------------------------------
    def _sites(self) -> dict[str, str]:
        if self._own_sites and self._server is None:
            from agentgym_text.envs.webarena.sites import SiteServer

            self._server = SiteServer()
            self._site_urls = dict(self._server.start())
            self._urls = UrlMap(self._site_urls)
        elif not self._own_sites and not self._urls.sites:
            self._urls = UrlMap(self._site_urls)
        return self._site_urls

    def _start(self, task: TaskSpec, seed: int) -> Start:
        if self._agentboard_tasks and self._own_sites:
            raise ValueError(
                "AgentBoard's WebArena tasks (agentboard_data=) run on WebArena's own sites: pass sites={'shopping': "
                "'http://host:7770', 'reddit': ..., ...} naming your deployment; the package's sites hold other data"
            )
        sites = self._sites()
        if self._server is not None:
            self._server.reset()
        if self._browser is None:
            self._browser = Browser(self._chromium_path, shared=self._share_browser)
        self._config = dict(task.params)
        self._open_session(list(sites.values()), self._storage_state())
        for index, url in enumerate(str(self._config.get("start_url", "")).split(" |AND| ")):
            if index:
                self._session.new_tab()
            self._session.goto(self._urls.fill(url.strip()))
        if self._session.active_tab():
            self._session.focus_tab(0)
        self._session.forget_history()
        self._tracker = self.mode.tracker(self._config, sites)
        self._progress_value = 0.0
        self._expert.start(self._config.get("gold") or [], str(self._config.get("start_url", "")))
        observation = self._observe()
        return Start(observation, goal=self._config.get("intent", task.goal))

    def _open_session(self, origins: list[str], storage_state: str | None) -> None:
        """This episode's browser context: the last one restarted when it can be, else a new one (on a new
        Chromium if the old one died)."""
        session = self._session
        if session is not None and session.can_restart(origins, storage_state):
            try:
                session.restart()
                return
            except Exception:  # a crashed tab or browser: a new context below
                pass
        if session is not None:
            session.close()
        self._session = None
        try:
            self._session = self._browser.new_session(origins, storage_state=storage_state)
        except Exception:
            if self._browser.alive():
                raise
            self._session = self._browser.new_session(origins, storage_state=storage_state)  # on a new Chromium

    def _storage_state(self) -> str | None:
        state = self._config.get("storage_state") if self._config else None
        if not state or self._auth_dir is None:
            return None
        path = self._auth_dir / Path(str(state)).name
        return str(path) if path.is_file() else None

    # ---- observation ----------------------------------------------------------------------------------
    def _observe(self) -> str:
        self._state, self._page_text = self._session.observe()
        text, self._shown = render_page(self._state, self._max_obs_chars)
        return text if self._show_real_urls else self._urls.hide(text)

    # ---- actions ----------------------------------------------------------------------------------------
    def _act(self, action: str) -> Outcome:
        try:
            outcome = self._apply(action)
        except ActionError:
            raise
        except Exception:
            if self._browser is None or self._browser.alive():
                raise
            outcome = None
        # A refused action may be a dead browser's doing (an element "without a box"): ask the browser then.
        if outcome is not None and (outcome.valid or self._browser is None or self._browser.alive()):
            return outcome
        return Outcome(
            "The browser exited during this action, so the episode is lost; reset() starts the next episode "
            "on a new browser.",
            terminated=True,
            finish_reason=FinishReason.ENGINE_ERROR.value,
        )

    def _apply(self, action: str) -> Outcome:
        parsed = parse_action(action)  # an ActionError is the step's invalid outcome
        self._expert.saw(action, parsed)
        session = self._session
        kind = parsed.kind
        if kind in ("click", "hover", "type"):
            node = self._shown.get(parsed.element_id)
            if node is None or node.backend_id is None:
                return Outcome.invalid(
                    f"Invalid {kind} action: there is no element [{parsed.element_id}] on the page shown; use an id "
                    "from the last observation.",
                    InvalidReason.UNKNOWN_OBJECT,
                )
            if kind == "type" and node.role not in _TYPEABLE_ROLES:
                return Outcome.invalid(
                    f"Invalid type action: [{parsed.element_id}] is a {node.role}, not a text field.",
                    InvalidReason.BAD_ARGUMENT,
                )
            done = {
                "click": lambda: session.click(node.backend_id),
                "hover": lambda: session.hover(node.backend_id),
                "type": lambda: session.type(node.backend_id, parsed.text, parsed.enter),
            }[kind]()
            if not done:
                return Outcome.invalid(
                    f"Invalid {kind} action: element [{parsed.element_id}] cannot be reached (it has no visible box).",
                    InvalidReason.PRECONDITION,
                )
        elif kind == "press":
            session.press(parsed.key)
        elif kind == "scroll":
            session.scroll(parsed.text == "down")
        elif kind == "new_tab":
            session.new_tab()
        elif kind == "tab_focus":
            tabs = session.tab_count()
            if parsed.index >= tabs:
                return Outcome.invalid(
                    f"Invalid tab_focus action: there is no tab {parsed.index} (tabs 0 to {tabs - 1}).",
                    InvalidReason.BAD_ARGUMENT,
                )
            session.focus_tab(parsed.index)
        elif kind == "close_tab":
            session.close_tab()
        elif kind == "goto":
            url = self._urls.reveal(parsed.url)
            if not session.allowed(url):
                return Outcome.invalid(
                    f"Invalid goto action: {parsed.url[:200]} is not on one of the sites "
                    f"({', '.join(self._urls.public_bases())}); the browser stays where it is.",
                    InvalidReason.BAD_ARGUMENT,
                )
            session.goto(url)
        elif kind == "go_back":
            session.go_back()
        elif kind == "go_forward":
            session.go_forward()
        elif kind == "stop":
            return self._finish(parsed.answer)
        observation = self._observe()
        self._progress_value = float(self._tracker.update(self._state.url, self._page_text, self._read_page))
        if self.mode.ends_solved(self._progress_value, self._evaluators_pass):
            return Outcome(observation, terminated=True, success=True)
        return Outcome(observation)

    def _read_page(self, locator: str) -> str:
        """What AgentBoard's progress reads on the current page: its HTML source, or a JavaScript locator's value."""
        return self._session.read(locator)

    def _needs_answer(self) -> bool:
        return "string_match" in self._config.get("eval", {}).get("eval_types", [])

    def _tracker_complete(self) -> bool:
        flags = list(self._tracker.subgoals_done)
        return bool(flags) and all(flags)

    def _evaluators_pass(self) -> bool:
        """Whether the task is solved without an answer: every subgoal met and the evaluators pass."""
        return self._tracker_complete() and not self._needs_answer() and self._score(None) == 1.0

    def _finish(self, answer: str) -> Outcome:
        score = self._score(answer)
        self._progress_value = self.mode.progress_at_stop(self._progress_value, score == 1.0)
        verdict = "correct" if score == 1.0 else "not correct"
        return Outcome(f"The episode is over: the task is {verdict}.", terminated=True, success=score == 1.0)

    def _score(self, answer: str | None) -> float:
        from agentgym_text.envs.webarena.evaluators import evaluate

        db_paths = dict(self._db_paths)
        if self._server is not None:
            db_paths = {name: self._server.db_path(name) for name in self._site_urls}
        return float(
            evaluate(
                self._config,
                answer,
                self._session.url(),
                self._page_content,
                db_paths,
                self._site_urls,
                llm=self._llm,
            )
        )

    def _page_content(self, url: str, locator: str) -> str:
        url = self._urls.fill(url) if url and url != "last" else None
        locator = locator or ""
        if locator.startswith("func:"):
            return ""
        return self._session.page_text(url, locator)

    # ---- contract hooks -----------------------------------------------------------------------------
    def _progress(self) -> Progress:
        tracker = self._tracker
        if tracker is None:
            return Progress(now=0.0)
        subgoals = [goal if self._show_real_urls else self._urls.hide(goal) for goal in tracker.subgoals]
        return Progress(
            now=self._progress_value, subgoals=subgoals, subgoals_done=[bool(flag) for flag in tracker.subgoals_done]
        )

    def _admissible_actions(self) -> list[str]:
        if self._session is None:
            return []
        actions = [f"click [{eid}]" for eid, node in self._shown.items() if node.role in CLICKABLE_ROLES]
        actions += [
            f"type [{eid}] [{node.name or 'test'}] [1]"
            for eid, node in self._shown.items()
            if node.role in _TYPEABLE_ROLES
        ]
        actions += ["scroll [down]", "scroll [up]", "go_back", "go_forward"]
        tabs = self._session.tab_count()
        if tabs > 1:
            actions += [f"tab_focus [{i}]" for i in range(tabs)] + ["close_tab"]
        actions.append("stop [N/A]")
        return actions

    def _help_text(self) -> str:
        return f"Actions: {GRAMMAR}. Ids are the numbers in brackets on the page shown. Now, for example: " + ", ".join(
            self._admissible_actions()[:12]
        )

    def _expert_action(self) -> str | None:
        if self._state is None:
            return None
        action = self._expert.next_action(self._state, self._shown, self._urls)
        if action is None or self._show_real_urls:
            return action
        shown = self._urls.hide(action)
        self._expert.proposal = (shown, self._expert.proposal[1])
        return shown

    def close(self) -> None:
        close_parts(self._session, self._browser, self._server)
        self._session = self._browser = self._server = None
        super().close()
