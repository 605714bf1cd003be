"""AgentBench/KG-v0 on AgentBench's own items (task_file=): loading, v0.2's tools over program variables, the
lisp-to-SPARQL translation, F1/EM scoring and progress, against a local SPARQL endpoint the test starts over a tiny
Freebase-shaped graph (files written here in AgentBench's formats: tests/support/kg_agentbench_items.py)."""

from __future__ import annotations

import json
import socket

import pytest

pytest.importorskip("pyoxigraph")
pytest.importorskip("SPARQLWrapper")

from agentgym_text.envs.kg.agentbench_file import TaskFileError  # noqa: E402
from agentgym_text.envs.kg.agentbench_play import answer_scores, replay_gold  # noqa: E402
from agentgym_text.envs.kg.env import KgEnv  # noqa: E402
from agentgym_text.envs.kg.lisp import LispError, canonical, parse  # noqa: E402
from agentgym_text.envs.kg.ontology import OntologyError, load_ontology  # noqa: E402
from agentgym_text.envs.kg.sparql import FREEBASE, to_sparql  # noqa: E402
from tests.support.kg_agentbench_items import G_ID_ITEM, HIDDEN, ITEMS, sparql_endpoint, write_items, write_ontology  # noqa: E402


@pytest.fixture(scope="module")
def endpoint():
    with sparql_endpoint() as url:
        yield url


@pytest.fixture
def files(tmp_path):
    return write_items(tmp_path), write_ontology(tmp_path)


def _env(files, url, **kwargs) -> KgEnv:
    items, ontology = files
    return KgEnv(task_file=str(items), sparql_url=url, ontology_dir=str(ontology), **kwargs)


def _play_expert(env: KgEnv, task_id: str) -> dict:
    env.reset(options={"task_id": task_id})
    info: dict = {}
    for _ in range(15):
        if env.episode_over:
            break
        action = env.expert_action()
        assert action is not None
        _, _, _, _, info = env.step(action)
    return info


def _dead_url() -> str:
    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/sparql"


def test_items_load_with_qids_goals_and_agentbench_question_line(files, endpoint):
    env = _env(files, endpoint)
    assert env.task_ids == [item["qid"] for item in ITEMS]
    obs, info = env.reset(options={"task_index": 0})
    assert obs.startswith("A new question: which drama films were directed by ana lind?\nEntities: [Ana Lind, drama]\n")
    assert info["goal"] == "which drama films were directed by ana lind?\nEntities: [Ana Lind, drama]"
    assert env.tasks[0].params["answer"] == ["m.0f1", "m.0f3"] and env.tasks[1].params["answer"] == ["3"]
    assert env.tasks[0].max_steps == 15 and info["progress_rate"] == 0.0
    assert info["subgoals"][-1] == "final answer" and len(info["subgoals"]) == 4  # three gold variables + answer


@pytest.mark.parametrize("index", range(len(ITEMS)))
def test_every_gold_succeeds_with_f1_one(files, endpoint, index):
    env = _env(files, endpoint, agentbench_fixes=True)
    info = _play_expert(env, env.task_ids[index])
    assert info["success"] and info["progress_rate"] == 1.0, info
    assert env.episode is not None and env.episode.result is not None
    assert env.episode.result["f1"] == 1.0 and env.episode.result["exact_match"]
    assert sorted(env.episode.result["predict"]) == env.tasks[index].params["answer"]


def test_g_ids_are_refused_as_agentbench_does_unless_fixed(files, endpoint):
    env = _env(files, endpoint)
    task_id = env.task_ids[G_ID_ITEM]
    env.reset(options={"task_id": task_id})
    assert env.expert_action() is None  # the gold needs a g. id
    obs, _, terminated, _, info = env.step("Action: get_relations(Glass Orchard)")  # the name becomes g.11fx4
    assert not info["valid"] and not terminated and "g.11fx4" in obs and "cannot be executed" in obs
    fixed = _env(files, endpoint, agentbench_fixes=True)
    fixed.reset(options={"task_id": task_id})
    obs, *_ = fixed.step("Action: get_relations(Glass Orchard)")
    assert obs == "[film.film.directed_by, film.film.genre]"


def test_a_wrong_answer_fails_with_agentbench_f1(files, endpoint):
    env = _env(files, endpoint)
    env.reset(options={"task_index": 0})
    env.step("Thought: Ana's films.\nAction: get_relations(Ana Lind)")
    obs, _, _, _, info = env.step("Action: get_neighbors(Ana Lind, film.director.film)")
    assert obs == "variable #0, which are instances of film.film" and info["progress_rate"] == pytest.approx(1 / 4)
    obs, _, terminated, _, info = env.step("Final Answer: #0")
    assert terminated and not info["success"] and info["finish_reason"] == "failure"
    assert env.episode.result["f1"] == pytest.approx(0.8) and not env.episode.result["exact_match"]
    assert "F1 0.80, exact match: no" in obs and info["progress_rate"] < 1.0


def test_tools_follow_agentbench_v02(files, endpoint):
    env = _env(files, endpoint)
    env.reset(options={"task_index": 0})
    step = lambda text: env.step(text)  # noqa: E731
    obs, _, _, _, info = step("Action: get_neighbors(Ana Lind, film.director.film)")
    assert not info["valid"] and info["invalid_reason"] == "precondition_failed"  # get_relations first
    obs, *_ = step("Action: get_relations(m.0dir_a)")  # an id as well as a name
    assert obs == "[film.director.film, people.person.place_of_birth]" and HIDDEN not in obs  # the vocab filter
    obs, _, _, _, info = step(f"Action: get_neighbors(m.0dir_a, {HIDDEN})")
    assert not info["valid"] and "not among the relations" in obs
    step("Action: get_neighbors(Ana Lind, film.director.film)")  # #0 film.film
    step("Action: get_neighbors(Ana Lind, people.person.place_of_birth)")  # #1 location.location
    obs, _, _, _, info = step("Action: intersection(#0, #1)")
    assert not info["valid"] and "same type" in obs
    obs, *_ = step("Action: get_attributes(#0)")
    assert obs == "[film.film.initial_release_date]"
    obs, *_ = step("Action: count(variable #0)")
    assert obs == "variable #2, which is a number"
    obs, _, _, _, info = step("Action: get_relations(#2)")
    assert not info["valid"] and "number" in obs
    obs, _, terminated, _, info = step("Final Answer: #7")
    assert not info["valid"] and not terminated and info["invalid_reason"] == "unknown_object"
    obs, _, _, _, info = step("I think the answer is #0.")
    assert not info["valid"] and info["invalid_reason"] == "unparsable"
    obs, _, _, _, info = step("Action: get_relations(Bo Sten, Jr.)")  # a comma splits the name, as in AgentBench
    assert not info["valid"]


def test_reply_reading_follows_agentbench_v02(files, endpoint):
    env = _env(files, endpoint)
    env.reset(options={"task_index": 0})
    # the reply is cut at 'Observation:'; '\_' reads as '_'; the first call on the Action line that runs counts
    obs, _, _, _, info = env.step(
        "Thought: x\nAction: frobnicate(#0) then get\\_relations(Ana Lind)\nObservation: [made up]\nFinal Answer: #0"
    )
    assert info["valid"] and obs.startswith("[film.director.film")
    obs, _, _, _, info = env.step("Action: get_neighbors(Ana Lind, film.director.film)\nAction: count(#0)")
    assert obs == "variable #0, which are instances of film.film"  # only the first Action line is read


def test_progress_compares_canonical_programs(files, endpoint):
    env = _env(files, endpoint)
    env.reset(options={"task_index": 0})
    for action in (
        "Action: get_relations(drama)",
        "Action: get_neighbors(drama, film.film_genre.films_in_this_genre)",
        "Action: get_relations(Ana Lind)",
        "Action: get_neighbors(Ana Lind, film.director.film)",
        "Action: intersection(#1, #0)",  # the gold intersects (#0, #1) in the other order
    ):
        _, _, _, _, info = env.step(action)
    assert info["subgoals_done"] == [True, True, True, False] and info["progress_rate"] == pytest.approx(3 / 4)
    _, _, _, _, info = env.step("Final Answer: #2")
    assert info["success"] and info["progress_rate"] == 1.0


def test_golds_replay_without_an_endpoint(files):
    """What benchmarks/agentbench_files.py counts: every gold replays through v0.2's tools, the g. one with the fix."""
    ontology = load_ontology(str(files[1]))
    for index, item in enumerate(ITEMS):
        plain = replay_gold(item["actions"], ontology, item["entities"])
        fixed = replay_gold(item["actions"], ontology, item["entities"], accept_g_ids=True)
        assert fixed.error is None and to_sparql(parse(fixed.programs[-1]))
        assert (plain.error is not None) == (index == G_ID_ITEM), plain.error
    assert replay_gold(ITEMS[1]["actions"], ontology, {}).programs == [
        "(JOIN film.director.film_inv m.0dir_a)",
        "(COUNT (JOIN film.director.film_inv m.0dir_a))",
    ]
    mixed = replay_gold(
        ["get_relations(m.0dir_a)", "get_neighbors(m.0dir_a,film.director.film)", "intersection(#0,m.0f1)"],
        ontology,
        {},
    )
    assert "two variables" in str(mixed.error)


def test_lisp_to_sparql_follows_grailqa_rules():
    program = "(ARGMAX (AND (JOIN film.director.film_inv m.0dir_a) (JOIN film.film_genre.films_in_this_genre_inv "
    program += "m.0g_drama)) film.film.initial_release_date)"
    query = to_sparql(parse(program))
    iri = lambda name: f"<{FREEBASE}{name}>"  # noqa: E731
    assert f"{iri('m.0dir_a')} {iri('film.director.film')} ?x ." in query  # the AND merged both joins into ?x
    assert f"{iri('m.0g_drama')} {iri('film.film_genre.films_in_this_genre')} ?x ." in query
    assert f"?x {iri('film.film.initial_release_date')} ?sk0 ." in query
    assert "ORDER BY DESC(?sk0)\nLIMIT 1" in query and f"FILTER (?x != {iri('m.0dir_a')})" in query
    assert "SELECT (COUNT(DISTINCT ?x) AS ?count)" in to_sparql(parse("(COUNT (JOIN film.director.film_inv m.0x))"))
    assert canonical(parse("(AND (JOIN b m.1) (JOIN a m.2))")) == "(AND (JOIN a m.2) (JOIN b m.1))"
    with pytest.raises(LispError):
        parse("(JOIN a")


def test_answer_scores_are_agentbench_v02s():
    assert answer_scores(["a", "b"], ["a"]) == {
        "predict": ["a", "b"],
        "f1": pytest.approx(2 / 3),
        "exact_match": False,
        "executable": True,
    }
    assert answer_scores([], ["a"])["f1"] == 0.0 and not answer_scores([], ["a"])["executable"]
    assert answer_scores(["3"], ["3"])["exact_match"]


def test_bad_files_and_options_fail_at_make(tmp_path, files, endpoint, monkeypatch):
    items, ontology = files
    bad = {
        "missing.json": None,
        "broken.json": "[{",
        "object.json": json.dumps({"question": "q"}),
        "empty.json": "[]",
        "no_actions.json": json.dumps([{k: v for k, v in ITEMS[0].items() if k != "actions"}]),
        "twice.json": json.dumps([ITEMS[0], ITEMS[0]]),
    }
    for name, text in bad.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        with pytest.raises(TaskFileError, match=name):
            KgEnv(task_file=str(path), sparql_url=endpoint, ontology_dir=str(ontology))
    with pytest.raises(OntologyError, match="does not exist"):
        KgEnv(task_file=str(items), sparql_url=endpoint, ontology_dir=str(tmp_path / "nowhere"))
    (ontology / "vocab.json").unlink()
    with pytest.raises(OntologyError, match="vocab.json"):
        KgEnv(task_file=str(items), sparql_url=endpoint, ontology_dir=str(ontology))
    with pytest.raises(ValueError, match="ontology_dir"):
        KgEnv(task_file=str(items), sparql_url=endpoint)
    monkeypatch.delenv("AGENTGYM_TEXT_SPARQL_URL", raising=False)
    with pytest.raises(ValueError, match="AGENTGYM_TEXT_SPARQL_URL"):
        KgEnv(task_file=str(items), ontology_dir=str(tmp_path))
    with pytest.raises(ValueError, match="http"):
        KgEnv(task_file=str(items), sparql_url="localhost:3001", ontology_dir=str(tmp_path))
    with pytest.raises(ValueError, match="num_tasks"):
        KgEnv(task_file=str(items), sparql_url=endpoint, ontology_dir=str(tmp_path), num_tasks=3)
    with pytest.raises(ValueError, match="task_file"):
        KgEnv(sparql_url=endpoint)


def test_the_setting_names_the_endpoint(files, endpoint, monkeypatch):
    items, ontology = files
    monkeypatch.setenv("AGENTGYM_TEXT_SPARQL_URL", endpoint)
    env = KgEnv(task_file=str(items), ontology_dir=str(ontology))
    env.reset(options={"task_index": 1})
    _, _, _, _, info = env.step("Action: get_relations(Ana Lind)")
    assert info["valid"]


def _assert_unscored_engine_error(env: KgEnv, obs: str, terminated: bool, info: dict) -> None:
    assert terminated and not info["valid"] and not info["success"] and info["finish_reason"] == "engine_error"
    assert "did not answer" in obs and "127.0.0.1" in obs and env.episode.result is None


def test_an_unreachable_endpoint_ends_the_episode_unscored(files):
    items, ontology = files
    env = KgEnv(task_file=str(items), sparql_url=_dead_url(), ontology_dir=str(ontology))
    for task_id in env.task_ids:  # nothing is sent at make or reset
        env.reset(options={"task_id": task_id})
    obs, _, terminated, _, info = env.step("Action: get_relations(m.0dir_a)")
    _assert_unscored_engine_error(env, obs, terminated, info)


def test_an_endpoint_gone_before_the_answer_leaves_it_unscored(files):
    items, ontology = files
    with sparql_endpoint() as url:  # an endpoint of this test's own, stopped before the final answer
        env = KgEnv(task_file=str(items), sparql_url=url, ontology_dir=str(ontology))
        env.reset(options={"task_index": 1})
        env.step("Action: get_relations(Ana Lind)")
        env.step("Action: get_neighbors(Ana Lind, film.director.film)")
    obs, _, terminated, _, info = env.step("Final Answer: #0")
    _assert_unscored_engine_error(env, obs, terminated, info)


def test_a_wrong_endpoint_path_is_reported(files, endpoint):
    env = _env(files, endpoint.replace("/sparql", "/nothing-here"))
    env.reset(options={"task_index": 0})
    obs, _, terminated, _, info = env.step("Action: get_relations(Ana Lind)")
    assert terminated and info["finish_reason"] == "engine_error" and "EndPointNotFound" in obs
