"""Every family's prompt is declared beside it, and its in-context example is what the env really prints."""

import json

import pytest

import agentgym_text
from agentgym_text.agents.prompts import PROMPT_FILE, load_prompt, prompt_variants
from agentgym_text.agents.prompts.examples import parse_example, replay_example
from tests.conftest import ENTRIES, USABLE_ENV_IDS
from tests.support.tree import FAMILIES


@pytest.mark.parametrize("family", FAMILIES, ids=lambda p: p.name)
def test_prompt_names_an_env_of_its_family_and_replays_exactly(family):
    data = json.loads((family / PROMPT_FILE).read_text(encoding="utf-8"))
    assert {"system", "instruction", "example", "env_id", "task_id"} <= set(data)
    assert ENTRIES[data["env_id"]].family == family.name
    assert load_prompt(family.name).family == family.name
    turns = parse_example(data["example"])
    assert turns[0][0] == "Observation" and sum(kind == "Action" for kind, _ in turns) >= 2
    if data["env_id"] not in USABLE_ENV_IDS:
        pytest.skip(f"{data['env_id']} is not usable here")
    for text_format, variant in prompt_variants(family.name).items():
        kwargs = variant.get("env_kwargs", {})
        mismatches = replay_example(variant["env_id"], variant["task_id"], variant["example"], env_kwargs=kwargs)
        assert mismatches == [], f"text_format={text_format}"
        if text_format is not None:
            assert kwargs.get("text_format") == text_format
            assert load_prompt(family.name, text_format).example == variant["example"]


def test_every_registered_family_has_a_prompt():
    families = {entry.family for entry in agentgym_text.list_envs()}
    assert {family for family in families if load_prompt(family).family == "generic"} == set()
