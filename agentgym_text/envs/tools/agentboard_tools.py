"""AgentBoard's tool functions (weather, movie, academia, todo) ported line for line, over our offline data.

Each function follows ``agentboard/utils/<tool>/<tool>_tools.py`` at AgentBoard HEAD bb7255e: the same argument
checks, the same reshaping of the API's JSON, the same ``(success, result)`` pairs and failure texts. Where
AgentBoard calls ``requests``, ``_get`` asks ``agentboard_api.serve`` (our data in the API's schema) and round-trips
the body through JSON as ``response.json()`` would. Python exceptions raised here are deliberate: the env turns
them into AgentBoard's ``ERROR | <Type>(<message>)`` text. ``TOOLS[tool][name]`` = (parameter names in the order
AgentBoard's env reads them, function).
"""

from __future__ import annotations

import copy
import json
import math
from datetime import datetime, timedelta
from typing import Any, Callable

from agentgym_text.envs.tools.agentboard_api import academia_graphs, serve, wire_query

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


# ---- weather (utils/weather/weather_tools.py) ------------------------------------------------------------
_ARCHIVE = "https://archive-api.open-meteo.com/v1/archive"
_SPAN = ("Error: Sorry, at present, we support a maximum time span of 30 days between start_date and end_date in a "
         "single query. Your input exceeds this range. You can split your current query into multiple sub-queries "
         "that meet our criteria.")


def _within_30_days(start_date: str, end_date: str) -> bool:
    difference = datetime.strptime(end_date, "%Y-%m-%d") - datetime.strptime(start_date, "%Y-%m-%d")
    return not difference > timedelta(days=30)


def _check_dates(s: Session, start_date: Any, end_date: Any, past: bool) -> str | None:
    word = "earlier" if past else "later"
    for name, value in (("start_date", start_date), ("end_date", end_date)):
        if value is not None:
            day = datetime.strptime(value, "%Y-%m-%d")
            today = datetime.strptime(s.current_date, "%Y-%m-%d")
            if (day >= today) if past else (day <= today):
                return f"Error: {name} should be {word} than current_date"
    return None


def _clean_head(response: dict) -> dict:
    for key in ("elevation", "generationtime_ms", "timezone", "timezone_abbreviation", "utc_offset_seconds"):
        if key in response.keys():
            response.pop(key)
    return response


def _historical(s: Session, daily: str, latitude, longitude, start_date, end_date, is_historical=True):
    if is_historical is True:
        problem = _check_dates(s, start_date, end_date, past=True)
        if problem:
            return False, problem
    if _within_30_days(start_date, end_date) is False:
        return False, _SPAN
    response = s.get(_ARCHIVE, {"latitude": latitude, "longitude": longitude, "start_date": start_date,
                                "end_date": end_date, "timezone": "GMT", "daily": daily})
    if response.status_code == 200:
        return True, _clean_head(response.json())
    return False, response.text


def _forecast(s: Session, daily: str, latitude, longitude, start_date, end_date):
    problem = _check_dates(s, start_date, end_date, past=False)
    if problem:
        return False, problem
    if _within_30_days(start_date, end_date) is False:
        return False, _SPAN
    return _historical(s, daily, latitude, longitude, start_date, end_date, is_historical=False)


_TEMP, _RAIN, _SNOW = "temperature_2m_max,temperature_2m_min,temperature_2m_mean", "rain_sum", "snowfall_sum"


def _air_quality(s: Session, latitude, longitude, start_date, end_date, is_historical=True):
    if is_historical is True:
        problem = _check_dates(s, start_date, end_date, past=True)
        if problem:
            return False, problem
    if _within_30_days(start_date, end_date) is False:
        return False, _SPAN
    response = s.get("https://air-quality-api.open-meteo.com/v1/air-quality",
                     {"latitude": latitude, "longitude": longitude, "start_date": start_date, "end_date": end_date,
                      "timezone": "GMT", "hourly": "european_aqi_pm2_5"})
    if response.status_code != 200:
        return False, response.text
    response = _clean_head(response.json())
    new = {"latitude": response["latitude"], "longitude": response["longitude"],
           "daily_units": response["hourly_units"], "daily": response["hourly"]}
    days = len(new["daily"]["time"]) // 24
    new["daily"]["european_aqi_pm2_5"] = [new["daily"]["european_aqi_pm2_5"][24 * i + 12] for i in range(days)]
    new["daily"]["time"] = [new["daily"]["time"][24 * i + 12] for i in range(days)]
    return True, new


def _latitude_longitude(s: Session, name):
    response = s.get("https://geocoding-api.open-meteo.com/v1/search",
                     {"name": name, "count": 3, "language": "en", "format": "json"})
    if response.status_code != 200:
        return False, response.text
    response = response.json()
    for item in response["results"]:
        for key in ("elevation", "feature_code"):
            if key in item.keys():
                item.pop(key)
        if "country_code" in item.keys():
            item.pop("country")  # sic: AgentBoard tests country_code and drops country
        for key in ("country_id", "admin1_id", "timezone", "population", "postcodes"):
            if key in item.keys():
                item.pop(key)
        for key in list(item.keys()):
            if key.endswith("id"):
                item.pop(key)
        for key in list(item.keys()):
            if "admin" in key:
                item.pop(key)
    if "generationtime_ms" in response.keys():
        response.pop("generationtime_ms")
    return True, response


def _elevation(s: Session, latitude, longitude):
    response = s.get("https://api.open-meteo.com/v1/elevation", {"latitude": latitude, "longitude": longitude})
    return (True, response.json()) if response.status_code == 200 else (False, response.text)


def _geopy_point(latitude: Any, longitude: Any) -> tuple[float, float]:
    """``geopy.point._normalize_coordinates`` (geopy 2.4)."""
    latitude, longitude = float(latitude or 0.0), float(longitude or 0.0)
    if not all(math.isfinite(x) for x in (latitude, longitude)):
        raise ValueError("Point coordinates must be finite. %r has been passed as coordinates."
                         % ((latitude, longitude, 0.0),))
    if abs(latitude) > 90:
        raise ValueError("Latitude must be in the [-90; 90] range.")
    if abs(longitude) > 180:
        modulo = math.fmod(longitude, 360.0) or 0.0
        longitude = modulo + 360.0 if modulo < -180 else modulo - 360.0 if modulo >= 180 else modulo
    return latitude, longitude


def _distance(s: Session, latitude1, longitude1, latitude2, longitude2):
    """``geopy.distance.geodesic(coord1, coord2).km``: Karney's geodesic on WGS-84 with the axis in km."""
    from geographiclib.geodesic import Geodesic

    lat1, lon1 = _geopy_point(latitude1, longitude1)
    lat2, lon2 = _geopy_point(latitude2, longitude2)
    return True, Geodesic(6378.137, 1 / 298.257223563).Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]


def _air_quality_level(s: Session, air_quality_index):
    if air_quality_index <= 20:
        return True, "good"
    if 21 < air_quality_index <= 40:
        return True, "fair"
    if 41 < air_quality_index <= 60:
        return True, "moderate"
    if 61 < air_quality_index <= 80:
        return True, "poor"
    if 81 < air_quality_index <= 100:
        return True, "very poor"
    return True, "extremely poor"


def _no_zipcode_url():
    raise KeyError("zipcode")  # AgentBoard's URLS has no "zipcode" entry (commented out)


def air_quality_level_fixed(air_quality_index: Any) -> str:
    """FIX: the same bands without AgentBoard's gaps (20 < x <= 21 is "fair", not "extremely poor")."""
    for upper, level in ((20, "good"), (40, "fair"), (60, "moderate"), (80, "poor"), (100, "very poor")):
        if air_quality_index <= upper:
            return level
    return "extremely poor"


_RANGE = ("latitude", "longitude", "start_date", "end_date")
_TODAY = ("latitude", "longitude", "current_date")
_WEATHER: dict[str, tuple[tuple[str, ...], Callable]] = {
    "get_user_current_date": ((), lambda s: (True, s.current_date)),
    "get_user_current_location": ((), lambda s: (True, s.current_location)),
    "get_historical_temp": (_RANGE, lambda s, **k: _historical(s, _TEMP, **k)),
    "get_historical_rain": (_RANGE, lambda s, **k: _historical(s, _RAIN, **k)),
    "get_historical_snow": (_RANGE, lambda s, **k: _historical(s, _SNOW, **k)),
    "get_snow_forecast": (_RANGE, lambda s, **k: _forecast(s, _SNOW, **k)),
    "get_current_snow": (_TODAY, lambda s, latitude, longitude, current_date: _historical(
        s, _SNOW, latitude, longitude, current_date, current_date, is_historical=False)),
    "get_current_temp": (_TODAY, lambda s, latitude, longitude, current_date: _historical(
        s, _TEMP, latitude, longitude, current_date, current_date, is_historical=False)),
    "get_latitude_longitude": (("name",), _latitude_longitude),
    "get_elevation": (("latitude", "longitude"), _elevation),
    "get_temp_forecast": (_RANGE, lambda s, **k: _forecast(s, _TEMP, **k)),
    "get_rain_forecast": (_RANGE, lambda s, **k: _forecast(s, _RAIN, **k)),
    "get_current_rain": (_TODAY, lambda s, latitude, longitude, current_date: _historical(
        s, _RAIN, latitude, longitude, current_date, current_date, is_historical=False)),
    "get_distance": (("latitude1", "longitude1", "latitude2", "longitude2"), _distance),
    "get_historical_air_quality_index": (_RANGE, _air_quality),
    "get_current_air_quality_index": (_TODAY, lambda s, latitude, longitude, current_date: _air_quality(
        s, latitude, longitude, current_date, current_date, is_historical=False)),
    "get_air_quality_level": (("air_quality_index",), _air_quality_level),
    "convert_zipcode_to_address": (("zipcode",), lambda s, zipcode: _no_zipcode_url()),
}


# ---- movie (utils/movie/movie_tools.py) ------------------------------------------------------------------
_TMDB = "https://api.themoviedb.org/3"


def _tmdb(s: Session, path: str, shape: Callable[[Any], Any], params: dict | None = None):
    response = s.get(_TMDB + path, params)
    return (True, shape(response.json())) if response.status_code == 200 else (False, response.text)


def _search(query: Any) -> dict:
    return {"query": query, "include_adult": "false", "language": "en-US", "page": "1"}


def _crew(data: dict) -> dict:
    out = {"crew": [{"id": c["id"], "name": c["name"], "job": c["job"]} for c in data["crew"]
                    if c["job"] in ("Director", "Producer", "Writer")]}
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
    "get_search_movie": (("movie_name",), lambda s, movie_name: _tmdb(s, "/search/movie", lambda d: [
        {"id": d["results"][0]["id"], "overview": d["results"][0]["overview"], "title": d["results"][0]["title"]}],
        _search(movie_name))),
    "get_movie_details": (("movie_id",), lambda s, movie_id: _tmdb(s, f"/movie/{movie_id}", lambda d: {
        "title": d["title"], "budget": d["budget"], "genres": d["genres"], "revenue": d["revenue"],
        "vote_average": d["vote_average"], "release_date": d["release_date"]})),
    "get_movie_production_companies": (("movie_id",), lambda s, movie_id: _tmdb(
        s, f"/movie/{movie_id}", lambda d: {"production_companies": d["production_companies"]})),
    "get_movie_production_countries": (("movie_id",), lambda s, movie_id: _tmdb(
        s, f"/movie/{movie_id}", lambda d: {"production_countries": d["production_countries"]})),
    "get_movie_keywords": (("movie_id",), lambda s, movie_id: _tmdb(
        s, f"/movie/{movie_id}/keywords", lambda d: {"keywords": [k["name"] for k in d["keywords"]]})),
    "get_search_person": (("person_name",), lambda s, person_name: _tmdb(
        s, "/search/person", _first_person, _search(person_name))),
    "get_person_details": (("person_id",), lambda s, person_id: _tmdb(s, f"/person/{person_id}", lambda d: {
        "name": d["name"], "biography": d["biography"], "birthday": d["birthday"],
        "place_of_birth": d["place_of_birth"]})),
    "get_movie_cast": (("movie_id",), lambda s, movie_id: _tmdb(s, f"/movie/{movie_id}/credits", lambda d: {
        "cast": [{"id": c["id"], "name": c["name"], "character": c["character"]} for c in d["cast"][:10]]})),
    "get_movie_crew": (("movie_id",), lambda s, movie_id: _tmdb(s, f"/movie/{movie_id}/credits", _crew)),
    "get_person_cast": (("person_id",), lambda s, person_id: _tmdb(s, f"/person/{person_id}/movie_credits",
        lambda d: {"cast": [{"id": c["id"], "title": c["title"], "character": c["character"]}
                            for c in d["cast"][:10]]})),
    "get_person_crew": (("person_id",), lambda s, person_id: _tmdb(s, f"/person/{person_id}/movie_credits",
        lambda d: {"crew": [{"id": c["id"], "title": c["title"], "job": c["job"]} for c in d["crew"][:10]]})),
    "get_person_external_ids": (("person_id",), lambda s, person_id: _tmdb(
        s, f"/person/{person_id}/external_ids", lambda d: {
            "imdb_id": d["imdb_id"], "facebook_id": d["facebook_id"], "instagram_id": d["instagram_id"],
            "twitter_id": d["twitter_id"]})),
    "get_movie_alternative_titles": (("movie_id",), lambda s, movie_id: _tmdb(
        s, f"/movie/{movie_id}/alternative_titles", lambda d: d)),
    "get_movie_translation": (("movie_id",), lambda s, movie_id: _tmdb(
        s, f"/movie/{movie_id}/translations", _translations)),
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
                return False, "There is no node named {} in the PaperNet.".format(node)
        elif graph == "AuthorNet":
            graph, dictionary, inv_dict = s.author_net, s.author2id_dict, s.id2author_dict
            if node not in dictionary.keys():
                return False, "There is no node named {} in the AuthorNet.".format(node)
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
                node, "PaperNet" if net == "paper_net" else "AuthorNet")
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
            return False, "There is no node named {} in the {}.".format(node1, name)
        if node2 not in dictionary.keys():
            return False, "There is no node named {} in the {}.".format(node2, name)
        if dictionary[node2] not in graph.neighbors(dictionary[node1]):
            return False, "There is no edge between {} and {}.".format(node1, node2)
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
    for key in ("assigner_id", "assignee_id", "section_id", "parent_id", "labels", "comment_count", "creator_id",
                "created_at", "url", "project_id"):
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
    return True, {"id": task["id"], "content": task["content"],
                  "duration": str(task["duration"]["amount"]) + "(" + task["duration"]["unit"] + ")"}


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
    "weather": _WEATHER, "movie": _MOVIE, "academia": _ACADEMIA, "todo": _TODO,
}
