"""AgentBoard's tool functions (movie, academia, todo; weather in ``weather``) ported over our data.

Each function follows ``agentboard/utils/<tool>/<tool>_tools.py`` at AgentBoard HEAD bb7255e: the same argument
checks, the same reshaping of the API's JSON, the same ``(success, result)`` pairs and failure texts. Where
AgentBoard calls ``requests``, ``_get`` asks ``api.serve`` (our data in the API's schema) and round-trips
the body through JSON as ``response.json()`` would. Python exceptions raised here are deliberate: the env turns
them into AgentBoard's ``ERROR | <Type>(<message>)`` text. ``TOOLS[tool][name]`` = (parameter names in the order
AgentBoard's env reads them, function).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from agentgym_text.envs.tools.agentboard_text.api import academia_graphs, serve, wire_query
from agentgym_text.envs.tools.agentboard_text.weather import WEATHER

__all__ = ["Session", "TOOLS"]


class _Response:
    def __init__(self, status: int, body: Any):
        self.status_code = status
        self.text = body if isinstance(body, str) else json.dumps(body)

    def json(self) -> Any:
        return json.loads(self.text)


class _Graph:
    """The part of a networkx graph AgentBoard uses: ``nodes[n]``, ``edges[u, v]``, ``neighbors(n)``."""

    def __init__(self, nodes: dict[int, dict], edges: list, directed: bool):
        self.nodes = nodes
        self.adj: dict[int, dict[int, dict]] = {node: {} for node in nodes}
        for edge in edges:
            u, v, attrs = edge if len(edge) == 3 else (edge[0], edge[1], {})
            self.adj[u][v] = attrs
            if not directed:
                self.adj[v][u] = attrs
        self.edges = _Edges(self.adj)

    def neighbors(self, node: int):
        return iter(self.adj[node])


class _Edges:
    def __init__(self, adj: dict[int, dict[int, dict]]):
        self.adj = adj

    def __getitem__(self, pair: tuple[int, int]) -> dict:
        return self.adj[pair[0]][pair[1]]


class Session:
    """One episode's tool state as AgentBoard's toolkit object holds it, over the episode's offline backend."""

    def __init__(self, toolkit: Any, config: dict[str, Any]):
        self.toolkit = toolkit
        self.current_date = config.get("current_date")
        self.current_location = config.get("current_location")
        if toolkit.name == "todo":  # AgentBoard sets both for todo too (tasks/tool.py)
            from agentgym_text.envs.tools.todo.seed_data import CURRENT_DATE, CURRENT_LOCATION

            self.current_date = self.current_date or CURRENT_DATE
            self.current_location = self.current_location or CURRENT_LOCATION
        self.paper_net = self.author_net = None
        self.title2id_dict = self.id2title_dict = self.author2id_dict = self.id2author_dict = None

    def get(self, url: str, params: dict | None = None, method: str = "GET") -> _Response:
        return _Response(*serve(self.toolkit, method, url, wire_query(params)))


# ---- movie (utils/movie/movie_tools.py) ------------------------------------------------------------------
_TMDB = "https://api.themoviedb.org/3"


def _tmdb(s: Session, path: str, shape: Callable[[Any], Any], params: dict | None = None):
    response = s.get(_TMDB + path, params)
    return (True, shape(response.json())) if response.status_code == 200 else (False, response.text)


def _search(query: Any) -> dict:
    return {"query": query, "include_adult": "false", "language": "en-US", "page": "1"}


def _crew(data: dict) -> dict:
    out = {
        "crew": [
            {"id": c["id"], "name": c["name"], "job": c["job"]}
            for c in data["crew"]
            if c["job"] in ("Director", "Producer", "Writer")
        ]
    }
    if len(out["crew"]) < 10:
        ids = [c["id"] for c in out["crew"]]
        for c in data["crew"]:
            if c["id"] not in ids:
                out["crew"].append({"id": c["id"], "name": c["name"], "job": c["job"]})
            if len(out["crew"]) == 10:
                break
    return out


def _translations(data: dict) -> dict:
    out = copy.deepcopy(data)
    out["translations"] = [item for item in data["translations"] if item["iso_3166_1"] in ["NL", "CN", "US", "DE"]]
    for item in out["translations"]:
        item["data"].pop("title")
    return out


def _first_person(data: dict) -> list:
    if len(data["results"]) == 0:
        return []
    return [{"id": data["results"][0]["id"], "name": data["results"][0]["name"]}]


_MOVIE: dict[str, tuple[tuple[str, ...], Callable]] = {
    "get_search_movie": (
        ("movie_name",),
        lambda s, movie_name: _tmdb(
            s,
            "/search/movie",
            lambda d: [
                {
                    "id": d["results"][0]["id"],
                    "overview": d["results"][0]["overview"],
                    "title": d["results"][0]["title"],
                }
            ],
            _search(movie_name),
        ),
    ),
    "get_movie_details": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(
            s,
            f"/movie/{movie_id}",
            lambda d: {
                "title": d["title"],
                "budget": d["budget"],
                "genres": d["genres"],
                "revenue": d["revenue"],
                "vote_average": d["vote_average"],
                "release_date": d["release_date"],
            },
        ),
    ),
    "get_movie_production_companies": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(
            s, f"/movie/{movie_id}", lambda d: {"production_companies": d["production_companies"]}
        ),
    ),
    "get_movie_production_countries": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(
            s, f"/movie/{movie_id}", lambda d: {"production_countries": d["production_countries"]}
        ),
    ),
    "get_movie_keywords": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(
            s, f"/movie/{movie_id}/keywords", lambda d: {"keywords": [k["name"] for k in d["keywords"]]}
        ),
    ),
    "get_search_person": (
        ("person_name",),
        lambda s, person_name: _tmdb(s, "/search/person", _first_person, _search(person_name)),
    ),
    "get_person_details": (
        ("person_id",),
        lambda s, person_id: _tmdb(
            s,
            f"/person/{person_id}",
            lambda d: {
                "name": d["name"],
                "biography": d["biography"],
                "birthday": d["birthday"],
                "place_of_birth": d["place_of_birth"],
            },
        ),
    ),
    "get_movie_cast": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(
            s,
            f"/movie/{movie_id}/credits",
            lambda d: {
                "cast": [{"id": c["id"], "name": c["name"], "character": c["character"]} for c in d["cast"][:10]]
            },
        ),
    ),
    "get_movie_crew": (("movie_id",), lambda s, movie_id: _tmdb(s, f"/movie/{movie_id}/credits", _crew)),
    "get_person_cast": (
        ("person_id",),
        lambda s, person_id: _tmdb(
            s,
            f"/person/{person_id}/movie_credits",
            lambda d: {
                "cast": [{"id": c["id"], "title": c["title"], "character": c["character"]} for c in d["cast"][:10]]
            },
        ),
    ),
    "get_person_crew": (
        ("person_id",),
        lambda s, person_id: _tmdb(
            s,
            f"/person/{person_id}/movie_credits",
            lambda d: {"crew": [{"id": c["id"], "title": c["title"], "job": c["job"]} for c in d["crew"][:10]]},
        ),
    ),
    "get_person_external_ids": (
        ("person_id",),
        lambda s, person_id: _tmdb(
            s,
            f"/person/{person_id}/external_ids",
            lambda d: {
                "imdb_id": d["imdb_id"],
                "facebook_id": d["facebook_id"],
                "instagram_id": d["instagram_id"],
                "twitter_id": d["twitter_id"],
            },
        ),
    ),
    "get_movie_alternative_titles": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(s, f"/movie/{movie_id}/alternative_titles", lambda d: d),
    ),
    "get_movie_translation": (
        ("movie_id",),
        lambda s, movie_id: _tmdb(s, f"/movie/{movie_id}/translations", _translations),
    ),
}


# ---- academia (utils/academia/academia_tools.py) --------------------------------------------------------
def _load(s: Session, which: str):
    data = academia_graphs()
    if which == "paper":
        s.paper_net = _Graph(data["paper_nodes"], data["paper_edges"], directed=True)
    else:
        s.author_net = _Graph(data["author_nodes"], data["author_edges"], directed=False)
    s.title2id_dict, s.id2title_dict = data["title2id"], data["id2title"]
    s.author2id_dict, s.id2author_dict = data["author2id"], data["id2author"]
    return True, "PaperNet is loaded." if which == "paper" else "AuthorNet is loaded."


def _neighbour_check(s: Session, graph, node):
    if graph == "PaperNet" and s.paper_net is None:
        return False, "Please load the PaperNet first."
    elif graph == "AuthorNet" and s.author_net is None:
        return False, "Please load the AuthorNet first."
    try:
        if graph == "PaperNet":
            graph, dictionary, inv_dict = s.paper_net, s.title2id_dict, s.id2title_dict
            if node not in dictionary.keys():
                return False, f"There is no node named {node} in the PaperNet."
        elif graph == "AuthorNet":
            graph, dictionary, inv_dict = s.author_net, s.author2id_dict, s.id2author_dict
            if node not in dictionary.keys():
                return False, f"There is no node named {node} in the AuthorNet."
        return True, [inv_dict[n] for n in graph.neighbors(dictionary[node])]  # noqa: F821 (sic: as AgentBoard)
    except Exception as e:
        return False, type(e).__name__ + "(" + str(e) + ")"


def _node_check(s: Session, node, net: str):
    if getattr(s, net) is None:
        return False, f"Please load the {'PaperNet' if net == 'paper_net' else 'AuthorNet'} first."
    try:
        graph = getattr(s, net)
        dictionary = s.title2id_dict if net == "paper_net" else s.author2id_dict
        if node not in dictionary.keys():
            return False, "There is no node named {} in the {}.".format(
                node, "PaperNet" if net == "paper_net" else "AuthorNet"
            )
        info = graph.nodes[dictionary[node]]
        return True, info if net == "paper_net" else copy.deepcopy(info)
    except Exception as e:
        return False, type(e).__name__ + "(" + str(e) + ")"


def _edge_check(s: Session, node1, node2, net: str):
    name = "PaperNet" if net == "paper_net" else "AuthorNet"
    if getattr(s, net) is None:
        return False, f"Please load the {name} first."
    try:
        graph = getattr(s, net)
        dictionary = s.title2id_dict if net == "paper_net" else s.author2id_dict
        if node1 not in dictionary.keys():
            return False, f"There is no node named {node1} in the {name}."
        if node2 not in dictionary.keys():
            return False, f"There is no node named {node2} in the {name}."
        if dictionary[node2] not in graph.neighbors(dictionary[node1]):
            return False, f"There is no edge between {node1} and {node2}."
        edge = graph.edges[dictionary[node1], dictionary[node2]]
        if net == "paper_net":
            return True, edge
        new_edge = copy.deepcopy(edge)
        for index in range(len(edge["collaborative_papers"])):
            new_edge["collaborative_papers"][index] = s.id2title_dict[edge["collaborative_papers"][index]]
        return True, new_edge
    except Exception as e:
        return False, type(e).__name__ + "(" + str(e) + ")"


_ACADEMIA: dict[str, tuple[tuple[str, ...], Callable]] = {
    "loadPaperNet": ((), lambda s: _load(s, "paper")),
    "loadAuthorNet": ((), lambda s: _load(s, "author")),
    "neighbourCheck": (("graph", "node"), _neighbour_check),
    "neighborCheck": (("graph", "node"), _neighbour_check),
    "authorNodeCheck": (("node",), lambda s, node: _node_check(s, node, "author_net")),
    "paperNodeCheck": (("node",), lambda s, node: _node_check(s, node, "paper_net")),
    "authorEdgeCheck": (("node1", "node2"), lambda s, node1, node2: _edge_check(s, node1, node2, "author_net")),
    "paperEdgeCheck": (("node1", "node2"), lambda s, node1, node2: _edge_check(s, node1, node2, "paper_net")),
}


# ---- todo (utils/todo/todo_tools.py) ---------------------------------------------------------------------
_TODOIST = "https://api.todoist.com/rest/v2"


def _clean_task(task: dict) -> dict:
    for key in (
        "assigner_id",
        "assignee_id",
        "section_id",
        "parent_id",
        "labels",
        "comment_count",
        "creator_id",
        "created_at",
        "url",
        "project_id",
    ):
        task.pop(key)
    task["due_date"] = task["due"]["date"]
    for key in ("due", "description", "duration"):
        task.pop(key)
    return task


def _clean_project(project: dict) -> dict:
    for key in ("comment_count", "is_shared", "is_inbox_project", "is_team_inbox", "url", "view_style", "parent_id"):
        project.pop(key)
    return project


def _get_projects(s: Session):
    response = s.get(_TODOIST + "/projects")
    if response.status_code != 200:
        return False, response.text
    projects = [_clean_project(project) for project in response.json()]
    return True, [project for project in projects if project["name"] != "Inbox"]


def _update_project(s: Session, project_id, is_favorite):
    params = {} if is_favorite is None else {"is_favorite": is_favorite}
    response = s.get(_TODOIST + f"/projects/{project_id}", params, "POST")
    if response.status_code != 200:
        return False, response.text
    return True, {"message": "Update the project successfully.", "project": _clean_project(response.json())}


def _get_tasks(s: Session, project_id):
    response = s.get(_TODOIST + "/tasks", {"project_id": project_id})
    if response.status_code != 200:
        return False, response.text
    return True, [_clean_task(task) for task in response.json()]


def _task_field(s: Session, task_id, field: str):
    response = s.get(_TODOIST + f"/tasks/{task_id}")
    if response.status_code != 200:
        return False, response.text
    task = response.json()
    if field == "description":
        return True, {"id": task["id"], "content": task["content"], "description": task["description"]}
    return True, {
        "id": task["id"],
        "content": task["content"],
        "duration": str(task["duration"]["amount"]) + "(" + task["duration"]["unit"] + ")",
    }


def _close_or_delete(s: Session, task_id, close: bool):
    response = s.get(_TODOIST + f"/tasks/{task_id}")
    if response.status_code != 200:
        return False, f"Task {task_id} is not exists."
    task = _clean_task(response.json())
    if close:
        response = s.get(_TODOIST + f"/tasks/{task_id}/close", None, "POST")
    else:
        response = s.get(_TODOIST + f"/tasks/{task_id}", None, "DELETE")
    if response.status_code != 204:
        return False, response.text
    if close:
        task.pop("is_completed")
        return True, {"message": "Complete task successfully.", "task": task}
    return True, {"message": "Delete the task successfully.", "task": task}


def _update_task(s: Session, task_id, due_date):
    response = s.get(_TODOIST + f"/tasks/{task_id}", {"due_date": due_date}, "POST")
    if response.status_code != 200:
        return False, response.text
    return True, {"message": "Update the task successfully", "task": _clean_task(response.json())}


_TODO: dict[str, tuple[tuple[str, ...], Callable]] = {
    "get_user_current_date": ((), lambda s: (True, s.current_date)),
    "get_user_current_location": ((), lambda s: (True, s.current_location)),
    "get_projects": ((), _get_projects),
    "update_project": (("project_id", "is_favorite"), _update_project),
    "get_tasks": (("project_id",), _get_tasks),
    "get_task_description": (("task_id",), lambda s, task_id: _task_field(s, task_id, "description")),
    "get_task_duration": (("task_id",), lambda s, task_id: _task_field(s, task_id, "duration")),
    "complete_task": (("task_id",), lambda s, task_id: _close_or_delete(s, task_id, close=True)),
    "update_task": (("task_id", "due_date"), _update_task),
    "delete_task": (("task_id",), lambda s, task_id: _close_or_delete(s, task_id, close=False)),
}

TOOLS: dict[str, dict[str, tuple[tuple[str, ...], Callable]]] = {
    "weather": WEATHER,
    "movie": _MOVIE,
    "academia": _ACADEMIA,
    "todo": _TODO,
}
