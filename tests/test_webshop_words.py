"""AgentBoard/WebShop-v0 against AgentBoard's own WebShop: replay of its recorded episodes with ``agentboard_fixes=False``.

``tests/reference/webshop_agentboard.json`` was written by ``tests/reference/record_webshop.py``, which runs
AgentBoard's unmodified WebShop server (Flask app, reward code, templates), its text scraper client and its harness
loop (reset[] first, its two exception texts, the client's sub_reward as progress) on our catalogue and our 251
goals, with our catalogue's search ranking in place of Lucene and our vocabulary's nouns in place of spaCy's tagger.
The actions: our env's expert, listed actions and actions aimed at AgentBoard's error paths, seeded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.envs.webshop.env import WebShopEnv

REFERENCE = Path(__file__).resolve().parent / "reference" / "webshop_agentboard.json"
EPISODES = json.loads(REFERENCE.read_text())["episodes"]


def replay(env: WebShopEnv, episode: dict) -> list[tuple[str, bool, float, str, bool, float]]:
    """(our observation, valid, progress, theirs, valid, progress) per recorded step."""
    env.reset(options={"task_id": episode["task_id"]})
    rows = []
    for action, observation, valid, progress in zip(
        episode["actions"], episode["observations"], episode["valid"], episode["progress"], strict=True
    ):
        ours, _, _, _, info = env.step(action)
        rows.append((ours, info["valid"], info["progress_rate"], observation, valid, progress))
    return rows


@pytest.fixture(scope="module")
def exact() -> WebShopEnv:
    return WebShopEnv(agentboard_fixes=False)


def test_reference_is_broad_enough():
    steps = [len(episode["actions"]) for episode in EPISODES]
    assert len(EPISODES) == 80 and sum(steps) > 1100
    assert sum(not valid for episode in EPISODES for valid in episode["valid"]) > 40
    assert sum(episode["done"] for episode in EPISODES) > 20  # purchases, some of them imperfect
    assert len({p for episode in EPISODES for p in episode["progress"]}) > 10


def test_goals_and_first_pages_are_agentboards(exact):
    for episode in EPISODES:
        obs, info = exact.reset(options={"task_id": episode["task_id"]})
        assert info["goal"] == episode["goal"]
        assert obs.startswith(episode["first"])


def test_fixes_off_every_recorded_step_agrees_text_validity_and_progress(exact):
    rows = [row for episode in EPISODES for row in replay(exact, episode)]
    assert [r[0] for r in rows] == [r[3] for r in rows]
    assert [r[1] for r in rows] == [r[4] for r in rows]
    assert [r[2] for r in rows] == pytest.approx([r[5] for r in rows], abs=1e-12)


def test_the_default_fixes_change_agentboards_progress_on_some_steps():
    env = WebShopEnv()
    differ = total = 0
    for episode in EPISODES[:20]:
        for _, _, progress, _, _, theirs in replay(env, episode):
            total += 1
            differ += abs(progress - theirs) > 1e-9
            if env.episode_over:
                break
    assert 0 < differ < total
