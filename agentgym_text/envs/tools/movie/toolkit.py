"""The movie tool: TMDB-like search and detail functions over the generated film database."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import Toolkit
from agentgym_text.envs.tools.movie.database import Film, FilmDatabase, Person, film_database
from agentgym_text.envs.tools.schema import FunctionSpec, Param

__all__ = ["MovieToolkit"]

_MOVIE = (Param("movie_id", "integer"),)
_PERSON = (Param("person_id", "integer"),)


class MovieToolkit(Toolkit):
    """Films are found by title with ``get_search_movie`` and people with ``get_search_person``."""

    name = "movie"
    functions = (
        FunctionSpec(
            "get_search_movie",
            "Search films whose title contains the text.",
            (Param("movie_name"),),
            "list of {id, title, release_date}",
        ),
        FunctionSpec(
            "get_movie_details",
            "Details of a film.",
            _MOVIE,
            "id, title, release_date, runtime, original_language, budget, revenue, genres, vote_average",
        ),
        FunctionSpec(
            "get_movie_production_companies",
            "Production companies of a film.",
            _MOVIE,
            "list of {id, name, origin_country}",
        ),
        FunctionSpec(
            "get_movie_production_countries", "Production countries of a film.", _MOVIE, "list of {iso_3166_1, name}"
        ),
        FunctionSpec(
            "get_movie_cast", "Cast of a film in billing order.", _MOVIE, "list of {id, name, character, order}"
        ),
        FunctionSpec("get_movie_crew", "Crew of a film.", _MOVIE, "list of {id, name, job, department}"),
        FunctionSpec("get_movie_keywords", "Keywords of a film.", _MOVIE, "list of keywords"),
        FunctionSpec(
            "get_movie_alternative_titles",
            "Titles of a film in other countries.",
            _MOVIE,
            "titles: list of {iso_3166_1, title}",
        ),
        FunctionSpec(
            "get_movie_translation", "Languages a film is translated into.", _MOVIE, "list of {iso_639_1, english_name}"
        ),
        FunctionSpec(
            "get_search_person",
            "Search people whose name contains the text.",
            (Param("person_name"),),
            "list of {id, name, known_for_department}",
        ),
        FunctionSpec(
            "get_person_details",
            "Details of a person.",
            _PERSON,
            "id, name, birthday, place_of_birth, gender, known_for_department",
        ),
        FunctionSpec("get_person_cast", "Films a person acted in.", _PERSON, "list of {id, title, character}"),
        FunctionSpec("get_person_crew", "Films a person worked on as crew.", _PERSON, "list of {id, title, job}"),
        FunctionSpec("get_person_external_ids", "A person's ids on other sites.", _PERSON, "imdb_id, instagram_id"),
    )

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.db: FilmDatabase = film_database()

    def _film(self, movie_id: int) -> Film:
        film = self.db.films.get(movie_id)
        if film is None:
            raise ActionError(
                f"There is no movie with id {movie_id}; find ids with get_search_movie.", InvalidReason.UNKNOWN_OBJECT
            )
        return film

    def _person(self, person_id: int) -> Person:
        person = self.db.people.get(person_id)
        if person is None:
            raise ActionError(
                f"There is no person with id {person_id}; find ids with get_search_person.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return person

    def do_get_search_movie(self, movie_name: str) -> list[dict]:
        return [
            {"id": film.id, "title": film.title, "release_date": film.release_date}
            for film in self.db.search_films(movie_name)[:10]
        ]

    def do_get_movie_details(self, movie_id: int) -> dict:
        film = self._film(movie_id)
        return {
            "id": film.id,
            "title": film.title,
            "release_date": film.release_date,
            "runtime": film.runtime,
            "original_language": film.original_language,
            "budget": film.budget,
            "revenue": film.revenue,
            "genres": list(film.genres),
            "vote_average": film.vote_average,
        }

    def do_get_movie_production_companies(self, movie_id: int) -> list[dict]:
        companies = [self.db.companies[company_id] for company_id in self._film(movie_id).companies]
        return [{"id": c.id, "name": c.name, "origin_country": c.origin_country} for c in companies]

    def do_get_movie_production_countries(self, movie_id: int) -> list[dict]:
        return [{"iso_3166_1": code, "name": self.db.countries[code]} for code in self._film(movie_id).countries]

    def do_get_movie_cast(self, movie_id: int) -> list[dict]:
        return [
            {
                "id": credit.person_id,
                "name": self.db.people[credit.person_id].name,
                "character": credit.character,
                "order": credit.order,
            }
            for credit in self._film(movie_id).cast
        ]

    def do_get_movie_crew(self, movie_id: int) -> list[dict]:
        return [
            {
                "id": credit.person_id,
                "name": self.db.people[credit.person_id].name,
                "job": credit.job,
                "department": credit.department,
            }
            for credit in self._film(movie_id).crew
        ]

    def do_get_movie_keywords(self, movie_id: int) -> list[str]:
        return list(self._film(movie_id).keywords)

    def do_get_movie_alternative_titles(self, movie_id: int) -> dict:
        return {
            "titles": [{"iso_3166_1": code, "title": title} for code, title in self._film(movie_id).alternative_titles]
        }

    def do_get_movie_translation(self, movie_id: int) -> list[dict]:
        return [
            {"iso_639_1": code, "english_name": self.db.languages[code]} for code in self._film(movie_id).translations
        ]

    def do_get_search_person(self, person_name: str) -> list[dict]:
        return [
            {"id": p.id, "name": p.name, "known_for_department": p.known_for_department}
            for p in self.db.search_people(person_name)[:10]
        ]

    def do_get_person_details(self, person_id: int) -> dict:
        p = self._person(person_id)
        return {
            "id": p.id,
            "name": p.name,
            "birthday": p.birthday,
            "place_of_birth": p.place_of_birth,
            "gender": p.gender,
            "known_for_department": p.known_for_department,
        }

    def do_get_person_cast(self, person_id: int) -> list[dict]:
        cast, _ = self.db.credits_of(self._person(person_id).id)
        return [{"id": film.id, "title": film.title, "character": credit.character} for film, credit in cast]

    def do_get_person_crew(self, person_id: int) -> list[dict]:
        _, crew = self.db.credits_of(self._person(person_id).id)
        return [{"id": film.id, "title": film.title, "job": credit.job} for film, credit in crew]

    def do_get_person_external_ids(self, person_id: int) -> dict:
        p = self._person(person_id)
        return {"id": p.id, "imdb_id": p.imdb_id, "instagram_id": p.instagram_id}

    def example_calls(self) -> list[Call]:
        calls = []
        for title in self.config.get("mentions", []):
            calls.append(Call("get_search_movie", {"movie_name": title}))
        for film in list(self.db.films.values())[::20]:
            calls += [Call("get_movie_details", {"movie_id": film.id}), Call("get_movie_cast", {"movie_id": film.id})]
        for person in list(self.db.people.values())[::40]:
            calls.append(Call("get_person_details", {"person_id": person.id}))
        return calls
