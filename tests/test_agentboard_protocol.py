"""The 'agentboard' protocol's parts: the checkout reader and its errors, AgentBoard's reply parser with its quirks,
the token counters, the settings taken from the config, and a run of the LLM agent speaking it."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

import agentgym_text  # noqa: F401
from agentgym_text.agents.llm import LLMAgent
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.agents.protocols import AGENTBOARD_DIR_SETTING, CheckoutError, Opening, make_protocol
from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
from agentgym_text.agents.protocols.agentboard.checkout import CONFIG
from agentgym_text.agents.protocols.agentboard.tokens import make_counter
from agentgym_text.core.agentboard_parser import ParserCrash, parse_action
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.store import read_jsonl
from tests.support.agentboard_checkout import FILES, LITERALS, write_checkout

MINE = (
    "AgentBoard/BabyAI-v0",
    "AgentBoard/AlfWorld-v0",
    "AgentBoard/ScienceWorld-v0",
    "AgentBoard/Jericho-v0",
    "AgentBoard/PDDL-v0",
)


@pytest.fixture
def checkout(tmp_path) -> Path:
    return write_checkout(tmp_path / "AgentBoard")


@pytest.fixture(autouse=True)
def _no_setting(monkeypatch):
    monkeypatch.delenv(AGENTBOARD_DIR_SETTING, raising=False)


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("go north", "go north"),
        ("Action: go north", "go north"),
        ("I should move.\nAction: go north\nObservation: x", "go north"),
        ("The next action is to open door", "open door"),
        ("Here is the next action to take:\n\nopen door", "open door"),
        ("'/open door/'", "open door"),
        ("open door\nthen more", "open door"),
        ("Action:\nopen drawer", "Action:"),  # AgentBoard keeps the bare prefix
        ("   \nAction: ", ""),
        ("search with Action Input: x", "search with Action Input: x"),
    ],
)
def test_the_parser_reads_replies_as_agentboards(reply, action):
    assert parse_action(reply) == action


def test_the_parsers_crash_ends_the_episode_with_invalid_format(checkout):
    with pytest.raises(ParserCrash):
        parse_action("Action:\nnext action: look")
    protocol = make_protocol("agentboard", agentboard_dir=str(checkout))
    opening = Opening("AgentBoard/PDDL-v0", "g", "o", {"task_id": "pddl-gripper-p01", "first_observation": "o"})
    reading = protocol.begin(opening).read("Action:\nnext action: look")
    assert reading.action is None and reading.finish_reason == "invalid_format"


def test_the_setting_names_the_checkout_and_errors_name_folder_and_file(checkout, tmp_path, monkeypatch):
    with pytest.raises(CheckoutError, match=AGENTBOARD_DIR_SETTING):
        make_protocol("agentboard")
    monkeypatch.setenv(AGENTBOARD_DIR_SETTING, str(checkout))
    assert make_protocol("agentboard").describe()["agentboard_dir"] == str(checkout)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CheckoutError, match=f"{empty}.*{CONFIG}"):
        make_protocol("agentboard", agentboard_dir=str(empty))
    with pytest.raises(CheckoutError, match="nowhere.* is not a folder"):
        make_protocol("agentboard", agentboard_dir=str(tmp_path / "nowhere"))


@pytest.mark.parametrize(
    ("left_out", "env_id"),
    [
        ("agentboard/prompts/VanillaAgent/pddl_vanilla_prompt.json", "AgentBoard/PDDL-v0"),
        ("agentboard/environment/jericho_env.py", "AgentBoard/Jericho-v0"),
        ("agentboard/agents/vanilla_agent.py", "AgentBoard/BabyAI-v0"),
    ],
)
def test_a_missing_file_is_named_before_anything_is_played(tmp_path, left_out, env_id):
    root = write_checkout(tmp_path / "co", {left_out: ""})
    protocol = make_protocol("agentboard", agentboard_dir=str(root))
    with pytest.raises(CheckoutError, match=f"{root}.*{left_out}"):
        protocol.check([env_id])


def test_agent_code_without_the_literals_is_named(tmp_path):
    relative = "agentboard/agents/vanilla_agent.py"
    text = FILES[relative].replace(repr(LITERALS["goal"]) + " + self.goal", "self.goal")
    root = write_checkout(tmp_path / "co", {relative: text})
    with pytest.raises(CheckoutError, match=f"{relative}.*goal"):
        make_protocol("agentboard", agentboard_dir=str(root)).check(["AgentBoard/BabyAI-v0"])


def test_it_covers_its_ids_with_agentboards_30_steps(checkout):
    protocol = make_protocol("agentboard", agentboard_dir=str(checkout))
    for env_id in MINE:
        assert protocol.covers(env_id) and protocol.max_steps(env_id) == 30
    assert not protocol.covers("AgentQuest/Mastermind-v0")
    protocol.check(list(MINE))


def test_sampling_settings_come_from_the_config_entry_the_model_names(checkout):
    default = make_protocol("agentboard", agentboard_dir=str(checkout), model="my-model").describe()
    assert (default["llm_config"], default["temperature"], default["max_tokens"], default["stop"]) == (
        "gpt-3.5-turbo-0613",
        0.0,
        100,
        "\n",
    )
    named = make_protocol("agentboard", agentboard_dir=str(checkout), model="small-local").describe()
    assert (named["temperature"], named["max_tokens"]) == (0.5, 64)
    assert default["tokenizer"] is None and default["context_window"] is None


def test_trimming_without_an_offline_tokenizer_says_what_to_pass(checkout):
    try:
        import tiktoken  # noqa: F401

        pytest.skip("tiktoken is installed here")
    except ImportError:
        pass
    with pytest.raises(ValueError, match="--tokenizer"):
        make_protocol("agentboard", agentboard_dir=str(checkout), context_window=4096)
    with pytest.raises(ValueError, match="cannot load the tokenizer 'nowhere/tok'"):
        make_protocol("agentboard", agentboard_dir=str(checkout), context_window=4096, tokenizer="nowhere/tok")


def test_a_local_hugging_face_tokenizer_counts_as_agentboards_counter(checkout, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    vocab = {"[UNK]": 0, "a": 1, "b": 2}
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    folder = tmp_path / "tok"
    folder.mkdir()
    tokenizer.save(str(folder / "tokenizer.json"))
    counter = make_counter(str(folder), "gpt-4-0613")
    # per message: 3 + role + content; then 3
    assert (
        counter([{"role": "system", "content": "a b"}, {"role": "user", "content": "a"}])
        == (3 + 1 + 2) + (3 + 1 + 1) + 3
    )
    protocol = make_protocol("agentboard", agentboard_dir=str(checkout), context_window=4096, tokenizer=str(folder))
    assert protocol.describe()["tokenizer"] == str(folder) and protocol.describe()["context_window"] == 4096


MODEL = "my-model"


class _Client:
    """A stand-in for the ``openai`` client: records every request and answers a fixed reply."""

    def __init__(self, reply: str):
        self.calls: list[dict] = []
        self.reply = reply
        self.chat = types.SimpleNamespace(completions=types.SimpleNamespace(create=self._create))
        self.models = types.SimpleNamespace(list=lambda: types.SimpleNamespace(data=[types.SimpleNamespace(id=MODEL)]))

    def with_options(self, **options) -> _Client:
        return self

    def _create(self, **kwargs):
        self.calls.append(kwargs)
        message = types.SimpleNamespace(content=self.reply)
        return types.SimpleNamespace(choices=[types.SimpleNamespace(message=message)], usage=None)

    def post(self, path: str, *, body: dict, cast_to: type):  # the openai client's low-level call the agent makes
        assert path == "/chat/completions"
        return self._create(**body)


def test_the_llm_agent_sends_agentboards_requests_for_30_steps(checkout, tmp_path):
    client = _Client("Thinking about it.\nAction: check valid actions")
    config = LLMConfig(model="my-model", protocol="agentboard", agentboard_dir=str(checkout), max_tokens=999)
    agent = LLMAgent(config, client=client)
    assert isinstance(agent.protocol, AgentBoardProtocol)
    result = run_eval(agent, EvalConfig(envs="AgentBoard/PDDL-v0", tasks="1", progress_bar=False), tmp_path / "run")
    assert result.finished == 1
    (episode,) = read_jsonl(tmp_path / "run" / "episodes.jsonl")
    assert episode["steps"] == 30 and len(client.calls) == 30
    first, last = client.calls[0], client.calls[-1]
    assert (first["temperature"], first["max_tokens"], first["stop"]) == (0.0, 100, "\n")
    system, user = first["messages"]
    prompts = json.loads(FILES["agentboard/prompts/VanillaAgent/pddl_vanilla_prompt.json"])
    assert system == {"role": "system", "content": prompts["blockworld"]["system_msg"]}
    assert user["content"].startswith(prompts["blockworld"]["instruction"] + LITERALS["examples"])
    assert "steps" not in user["content"] and user["content"].endswith(LITERALS["action"])
    history = last["messages"][1]["content"]
    assert history.count("\nAction: check valid actions\nObservation: Valid actions are: ") == 29
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert "agentboard" in json.dumps(run)


def test_pddl_games_are_agentboards_names_of_this_packages_domains():
    from agentgym_text.agents.protocols.agentboard.pddl import game_of
    from agentgym_text.envs.pddl.agentboard_data import GAMES

    assert {game_of(f"pddl-{domain}-p01") for domain, _, _ in GAMES.values()} == set(GAMES)


def test_a_head_longer_than_the_context_ends_the_episode_unsent_where_agentboard_would_loop(checkout):
    from agentgym_text.agents.protocols.agentboard.tokens import TokenCounter

    protocol = AgentBoardProtocol(checkout, model=MODEL)
    protocol.counter = TokenCounter(lambda text: len(text.split()), "words")
    protocol.room = 10
    opening = Opening("AgentBoard/PDDL-v0", "g", "o", {"task_id": "pddl-gripper-p01", "first_observation": "o"})
    assert protocol.begin(opening).request().finish_reason == "context_limit"


def test_tiktoken_is_used_from_its_cache_only_never_downloading(monkeypatch):
    """A tiktoken whose encoding is not cached would fetch it: the counter refuses the fetch and says what to pass."""
    fetched = []
    loader = types.ModuleType("tiktoken.load")

    def read_file(blobpath):
        fetched.append(blobpath)
        return b""

    loader.read_file = read_file

    def get_encoding(name):
        loader.read_file(f"https://example.invalid/{name}.tiktoken")  # what tiktoken does when the cache misses

    tiktoken = types.ModuleType("tiktoken")
    tiktoken.load = loader
    tiktoken.get_encoding = get_encoding
    tiktoken.encoding_for_model = get_encoding
    monkeypatch.setitem(sys.modules, "tiktoken", tiktoken)
    monkeypatch.setitem(sys.modules, "tiktoken.load", loader)
    with pytest.raises(ValueError, match="--tokenizer"):
        make_counter(None, "gpt-4")
    assert fetched == [] and loader.read_file is read_file
