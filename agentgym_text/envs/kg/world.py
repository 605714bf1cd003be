"""The generated world behind the knowledge graph: films, people, places, organisations and citing papers.

``generate_world(seed)`` returns entities (name, type), relation triples (subject, relation, object names) and
numeric attribute values, all drawn from one seeded RNG; names are unique across the whole graph and contain
no commas, '#' or parentheses (they are tool-call arguments). Every relation has a Freebase-style name and an
inverse (``film.film.directed_by`` / ``film.director.film``), both stored, as in Freebase.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from agentgym_text.core.words import FIRST_NAMES, LAST_NAMES

__all__ = ["World", "generate_world", "RELATIONS", "ATTRIBUTES"]

# relation: (inverse, domain type, range type)
RELATIONS: dict[str, tuple[str, str, str]] = {
    "film.film.directed_by": ("film.director.film", "film.film", "people.person"),
    "film.film.starring": ("film.actor.film", "film.film", "people.person"),
    "film.film.written_by": ("film.writer.film", "film.film", "people.person"),
    "film.film.genre": ("film.film_genre.films_in_this_genre", "film.film", "film.film_genre"),
    "film.film.country": ("location.country.films_produced_here", "film.film", "location.country"),
    "film.film.language": ("language.human_language.films", "film.film", "language.human_language"),
    "film.film.produced_by": ("film.production_company.films", "film.film", "organization.organization"),
    "people.person.place_of_birth": ("location.location.people_born_here", "people.person", "location.city"),
    "people.person.nationality": ("location.country.nationals", "people.person", "location.country"),
    "people.person.employer": ("business.employer.employees", "people.person", "organization.organization"),
    "people.person.education": ("education.university.alumni", "people.person", "organization.organization"),
    "location.location.containedby": ("location.location.contains", "location.city", "location.country"),
    "organization.organization.headquarters": (
        "location.location.organizations_headquartered_here",
        "organization.organization",
        "location.city",
    ),
    "academic.paper.author": ("academic.author.papers", "academic.paper", "people.person"),
    "academic.paper.cites": ("academic.paper.cited_by", "academic.paper", "academic.paper"),
    "academic.paper.venue": ("academic.venue.papers", "academic.paper", "academic.venue"),
    "academic.paper.field": ("academic.field.papers", "academic.paper", "academic.field"),
}
ATTRIBUTES = {
    "film.film": ("film.film.release_year", "film.film.runtime", "film.film.budget", "film.film.gross_revenue"),
    "people.person": ("people.person.birth_year", "people.person.height_cm"),
    "location.city": ("location.location.population", "location.location.area", "location.location.founded_year"),
    "location.country": ("location.location.population", "location.location.area"),
    "organization.organization": (
        "organization.organization.founded_year",
        "organization.organization.number_of_employees",
    ),
    "academic.paper": ("academic.paper.year", "academic.paper.citation_count", "academic.paper.pages"),
}

_FIRST = list(FIRST_NAMES)
_LAST = list(LAST_NAMES)
_ADJ = (
    "Silent Golden Crimson Hidden Last Broken Electric Frozen Wild Distant Quiet Burning Paper Iron Velvet "
    "Hollow Bright Lonely Secret Northern Savage Gentle Endless Fallen Restless Scarlet Midnight Emerald "
    "Silver Hungry Fading Sunken Wandering Bitter Glass Stone Copper Sleeping Painted Borrowed"
).split()
_NOUN = (
    "Harbor Garden River Empire Signal Orchard Lantern Mirror Voyage Horizon Machine Kingdom Forest Station "
    "Letter Island Engine Bridge Season Shadow Winter Crown Desert Compass Tide Citadel Orbit Carnival "
    "Frontier Requiem Labyrinth Ember Meadow Tower Promise Witness Harvest Circuit Canyon Lullaby"
).split()
_SYL_A = "Val Mor Bel Cas Dor Fen Gal Hal Kar Lin Mar Nor Pel Ros Sal Tor Ver Zan Ash Bri Cor Dun Eld Fal".split()
_SYL_B = "ora ena ith ova ara ent isk ham ford ton bury mere wick dale gard holm stad vik rin eth".split()
_SYL_C = "ia and ar os istan ovia ene ith".split()
_METHODS = (
    "Graph Networks|Sparse Attention|Contrastive Learning|Bayesian Inference|Reinforcement Learning|"
    "Diffusion Models|Kernel Methods|Active Learning|Meta-Learning|Causal Discovery|Federated Training|"
    "Program Synthesis|Symbolic Regression|Topic Models|Random Features|Neural Fields|Mixture Models|"
    "Spectral Clustering|Probabilistic Circuits|Tensor Decomposition"
).split("|")
_TOPICS = (
    "Protein Folding|Climate Forecasting|Machine Translation|Robot Grasping|Drug Discovery|Traffic Flow|"
    "Speech Recognition|Medical Imaging|Code Search|Question Answering|Crop Yield|Fraud Detection|"
    "Molecule Design|Music Generation|Earthquake Detection|Recommender Systems|Galaxy Surveys|"
    "Legal Documents|Power Grids|Ocean Currents|Wildfire Spread|Poverty Mapping|Chess Engines|"
    "Gene Regulation|Supply Chains|Sign Language|Air Quality|Protein Design|Dialogue Systems|Ranking"
).split("|")
_GENRES = (
    "Drama Comedy Thriller Documentary Animation Science-Fiction Horror Romance Western Musical Fantasy "
    "Crime War Mystery Adventure"
).split()
_LANGUAGES = "English French Japanese Spanish Korean Hindi Portuguese Swedish Turkish Polish Swahili Italian".split()
_FIELDS = (
    "Machine Learning|Computer Vision|Natural Language Processing|Robotics|Bioinformatics|Databases|"
    "Climate Science|Economics|Neuroscience|Astronomy|Materials Science|Epidemiology"
).split("|")
_STUDIO = "Pictures|Studios|Films|Entertainment|Productions".split("|")
_COMPANY = "Systems|Labs|Analytics|Dynamics|Robotics|Networks".split("|")


@dataclass
class World:
    entities: dict[str, str] = field(default_factory=dict)  # name -> type
    triples: list[tuple[str, str, str]] = field(default_factory=list)
    values: list[tuple[str, str, float]] = field(default_factory=list)

    def add(self, name: str, etype: str) -> str:
        if name in self.entities:
            raise ValueError(f"duplicate entity name {name!r}")
        self.entities[name] = etype
        return name

    def link(self, subject: str, relation: str, obj: str) -> None:
        self.triples.append((subject, relation, obj))
        self.triples.append((obj, RELATIONS[relation][0], subject))

    def value(self, subject: str, attribute: str, number: float) -> None:
        self.values.append((subject, attribute, float(number)))


def _unique(rng: random.Random, pool: list[str], count: int) -> list[str]:
    if count > len(pool):
        raise ValueError("name pool too small")
    return rng.sample(pool, count)


def generate_world(seed: int = 0, films: int = 2500, people: int = 5000, papers: int = 2500) -> World:
    """The whole graph; about 120,000 relation triples and 30,000 attribute values with the defaults."""
    rng = random.Random(seed)
    world = World()
    syllables = [a + b for a, b in itertools.product(_SYL_A, _SYL_B)]
    countries = [
        world.add(n, "location.country")
        for n in _unique(rng, [a + c for a, c in itertools.product(_SYL_A, _SYL_C)], 24)
    ]
    for country in countries:
        world.value(country, "location.location.population", rng.randint(2, 90) * 1_000_000 + rng.randint(0, 999_999))
        world.value(country, "location.location.area", rng.randint(20_000, 900_000))
    cities = [world.add(n, "location.city") for n in _unique(rng, [n for n in syllables if n not in countries], 300)]
    for city in cities:
        world.link(city, "location.location.containedby", rng.choice(countries))
        world.value(city, "location.location.population", rng.randint(20_000, 5_000_000))
        world.value(city, "location.location.area", round(rng.uniform(15, 1500), 1))
        world.value(city, "location.location.founded_year", rng.randint(700, 1950))
    words = rng.sample(_ADJ + _NOUN, len(_ADJ + _NOUN))
    studios = [world.add(f"{w} {rng.choice(_STUDIO)}", "organization.organization") for w in words[:60]]
    companies = [world.add(f"{w} {rng.choice(_COMPANY)}", "organization.organization") for w in words[:70]]
    universities = [world.add(f"University of {c}", "organization.organization") for c in rng.sample(cities, 60)]
    for org in studios + companies + universities:
        world.link(org, "organization.organization.headquarters", rng.choice(cities))
        world.value(org, "organization.organization.founded_year", rng.randint(1850, 2015))
        world.value(org, "organization.organization.number_of_employees", rng.randint(20, 90_000))
    names = [f"{first} {last}" for first, last in itertools.product(_FIRST, _LAST)]
    persons = [world.add(n, "people.person") for n in _unique(rng, names, people)]
    for person in persons:
        city = rng.choice(cities)
        world.link(person, "people.person.place_of_birth", city)
        world.value(person, "people.person.birth_year", rng.randint(1920, 2002))
        world.value(person, "people.person.height_cm", rng.randint(150, 200))
    city_country = {s: o for s, r, o in world.triples if r == "location.location.containedby"}
    for person, city in ((s, o) for s, r, o in list(world.triples) if r == "people.person.place_of_birth"):
        world.link(person, "people.person.nationality", city_country[city])
    film_people, researchers = persons[:3200], persons[3200:]
    directors, writers, actors = film_people[:500], film_people[400:900], film_people[700:]
    genres = [world.add(g, "film.film_genre") for g in _GENRES]
    languages = [world.add(g, "language.human_language") for g in _LANGUAGES]
    titles = [f"{p}{a} {n}" for p in ("", "The ") for a, n in itertools.product(_ADJ, _NOUN)]
    for title in _unique(rng, titles, films):
        film = world.add(title, "film.film")
        world.link(film, "film.film.directed_by", rng.choice(directors))
        for actor in rng.sample(actors, rng.randint(3, 5)):
            world.link(film, "film.film.starring", actor)
        for writer in rng.sample(writers, rng.randint(1, 2)):
            world.link(film, "film.film.written_by", writer)
        for genre in rng.sample(genres, rng.randint(1, 2)):
            world.link(film, "film.film.genre", genre)
        world.link(film, "film.film.country", rng.choice(countries))
        world.link(film, "film.film.language", rng.choice(languages))
        world.link(film, "film.film.produced_by", rng.choice(studios))
        world.value(film, "film.film.release_year", rng.randint(1950, 2024))
        world.value(film, "film.film.runtime", rng.randint(75, 190))
        world.value(film, "film.film.budget", round(rng.uniform(0.5, 250), 1))
        world.value(film, "film.film.gross_revenue", round(rng.uniform(0.1, 1500), 1))
    for person in researchers:
        world.link(person, "people.person.employer", rng.choice(universities + companies))
        world.link(person, "people.person.education", rng.choice(universities))
    for person in rng.sample(film_people, 600):
        world.link(person, "people.person.education", rng.choice(universities))
    venues = [
        world.add(v, "academic.venue")
        for v in [f"Journal of {f}" for f in _FIELDS] + [f"Conference on {f}" for f in _FIELDS]
    ]
    fields = [world.add(f, "academic.field") for f in _FIELDS]
    paper_titles = [
        pattern.format(m, t)
        for pattern in ("{} for {}", "Revisiting {} in {}", "Scaling {} to {}", "On {} and {}", "Efficient {} for {}")
        for m, t in itertools.product(_METHODS, _TOPICS)
    ]
    papers_made: list[str] = []
    cited_count: dict[str, int] = {}
    for year_index, title in enumerate(_unique(rng, paper_titles, papers)):
        paper = world.add(title, "academic.paper")
        for author in rng.sample(researchers, rng.randint(1, 4)):
            world.link(paper, "academic.paper.author", author)
        world.link(paper, "academic.paper.venue", rng.choice(venues))
        world.link(paper, "academic.paper.field", rng.choice(fields))
        for cited in rng.sample(papers_made, min(len(papers_made), rng.randint(0, 8))):
            world.link(paper, "academic.paper.cites", cited)
            cited_count[cited] += 1
        cited_count[paper] = 0
        papers_made.append(paper)
        world.value(paper, "academic.paper.year", 1990 + year_index * 34 // papers)
        world.value(paper, "academic.paper.pages", rng.randint(4, 40))
    for paper in papers_made:
        world.value(paper, "academic.paper.citation_count", cited_count[paper])
    return world
