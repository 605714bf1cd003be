"""The KG task set and its data: the graph file and 150 questions, built together into the cache on first use.

``graph_folder()`` returns the cache entry holding ``graph.sqlite`` and ``tasks.json``; it is rebuilt when the
generator modules change. Each question's gold program is run on the built graph: every gold variable must be
non-empty and the answer small (1-20 entities, or a positive count).
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

from agentgym_text.core import cache
from agentgym_text.core.actions import ActionError
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.kg import actions, graph, questions, tools, world
from agentgym_text.envs.kg.graph import KnowledgeGraph, write_graph
from agentgym_text.envs.kg.registration import FAMILY, MAX_STEPS, TASK_COUNT
from agentgym_text.envs.kg.tools import ToolSession

__all__ = [
    "TASK_COUNT",
    "MAX_STEPS",
    "TRAIN_SEED",
    "graph_folder",
    "make_tasks",
    "training_tasks",
    "run_program",
    "goal_text",
]

SEED = 16_160
TRAIN_SEED = 1_000_000
"""Training question ``i`` draws from ``random.Random(TRAIN_SEED + i)``: no shipped question's seed
(16,160-16,309)."""
DEFAULT_TRAIN_COUNT = 1000
_MAX_ANSWER = 20


def goal_text(question: str, entities: list[str]) -> str:
    return f"Question: {question[0].upper()}{question[1:]}\nEntities: [{', '.join(entities)}]"


def run_program(session: ToolSession, program: list[str]) -> list:
    """Run a gold program in ``session``; returns its variables (raises ``ActionError`` if a step fails)."""
    for step in program:
        session.run(actions.parse_action(step))  # type: ignore[arg-type]
    return session.variables


def _draft(
    kg: KnowledgeGraph,
    index: int,
    seed: int,
    seen: set[str],
    apart_from: frozenset[int] = frozenset(),
    label: str = "kg",
    width: int = 3,
) -> dict | None:
    """Question ``index`` (the templates in turn) drawn from ``random.Random(seed)``, or None after 200 draws. A
    question in ``seen`` or whose topic entities are in ``apart_from`` is drawn again. Its id is
    ``<label>-<hops>hop-<template>-<index>`` (``index`` with ``width`` digits)."""
    rng = random.Random(seed)
    template = questions.TEMPLATES[index % len(questions.TEMPLATES)]
    for _ in range(200):
        draft = template(rng, kg)
        if not draft or draft[0] in seen:
            continue
        question, entities, program = draft
        try:
            session = ToolSession(kg, entities)
            variables = run_program(session, program)
        except ActionError:
            continue
        last = variables[-1]
        if any(not v.ids for v in variables) or (last.number is None and len(last.ids) > _MAX_ANSWER):
            continue
        if apart_from and _topic(session) & apart_from:
            continue
        hops = sum(step.startswith("get_neighbors") for step in program)
        return {
            "task_id": f"{label}-{hops}hop-{template.__name__}-{index:0{width}d}",
            "question": question,
            "entities": entities,
            "program": program,
            "hops": hops,
            "template": template.__name__,
        }
    return None


def _topic(session: ToolSession) -> set[int]:
    """The ids of the question's named entities."""
    return {entity_id for variable in session.entities.values() for entity_id in variable.ids}


def _draft_tasks(kg: KnowledgeGraph) -> list[dict]:
    drafted: list[dict] = []
    seen: set[str] = set()
    for index in range(TASK_COUNT):
        found = _draft(kg, index, SEED + index, seen)
        if found is None:  # pragma: no cover
            raise RuntimeError(f"no question for task {index}")
        drafted.append(found)
        seen.add(found["question"])
    return drafted


def _test_region(kg: KnowledgeGraph, drafts: list[dict]) -> frozenset[int]:
    """Every entity a shipped question names or its gold program reaches."""
    region: set[int] = set()
    for draft in drafts:
        session = ToolSession(kg, draft["entities"])
        region.update(_topic(session))
        region.update(entity_id for variable in run_program(session, draft["program"]) for entity_id in variable.ids)
    return frozenset(region)


def _draft_training(kg: KnowledgeGraph, count: int) -> list[dict]:
    """``count`` training questions: index ``i`` draws from ``TRAIN_SEED + i``, its topic entities outside the test
    region, no question twice (nor a shipped one); ids ``kg-train-...-<i>``. A template whose questions run out
    (those about a few hub entities) leaves its index empty, so the ids stay those of their seeds."""
    shipped = json.loads((graph_folder() / "tasks.json").read_text())
    apart_from = _test_region(kg, shipped)
    seen = {draft["question"] for draft in shipped}
    drafted: list[dict] = []
    index = misses = 0
    while len(drafted) < count:
        found = _draft(kg, index, TRAIN_SEED + index, seen, apart_from, label="kg-train", width=4)
        index += 1
        misses = 0 if found is not None else misses + 1
        if misses == len(questions.TEMPLATES):
            raise ValueError(f"the templates yield {len(drafted)} training questions apart from the shipped ones")
        if found is not None:
            drafted.append(found)
            seen.add(found["question"])
    return drafted


def _build(folder: Path) -> None:
    path = folder / "graph.sqlite"
    write_graph(world.generate_world(SEED), path)
    kg = KnowledgeGraph(path)
    try:
        (folder / "tasks.json").write_text(json.dumps(_draft_tasks(kg), indent=1, ensure_ascii=False))
    finally:
        kg.close()


def graph_folder() -> Path:
    """The cache entry with ``graph.sqlite`` and ``tasks.json`` (built on first use, a few seconds)."""
    key = cache.source_key(world, graph, questions, tools, actions, Path(__file__), SEED, TASK_COUNT)
    return cache.build_cached("kg", key, _build)


def _task_set(drafts: list[dict]) -> TaskSet:
    return TaskSet(
        [
            TaskSpec(
                task_id=d["task_id"],
                params={k: d[k] for k in ("question", "entities", "program", "hops", "template")},
                goal=goal_text(d["question"], d["entities"]),
                difficulty=FAMILY.difficulty.label(len(d["program"]) + 1),
                max_steps=MAX_STEPS,
            )
            for d in drafts
        ]
    )


@lru_cache(maxsize=1)
def make_tasks(count: int = TASK_COUNT) -> TaskSet:
    return _task_set(json.loads((graph_folder() / "tasks.json").read_text())[:count])


@lru_cache(maxsize=4)
def training_tasks(count: int = DEFAULT_TRAIN_COUNT) -> TaskSet:
    """``count`` training questions (``_draft_training``), drafted on the cached graph (1,000 in seconds)."""
    kg = KnowledgeGraph(graph_folder() / "graph.sqlite")
    try:
        return _task_set(_draft_training(kg, count))
    finally:
        kg.close()
