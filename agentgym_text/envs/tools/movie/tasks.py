"""The 20 movie tasks: question templates over films and people drawn with a fixed seed; the training drafts:
the same templates over films drawn with another seed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.grading import AnswerRule
from agentgym_text.envs.tools.movie.database import Film, film_database
from agentgym_text.envs.tools.task_builder import TaskDraft

__all__ = ["drafts", "training_drafts"]


def _search(film: Film) -> Call:
    return Call("get_search_movie", {"movie_name": film.title})


def _config(*films: Film) -> dict:
    return {"mentions": [film.title for film in films]}


def _release(film: Film) -> TaskDraft:
    return TaskDraft(
        goal=f'When was the movie "{film.title}" released? Answer with the date as YYYY-MM-DD.',
        calls=[_search(film), Call("get_movie_details", {"movie_id": film.id})],
        answer=lambda out: out[1]["release_date"],
        config=_config(film),
    )


def _director(film: Film) -> TaskDraft:
    return TaskDraft(
        goal=f'Who directed the movie "{film.title}"?',
        calls=[_search(film), Call("get_movie_crew", {"movie_id": film.id})],
        answer=lambda out: next(member["name"] for member in out[1] if member["job"] == "Director"),
        config=_config(film),
    )


def _countries(film: Film) -> TaskDraft:
    return TaskDraft(
        goal=f'In which countries was the movie "{film.title}" produced? List the country names, in any order.',
        calls=[_search(film), Call("get_movie_production_countries", {"movie_id": film.id})],
        answer=lambda out: [country["name"] for country in out[1]],
        rule=AnswerRule("list", ordered=False),
        config=_config(film),
    )


def _lead_imdb(film: Film) -> TaskDraft:
    lead = film.cast[0].person_id
    return TaskDraft(
        goal=f'What is the IMDb id of the first-billed cast member of "{film.title}"?',
        calls=[
            _search(film),
            Call("get_movie_cast", {"movie_id": film.id}),
            Call("get_person_external_ids", {"person_id": lead}),
        ],
        answer=lambda out: out[2]["imdb_id"],
        config=_config(film),
    )


def _director_birthplace(film: Film) -> TaskDraft:
    director = next(credit.person_id for credit in film.crew if credit.job == "Director")
    return TaskDraft(
        goal=f'Where was the director of "{film.title}" born?',
        calls=[
            _search(film),
            Call("get_movie_crew", {"movie_id": film.id}),
            Call("get_person_details", {"person_id": director}),
        ],
        answer=lambda out: out[2]["place_of_birth"],
        config=_config(film),
    )


def _bigger_budget(first: Film, second: Film) -> TaskDraft:
    return TaskDraft(
        goal=f'Did "{first.title}" have a larger budget than "{second.title}"? Answer yes or no.',
        calls=[
            _search(first),
            _search(second),
            Call("get_movie_details", {"movie_id": first.id}),
            Call("get_movie_details", {"movie_id": second.id}),
        ],
        answer=first.budget > second.budget,
        rule=AnswerRule("bool"),
        config=_config(first, second),
    )


def _shared_keywords(first: Film, second: Film) -> TaskDraft:
    shared = sorted(set(first.keywords) & set(second.keywords))
    return TaskDraft(
        goal=f'Which keywords do "{first.title}" and "{second.title}" have in common? List them, in any order.',
        calls=[
            _search(first),
            _search(second),
            Call("get_movie_keywords", {"movie_id": first.id}),
            Call("get_movie_keywords", {"movie_id": second.id}),
        ],
        answer=shared,
        rule=AnswerRule("list", ordered=False),
        config=_config(first, second),
    )


def _character(film: Film) -> TaskDraft:
    credit = film.cast[1]
    person = film_database().people[credit.person_id]
    return TaskDraft(
        goal=f'Which character did {person.name} play in "{film.title}"?',
        calls=[_search(film), Call("get_movie_cast", {"movie_id": film.id})],
        answer=credit.character,
        config=_config(film),
    )


def _stream(rng: random.Random) -> Iterator[TaskDraft]:
    """Drafts taking the eight templates in turn, films drawn with ``rng``."""
    db = film_database()
    films = sorted(db.films.values(), key=lambda film: film.id)
    # Titles that no other title contains, so a search finds exactly one film.
    unique = [film for film in films if len(db.search_films(film.title)) == 1]
    singles = [_release, _director, _countries, _lead_imdb, _director_birthplace, _character]
    index = 0
    while True:
        kind = index % 8
        index += 1
        if kind < len(singles):
            yield singles[kind](rng.choice(unique))
            continue
        while True:
            first, second = rng.sample(unique, 2)
            if kind == 6 and first.budget != second.budget:
                yield _bigger_budget(first, second)
                break
            if kind == 7 and set(first.keywords) & set(second.keywords):
                yield _shared_keywords(first, second)
                break


def drafts() -> list[TaskDraft]:
    return list(islice(_stream(random.Random(5)), 20))


def training_drafts() -> Iterator[TaskDraft]:
    """An endless stream of training drafts (the caller leaves out those asking what a shipped task asks)."""
    return _stream(random.Random("movie-training"))
