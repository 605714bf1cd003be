"""Task generators for the wiki: fact lookups, multi-hop questions through links, comparisons, navigation."""

from __future__ import annotations

import sqlite3
from functools import partial

from agentgym_text.envs.webarena.sites.taskkit import (
    WIKIPEDIA,
    Instance,
    SeededDatabase,
    Template,
    click,
    make_tasks,
    navigation,
    question,
    rng_for,
    type_,
)
from agentgym_text.envs.webarena.sites.wiki import article_url

__all__ = ["generate", "TEMPLATES"]

MISSING_CITY = "Port Halloway"  # a city no article names: the question has no answer


def _titles(db: SeededDatabase, kind: str) -> list[str]:
    return db.column("SELECT title FROM articles WHERE kind = ? ORDER BY title", (kind,))


def _fact(db: SeededDatabase, title: str, key: str) -> str:
    return db.value(
        "SELECT f.value FROM facts f JOIN articles a ON a.id = f.article_id WHERE a.title = ? AND f.key = ?",
        (title, key),
    )


def _facts(db: SeededDatabase, seed: int, kind: str, count: int, key: str) -> list[tuple[str, str]]:
    """``count`` articles of ``kind`` drawn with ``rng_for(seed)``, each with its infobox's ``key``."""
    return [(title, _fact(db, title, key)) for title in rng_for(seed).sample(_titles(db, kind), count)]


def _search(title: str) -> dict:
    return type_("searchbox", "Search Wikipedia", title)


def _url(title: str) -> str:
    return WIKIPEDIA + article_url(title)


def _population(db: SeededDatabase) -> list[Instance]:
    return [
        question(
            {"city": city},
            [_search(city)],
            population,
            reference=("must_include", [f"{population} |OR| {population.replace(',', '')}"]),
            page=_url(city),
            seen=[population],
        )
        for city, population in _facts(db, 80, "city", 5, "Population")
    ]


def _population_of_missing_city(db: SeededDatabase) -> list[Instance]:
    assert not db.rows("SELECT 1 FROM articles WHERE title LIKE ? OR body LIKE ?", (f"%{MISSING_CITY}%",) * 2)
    return [
        question(
            {"city": MISSING_CITY},
            [_search(MISSING_CITY)],
            "N/A",
            reference=("fuzzy_match", "N/A"),
            page=f"{WIKIPEDIA}/search",
            seen=[f"0 results for '{MISSING_CITY}'"],
            note="The wiki has no article about this city.",
        )
    ]


def _river_of_city(db: SeededDatabase) -> list[Instance]:
    return [
        question(
            {"city": city}, [_search(city)], river, reference=("fuzzy_match", [river]), page=_url(city), seen=[river]
        )
        for city, river in _facts(db, 83, "city", 4, "River")
    ]


def _infobox_fact(db: SeededDatabase, *, seed: int, kind: str, count: int, key: str) -> list[Instance]:
    """Questions on the infobox line ``key`` of ``count`` articles of ``kind`` (the slot named as the kind)."""
    return [
        question({kind: title}, [_search(title)], fact, page=_url(title), seen=[f"{key} {fact}"])
        for title, fact in _facts(db, seed, kind, count, key)
    ]


def _linked_fact(db: SeededDatabase, *, seed: int, count: int, link: str, key: str) -> list[Instance]:
    """Questions on the infobox line ``key`` of the article a city's line ``link`` links to."""
    instances = []
    for city, linked in _facts(db, seed, "city", count, link):
        fact = _fact(db, linked, key)
        steps = [_search(city), click("link", linked, nth=0)]
        instances.append(question({"city": city}, steps, fact, page=_url(linked), seen=[f"{key} {fact}"]))
    return instances


def _open_article(db: SeededDatabase) -> list[Instance]:
    titles = _titles(db, "river") + _titles(db, "person") + _titles(db, "country")
    return [navigation({"title": title}, [_search(title)], _url(title)) for title in rng_for(85).sample(titles, 4)]


def _larger_city(db: SeededDatabase) -> list[Instance]:
    cities, draw, instances = _titles(db, "city"), rng_for(86), []
    while len(instances) < 4:
        first, second = draw.sample(cities, 2)
        shown = [_fact(db, first, "Population"), _fact(db, second, "Population")]
        sizes = [int(population.replace(",", "")) for population in shown]
        if sizes[0] == sizes[1]:
            continue
        larger = first if sizes[0] > sizes[1] else second
        steps = [_search(first), _search(second)]
        instances.append(question({"a": first, "b": second}, steps, larger, page=_url(second), seen=shown))
    return instances


POPULATION = "What is the population of {{city}} according to its Wikipedia article?"
TEMPLATES = (
    Template(80, POPULATION, WIKIPEDIA, _population),
    Template(89, POPULATION, WIKIPEDIA, _population_of_missing_city),
    Template(
        81,
        "In which year was {{city}} founded?",
        WIKIPEDIA,
        partial(_infobox_fact, seed=81, kind="city", count=5, key="Founded"),
    ),
    Template(
        82,
        "What is the capital of {{country}}?",
        WIKIPEDIA,
        partial(_infobox_fact, seed=82, kind="country", count=5, key="Capital"),
    ),
    Template(83, "Which river flows through {{city}}?", WIKIPEDIA, _river_of_city),
    Template(
        84,
        "In which year was the founder of {{city}} born?",
        WIKIPEDIA,
        partial(_linked_fact, seed=84, count=5, link="Founder", key="Born"),
    ),
    Template(85, "Open the Wikipedia article about {{title}}", WIKIPEDIA, _open_article),
    Template(86, "Which city has the larger population, {{a}} or {{b}}?", WIKIPEDIA, _larger_city),
    Template(
        87,
        "How many cities does the {{river}} flow through according to Wikipedia?",
        WIKIPEDIA,
        partial(_infobox_fact, seed=87, kind="river", count=4, key="Cities"),
    ),
    Template(
        88,
        "What is the official language of the country where {{city}} is located?",
        WIKIPEDIA,
        partial(_linked_fact, seed=88, count=3, link="Country", key="Official language"),
    ),
)


def generate(connection: sqlite3.Connection) -> list[dict]:
    return make_tasks(TEMPLATES, SeededDatabase(connection))
