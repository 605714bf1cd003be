"""A tiny Freebase-shaped graph, an ontology folder and an items file written here in AgentBench's KG formats (its
own files never enter this repository), with a local SPARQL endpoint over the graph: pyoxigraph's in-memory store
behind a small HTTP server speaking the SPARQL protocol (GET or POST ``query=``, SPARQL JSON results).

Quirks of the real files kept: an entity with a ``g.`` id (AgentBench's check refuses it), an entity name holding a
comma (it cannot be an argument; its id can), an attribute typed ``xsd:date``, a count, ARGMAX and ARGMIN, and a
relation the graph holds but ``vocab.json`` does not list (``get_relations`` must hide it).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

NS = "http://rdf.freebase.com/ns/"
XSD = "http://www.w3.org/2001/XMLSchema#"

_NAMES = {
    "m.0dir_a": "Ana Lind",
    "m.0dir_b": "Bo Sten, Jr.",
    "m.0dir_c": "Cai Moro",
    "m.0f1": "The Silent Harbor",
    "m.0f2": "Lanterns",
    "m.0f3": "North Road",
    "g.11fx4": "Glass Orchard",
    "m.0f5": "Paper Moons",
    "m.0g_drama": "Drama",
    "m.0g_comedy": "Comedy",
    "m.0ct_upp": "Uppsala",
}
_TYPES = {
    "film.film": ["m.0f1", "m.0f2", "m.0f3", "g.11fx4", "m.0f5"],
    "film.director": ["m.0dir_a", "m.0dir_b", "m.0dir_c"],
    "people.person": ["m.0dir_a", "m.0dir_b", "m.0dir_c"],
    "film.film_genre": ["m.0g_drama", "m.0g_comedy"],
    "location.location": ["m.0ct_upp"],
}
_DIRECTED = {"m.0dir_a": ["m.0f1", "m.0f2", "m.0f3"], "m.0dir_b": ["g.11fx4", "m.0f5"], "m.0dir_c": []}
_GENRE = {"m.0f1": "m.0g_drama", "m.0f2": "m.0g_comedy", "m.0f3": "m.0g_drama", "g.11fx4": "m.0g_drama"}
_GENRE["m.0f5"] = "m.0g_comedy"
_RELEASED = {"m.0f1": "1999-05-01", "m.0f2": "2004-10-12", "m.0f3": "2011-02-20", "g.11fx4": "2016-09-09"}
_RELEASED["m.0f5"] = "2020-01-31"
_HEIGHT = {"m.0dir_a": "1.71", "m.0dir_b": "1.66", "m.0dir_c": "1.84"}
_BORN_IN_UPPSALA = ["m.0dir_a", "m.0dir_b", "m.0dir_c"]

RELATIONS = {  # relation: (domain, range), as fb_roles lists them
    "film.film.directed_by": ("film.film", "film.director"),
    "film.director.film": ("film.director", "film.film"),
    "film.film.genre": ("film.film", "film.film_genre"),
    "film.film_genre.films_in_this_genre": ("film.film_genre", "film.film"),
    "people.person.place_of_birth": ("people.person", "location.location"),
    "location.location.people_born_here": ("location.location", "people.person"),
    "film.film.initial_release_date": ("film.film", "type.datetime"),
    "people.person.height_meters": ("people.person", "type.float"),
    "common.topic.notable_types": ("common.topic", "type.type"),
}
ATTRIBUTES = ["film.film.initial_release_date", "people.person.height_meters"]
HIDDEN = "common.topic.notable_types"
"""In the graph and in fb_roles, not in vocab.json: get_relations never lists it."""


def triples() -> str:
    """The graph in N-Triples."""
    lines: list[str] = []

    def add(subject: str, relation: str, obj: str) -> None:
        lines.append(f"<{NS}{subject}> <{NS}{relation}> {obj} .")

    def node(entity: str) -> str:
        return f"<{NS}{entity}>"

    for entity, name in _NAMES.items():
        add(entity, "type.object.name", json.dumps(name) + "@en")
        add(entity, "common.topic.notable_types", node("m.0type"))
    for kind, members in _TYPES.items():
        for entity in members:
            add(entity, "type.object.type", node(kind))
    for director, films in _DIRECTED.items():
        for film in films:
            add(film, "film.film.directed_by", node(director))
            add(director, "film.director.film", node(film))
    for film, genre in _GENRE.items():
        add(film, "film.film.genre", node(genre))
        add(genre, "film.film_genre.films_in_this_genre", node(film))
    for film, day in _RELEASED.items():
        add(film, "film.film.initial_release_date", f'"{day}"^^<{XSD}date>')
    for person, height in _HEIGHT.items():
        add(person, "people.person.height_meters", f'"{height}"^^<{XSD}float>')
    for person in _BORN_IN_UPPSALA:
        add(person, "people.person.place_of_birth", node("m.0ct_upp"))
        add("m.0ct_upp", "location.location.people_born_here", node(person))
    return "\n".join(lines) + "\n"


def _answer(*ids: str) -> list[dict]:
    return [{"answer_type": "Entity", "answer_argument": i, "entity_name": _NAMES[i]} for i in ids]


ITEMS = [
    {
        "question": "which drama films were directed by ana lind?",
        "qid": "1000000000001_grailqa",
        "source": "grailqa",
        "entities": {"Ana Lind": "m.0dir_a", "drama": "m.0g_drama"},
        "s_expression": "(AND film.film (AND (JOIN film.film.directed_by m.0dir_a) (JOIN film.film.genre m.0g_drama)))",
        "actions": [
            "get_relations(m.0dir_a)",
            "get_neighbors(m.0dir_a,film.director.film)",
            "get_relations(m.0g_drama)",
            "get_neighbors(m.0g_drama,film.film_genre.films_in_this_genre)",
            "intersection(#0,#1)",
        ],
        "answer": _answer("m.0f1", "m.0f3"),
    },
    {
        "question": "How many films did Ana Lind direct?",
        "qid": "WebQTest-1_aaaa_cwq",
        "source": "cwq",
        "entities": {"Ana Lind": "m.0dir_a"},
        "s_expression": "(COUNT (JOIN film.film.directed_by m.0dir_a))",
        "actions": ["get_relations(m.0dir_a)", "get_neighbors(m.0dir_a,film.director.film)", "count(#0)"],
        "answer": [{"answer_type": "Value", "answer_argument": "3"}],
    },
    {
        "question": "what is the latest film directed by ana lind?",
        "qid": "200000000_graphquestions",
        "source": "graphquestions",
        "entities": {"Ana Lind": "m.0dir_a"},
        "s_expression": "(ARGMAX (JOIN film.film.directed_by m.0dir_a) film.film.initial_release_date)",
        "actions": [
            "get_relations(m.0dir_a)",
            "get_neighbors(m.0dir_a,film.director.film)",
            "get_attributes(#0)",
            "argmax(#0,film.film.initial_release_date)",
        ],
        "answer": _answer("m.0f3"),
    },
    {
        "question": "who is the shortest person born in uppsala?",
        "qid": "WebQTest-7_webqsp",
        "source": "webqsp",
        "entities": {"Uppsala": "m.0ct_upp"},
        "s_expression": "(ARGMIN (JOIN people.person.place_of_birth m.0ct_upp) people.person.height_meters)",
        "actions": [
            "get_relations(m.0ct_upp)",
            "get_neighbors(m.0ct_upp,location.location.people_born_here)",
            "get_attributes(#0)",
            "argmin(#0,people.person.height_meters)",
        ],
        "answer": _answer("m.0dir_b"),
    },
    {
        "question": "Who directed Glass Orchard?",
        "qid": "WebQTrn-9_bbbb_cwq",
        "source": "cwq",
        "entities": {"Glass Orchard": "g.11fx4"},
        "s_expression": "(JOIN film.director.film g.11fx4)",
        "actions": ["get_relations(g.11fx4)", "get_neighbors(g.11fx4,film.film.directed_by)"],
        "answer": [{"answer_argument": "m.0dir_b"}],  # no answer_type, as in 9 of AgentBench's answers
    },
    {
        "question": "what genres are the films of Bo Sten, Jr.?",
        "qid": "1000000000006_grailqa",
        "source": "grailqa",
        "entities": {"Bo Sten, Jr.": "m.0dir_b"},
        "s_expression": "(JOIN (R film.film.genre) (JOIN film.film.directed_by m.0dir_b))",
        "actions": [
            "get_relations(m.0dir_b)",
            "get_neighbors(m.0dir_b,film.director.film)",
            "get_relations(#0)",
            "get_neighbors(#0,film.film.genre)",
        ],
        "answer": _answer("m.0g_drama", "m.0g_comedy"),
    },
]
G_ID_ITEM = 4


def write_items(folder: Path, items: list | None = None, name: str = "std.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(ITEMS if items is None else items, indent=1))
    return path


def write_ontology(folder: Path) -> Path:
    """An ontology folder in AgentBench's format: vocab.json, fb_roles, fb_types, reverse_properties."""
    path = folder / "ontology"
    path.mkdir()
    listed = sorted(r for r in RELATIONS if r != HIDDEN and r not in ATTRIBUTES)
    classes = sorted({d for d, _ in RELATIONS.values()} | {r for _, r in RELATIONS.values()})
    (path / "vocab.json").write_text(json.dumps({"attributes": ATTRIBUTES, "relations": listed, "classes": classes}))
    (path / "fb_roles").write_text("".join(f"{d} {r} {t}\n" for r, (d, t) in RELATIONS.items()))
    (path / "fb_types").write_text("film.director meta.subclassOf people.person\n")
    (path / "reverse_properties").write_text("film.film.directed_by\tfilm.director.film\n")
    return path


class _Handler(BaseHTTPRequestHandler):
    store = None  # set per server

    def _query(self, query: str | None) -> None:
        import pyoxigraph

        if not query:
            self.send_error(400, "no query")
            return
        try:
            results = self.server.store.query(query)  # type: ignore[attr-defined]
            body = results.serialize(format=pyoxigraph.QueryResultsFormat.JSON)
        except SyntaxError as error:
            self.send_error(400, f"bad query: {error}")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        url = urlparse(self.path)
        if url.path != "/sparql":
            self.send_error(404)
            return
        self._query(parse_qs(url.query).get("query", [None])[0])

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", 0))
        self._query(parse_qs(self.rfile.read(length).decode()).get("query", [None])[0])

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def sparql_endpoint() -> Iterator[str]:
    """A SPARQL endpoint over ``triples()`` on a free local port; yields its URL."""
    import pyoxigraph

    store = pyoxigraph.Store()
    store.load(triples().encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.store = store  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/sparql"
    finally:
        server.shutdown()
        server.server_close()
