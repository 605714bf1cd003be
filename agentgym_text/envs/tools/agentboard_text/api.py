"""Our offline data in the response schemas of the web APIs AgentBoard's tools call (agentboard text format).

AgentBoard's weather, movie and todo tools call open-meteo, TMDB v3 and Todoist REST v2 and reshape the JSON
they get back; academia loads pickled networkx graphs. ``serve(toolkit, method, url, query)`` answers one such
request from the episode's offline backend, as ``(status, body)`` with ``body`` JSON-like data (or text for an
error). The agentboard text layer (``functions``) calls it where AgentBoard calls ``requests``, and the
reference recorder (``tests/reference/record_tools.py``) serves it to AgentBoard's unmodified code through a
patched ``requests`` transport, so both read exactly the same responses. ``academia_graphs`` gives the
networkx-shaped academia data (node ids, node and edge attributes, neighbour order) both sides use.

Fields the APIs have and our data lacks are filled with fixed neutral values (empty overview, biography, ...).
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

__all__ = ["serve", "academia_graphs", "wire_query", "COUNTRY_CODES"]

COUNTRY_CODES = {
    "Argentina": "AR",
    "Australia": "AU",
    "Bolivia": "BO",
    "Brazil": "BR",
    "Canada": "CA",
    "China": "CN",
    "Colombia": "CO",
    "Egypt": "EG",
    "France": "FR",
    "Germany": "DE",
    "Iceland": "IS",
    "India": "IN",
    "Italy": "IT",
    "Japan": "JP",
    "Kenya": "KE",
    "Mexico": "MX",
    "New Zealand": "NZ",
    "Norway": "NO",
    "Peru": "PE",
    "Russia": "RU",
    "Singapore": "SG",
    "South Africa": "ZA",
    "South Korea": "KR",
    "Spain": "ES",
    "Sweden": "SE",
    "Thailand": "TH",
    "Turkey": "TR",
    "United Arab Emirates": "AE",
    "United Kingdom": "GB",
    "United States": "US",
}
_GENRE_IDS = {
    "Action": 28,
    "Adventure": 12,
    "Animation": 16,
    "Comedy": 35,
    "Crime": 80,
    "Documentary": 99,
    "Drama": 18,
    "Family": 10751,
    "Fantasy": 14,
    "History": 36,
    "Horror": 27,
    "Music": 10402,
    "Mystery": 9648,
    "Romance": 10749,
    "Science Fiction": 878,
    "Thriller": 53,
    "War": 10752,
}
_LANGUAGE_COUNTRY = {
    "en": "US",
    "fr": "FR",
    "de": "DE",
    "ja": "JP",
    "ko": "KR",
    "hi": "IN",
    "it": "IT",
    "es": "ES",
    "pt": "BR",
    "nl": "NL",
    "zh": "CN",
}
_UNITS = {
    "temperature_2m_max": "°C",
    "temperature_2m_min": "°C",
    "temperature_2m_mean": "°C",
    "rain_sum": "mm",
    "snowfall_sum": "cm",
}
_ATTRIBUTE = {
    "temperature_2m_max": "temperature_max",
    "temperature_2m_min": "temperature_min",
    "temperature_2m_mean": "temperature_mean",
    "rain_sum": "rain_sum",
    "snowfall_sum": "snowfall_sum",
}
_TMDB_404 = {"success": False, "status_code": 34, "status_message": "The resource you requested could not be found."}


def wire_query(params: dict[str, Any] | None) -> dict[str, str]:
    """``params`` as ``requests`` puts them in a URL and a server reads them back: None dropped, values as text
    (a list sends each item; the server reads the first)."""
    query: dict[str, str] = {}
    for key, value in (params or {}).items():
        if isinstance(value, (list, tuple)):
            if not value:
                continue
            value = value[0]
        if value is None:
            continue
        query[str(key)] = value.decode() if isinstance(value, bytes) else str(value)
    return query


def serve(toolkit: Any, method: str, url: str, query: dict[str, str]) -> tuple[int, Any]:
    """Answer one API request from ``toolkit``'s data: ``(HTTP status, JSON-like body or error text)``."""
    parts = urlsplit(url)
    host, path = parts.hostname or "", parts.path
    if "open-meteo.com" in host:
        return _weather(toolkit, host, query)
    if host == "api.themoviedb.org":
        if path.startswith("/3/search/"):
            return _movie_search(toolkit, path, query)
        return _movie(toolkit, path)
    if host == "api.todoist.com":
        return _todo(toolkit, method.upper(), path, query)
    return 404, "Not Found"


# ---- open-meteo ----------------------------------------------------------------------------------------
def _error(reason: str) -> tuple[int, Any]:
    return 400, {"error": True, "reason": reason}


def _point(query: dict[str, str]):
    from agentgym_text.envs.tools.weather.climate import nearest_city

    try:
        latitude, longitude = float(query["latitude"]), float(query["longitude"])
    except (KeyError, ValueError):
        return None, _error("Parameter 'latitude' and 'longitude' must be floating point numbers.")
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        return None, _error("Latitude must be in range of -90 to 90°. Longitude must be in range of -180 to 180°.")
    city = nearest_city(latitude, longitude)
    if city is None:
        return None, _error(
            f"No data for ({latitude}, {longitude}): the offline service covers its listed cities (within 50 km)."
        )
    return city, None


def _days(query: dict[str, str]):
    try:
        start = dt.date.fromisoformat(query["start_date"])
        end = dt.date.fromisoformat(query["end_date"])
    except (KeyError, ValueError):
        return None, _error("Invalid date format. Use YYYY-MM-DD.")
    if end < start:
        return None, _error("End-date must be larger or equals than start-date")
    return [start + dt.timedelta(days=offset) for offset in range((end - start).days + 1)], None


def _weather(toolkit: Any, host: str, query: dict[str, str]) -> tuple[int, Any]:
    from agentgym_text.envs.tools.weather.cities import city_by_name
    from agentgym_text.envs.tools.weather.climate import daily_weather

    if host.startswith("geocoding"):
        city = city_by_name(query.get("name", ""))
        if city is None:
            return 200, {"generationtime_ms": 0.1}
        return 200, {
            "results": [
                {
                    "id": _city_ids()[city.name],
                    "name": city.name,
                    "latitude": city.latitude,
                    "longitude": city.longitude,
                    "elevation": float(city.elevation),
                    "feature_code": "PPLC",
                    "country_code": COUNTRY_CODES.get(city.country, ""),
                    "timezone": "GMT",
                    "country": city.country,
                }
            ],
            "generationtime_ms": 0.1,
        }
    city, problem = _point(query)
    if problem:
        return problem
    if host.startswith("api."):  # elevation
        return 200, {"elevation": [float(city.elevation)]}
    days, problem = _days(query)
    if problem:
        return problem
    head = {
        "latitude": city.latitude,
        "longitude": city.longitude,
        "generationtime_ms": 0.1,
        "utc_offset_seconds": 0,
        "timezone": "GMT",
        "timezone_abbreviation": "GMT",
        "elevation": float(city.elevation),
    }
    if host.startswith("air-quality"):
        times, values = [], []
        for day in days:
            index = daily_weather(city, day).european_aqi
            for hour in range(24):
                times.append(f"{day.isoformat()}T{hour:02d}:00")
                values.append(index)
        return 200, {
            **head,
            "hourly_units": {"time": "iso8601", "european_aqi_pm2_5": "EAQI"},
            "hourly": {"time": times, "european_aqi_pm2_5": values},
        }
    fields = [field for field in query.get("daily", "").split(",") if field in _ATTRIBUTE]
    if not fields:
        return _error("Parameter 'daily' is missing or invalid.")
    daily: dict[str, list[Any]] = {"time": [day.isoformat() for day in days]}
    for field in fields:
        daily[field] = [getattr(daily_weather(city, day), _ATTRIBUTE[field]) for day in days]
    return 200, {
        **head,
        "daily_units": {"time": "iso8601", **{field: _UNITS[field] for field in fields}},
        "daily": daily,
    }


@lru_cache(maxsize=1)
def _city_ids() -> dict[str, int]:
    from agentgym_text.envs.tools.weather.cities import CITIES

    return {city.name: 5_000_001 + index for index, city in enumerate(CITIES)}


# ---- TMDB ----------------------------------------------------------------------------------------------
def _movie(toolkit: Any, path: str) -> tuple[int, Any]:
    db = toolkit.db
    match = re.fullmatch(r"/3/(movie|person)/([^/]+)(?:/([a-z_]+))?", path)
    if match is None:
        return 404, _TMDB_404
    kind, key, part = match.groups()
    try:
        ident = int(key)
    except ValueError:
        return 404, _TMDB_404
    if kind == "movie":
        film = db.films.get(ident)
        if film is None:
            return 404, _TMDB_404
        if part is None:
            return 200, {
                "id": film.id,
                "title": film.title,
                "original_language": film.original_language,
                "overview": "",
                "release_date": film.release_date,
                "runtime": film.runtime,
                "budget": film.budget,
                "revenue": film.revenue,
                "genres": [{"id": _GENRE_IDS.get(name, 0), "name": name} for name in film.genres],
                "vote_average": film.vote_average,
                "production_companies": [
                    {"id": company.id, "name": company.name, "origin_country": company.origin_country}
                    for company in (db.companies[cid] for cid in film.companies)
                ],
                "production_countries": [{"iso_3166_1": code, "name": db.countries[code]} for code in film.countries],
            }
        if part == "credits":
            return 200, {
                "id": film.id,
                "cast": [
                    {"id": c.person_id, "name": db.people[c.person_id].name, "character": c.character, "order": c.order}
                    for c in film.cast
                ],
                "crew": [
                    {"id": c.person_id, "name": db.people[c.person_id].name, "department": c.department, "job": c.job}
                    for c in film.crew
                ],
            }
        if part == "keywords":
            return 200, {
                "id": film.id,
                "keywords": [{"id": 9000 + index, "name": word} for index, word in enumerate(film.keywords)],
            }
        if part == "alternative_titles":
            return 200, {
                "id": film.id,
                "titles": [{"iso_3166_1": code, "title": title, "type": ""} for code, title in film.alternative_titles],
            }
        if part == "translations":
            return 200, {
                "id": film.id,
                "translations": [
                    {
                        "iso_3166_1": _LANGUAGE_COUNTRY.get(code, code.upper()),
                        "iso_639_1": code,
                        "name": db.languages[code],
                        "english_name": db.languages[code],
                        "data": {
                            "homepage": "",
                            "overview": "",
                            "runtime": film.runtime,
                            "tagline": "",
                            "title": film.title,
                        },
                    }
                    for code in film.translations
                ],
            }
        return 404, _TMDB_404
    person = db.people.get(ident)
    if person is None:
        return 404, _TMDB_404
    if part is None:
        return 200, {
            "id": person.id,
            "name": person.name,
            "biography": "",
            "birthday": person.birthday,
            "place_of_birth": person.place_of_birth,
            "gender": person.gender,
            "known_for_department": person.known_for_department,
        }
    if part == "movie_credits":
        cast, crew = db.credits_of(person.id)
        return 200, {
            "cast": [{"id": film.id, "title": film.title, "character": credit.character} for film, credit in cast],
            "crew": [
                {"id": film.id, "title": film.title, "department": credit.department, "job": credit.job}
                for film, credit in crew
            ],
            "id": person.id,
        }
    if part == "external_ids":
        return 200, {
            "id": person.id,
            "imdb_id": person.imdb_id,
            "facebook_id": None,
            "instagram_id": person.instagram_id,
            "twitter_id": None,
        }
    return 404, _TMDB_404


def _movie_search(toolkit: Any, path: str, query: dict[str, str]) -> tuple[int, Any]:
    db = toolkit.db
    text = query.get("query", "")
    if path.endswith("/movie"):
        results = (
            [
                {"id": film.id, "overview": "", "title": film.title, "release_date": film.release_date}
                for film in db.search_films(text)[:20]
            ]
            if text
            else []
        )
    else:
        results = (
            [
                {"id": p.id, "name": p.name, "known_for_department": p.known_for_department}
                for p in db.search_people(text)[:20]
            ]
            if text
            else []
        )
    return 200, {"page": 1, "results": results, "total_pages": 1 if results else 0, "total_results": len(results)}


# ---- Todoist -------------------------------------------------------------------------------------------
def _project_json(row: Any) -> dict[str, Any]:
    return {
        "id": row["id"],
        "parent_id": None,
        "order": row["sort_order"],
        "color": row["color"],
        "name": row["name"],
        "comment_count": 0,
        "is_shared": False,
        "is_favorite": bool(row["is_favorite"]),
        "is_inbox_project": False,
        "is_team_inbox": False,
        "view_style": "list",
        "url": f"https://todoist.com/showProject?id={row['id']}",
    }


def _task_json(row: Any) -> dict[str, Any]:
    return {
        "id": row["id"],
        "assigner_id": None,
        "assignee_id": None,
        "project_id": row["project_id"],
        "section_id": None,
        "parent_id": None,
        "order": row["sort_order"],
        "content": row["content"],
        "description": row["description"],
        "is_completed": bool(row["is_completed"]),
        "labels": [],
        "priority": row["priority"],
        "comment_count": 0,
        "creator_id": "1",
        "created_at": "2015-05-01T00:00:00Z",
        "due": {"date": row["due_date"], "string": row["due_date"], "lang": "en", "is_recurring": False},
        "url": f"https://todoist.com/showTask?id={row['id']}",
        "duration": {"amount": row["duration_amount"], "unit": row["duration_unit"]},
    }


def _todo(toolkit: Any, method: str, path: str, query: dict[str, str]) -> tuple[int, Any]:
    db = toolkit.db
    parts = [part for part in path.split("/") if part][2:]  # after /rest/v2
    if not parts:
        return 404, "Not Found"
    if parts[0] == "projects":
        if len(parts) == 1 and method == "GET":
            return 200, [_project_json(row) for row in db.projects()]
        row = db.project(parts[1]) if len(parts) == 2 else None
        if row is None:
            return 404, "Project not found"
        if method == "GET":
            return 200, _project_json(row)
        if method == "POST":
            if "is_favorite" in query:
                toolkit.ab_output = toolkit.do_update_project(row["id"], query["is_favorite"].lower() in ("true", "1"))
            return 200, _project_json(db.project(row["id"]))
        return 403, "Forbidden"
    if parts[0] != "tasks":
        return 404, "Not Found"
    if len(parts) == 1:
        if method != "GET":
            return 403, "Forbidden"
        if "project_id" in query:
            project = db.project(query["project_id"])
            if project is None:
                return 400, "Invalid argument value"
            return 200, [_task_json(row) for row in db.tasks(project["id"])]
        return 200, [_task_json(row) for project in db.projects() for row in db.tasks(project["id"])]
    row = db.task(parts[1])
    if row is None:
        return 404, "Task not found"
    if len(parts) == 3 and parts[2] == "close" and method == "POST":
        if not row["is_completed"]:
            toolkit.ab_output = toolkit.do_complete_task(row["id"])
        return 204, ""
    if len(parts) != 2:
        return 404, "Not Found"
    if method == "GET":
        return 200, _task_json(row)
    if method == "DELETE":
        toolkit.ab_output = toolkit.do_delete_task(row["id"])
        return 204, ""
    if "due_date" in query:
        try:
            dt.date.fromisoformat(query["due_date"])
        except ValueError:
            return 400, "Date format should be YYYY-MM-DD"
        toolkit.ab_output = toolkit.do_update_task(row["id"], query["due_date"])
    return 200, _task_json(db.task(row["id"]))


# ---- academia ------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def academia_graphs() -> dict[str, Any]:
    """The academia nets as AgentBoard's pickles hold them: integer node ids, node/edge attribute dicts and
    neighbour lists in networkx order (PaperNet: a DiGraph, paper -> cited paper, edges in citation order;
    AuthorNet: a Graph whose edges are added by sorted author name, so neighbours come out sorted). Cached and
    shared: read it, never change it."""
    from agentgym_text.envs.tools.academia.network import citation_network

    net = citation_network()
    papers = list(net.papers.values())
    authors = sorted(net.authors.values(), key=lambda author: author.name)
    title2id = {paper.title: index for index, paper in enumerate(papers)}
    author2id = {author.name: 100_000 + index for index, author in enumerate(authors)}
    paper_nodes = {
        title2id[p.title]: {
            "authors": list(p.authors),
            "year": p.year,
            "venue": p.venue,
            "n_citation": p.n_citation,
            "keywords": list(p.keywords),
            "doc_type": p.doc_type,
        }
        for p in papers
    }
    paper_edges = [(title2id[p.title], title2id[cited]) for p in papers for cited in p.cites if cited in title2id]
    author_nodes = {author2id[a.name]: {"name": a.name, "org": a.org} for a in authors}
    author_edges = []
    for first in authors:
        for second in net.collaborators[first.name]:
            if second > first.name:
                papers_together = net.papers_together(first.name, second)
                author_edges.append(
                    (
                        author2id[first.name],
                        author2id[second],
                        {"collaborative_papers": [title2id[title] for title in papers_together]},
                    )
                )
    return {
        "title2id": title2id,
        "author2id": author2id,
        "id2title": {v: k for k, v in title2id.items()},
        "id2author": {v: k for k, v in author2id.items()},
        "paper_nodes": paper_nodes,
        "paper_edges": paper_edges,
        "author_nodes": author_nodes,
        "author_edges": author_edges,
    }
