"""Question templates with gold programs: 1-4 hops (``get_neighbors`` steps) with constraints (intersection,
argmax/argmin, count), each drawn from the graph around a random seed entity.

A template returns (question, entities, program) or None; ``program`` is a list of tool calls in AgentBench's
syntax whose ``#i`` refer to the program's own variables; its last variable is the answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from agentgym_text.envs.kg.graph import KnowledgeGraph

__all__ = ["TEMPLATES", "Draft"]

Draft = tuple[str, list[str], list[str]]
_BY_TYPE: dict[tuple[str, str], list[str]] = {}


def _pick(rng: random.Random, kg: KnowledgeGraph, etype: str) -> str:
    key = (str(kg.path), etype)
    if key not in _BY_TYPE:
        _BY_TYPE[key] = [
            n for (n,) in kg.connection.execute("SELECT name FROM entity WHERE type = ? ORDER BY id", (etype,))
        ]
    return rng.choice(_BY_TYPE[key])


def _one(rng: random.Random, kg: KnowledgeGraph, name: str, relation: str) -> str | None:
    """A random neighbour of ``name`` through ``relation``."""
    found = kg.entity(name)
    if found is None:
        return None
    names = kg.names(kg.neighbors(frozenset({found[0]}), relation))
    return rng.choice(names) if names else None


def _gn(arg: str, relation: str) -> str:
    return f"get_neighbors({arg}, {relation})"


def _film(rng, kg):
    return _pick(rng, kg, "film.film")


def _director(rng, kg):
    return _one(rng, kg, _film(rng, kg), "film.film.directed_by")


def _author(rng, kg):
    return _one(rng, kg, _pick(rng, kg, "academic.paper"), "academic.paper.author")


# ---- 1 hop ------------------------------------------------------------------------------------------------
def directed(rng, kg) -> Draft:
    film = _film(rng, kg)
    return f"who directed the film {film}?", [film], [_gn(film, "film.film.directed_by")]


def genres(rng, kg) -> Draft:
    film = _film(rng, kg)
    return f"which genres does the film {film} belong to?", [film], [_gn(film, "film.film.genre")]


def headquarters(rng, kg) -> Draft:
    org = _pick(rng, kg, "organization.organization")
    return f"in which city is {org} headquartered?", [org], [_gn(org, "organization.organization.headquarters")]


def cited(rng, kg) -> Draft:
    paper = _pick(rng, kg, "academic.paper")
    return f"which papers does the paper {paper} cite?", [paper], [_gn(paper, "academic.paper.cites")]


def born(rng, kg) -> Draft:
    person = _pick(rng, kg, "people.person")
    return f"where was {person} born?", [person], [_gn(person, "people.person.place_of_birth")]


# ---- 2 hops or 1 hop with a constraint --------------------------------------------------------------------
def director_birthplace(rng, kg) -> Draft:
    film = _film(rng, kg)
    return (
        f"in which city was the director of {film} born?",
        [film],
        [_gn(film, "film.film.directed_by"), _gn("#0", "people.person.place_of_birth")],
    )


def films_directed_count(rng, kg) -> Draft | None:
    person = _director(rng, kg)
    return person and (
        f"how many films has {person} directed?",
        [person],
        [_gn(person, "film.director.film"), "count(#0)"],
    )


def actor_and_director(rng, kg) -> Draft | None:
    film = _film(rng, kg)
    actor, director = _one(rng, kg, film, "film.film.starring"), _one(rng, kg, film, "film.film.directed_by")
    if not actor or not director or actor == director:
        return None
    return (
        f"which films starring {actor} were directed by {director}?",
        [actor, director],
        [_gn(actor, "film.actor.film"), _gn(director, "film.director.film"), "intersection(#0, #1)"],
    )


def latest_film(rng, kg) -> Draft | None:
    person = _director(rng, kg)
    return person and (
        f"what is the most recent film directed by {person}?",
        [person],
        [_gn(person, "film.director.film"), "argmax(#0, film.film.release_year)"],
    )


def most_cited_by_author(rng, kg) -> Draft | None:
    author = _author(rng, kg)
    return author and (
        f"which paper written by {author} has been cited the most?",
        [author],
        [_gn(author, "academic.author.papers"), "argmax(#0, academic.paper.citation_count)"],
    )


def oldest_actor(rng, kg) -> Draft:
    film = _film(rng, kg)
    return (
        f"who is the oldest actor starring in {film}?",
        [film],
        [_gn(film, "film.film.starring"), "argmin(#0, people.person.birth_year)"],
    )


def author_universities(rng, kg) -> Draft:
    paper = _pick(rng, kg, "academic.paper")
    return (
        f"which universities did the authors of {paper} study at?",
        [paper],
        [_gn(paper, "academic.paper.author"), _gn("#0", "people.person.education")],
    )


# ---- 3 hops or 2 hops with a constraint -------------------------------------------------------------------
def latest_by_same_director(rng, kg) -> Draft:
    film = _film(rng, kg)
    return (
        f"what is the most recent film by the director of {film}?",
        [film],
        [_gn(film, "film.film.directed_by"), _gn("#0", "film.director.film"), "argmax(#1, film.film.release_year)"],
    )


def citing_count(rng, kg) -> Draft | None:
    author = _author(rng, kg)
    return author and (
        f"how many papers cite a paper written by {author}?",
        [author],
        [_gn(author, "academic.author.papers"), _gn("#0", "academic.paper.cited_by"), "count(#1)"],
    )


def studio_country(rng, kg) -> Draft:
    film = _film(rng, kg)
    return (
        f"in which country is the headquarters of the company that produced {film}?",
        [film],
        [
            _gn(film, "film.film.produced_by"),
            _gn("#0", "organization.organization.headquarters"),
            _gn("#1", "location.location.containedby"),
        ],
    )


def directors_born_in(rng, kg) -> Draft | None:
    city = _one(rng, kg, _director(rng, kg) or "", "people.person.place_of_birth")
    return city and (
        f"how many films were directed by people born in {city}?",
        [city],
        [_gn(city, "location.location.people_born_here"), _gn("#0", "film.director.film"), "count(#1)"],
    )


def genre_films_by_birthplace(rng, kg) -> Draft | None:
    film = _film(rng, kg)
    actor, genre = _one(rng, kg, film, "film.film.starring"), _one(rng, kg, film, "film.film.genre")
    city = actor and _one(rng, kg, actor, "people.person.place_of_birth")
    if not city or not genre:
        return None
    return (
        f"which {genre} films star an actor born in {city}?",
        [city, genre],
        [
            _gn(city, "location.location.people_born_here"),
            _gn("#0", "film.actor.film"),
            _gn(genre, "film.film_genre.films_in_this_genre"),
            "intersection(#1, #2)",
        ],
    )


# ---- 4 hops, or 3 with a constraint -----------------------------------------------------------------------
def biggest_birth_city(rng, kg) -> Draft | None:
    person = _director(rng, kg)
    return person and (
        f"what is the most populous city where an actor in a film directed by {person} was born?",
        [person],
        [
            _gn(person, "film.director.film"),
            _gn("#0", "film.film.starring"),
            _gn("#1", "people.person.place_of_birth"),
            "argmax(#2, location.location.population)",
        ],
    )


def top_grossing_studio_country(rng, kg) -> Draft | None:
    person = _director(rng, kg)
    return person and (
        f"in which country is the headquarters of the company that produced the highest-grossing film directed "
        f"by {person}?",
        [person],
        [
            _gn(person, "film.director.film"),
            "argmax(#0, film.film.gross_revenue)",
            _gn("#1", "film.film.produced_by"),
            _gn("#2", "organization.organization.headquarters"),
            _gn("#3", "location.location.containedby"),
        ],
    )


def citing_papers_from_org(rng, kg) -> Draft | None:
    paper = _pick(rng, kg, "academic.paper")
    citing = _one(rng, kg, paper, "academic.paper.cited_by")
    author = citing and _one(rng, kg, citing, "academic.paper.author")
    org = author and _one(rng, kg, author, "people.person.employer")
    if not org:
        return None
    return (
        f"how many papers by people employed at {org} cite {paper}?",
        [paper, org],
        [
            _gn(paper, "academic.paper.cited_by"),
            _gn(org, "business.employer.employees"),
            _gn("#1", "academic.author.papers"),
            "intersection(#0, #2)",
            "count(#3)",
        ],
    )


def venue_top_paper_universities(rng, kg) -> Draft:
    venue = _pick(rng, kg, "academic.venue")
    return (
        f"which universities did the authors of the most cited paper published in {venue} study at?",
        [venue],
        [
            _gn(venue, "academic.venue.papers"),
            "argmax(#0, academic.paper.citation_count)",
            _gn("#1", "academic.paper.author"),
            _gn("#2", "people.person.education"),
        ],
    )


def director_countries_of_actor(rng, kg) -> Draft | None:
    actor = _one(rng, kg, _film(rng, kg), "film.film.starring")
    return actor and (
        f"in which countries were the directors of the films starring {actor} born?",
        [actor],
        [
            _gn(actor, "film.actor.film"),
            _gn("#0", "film.film.directed_by"),
            _gn("#1", "people.person.place_of_birth"),
            _gn("#2", "location.location.containedby"),
        ],
    )


TEMPLATES: tuple[Callable[[random.Random, KnowledgeGraph], Draft | None], ...] = (
    directed,
    genres,
    headquarters,
    cited,
    born,
    director_birthplace,
    films_directed_count,
    actor_and_director,
    latest_film,
    most_cited_by_author,
    oldest_actor,
    author_universities,
    latest_by_same_director,
    citing_count,
    studio_country,
    directors_born_in,
    genre_films_by_birthplace,
    biggest_birth_city,
    top_grossing_studio_country,
    citing_papers_from_org,
    venue_top_paper_universities,
    director_countries_of_actor,
)
