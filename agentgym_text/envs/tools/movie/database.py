"""The generated film database, built from a fixed seed on first use and cached in memory."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from functools import lru_cache

from agentgym_text.envs.tools.naming import person_names

__all__ = ["Film", "Person", "Company", "CastCredit", "CrewCredit", "FilmDatabase", "film_database"]

DATABASE_SEED = 1895
FILM_COUNT = 80
PERSON_COUNT = 160

_ADJECTIVES = (
    "Silent",
    "Crimson",
    "Hidden",
    "Last",
    "Broken",
    "Golden",
    "Distant",
    "Frozen",
    "Wild",
    "Electric",
    "Midnight",
    "Hollow",
    "Burning",
    "Glass",
    "Restless",
    "Velvet",
)
_NOUNS = (
    "Harbor",
    "Kingdom",
    "Signal",
    "Orchard",
    "Frontier",
    "Mirror",
    "Voyage",
    "Empire",
    "Garden",
    "Tide",
    "Horizon",
    "Lantern",
    "Labyrinth",
    "Canyon",
    "Requiem",
    "Compass",
)
_GENRES = (
    "Drama",
    "Comedy",
    "Thriller",
    "Science Fiction",
    "Adventure",
    "Romance",
    "Animation",
    "Documentary",
    "Horror",
    "Mystery",
)
_KEYWORDS = (
    "time travel",
    "heist",
    "small town",
    "revenge",
    "friendship",
    "based on novel",
    "space",
    "coming of age",
    "family secret",
    "road trip",
    "artificial intelligence",
    "war",
    "island",
    "detective",
    "musician",
    "survival",
    "dystopia",
    "love triangle",
)
_COUNTRIES = (
    ("US", "United States of America"),
    ("GB", "United Kingdom"),
    ("FR", "France"),
    ("DE", "Germany"),
    ("JP", "Japan"),
    ("KR", "South Korea"),
    ("IN", "India"),
    ("IT", "Italy"),
    ("ES", "Spain"),
    ("CA", "Canada"),
    ("AU", "Australia"),
    ("BR", "Brazil"),
)
_LANGUAGES = (
    ("en", "English"),
    ("fr", "French"),
    ("de", "German"),
    ("ja", "Japanese"),
    ("ko", "Korean"),
    ("hi", "Hindi"),
    ("it", "Italian"),
    ("es", "Spanish"),
    ("pt", "Portuguese"),
)
_COMPANY_WORDS = (
    "Silver",
    "Northstar",
    "Blue Heron",
    "Paper Moon",
    "Redwood",
    "Iron Gate",
    "Lighthouse",
    "Saffron",
    "Granite",
    "Echo Valley",
    "Wildflower",
    "Copper Lane",
)
_COMPANY_KINDS = ("Pictures", "Films", "Studios", "Entertainment")
_BIRTH_PLACES = (
    "London, England, UK",
    "Lyon, France",
    "Osaka, Japan",
    "Toronto, Ontario, Canada",
    "Chicago, Illinois, USA",
    "Mumbai, India",
    "Seoul, South Korea",
    "Madrid, Spain",
    "Melbourne, Victoria, Australia",
    "Hamburg, Germany",
    "Rome, Italy",
    "Sao Paulo, Brazil",
)
_CHARACTER_FIRST = ("Captain", "Doctor", "Agent", "Professor", "Detective", "Sister", "Old", "Young")
_CHARACTER_LAST = ("Reyes", "Holloway", "Marsh", "Okoro", "Vance", "Lindell", "Koenig", "Aster", "Blake", "Mori")
_CREW_JOBS = (
    ("Director", "Directing"),
    ("Screenplay", "Writing"),
    ("Producer", "Production"),
    ("Original Music Composer", "Sound"),
    ("Director of Photography", "Camera"),
    ("Editor", "Editing"),
)


@dataclass(frozen=True)
class Company:
    id: int
    name: str
    origin_country: str


@dataclass(frozen=True)
class CastCredit:
    person_id: int
    character: str
    order: int


@dataclass(frozen=True)
class CrewCredit:
    person_id: int
    job: str
    department: str


@dataclass(frozen=True)
class Film:
    id: int
    title: str
    release_date: str
    runtime: int
    original_language: str
    budget: int
    revenue: int
    genres: tuple[str, ...]
    vote_average: float
    companies: tuple[int, ...]
    countries: tuple[str, ...]
    cast: tuple[CastCredit, ...]
    crew: tuple[CrewCredit, ...]
    keywords: tuple[str, ...]
    alternative_titles: tuple[tuple[str, str], ...]
    translations: tuple[str, ...]


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    birthday: str
    place_of_birth: str
    gender: str
    known_for_department: str
    imdb_id: str
    instagram_id: str


class FilmDatabase:
    """Films, people and companies with the lookups the movie tool needs."""

    def __init__(self, films: list[Film], people: list[Person], companies: list[Company]):
        self.films = {film.id: film for film in films}
        self.people = {person.id: person for person in people}
        self.companies = {company.id: company for company in companies}
        self.countries = dict(_COUNTRIES)
        self.languages = dict(_LANGUAGES)

    def search_films(self, text: str) -> list[Film]:
        needle = " ".join(text.split()).casefold()
        return [film for film in self.films.values() if needle and needle in film.title.casefold()]

    def search_people(self, text: str) -> list[Person]:
        needle = " ".join(text.split()).casefold()
        return [person for person in self.people.values() if needle and needle in person.name.casefold()]

    def credits_of(self, person_id: int) -> tuple[list[tuple[Film, CastCredit]], list[tuple[Film, CrewCredit]]]:
        cast = [(film, credit) for film in self.films.values() for credit in film.cast if credit.person_id == person_id]
        crew = [(film, credit) for film in self.films.values() for credit in film.crew if credit.person_id == person_id]
        return cast, crew


def _titles(rng: random.Random) -> list[str]:
    pool = [f"The {adjective} {noun}" for adjective in _ADJECTIVES for noun in _NOUNS]
    pool += [
        f"{noun} of the {adjective} {other}"
        for adjective in _ADJECTIVES[:4]
        for noun in _NOUNS[:6]
        for other in ("Sea", "Night")
    ]
    return rng.sample(pool, FILM_COUNT)


@lru_cache(maxsize=1)
def film_database() -> FilmDatabase:
    rng = random.Random(DATABASE_SEED)
    names = person_names(PERSON_COUNT, offset=300)
    people = []
    for index, name in enumerate(names):
        born = dt.date(1940, 1, 1) + dt.timedelta(days=rng.randrange(365 * 60))
        actor = index < PERSON_COUNT * 2 // 3
        people.append(
            Person(
                id=1000 + index * 7,
                name=name,
                birthday=born.isoformat(),
                place_of_birth=rng.choice(_BIRTH_PLACES),
                gender=rng.choice(("Female", "Male")),
                known_for_department="Acting" if actor else rng.choice(("Directing", "Writing", "Production", "Sound")),
                imdb_id=f"nm{rng.randrange(10**6, 10**7):07d}",
                instagram_id=name.lower().replace(" ", "_") + str(rng.randrange(10, 99)),
            )
        )
    actors = [person for person in people if person.known_for_department == "Acting"]
    crew_pool = [person for person in people if person.known_for_department != "Acting"]
    companies = [
        Company(100 + index * 3, f"{word} {rng.choice(_COMPANY_KINDS)}", rng.choice(_COUNTRIES)[0])
        for index, word in enumerate(_COMPANY_WORDS)
    ]
    films = []
    for index, title in enumerate(_titles(rng)):
        released = dt.date(1975, 1, 1) + dt.timedelta(days=rng.randrange(365 * 48))
        budget = rng.randrange(2, 200) * 1_000_000
        cast_people = rng.sample(actors, rng.randint(4, 7))
        characters = rng.sample([f"{a} {b}" for a in _CHARACTER_FIRST for b in _CHARACTER_LAST], len(cast_people))
        crew_people = rng.sample(crew_pool, len(_CREW_JOBS))
        countries = tuple(sorted({rng.choice(_COUNTRIES)[0] for _ in range(rng.randint(1, 3))}))
        language = rng.choice(_LANGUAGES)[0]
        films.append(
            Film(
                id=500 + index * 13,
                title=title,
                release_date=released.isoformat(),
                runtime=rng.randint(78, 175),
                original_language=language,
                budget=budget,
                revenue=int(budget * rng.uniform(0.2, 6.0)) // 1000 * 1000,
                genres=tuple(sorted(rng.sample(_GENRES, rng.randint(1, 3)))),
                vote_average=round(rng.uniform(4.5, 8.9), 1),
                companies=tuple(sorted(company.id for company in rng.sample(companies, rng.randint(1, 3)))),
                countries=countries,
                cast=tuple(
                    CastCredit(person.id, character, order)
                    for order, (person, character) in enumerate(zip(cast_people, characters))
                ),
                crew=tuple(
                    CrewCredit(person.id, job, department) for person, (job, department) in zip(crew_people, _CREW_JOBS)
                ),
                keywords=tuple(sorted(rng.sample(_KEYWORDS, rng.randint(2, 5)))),
                alternative_titles=tuple(
                    sorted(
                        (country, f"{title} ({code.upper()})")
                        for country, code in {
                            rng.choice(_COUNTRIES)[0]: rng.choice(_LANGUAGES)[0] for _ in range(rng.randint(0, 3))
                        }.items()
                    )
                ),
                translations=tuple(sorted({language, *(rng.choice(_LANGUAGES)[0] for _ in range(rng.randint(1, 4)))})),
            )
        )
    return FilmDatabase(films, people, companies)
