"""Task generators for the wiki: fact lookups, multi-hop questions through links, comparisons, navigation."""

from __future__ import annotations

import sqlite3

from agentgym_text.envs.webarena.sites.taskkit import W, click, rng_for, rows, stop, task, type_
from agentgym_text.envs.webarena.sites.wiki import article_url

__all__ = ["generate"]


def _fact(c: sqlite3.Connection, title: str, key: str) -> str:
    return rows(
        c,
        "SELECT f.value FROM facts f JOIN articles a ON a.id = f.article_id WHERE a.title = ? AND f.key = ?",
        (title, key),
    )[0][0]


def _search(title: str) -> dict:
    return type_("searchbox", "Search Wikipedia", title)


def _url(title: str) -> str:
    return W + article_url(title)


def generate(c: sqlite3.Connection) -> list[dict]:
    out: list[dict] = []
    kind = {
        k: [r[0] for r in rows(c, "SELECT title FROM articles WHERE kind = ? ORDER BY title", (k,))]
        for k in ("city", "country", "river", "person")
    }

    for city in rng_for(80).sample(kind["city"], 5):
        population = _fact(c, city, "Population")
        out.append(
            task(
                80,
                "What is the population of {{city}} according to its Wikipedia article?",
                {"city": city},
                W,
                [_search(city), stop(population)],
                answer=("must_include", [f"{population} |OR| {population.replace(',', '')}"]),
                progress={"url": _url(city), "contents": [population]},
            )
        )
    missing = "Port Halloway"
    assert not rows(c, "SELECT 1 FROM articles WHERE title LIKE ? OR body LIKE ?", (f"%{missing}%",) * 2)
    out.append(
        task(
            89,
            "What is the population of {{city}} according to its Wikipedia article?",
            {"city": missing},
            W,
            [_search(missing), stop("N/A")],
            answer=("fuzzy_match", "N/A"),
            string_note="The wiki has no article about this city.",
            progress={"url": f"{W}/search", "contents": [f"0 results for '{missing}'"]},
        )
    )
    for city in rng_for(81).sample(kind["city"], 5):
        year = _fact(c, city, "Founded")
        out.append(
            task(
                81,
                "In which year was {{city}} founded?",
                {"city": city},
                W,
                [_search(city), stop(year)],
                answer=("exact_match", year),
                progress={"url": _url(city), "contents": [f"Founded {year}"]},
            )
        )
    for country in rng_for(82).sample(kind["country"], 5):
        capital = _fact(c, country, "Capital")
        out.append(
            task(
                82,
                "What is the capital of {{country}}?",
                {"country": country},
                W,
                [_search(country), stop(capital)],
                answer=("exact_match", capital),
                progress={"url": _url(country), "contents": [f"Capital {capital}"]},
            )
        )
    for city in rng_for(83).sample(kind["city"], 4):
        river = _fact(c, city, "River")
        out.append(
            task(
                83,
                "Which river flows through {{city}}?",
                {"city": city},
                W,
                [_search(city), stop(river)],
                answer=("fuzzy_match", [river]),
                progress={"url": _url(city), "contents": [river]},
            )
        )
    for city in rng_for(84).sample(kind["city"], 5):
        founder = _fact(c, city, "Founder")
        born = _fact(c, founder, "Born")
        out.append(
            task(
                84,
                "In which year was the founder of {{city}} born?",
                {"city": city},
                W,
                [_search(city), click("link", founder, nth=0), stop(born)],
                answer=("exact_match", born),
                progress={"url": _url(founder), "contents": [f"Born {born}"]},
            )
        )
    for title in rng_for(85).sample(kind["river"] + kind["person"] + kind["country"], 4):
        out.append(
            task(
                85,
                "Open the Wikipedia article about {{title}}",
                {"title": title},
                W,
                [_search(title), stop()],
                url=_url(title),
            )
        )
    rng = rng_for(86)
    pairs = 0
    while pairs < 4:
        a, b = rng.sample(kind["city"], 2)
        pa, pb = (int(_fact(c, x, "Population").replace(",", "")) for x in (a, b))
        if pa == pb:
            continue
        pairs += 1
        bigger = a if pa > pb else b
        out.append(
            task(
                86,
                "Which city has the larger population, {{a}} or {{b}}?",
                {"a": a, "b": b},
                W,
                [_search(a), _search(b), stop(bigger)],
                answer=("exact_match", bigger),
                progress={"url": _url(b), "contents": [_fact(c, a, "Population"), _fact(c, b, "Population")]},
            )
        )
    for river in rng_for(87).sample(kind["river"], 4):
        count = _fact(c, river, "Cities")
        out.append(
            task(
                87,
                "How many cities does the {{river}} flow through according to Wikipedia?",
                {"river": river},
                W,
                [_search(river), stop(count)],
                answer=("exact_match", count),
                progress={"url": _url(river), "contents": [f"Cities {count}"]},
            )
        )
    for city in rng_for(88).sample(kind["city"], 3):
        country = _fact(c, city, "Country")
        language = _fact(c, country, "Official language")
        out.append(
            task(
                88,
                "What is the official language of the country where {{city}} is located?",
                {"city": city},
                W,
                [_search(city), click("link", country, nth=0), stop(language)],
                answer=("exact_match", language),
                progress={"url": _url(country), "contents": [f"Official language {language}"]},
            )
        )
    return out
