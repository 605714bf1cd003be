"""AgentBench DB and KG latency: DB query step vs raw SQLite, KG tool calls at the full graph size.

Usage: .venv/bin/python benchmarks/agentbench_db_kg.py [--repeats 200]

DB: ``reset`` (a fresh in-memory database built from the task's table) and one ``step`` running a query in
AgentBench's format (parse + authorizer-guarded SQLite + progress score + info), through ``gym.make`` (all
wrappers), against the same statement on a bare ``sqlite3`` connection. KG: each of the seven tools through
``env.step`` on the full graph (triple count printed), on a single entity and on a large variable (a genre's
films), plus the bare graph queries behind ``get_neighbors`` and ``get_relations`` (the env caches a variable's
relations and attributes, so repeated ``get_relations`` calls measure the cached path). Times are CPU time of
this process (``time.process_time``), medians over ``--repeats`` calls.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
from collections.abc import Callable

import gymnasium as gym

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.db.actions import operation
from agentgym_text.envs.db.engine import create_statement

__all__ = ["median_ms", "db_figures", "kg_figures"]


def median_ms(call: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.process_time_ns()
        call()
        samples.append((time.process_time_ns() - start) / 1e6)
    return statistics.median(samples)


def db_figures(repeats: int) -> dict[str, float]:
    env = gym.make("AgentBench/DB-v0", max_episode_steps=10**9)
    task = env.unwrapped.tasks[14]  # an aggregate question
    sql, name = task.params["sql"], task.params["table"]["name"]
    env.reset(options={"task_id": task.task_id})
    action = operation(sql)
    figures = {
        "reset (fresh database)": median_ms(lambda: env.reset(options={"task_id": task.task_id}), repeats),
        "step: query (env)": median_ms(lambda: env.step(action), repeats),
        "step: SELECT * (env)": median_ms(lambda: env.step(operation(f'SELECT * FROM "{name}"')), repeats),
        "step: bad SQL (env)": median_ms(lambda: env.step(operation("SELEC 1")), repeats),
        "step: garbage (env)": median_ms(lambda: env.step("hello"), repeats),
    }
    raw = sqlite3.connect(":memory:")
    raw.execute(create_statement(task.params["table"]))
    raw.executemany(f'INSERT INTO "{name}" VALUES ({",".join("?" * 6)})', task.params["table"]["rows"])
    figures["raw sqlite3 query"] = median_ms(lambda: raw.execute(sql).fetchall(), repeats)
    env.close()
    return figures


def kg_figures(repeats: int) -> tuple[int, dict[str, float]]:
    env = gym.make("AgentBench/KG-v0", max_episode_steps=10**9)
    kg = env.unwrapped
    tasks = kg.tasks
    task = next(t for t in tasks if t.params["template"] == "genre_films_by_birthplace")
    city, genre = task.params["entities"]
    env.reset(options={"task_id": task.task_id})
    env.step(f"get_neighbors({genre}, film.film_genre.films_in_this_genre)")  # #0: a genre's films
    env.step(f"get_neighbors({city}, location.location.people_born_here)")  # #1
    env.step("get_neighbors(#1, film.actor.film)")  # #2
    size = len(kg._session.variables[0].ids)
    calls = {
        "get_relations(entity)": f"get_relations({city})",
        "get_neighbors(entity, r)": f"get_neighbors({city}, location.location.people_born_here)",
        f"get_relations(#0, {size} films)": "get_relations(#0)",
        f"get_neighbors(#0, {size} films)": "get_neighbors(#0, film.film.directed_by)",
        f"get_attributes(#0, {size} films)": "get_attributes(#0)",
        f"argmax(#0, {size} films)": "argmax(#0, film.film.gross_revenue)",
        "intersection(#0, #2)": "intersection(#0, #2)",
        "count(#0)": "count(#0)",
    }
    figures = {name: median_ms(lambda a=action: env.step(a), repeats) for name, action in calls.items()}
    ids = kg._session.variables[0].ids
    figures[f"raw graph.neighbors ({size} films)"] = median_ms(
        lambda: kg.graph.neighbors(ids, "film.film.directed_by"), repeats
    )
    figures[f"raw graph.relations ({size} films, uncached)"] = median_ms(lambda: kg.graph.relations(ids), repeats)
    figures["reset"] = median_ms(lambda: env.reset(options={"task_id": task.task_id}), repeats)
    triples = kg.graph.triple_count()
    env.close()
    return triples, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    print("AgentBench/DB-v0 (median CPU ms)")
    for name, value in db_figures(args.repeats).items():
        print(f"  {name:<44} {value:8.3f}")
    triples, figures = kg_figures(args.repeats)
    print(f"AgentBench/KG-v0 at {triples:,} triples (median CPU ms)")
    for name, value in figures.items():
        print(f"  {name:<44} {value:8.3f}")


if __name__ == "__main__":
    main()
