"""AgentBoard/WebShop-v0 with AgentBoard's data folder (difficulty labels, line k = session fixed_k) and
AgentBoard's progress rule under ``agentboard_fixes=False``: a fixture file written here, progress by hand."""

from __future__ import annotations

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError
from agentgym_text.envs.webshop.env import WebShopEnv
from agentgym_text.envs.webshop.generator import Product
from agentgym_text.envs.webshop.reward import Goal
from agentgym_text.envs.webshop.session import Session
from agentgym_text.envs.webshop.tasks import TASK_COUNT, shipped_tasks
from tests.support.agentboard_fixtures import write_task_file

ENV_ID = "AgentBoard/WebShop-v0"


def _label(k: int) -> str:
    return "hard" if k % 3 == 0 else "easy"


def _lines(count: int = TASK_COUNT) -> list[dict]:
    # AgentBoard's lines also carry goal and additional_info (WebShop's products); its task reads only difficulty
    return [
        {"difficulty": _label(k), "goal": f"goal {k}", "additional_info": {"product_id": "X"}} for k in range(count)
    ]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_task_file(tmp_path_factory.mktemp("agentboard"), "webshop", _lines())


def _tasks(**kwargs):
    env = gym.make(ENV_ID, **kwargs)
    try:
        return list(env.unwrapped.tasks)
    finally:
        env.close()


def test_difficulty_comes_from_line_k_for_task_k_and_ids_goals_stay(folder):
    ours = list(shipped_tasks())
    theirs = _tasks(agentboard_data=str(folder))
    assert [t.task_id for t in theirs] == [t.task_id for t in ours]
    assert [t.goal for t in theirs] == [t.goal for t in ours]
    assert [t.difficulty for t in theirs] == [_label(k) for k in range(TASK_COUNT)]
    env = WebShopEnv(num_tasks=4, agentboard_data=str(folder))
    for index in range(4):
        _, info = env.reset(options={"task_index": index})
        assert info["difficulty"] == _label(index)


def test_the_setting_names_the_folder_and_without_either_our_labels_stay(folder, monkeypatch):
    monkeypatch.setenv(SETTING, str(folder))
    assert [t.difficulty for t in _tasks()] == [_label(k) for k in range(TASK_COUNT)]
    monkeypatch.delenv(SETTING)
    assert [t.difficulty for t in _tasks()] == [t.difficulty for t in shipped_tasks()]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (_lines(250), "has 250 lines, but AgentBoard matches its lines to the 251 WebShop sessions"),
        ([*_lines(7), '{"difficulty": "easy"', *_lines(243)], "line 8: not JSON"),
        ([*_lines(3), {"difficulty": "medium"}, *_lines(247)], "line 4: difficulty must be one of"),
        ([*_lines(5), {"goal": "no label"}, *_lines(245)], "line 6: the field 'difficulty' is missing"),
    ],
)
def test_bad_files_are_one_error_naming_file_and_line(tmp_path, lines, message):
    write_task_file(tmp_path, "webshop", lines)
    with pytest.raises(AgentBoardDataError, match=message) as caught:
        gym.make(ENV_ID, agentboard_data=str(tmp_path))
    assert str(tmp_path / "webshop" / "test.jsonl") in str(caught.value)


def test_missing_folder_or_task_file_and_the_train_split_are_refused(tmp_path):
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        WebShopEnv(agentboard_data=str(tmp_path / "nowhere"))
    with pytest.raises(AgentBoardDataError, match="webshop/test.jsonl is missing"):
        WebShopEnv(agentboard_data=str(tmp_path))
    with pytest.raises(ValueError, match="split='train'"):
        WebShopEnv(split="train", num_tasks=2, agentboard_data=str(tmp_path))


# ---- AgentBoard's progress rule, by hand ---------------------------------------------------------------------
GOAL = Goal(
    asin="B0TARGET01",
    query="lipstick",
    product_category="Beauty & Personal Care › Makeup › Lips",
    nouns=("lipstick",),
    attributes=("long lasting", "dry lips"),
    options=("ash brown",),
    price_upper=30.0,
    option_groups=("color",),
)


def _product(asin: str, nouns: tuple[str, ...], price: float) -> Product:
    return Product(
        index=0,
        asin=asin,
        type_id=0,
        category="beauty",
        query="lipstick" if nouns == ("lipstick",) else "mascara",
        product_category=GOAL.product_category,
        brand="Velvetine",
        title=f"Velvetine {' '.join(nouns)}",
        nouns=nouns,
        price=price,
        attributes=("long lasting",),
        options=(("color", ("red", "ash blonde", "plum")),),
        bullets=("smooth finish",),
        description="loved by dry lipsticks fans",
        reviews=(),
    )


class _Shelf:
    """A two-product catalogue: the lipstick the goal describes (at a price above its bound) and a mascara."""

    products = {
        p.asin: p for p in (_product("B0TARGET01", ("lipstick",), 35.0), _product("B0DECOY001", ("mascara",), 9.0))
    }

    def product(self, asin: str) -> Product:
        return self.products[asin]

    def search(self, query: str) -> list[str]:
        return list(self.products)


def _walk(session: Session) -> list[float]:
    """search, open the lipstick, choose "ash blonde", buy: the progress after each page."""
    readings = []
    session.search("lipstick")
    readings.append(session.progress)
    session.open_item("B0TARGET01")
    readings.append(session.progress)
    session.options["color"] = "ash blonde"
    readings.append(session.progress)
    session.buy()
    readings.append(session.progress)
    return readings


def test_agentboards_rule_by_hand_item_score_keeps_the_last_combination():
    # WebShop's reward (AgentBoard's server), for the lipstick: r_type 1 (same query); attributes 2 of 2 ("long
    # lasting" by fuzzy match, "dry lips" as a raw substring of "dry lipsticks"); the goal's "ash brown" and the
    # option "ash blonde" both normalise to the colour "ash"; the price 35 is above 30. Out of 2 + 1 + 1 = 4:
    # red 2/4, ash blonde 3/4, plum 2/4; the mascara's nouns share nothing with the goal's: r_type 0.
    search_score, last_combination, purchase = 3 / 4, 2 / 4, 3 / 4
    session = Session(_Shelf(), GOAL, page_size=3, max_pages=6, agentboard_rule=True)
    assert _walk(session) == pytest.approx(
        [
            search_score / 3,  # S: the best combination of any listed product
            search_score / 3 + last_combination / 3,  # I: AgentBoard keeps the LAST combination (plum)
            search_score / 3 + last_combination / 3,  # an option click re-reads the same item page
            purchase,  # (S + I + B) / 3 = 2/3 < B: the client reads the done page's "Your score" as progress
        ],
        abs=1e-12,
    )


def test_the_default_rule_by_hand_best_combination_and_whole_words():
    # Ours: "dry lips" is not a whole word of the text, "ash blonde" does not match "ash brown" (no colour
    # normalisation): only "long lasting" counts, 1/4 for every combination; S = I = B = 1/4.
    session = Session(_Shelf(), GOAL)
    assert _walk(session) == pytest.approx([1 / 12, 2 / 12, 2 / 12, 3 / 12], abs=1e-12)


def test_fixes_off_plays_agentboards_pages_and_budget(folder):
    env = WebShopEnv(num_tasks=2, agentboard_fixes=False, agentboard_data=str(folder))
    _, info = env.reset(options={"task_index": 1})
    assert info["max_steps"] == 29  # AgentBoard's 30 include the reset[] its harness sends first
    assert info["difficulty"] == _label(1)
    obs, *_ = env.step(f"search[{env.keywords}]")
    assert len(env.session.page_asins()) == 3 and obs.count("\n[B0") == 3
    for _ in range(5):
        obs, _, _, _, info = env.step("click[Next >]")
        assert info["valid"], obs
    assert env.session.page_num == 6
    obs, _, _, _, info = env.step("click[Next >]")
    assert not info["valid"] and "The page number is limited to 5" in obs
    default = WebShopEnv(num_tasks=2)
    _, info = default.reset(options={"task_index": 1})
    assert info["max_steps"] == 30


def test_expert_still_solves_with_fixes_off():
    env = WebShopEnv(num_tasks=3, agentboard_fixes=False)
    for index in range(3):
        env.reset(options={"task_index": index})
        while not env.episode_over:
            _, _, _, _, info = env.step(env.expert_action())
        assert info["success"] and info["progress_rate"] == 1.0
