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

__all__ = ["TASK_COUNT", "MAX_STEPS", "graph_folder", "make_tasks", "run_program", "goal_text"]

SEED = 16_160
_MAX_ANSWER = 20


def goal_text(question: str, entities: list[str]) -> str:
    return f"Question: {question[0].upper()}{question[1:]}\nEntities: [{', '.join(entities)}]"


def run_program(session: ToolSession, program: list[str]) -> list:
    """Run a gold program in ``session``; returns its variables (raises ``ActionError`` if a step fails)."""
    for step in program:
        session.run(actions.parse_action(step))  # type: ignore[arg-type]
    return session.variables


def _draft_tasks(kg: KnowledgeGraph) -> list[dict]:
    drafted: list[dict] = []
    seen: set[str] = set()
    for index in range(TASK_COUNT):
        template = questions.TEMPLATES[index % len(questions.TEMPLATES)]
        rng = random.Random(SEED + index)
        for _ in range(200):
            draft = template(rng, kg)
            if not draft or draft[0] in seen:
                continue
            question, entities, program = draft
            try:
                variables = run_program(ToolSession(kg, entities), program)
            except ActionError:
                continue
            last = variables[-1]
            if any(not v.ids for v in variables) or (last.number is None and len(last.ids) > _MAX_ANSWER):
                continue
            seen.add(question)
            hops = sum(step.startswith("get_neighbors") for step in program)
            drafted.append(
                {
                    "task_id": f"kg-{hops}hop-{template.__name__}-{index:03d}",
                    "question": question,
                    "entities": entities,
                    "program": program,
                    "hops": hops,
                    "template": template.__name__,
                }
            )
            break
        else:  # pragma: no cover
            raise RuntimeError(f"template {template.__name__} found no question for task {index}")
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


@lru_cache(maxsize=1)
def make_tasks(count: int = TASK_COUNT) -> TaskSet:
    drafts = json.loads((graph_folder() / "tasks.json").read_text())[:count]
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
