"""Record AgentBoard's own tool envs on our shipped tool tasks (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/{weather,movie,academia,todo,sheet}_env.py`` and ``utils/<tool>/<tool>_tools.py``
UNMODIFIED, read from a snapshot of hkust-nlp/AgentBoard (the git mirror named by ``--git-dir``, else
``$AGENTBOARD_GIT_DIR``) into ``/tmp/agentboard-tools-src``, in a separate virtual environment
(``/tmp/agentboard-tools-venv``: requests, geopy, networkx, pandas, jsonlines, python-dotenv, plus gymnasium/numpy
so this script can import our package for the data). Per step it does what
AgentBoard's harness (``tasks/tool.py``) does: ``extract_action_name_and_action_input`` (AgentBoard's own, from
``utils/tool/helpers.py``), the format error, then ``env.step("Action: <name> with Action Input: <input>")``.
The first observations and the format-error text are read out of ``tasks/tool.py``'s source (its string constants).

How the web APIs are answered (no network here): ``requests.adapters.HTTPAdapter.send`` is replaced, so every
request AgentBoard's tools send (open-meteo archive, geocoding, air-quality and elevation; TMDB v3; Todoist REST
v2) is answered in-process by ``agentgym_text.envs.tools.agentboard_text.api.serve`` from the episode's offline backend
(our weather model, film database and SQLite agenda), in the API's response schema, with its HTTP status; the body
goes over the wire as JSON text, so AgentBoard's ``response.json()`` / ``response.text``, its reshaping, its
argument checks, its ``str()`` framing and its error handling are its own. The todo toolkit's constructor first
wipes the account and uploads ``projects.json``: during construction the fake API is empty and accepts those
uploads without storing them; afterwards it serves the task's agenda. Academia reads pickles from
``$PROJECT_PATH/data/tool-query/academia/raw``: they are written here as networkx graphs built from
``agentboard_text.api.academia_graphs()`` (our citation network). Sheet: AgentBoard's sheet tool drives Google Sheets
through gspread; Google's API is not emulated: ``gspread`` is replaced (``sys.modules``) by a stand-in over our
spreadsheet (``install_fake_gspread``) that keeps gspread's own argument handling where AgentBoard's texts show it
(A1 labels, sort order, note content, index arithmetic, the ``Worksheet`` repr), so the sheet part checks
AgentBoard's tool and env code and harness (the goal's sheet opened first), not Google's answers.

Actions: seeded random mixes of the task's golden calls, calls our backend lists as succeeding now, calls with a
missing, wrong or unknown argument, unknown functions, inputs that are not literals, format errors,
``check_valid_actions`` and ``finish``; a few target AgentBoard behaviours our env fixes (air-quality band gaps,
``eval`` expressions, "finish" inside another call, tool failures counted as valid).

Progress: each episode's env is given annotation lines (``dataset``: ``ground_truth_subgoals``, ``ground_truth``)
and the recording keeps AgentBoard's ``env.reward`` after every step and its success rule at the end
(``tasks/tool.py``: done and progress 1, todo ``goal_type`` 1 also ``get_todo_status`` == answer, that method's
source taken verbatim). The lines are fixtures written here from our own instances: AgentBoard's own env plays
each task's golden calls and ``finish`` with our answer, and its action path's Subgoals become the line's
``subgoals`` (the answer of a todo operation task is ``get_todo_status`` after them; of a sheet task the golden
table as JSON). They are saved in the recording (``annotations``) so the replay test writes the same data folder.
``--data DIR`` takes the lines from DIR instead (matched to our tasks by tool and goal, others skipped);
``--progress-out OUT`` also writes ``OUT/<task>.json`` for ``benchmarks/agentboard_data.py --recorded OUT``, and
``--fixture-out DIR`` the lines as a data folder for its ``--data DIR``.

Usage::

    python tests/reference/record_tools.py --setup --git-dir PATH   # venv + AgentBoard source under /tmp
    /tmp/agentboard-tools-venv/bin/python tests/reference/record_tools.py --record [--data DIR]
        [--progress-out OUT] [--fixture-out DIR]
"""

from __future__ import annotations

import ast
import json
import os
import pickle
import random
import sys
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit


from agentboard_source import copy_files, git, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = HERE / "tools_agentboard.json"
VENV = Path("/tmp/agentboard-tools-venv")
SRC = Path("/tmp/agentboard-tools-src")
TOOLS = ("weather", "movie", "academia", "todo")
FILES = (
    "agentboard/environment/sheet_env.py", "agentboard/utils/sheet/sheets_tools.py",
    "agentboard/prompts/Raw/sheet_raw.json",
    "agentboard/tasks/tool.py", "agentboard/agents/vanilla_agent.py", "agentboard/common/registry.py",
    "agentboard/utils/tool/helpers.py",
    "agentboard/utils/logging/agent_logger.py", "agentboard/utils/todo/projects.json",
    *(f"agentboard/environment/{tool}_env.py" for tool in TOOLS),
    *(f"agentboard/utils/{tool}/{tool}_tools.py" for tool in TOOLS),
    *(f"agentboard/prompts/Raw/{tool}_raw.json" for tool in TOOLS),
)
PINS = ("requests", "geopy", "networkx", "pandas", "jsonlines", "python-dotenv", "gymnasium", "numpy")
STEPS = 16
SEED = 2024


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    copy_files(git_dir, FILES, SRC)


# ---- the fake web ----------------------------------------------------------------------------------------
CURRENT = {"toolkit": None}


def _setup_answer(method: str, path: str, query: dict) -> tuple[int, object]:
    """The todo constructor's wipe-and-upload, answered without storing anything."""
    if method == "GET":
        return 200, []
    if path.endswith("/projects"):
        return 200, {"id": "1", "parent_id": None, "order": 0, "color": "grey", "name": query.get("name", ""),
                     "comment_count": 0, "is_shared": False, "is_favorite": False, "is_inbox_project": False,
                     "is_team_inbox": False, "view_style": "list", "url": ""}
    return 200, {"id": "1", "assigner_id": None, "assignee_id": None, "project_id": "1", "section_id": None,
                 "parent_id": None, "order": 0, "content": "", "description": "", "is_completed": False,
                 "labels": [], "priority": 1, "comment_count": 0, "creator_id": "1", "created_at": "", "url": "",
                 "due": {"date": "2015-06-01"}, "duration": None}


def install_fake_web() -> None:
    import requests
    from requests.adapters import HTTPAdapter

    from agentgym_text.envs.tools.agentboard_text.api import serve

    def send(self, request, **kwargs):
        parts = urlsplit(request.url)
        query: dict[str, str] = {}
        for key, value in parse_qsl(parts.query, keep_blank_values=True):
            query.setdefault(key, value)
        url = f"{parts.scheme}://{parts.hostname}{unquote(parts.path)}"
        toolkit = CURRENT["toolkit"]
        if toolkit is None:
            status, body = _setup_answer(request.method, parts.path, query)
        else:
            status, body = serve(toolkit, request.method, url, query)
        response = requests.Response()
        response.status_code = status
        response._content = (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
        response.encoding = "utf-8"
        response.url = request.url
        response.request = request
        return response

    HTTPAdapter.send = send


def install_fake_gspread() -> None:
    """A stand-in for gspread over our spreadsheet (Google's Sheets API is not emulated): the calls AgentBoard's
    sheet tool makes, with gspread's own argument handling where it shows (A1 labels, sort order, note content,
    ``col - 1`` index arithmetic, ``Worksheet`` repr)."""
    import types

    from agentgym_text.envs.tools.sheet.cells import PositionError, a1, parse_position
    from agentgym_text.envs.tools.sheet.spreadsheet import apply_formula

    exceptions = types.ModuleType("gspread.exceptions")
    utils = types.ModuleType("gspread.utils")

    class WorksheetNotFound(Exception):
        pass

    class IncorrectCellLabel(Exception):
        pass

    exceptions.WorksheetNotFound, exceptions.IncorrectCellLabel = WorksheetNotFound, IncorrectCellLabel
    utils.Dimension = types.SimpleNamespace(rows="ROWS", cols="COLUMNS")

    def label(text):
        try:
            return parse_position(text)
        except (PositionError, TypeError):
            raise IncorrectCellLabel(text) from None

    class Cell:
        def __init__(self, row, col, value):
            if row < 1 or col < 1:
                raise IncorrectCellLabel("({}, {})".format(row, col))
            self.row, self.col, self.value, self.address = row, col, value, a1(row, col)

    class Worksheet:
        id = 0

        def __init__(self, sheet):
            self.sheet, self.title = sheet, sheet.title

        def __repr__(self):
            return "<{} {} id:{}>".format(self.__class__.__name__, repr(self.title), self.id)

        def get_all_values(self):
            return self.sheet.values()

        def get_values(self, range_name, combine_merged_cells=False):
            start, end = range_name.split(":")
            return self.sheet.block(label(start), label(end))

        def cell(self, row, col):
            return Cell(row, col, self.sheet.get(row, col) if row >= 1 and col >= 1 else "")

        def acell(self, text):
            return Cell(*label(text), self.sheet.get(*label(text)))

        def freeze(self, rows=None, cols=None):
            if rows is not None:
                self.sheet.frozen["rows"] = rows
            if cols is not None:
                self.sheet.frozen["cols"] = cols

        def insert_cols(self, values, col=1, value_input_option="RAW", inherit_from_before=False):
            self.sheet.insert_cols(values, col - 1 + 1)

        def insert_rows(self, values, row=1, value_input_option="RAW", inherit_from_before=False):
            self.sheet.insert_rows(values, row - 1 + 1)

        def delete_dimension(self, dimension, start_index, end_index=None):
            self.sheet.delete("row" if dimension == "ROWS" else "col", [start_index - 1 + 1])

        def delete_columns(self, start_index, end_index=None):
            self.delete_dimension("COLUMNS", start_index)

        def update_acell(self, text, value):
            self.sheet.set(*label(text), value)

        def update(self, range_name, values, raw=True):
            if isinstance(values, str) and values.startswith("="):
                operator, inner = values[1:].rstrip(")").split("(", 1)
                if ":" in inner:
                    start, end = inner.split(":")
                    cells = [c for row in self.sheet.block(label(start), label(end)) for c in row]
                else:
                    cells = [self.sheet.get(*label(part)) for part in inner.split(",")]
                self.sheet.set(*label(range_name), apply_formula(operator, cells))
                return
            start, end = range_name.split(":")
            self.sheet.set_block(label(start), label(end), values)

        def sort(self, *specs, range=None):
            for col, order in specs:
                if order not in ("asc", "des"):
                    raise ValueError("Either 'asc' or 'des' should be specified as sort order.")
                self.sheet.sort_by_column(col, descending=order == "des")

        def merge_cells(self, name, merge_type="MERGE_ALL"):
            start, end = name.split(":")
            self.sheet.merge(label(start), label(end))

        def update_note(self, cell, content):
            row, col = label(cell)
            if not isinstance(content, str):
                raise TypeError("Only string value is accepted as content.")
            self.sheet.notes[a1(row, col)] = content

        def get_note(self, cell):
            row, col = label(cell)
            return self.sheet.notes.get(a1(row, col), "")

        def findall(self, query, in_row=None, in_column=None, case_sensitive=True):
            return [Cell(*label(position), "") for position in self.sheet.find(query, in_row, in_column)]

    class Spreadsheet:
        id = "copy"

        def worksheet(self, name):
            sheet = CURRENT["toolkit"].sheet
            if name != sheet.title:
                raise WorksheetNotFound(name)
            return Worksheet(sheet)

        def del_worksheet(self, worksheet):
            return worksheet.id  # AgentBoard passes a name: AttributeError, as with gspread

        def share(self, *args, **kwargs):
            return types.SimpleNamespace(json=lambda: {"id": "permission"})

        def transfer_ownership(self, permission_id):
            return None

    class Client:
        def copy(self, file_id, **kwargs):
            return Spreadsheet()

        def open_by_key(self, key):
            return Spreadsheet()

    gspread = types.ModuleType("gspread")
    gspread.service_account = lambda *args, **kwargs: Client()
    gspread.exceptions, gspread.utils = exceptions, utils
    sys.modules.update({"gspread": gspread, "gspread.exceptions": exceptions, "gspread.utils": utils})


def write_academia_pickles() -> None:
    import networkx as nx

    from agentgym_text.envs.tools.agentboard_text.api import academia_graphs

    data = academia_graphs()
    paper_net, author_net = nx.DiGraph(), nx.Graph()
    for node, attrs in data["paper_nodes"].items():
        paper_net.add_node(node, **attrs)
    paper_net.add_edges_from(data["paper_edges"])
    for node, attrs in data["author_nodes"].items():
        author_net.add_node(node, **attrs)
    for u, v, attrs in data["author_edges"]:
        author_net.add_edge(u, v, **attrs)
    raw = SRC / "data" / "tool-query" / "academia" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for name, value in (("paper_net", paper_net), ("author_net", author_net), ("title2id_dict", data["title2id"]),
                        ("id2title_dict", data["id2title"]), ("author2id_dict", data["author2id"]),
                        ("id2author_dict", data["id2author"])):
        with open(raw / f"{name}.pkl", "wb") as handle:
            pickle.dump(value, handle)


def agent_parser():
    """AgentBoard's ``VanillaAgent.action_parser_for_special_llms`` (on for the tool tasks by default), its source
    taken verbatim from ``agents/vanilla_agent.py`` (importing the module would pull in the LLM stack)."""
    import textwrap

    source = (SRC / "agentboard" / "agents" / "vanilla_agent.py").read_text()
    node = next(n for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.FunctionDef) and n.name == "action_parser_for_special_llms")
    namespace: dict = {}
    exec(textwrap.dedent(ast.get_source_segment(source, node)), namespace)
    return lambda message: namespace["action_parser_for_special_llms"](None, message)


def todo_status():
    """``EvalTool.get_todo_status`` and ``clean_answer`` of AgentBoard's ``tasks/tool.py``, their source verbatim (the
    module imports the LLM stack): the final projects and tasks that goal_type 1 compares with the answer."""
    import textwrap
    import types
    import typing
    from copy import deepcopy

    source = (SRC / "agentboard" / "tasks" / "tool.py").read_text()
    namespace: dict = {"deepcopy": deepcopy, **{name: getattr(typing, name) for name in ("Any", "Dict", "List", "Union")}}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name in ("get_todo_status", "clean_answer"):
            exec(textwrap.dedent(ast.get_source_segment(source, node)), namespace)
    harness = types.SimpleNamespace()
    harness.clean_answer = lambda answer: namespace["clean_answer"](harness, answer)
    return lambda toolkits: namespace["get_todo_status"](harness, toolkits)


def harness_strings() -> dict[str, str]:
    """The first observations and the format error, as string constants of AgentBoard's ``tasks/tool.py``."""
    tree = ast.parse((SRC / "agentboard" / "tasks" / "tool.py").read_text())
    constants = [node.value for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return {"weather": next(c for c in constants if c.startswith("If you want to get the latitude")),
            "other": next(c for c in constants if c.startswith("Once you have finished the goal")),
            "format": next(c for c in constants if c.startswith("Format error"))}


# ---- actions -----------------------------------------------------------------------------------------------
_UNKNOWN = ("get_weather", "search_movie", "get_paper", "add_task", "get_all_tasks", "neighbour_check", "lookup")
_JUNK_VALUES = ("xyz", 123456, -999.5, "", None, [1, 2], "2023-13-45")


def malformed(rng: random.Random, name: str, args: dict) -> str:
    from agentgym_text.envs.tools.agentboard_text.words import python_call

    kind = rng.randrange(9)
    if kind == 0 and args:
        dropped = dict(args)
        dropped.pop(rng.choice(list(dropped)))
        return python_call(name, dropped)
    if kind == 1 and args:
        changed = dict(args)
        changed[rng.choice(list(changed))] = rng.choice(_JUNK_VALUES)
        return python_call(name, changed)
    if kind == 2:
        return python_call(name, {**args, "extra_argument": 1})
    if kind == 3:
        return python_call(rng.choice(_UNKNOWN), args)
    if kind == 4:
        return f"{name} with Action Input: " + rng.choice(("{'name': }", "name=Tokyo", '{"flag": true}', "{", "[1, 2",
                                                           "null", "get_projects()"))
    if kind == 5:
        return rng.choice((name, f"I will call {name} now.", f"{name}({json.dumps(args)})", "Action: "))
    if kind == 6:
        return python_call(name, list(args.values()) or [0])  # a list, not a dict
    if kind == 7:
        return "check_valid_actions with Action Input: {}"
    return f"{name} with Action Input: {json.dumps(args)}"  # JSON spelling: true/false/null break eval


def special(rng: random.Random, tool: str, task: dict) -> list[str]:
    """Actions aimed at the behaviours our env fixes, and at tool failure texts."""
    from agentgym_text.envs.tools.agentboard_text.words import python_call

    out = []
    name, args = task["params"]["calls"][0] if task["params"]["calls"] else ("get_projects", {})
    out += [python_call(name, {**args, "note": "not finished yet"}),  # AgentBoard ends on "finish" anywhere
            python_call("finish_" + name, args),
            f"Thought: I need to look this up first.\nAction: {python_call(name, args)}",
            f"The next action to take is:\n\n{python_call(name, args)}"]
    if tool == "weather":
        out += [python_call("get_air_quality_level", {"air_quality_index": rng.choice((20.5, 40.5, 60.5, 80.5))}),
                python_call("get_air_quality_level", {"air_quality_index": rng.choice((7, 33, 55, 77, 95, 130))}),
                'get_air_quality_level with Action Input: {"air_quality_index": 10+5}',
                python_call("get_historical_rain", {"latitude": 40.7128, "longitude": -74.006,
                                                    "start_date": "2030-01-01", "end_date": "2030-01-05"}),
                python_call("get_temp_forecast", {"latitude": 48.8566, "longitude": 2.3522,
                                                  "start_date": "2000-01-01", "end_date": "2000-01-03"}),
                python_call("get_historical_temp", {"latitude": 51.5074, "longitude": -0.1278,
                                                    "start_date": "2001-01-01", "end_date": "2001-03-01"}),
                python_call("get_distance", {"latitude1": 40.7128, "longitude1": -74.006,
                                             "latitude2": 51.5074, "longitude2": -0.1278}),
                python_call("get_latitude_longitude", {"name": "Atlantis"}),
                python_call("get_elevation", {"latitude": 0.5, "longitude": -30.0}),
                python_call("convert_zipcode_to_address", {"zipcode": "10001"})]
    if tool == "movie":
        out += [python_call("get_search_movie", {"movie_name": "The Finish Line"}),
                python_call("get_movie_details", {"movie_id": 99999999}),
                python_call("get_search_person", {"person_name": "Nobody Atall"})]
    if tool == "academia":
        out += [python_call("paperNodeCheck", {"node": "Deep Learning"}),
                python_call("neighbourCheck", {"graph": "CitationNet", "node": "x"}),
                python_call("authorEdgeCheck", {"node1": "Nobody", "node2": "Somebody"})]
    if tool == "sheet":
        out += [python_call("get_value_by_formula", {"position_list": ["AA1", "C2"], "operator": "SUM"}),
                python_call("get_value_by_formula", {"start_position": "C2", "end_position": "c9", "operator": "MAX"}),
                python_call("get_value_by_formula", {"position_list": ["C2"], "operator": "MEDIAN"}),
                "Finish with Action Input: {}", python_call("update_cell", {"position": "J9", "value": "FINISHED"}),
                python_call("update_range", {"start_position": "A1", "end_position": "Z99", "values_list": [[1]]}),
                python_call("delete_batch_data", {"dimension": "rows", "index_list": [2]})]
    if tool == "todo":
        out += [python_call("get_task_description", {"task_id": "404404"}),
                python_call("complete_task", {"task_id": "123"}),
                python_call("update_task", {"task_id": "7101", "due_date": "next friday"}),
                python_call("get_tasks", {"project_id": "0000"})]
    rng.shuffle(out)
    return out[:4]


def probes(rng: random.Random, tool: str, task: dict, toolkit) -> list[tuple[str, dict]]:
    """Calls of every function of the tool on things that exist (so each reshaping is recorded)."""
    import datetime as dt

    config = task["params"]["config"]
    if tool == "weather":
        from agentgym_text.envs.tools.weather.cities import CITIES

        city = rng.choice(CITIES)
        point = {"latitude": city.latitude, "longitude": city.longitude}
        today = dt.date.fromisoformat(config["current_date"])
        day = lambda offset: (today + dt.timedelta(days=offset)).isoformat()  # noqa: E731
        past = {**point, "start_date": day(-rng.randint(3, 20)), "end_date": day(-1)}
        future = {**point, "start_date": day(1), "end_date": day(rng.randint(1, 10))}
        return [("get_historical_temp", past), ("get_historical_rain", past), ("get_historical_snow", past),
                ("get_historical_air_quality_index", past), ("get_temp_forecast", future),
                ("get_rain_forecast", future), ("get_snow_forecast", future),
                ("get_current_temp", {**point, "current_date": day(0)}),
                ("get_current_rain", {**point, "current_date": day(0)}),
                ("get_current_snow", {**point, "current_date": day(0)}),
                ("get_current_air_quality_index", {**point, "current_date": day(0)}),
                ("get_latitude_longitude", {"name": city.name}), ("get_elevation", point)]
    if tool == "movie":
        film = rng.choice(list(toolkit.db.films.values()))
        person = rng.choice(list(toolkit.db.people.values()))
        return [(name, {"movie_id": film.id}) for name in (
            "get_movie_details", "get_movie_production_companies", "get_movie_production_countries",
            "get_movie_cast", "get_movie_crew", "get_movie_keywords", "get_movie_alternative_titles",
            "get_movie_translation")] + [(name, {"person_id": person.id}) for name in (
                "get_person_details", "get_person_cast", "get_person_crew", "get_person_external_ids")] + [
            ("get_search_movie", {"movie_name": film.title}), ("get_search_person", {"person_name": person.name})]
    if tool == "academia":
        net = toolkit.net
        paper = rng.choice([p for p in net.papers.values() if p.cites])
        author = rng.choice([a for a in net.authors.values() if net.collaborators[a.name]])
        other = rng.choice(net.collaborators[author.name])
        return [("loadPaperNet", {}), ("loadAuthorNet", {}),
                ("paperEdgeCheck", {"node1": paper.title, "node2": paper.cites[0]}),
                ("paperEdgeCheck", {"node1": paper.cites[0], "node2": paper.title}),
                ("authorEdgeCheck", {"node1": author.name, "node2": other}),
                ("neighbourCheck", {"graph": "PaperNet", "node": paper.title}),
                ("neighbourCheck", {"graph": "AuthorNet", "node": author.name}),
                ("paperNodeCheck", {"node": paper.title}), ("authorNodeCheck", {"node": author.name})]
    if tool == "todo":
        project = rng.choice(list(toolkit.db.projects()))
        task_row = rng.choice(list(toolkit.db.tasks(project["id"])))
        return [("get_projects", {}), ("get_tasks", {"project_id": project["id"]}),
                ("get_task_description", {"task_id": task_row["id"]}),
                ("get_task_duration", {"task_id": task_row["id"]}),
                ("update_project", {"project_id": project["id"], "is_favorite": rng.choice((True, False))}),
                ("update_task", {"task_id": task_row["id"], "due_date": "2015-06-20"}),
                ("complete_task", {"task_id": task_row["id"]}), ("delete_task", {"task_id": task_row["id"]}),
                ("get_user_current_date", {}), ("get_user_current_location", {})]
    if tool == "sheet":
        height, width = toolkit.sheet.shape
        last = f"{chr(64 + width)}{height}"
        return [("freeze_data", {"dimension": "rows", "num": 1}), ("freeze_data", {"dimension": "cols", "num": 1}),
                ("get_A1_annotation", {"row": rng.randint(1, height), "col": rng.randint(1, width)}),
                ("insert_cols", {"values_list": [["New"] + ["1"] * (height - 1)], "col_idx": width + 1}),
                ("insert_rows", {"values_list": [["x"] * width], "row_idx": rng.randint(2, height)}),
                ("delete_batch_data", {"dimension": "row", "index_list": [rng.randint(2, height)]}),
                ("delete_batch_data", {"dimension": "col", "index_list": [width]}),
                ("update_cell", {"position": f"B{rng.randint(2, height)}", "value": rng.choice(("12.5", "text", 7))}),
                ("update_cell_by_formula", {"start_position": "C2", "end_position": f"C{height}",
                                            "result_position": f"C{height + 2}", "operator": "SUM"}),
                ("update_cell_by_formula", {"position_list": ["C2", "D2"], "result_position": "J2",
                                            "operator": "PRODUCT"}),
                ("update_range", {"start_position": "A2", "end_position": "B3",
                                  "values_list": [["a", "1"], ["b", "2"]]}),
                ("sort_sheet_by_col", {"col_num": 3, "order": rng.choice(("asc", "des"))}),
                ("merge_cells", {"start_position": "A2", "end_position": "B2"}),
                ("update_note", {"position": "A1", "content": "checked"}), ("get_note", {"position": "A1"}),
                ("get_all_values", {}), ("get_range_values", {"start_position": "A1", "end_position": last}),
                ("get_cell_value", {"position": f"C{rng.randint(1, height)}"}),
                ("get_value_by_formula", {"start_position": "C2", "end_position": f"C{height}",
                                          "operator": rng.choice(("SUM", "AVERAGE", "MAX", "COUNT"))}),
                ("get_value_by_formula", {"position_list": ["C2", "C3"], "operator": "MINUS"}),
                ("filter_cells", {"query": toolkit.sheet.get(2, 2)}), ("del_sheet", {"name": toolkit.sheet.title}),
                ("open_sheet", {"name": toolkit.sheet.title})]
    return []


def plan(rng: random.Random, tool: str, task: dict, toolkit) -> list:
    """A callable per step: given the state, the next action text."""
    from agentgym_text.envs.tools.agentboard_text.words import python_call

    golden = [(name, dict(args)) for name, args in task["params"]["calls"]]
    specials = special(rng, tool, task)
    sweep = probes(rng, tool, task, toolkit)
    rng.shuffle(sweep)

    def choose(step: int) -> str:
        if step == STEPS - 1 or (step >= 6 and rng.random() < 0.12):
            answer = task["params"]["answer"] if rng.random() < 0.6 else rng.choice(("I do not know", ["b", "a"], 3))
            return python_call("finish", {"answer": answer})
        roll = rng.random()
        if specials and roll < 0.2:
            return specials.pop()
        if sweep and roll < 0.45:
            name, args = sweep.pop()
            return python_call(name, args)
        if roll < 0.6 and golden:
            name, args = golden[min(step, len(golden) - 1)] if rng.random() < 0.6 else rng.choice(golden)
            return python_call(name, args)
        if roll < 0.75:
            calls = toolkit.example_calls()
            if calls:
                call = rng.choice(calls)
                return python_call(call.name, call.args)
        name, args = rng.choice(golden) if golden else ("get_projects", {})
        return malformed(rng, name, args)

    return choose


ENV_CLASSES = {"weather": "WeatherEnv", "movie": "MovieEnv", "academia": "AcademiaEnv", "todo": "TodoEnv",
               "sheet": "SheetEnv"}
TASK_FILES = {"weather": "tool-query", "movie": "tool-query", "academia": "tool-query", "todo": "tool-operation",
              "sheet": "tool-operation"}


class Episode:
    """AgentBoard's env for one of our tasks, set up as ``tasks/tool.py`` sets it up, with annotation ``line``."""

    def __init__(self, env_classes, strings, tool: str, spec, line: dict):
        from utils.tool.helpers import extract_sheet_number

        from agentgym_text.envs.tools.task_builder import toolkit_class

        self.tool, self.spec, self.line = tool, spec, line
        config = spec.params["config"]
        info = line["additional_info"]
        self.toolkit = toolkit_class(tool)(config)
        CURRENT["toolkit"] = self.toolkit if tool == "sheet" else None
        init = info.get("init_config", {})
        dataset = {"goal": line["goal"], "ground_truth": info["answer"], "ground_truth_subgoals": line["subgoals"],
                   "tool": tool, "current_date": init.get("current_date"),
                   "current_location": init.get("current_location")}
        self.env = env_classes[tool](dataset=dataset)
        CURRENT["toolkit"] = self.toolkit
        self.first = strings["weather"] if tool == "weather" else strings["other"]
        if tool == "sheet":  # tasks/tool.py opens the goal's sheet before the first turn
            _, opened = self.env.reset_question_env(spec.goal, extract_sheet_number(spec.goal))
            self.first += "\n" + opened
        if tool == "todo":  # tasks/tool.py sets these after building the env
            self.env.todo_toolkits.current_date = init["current_date"]
            self.env.todo_toolkits.current_location = init["current_location"]
        self.action_path: list = []
        self.env.action_path = self.action_path

    def step(self, parse, strings, sent: str) -> dict:
        from utils.tool.helpers import extract_action_name_and_action_input

        message = parse(sent).strip()  # tasks/tool.py: agent.run() (parser on), then .strip()
        action, action_input = extract_action_name_and_action_input(message)
        if action_input is None:
            observation, done, valid = strings["format"], False, False
        else:
            observation, _, done, _ = self.env.step("Action: " + action + " with Action Input: " + action_input,
                                                    action_path=self.action_path)
            valid = not observation.startswith("ERROR | ")
        return {"action": sent, "observation": observation, "valid": valid, "done": bool(done),
                "progress": self.env.reward}

    def success(self, status, done: bool) -> bool:
        """``EvalTool.evaluate_env``'s verdict once the loop ends."""
        if not done:
            return False
        if self.line["additional_info"].get("goal_type") == 1 and self.tool == "todo":
            return status(self.env.todo_toolkits) == self.line["additional_info"]["answer"] and self.env.reward == 1.0
        return self.env.reward == 1.0


def fixture_line(env_classes, strings, parse, status, tool: str, spec) -> dict:
    """An annotation line for our task ``spec``: AgentBoard's own Subgoals of its golden calls and finish."""
    from agentgym_text.envs.tools.agentboard_text.words import python_call
    from agentgym_text.envs.tools.todo.seed_data import CURRENT_DATE, CURRENT_LOCATION

    config = spec.params["config"]
    if tool == "todo":
        init = {"current_date": CURRENT_DATE, "current_location": CURRENT_LOCATION}
    else:
        init = {key: config[key] for key in ("current_date", "current_location") if key in config}
    sheet = tool == "sheet"
    goal_type = 1 if tool == "todo" and spec.params["graded_state"] else 0
    line = {"goal": spec.goal, "subgoals": ["-"], "difficulty": spec.difficulty,
            "additional_info": {"answer": json.dumps(spec.params["golden_state"]) if sheet else spec.params["answer"],
                                "tool": tool, "goal_type": goal_type, "init_config": init}}
    episode = Episode(env_classes, strings, tool, spec, line)
    for name, args in spec.params["calls"]:
        episode.step(parse, strings, python_call(name, args))
    if goal_type == 1:
        line["additional_info"]["answer"] = status(episode.env.todo_toolkits)
    episode.step(parse, strings, python_call("finish", {"answer": spec.params["answer"]}))
    line["subgoals"] = [] if sheet else [item["Subgoal"] for item in episode.action_path]
    episode.toolkit.close()
    return line


def read_lines(folder: Path, tasks_by_goal: dict) -> dict:
    """``--data``: the lines of DIR's task files that are our tasks (by tool and goal), keyed by task id."""
    lines = {}
    for task_file in ("tool-query", "tool-operation"):
        path = folder / task_file / "test.jsonl"
        if not path.is_file():
            continue
        for number, text in enumerate(path.read_text().splitlines(), start=1):
            if not text.strip():
                continue
            line = json.loads(text)
            spec = tasks_by_goal.get((line["additional_info"]["tool"], line["goal"]))
            if spec is None:
                print(f"{path}, line {number}: not one of our instances, skipped", file=sys.stderr)
                continue
            lines[spec.task_id] = line
    return lines


def record(args) -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(SRC / "agentboard"))
    os.environ["PROJECT_PATH"] = str(SRC)
    install_fake_web()
    install_fake_gspread()
    write_academia_pickles()
    (SRC / "agentboard" / "utils" / "sheet" / "credential.json").write_text("{}")  # init_sheets checks it exists
    strings = harness_strings()
    parse = agent_parser()
    status = todo_status()
    import importlib

    from agentgym_text.envs.tools.tasks import tool_tasks

    env_classes = {tool: getattr(importlib.import_module(f"environment.{tool}_env"), ENV_CLASSES[tool])
                   for tool in (*TOOLS, "sheet")}
    specs = [(tool, spec) for tool in (*TOOLS, "sheet") for spec in tool_tasks(tool)]
    if args.data:
        lines = read_lines(Path(args.data), {(tool, spec.goal): spec for tool, spec in specs})
    else:
        lines = {spec.task_id: fixture_line(env_classes, strings, parse, status, tool, spec) for tool, spec in specs}
    episodes = []
    for tool, spec in specs:
        if spec.task_id not in lines:
            continue
        task = {"task_id": spec.task_id, "params": spec.params}
        rng = random.Random(f"{SEED}|{spec.task_id}")
        episode = Episode(env_classes, strings, tool, spec, lines[spec.task_id])
        choose = plan(rng, tool, task, episode.toolkit)
        steps = []
        for step_id in range(STEPS):
            steps.append(episode.step(parse, strings, choose(step_id)))
            if steps[-1]["done"]:
                break
        episodes.append({"task_id": spec.task_id, "tool": tool, "observation": episode.first,
                         "actions": episode.env.get_action_space(), "steps": steps,
                         "success": episode.success(status, steps[-1]["done"])})
        episode.toolkit.close()
    annotations: dict[str, list] = {"tool-query": [], "tool-operation": []}
    for tool, spec in specs:
        if spec.task_id in lines:
            annotations[TASK_FILES[tool]].append(lines[spec.task_id])
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"  # written by --setup
    OUT.write_text(json.dumps({"agentboard_commit": commit, "seed": SEED, "annotations": annotations,
                               "episodes": episodes}, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}: {len(episodes)} episodes, {sum(len(e['steps']) for e in episodes)} steps")
    if args.fixture_out:
        for task_file, task_lines in annotations.items():
            path = Path(args.fixture_out) / task_file / "test.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(json.dumps(line) + "\n" for line in task_lines))
    if args.progress_out:
        out = Path(args.progress_out)
        out.mkdir(parents=True, exist_ok=True)
        for task_file in annotations:
            rows = [{"task_id": e["task_id"], "actions": [s["action"] for s in e["steps"]],
                     "progress": [s["progress"] for s in e["steps"]]}
                    for e in episodes if TASK_FILES[e["tool"]] == task_file]
            (out / f"{task_file}.json").write_text(json.dumps({"episodes": rows}, indent=1, ensure_ascii=False) + "\n")


def options(parser) -> None:
    parser.add_argument("--data", default=None, help="read the annotation lines from this AgentBoard data folder")
    parser.add_argument("--progress-out", default=None,
                        help="also write OUT/<task>.json for benchmarks/agentboard_data.py")
    parser.add_argument("--fixture-out", default=None, help="also write the annotation lines as a data folder here")


if __name__ == "__main__":
    main(__doc__, setup, record, options)
