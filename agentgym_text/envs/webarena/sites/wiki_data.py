"""Seeded content of the wiki: invented countries, cities, rivers and people, with infoboxes and links."""

from __future__ import annotations

import random
import sqlite3

from agentgym_text.envs.webarena.sites.names import FIRST, LAST

__all__ = ["build_wiki"]

_SYL = (
    "va",
    "lor",
    "mi",
    "den",
    "ka",
    "ro",
    "sel",
    "tan",
    "bri",
    "ga",
    "nor",
    "el",
    "tis",
    "mar",
    "qu",
    "os",
    "lin",
    "dra",
    "pe",
    "sul",
    "ven",
    "ar",
    "ho",
    "zan",
)
_LANGS = ("Valdorian", "Eskaric", "Montese", "Calvarian", "Ostric", "Lindish", "Pelagic", "Sulvan")
_CURRENCIES = ("crown", "mark", "florin", "taler", "lira", "ducat", "real", "shilling")
_JOBS = ("architect", "explorer", "merchant", "poet", "engineer", "general", "botanist", "painter")


def _name(rng: random.Random, used: set[str], parts: int = 3) -> str:
    while True:
        name = "".join(rng.choice(_SYL) for _ in range(rng.randint(2, parts))).capitalize()
        if len(name) > 4 and name not in used:
            used.add(name)
            return name


def build_wiki(connection: sqlite3.Connection, seed: int) -> None:
    rng = random.Random(f"wiki-{seed}")
    connection.executescript("""
        CREATE TABLE articles (id INTEGER PRIMARY KEY, title TEXT UNIQUE, kind TEXT, summary TEXT, body TEXT);
        CREATE TABLE facts (article_id INTEGER, key TEXT, value TEXT, link TEXT, position INTEGER);
    """)
    used: set[str] = set()
    articles: list[tuple[str, str, str, str, list]] = []  # title, kind, summary, body, facts
    countries = [_name(rng, used) + rng.choice(("ia", "land", "ora", "istan")) for _ in range(8)]
    rivers = [f"{_name(rng, used)} River" for _ in range(12)]
    people = []
    for _ in range(36):
        person = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        while person in used:
            person = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        used.add(person)
        people.append(person)
    cities: dict[str, list[str]] = {c: [] for c in countries}
    city_rows = []
    for index in range(48):
        country = countries[index % len(countries)]
        city = _name(rng, used)
        cities[country].append(city)
        founder = people[index % len(people)]
        river = rng.choice(rivers)
        founded = rng.randint(900, 1850)
        population = rng.randint(8, 2500) * 1000 + rng.randint(0, 999)
        city_rows.append((city, country, founder, river, founded, population, rng.randint(5, 2400)))
    for city, country, founder, river, founded, population, elevation in city_rows:
        facts = [
            ("Country", country, country),
            ("Population", f"{population:,}", ""),
            ("Founded", str(founded), ""),
            ("Founder", founder, founder),
            ("River", river, river),
            ("Elevation", f"{elevation} m", ""),
        ]
        body = (
            f"{city} is a city in [[{country}]] on the banks of the [[{river}]]. It was founded in {founded} by "
            f"[[{founder}]]. As of the last census the city had a population of {population:,}."
        )
        articles.append((city, "city", f"{city} is a city in {country}.", body, facts))
    for country in countries:
        capital = cities[country][0]
        population = sum(row[5] for row in city_rows if row[1] == country) * rng.randint(3, 9)
        language, currency = rng.choice(_LANGS), rng.choice(_CURRENCIES)
        facts = [
            ("Capital", capital, capital),
            ("Official language", language, ""),
            ("Currency", f"{country.rstrip('ia')} {currency}", ""),
            ("Population", f"{population:,}", ""),
            ("Area", f"{rng.randint(20, 900) * 1000:,} km²", ""),
        ]
        listed = ", ".join(f"[[{c}]]" for c in cities[country])
        body = (
            f"{country} is a country whose capital is [[{capital}]]. Its official language is {language}. "
            f"Major cities: {listed}."
        )
        articles.append((country, "country", f"{country} is a country.", body, facts))
    for river in rivers:
        through = [row[0] for row in city_rows if row[3] == river]
        length = rng.randint(80, 3200)
        facts = [("Length", f"{length:,} km", ""), ("Cities", str(len(through)), "")]
        listed = ", ".join(f"[[{c}]]" for c in through) or "no large cities"
        body = f"The {river} is a river {length:,} km long. It flows through {listed}."
        articles.append((river, "river", f"The {river} is a river.", body, facts))
    for index, person in enumerate(people):
        born = rng.randint(850, 1800)
        birthplace = city_rows[(index * 7 + 3) % len(city_rows)][0]
        job = rng.choice(_JOBS)
        facts = [
            ("Born", str(born), ""),
            ("Died", str(born + rng.randint(35, 90)), ""),
            ("Birthplace", birthplace, birthplace),
            ("Occupation", job.capitalize(), ""),
        ]
        founded = [row[0] for row in city_rows if row[2] == person]
        extra = (" They founded " + ", ".join(f"[[{c}]]" for c in founded) + ".") if founded else ""
        body = f"{person} (born {born}) was a {job} from [[{birthplace}]].{extra}"
        articles.append((person, "person", f"{person} was a {job}.", body, facts))
    articles.sort(key=lambda a: a[0])
    for article_id, (title, kind, summary, body, facts) in enumerate(articles, 1):
        connection.execute("INSERT INTO articles VALUES (?, ?, ?, ?, ?)", (article_id, title, kind, summary, body))
        connection.executemany(
            "INSERT INTO facts VALUES (?, ?, ?, ?, ?)",
            [(article_id, k, v, link, n) for n, (k, v, link) in enumerate(facts)],
        )
    connection.commit()
