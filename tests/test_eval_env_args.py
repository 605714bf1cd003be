"""``eval --env-arg``: env options reach every slot's env, are kept in run.json and the resume keys, and the LLM
agent's prompt follows the env's text format."""

import json
import subprocess
import sys

import gymnasium as gym
import pytest

from agentgym_text.agents.llm import LLMAgent
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.agents.prompts import load_prompt
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.plan import parse_env_args
from agentgym_text.eval.store import RunMismatch, read_jsonl
from agentgym_text.testing.chat_server import ScriptedChatServer

PDDL = "AgentBoard/PDDL-v0"
pytest.importorskip("pyperplan")


def _first_observation(**kwargs) -> str:
    env = gym.make(PDDL, **kwargs)
    obs, _ = env.reset(seed=0, options={"task_index": 0})
    env.close()
    return obs


def test_the_llm_prompt_is_the_clear_variant_under_env_arg_text_format_clear(tmp_path):
    systems: list[str] = []

    def policy(messages):
        systems.append("\n".join(str(m.get("content", "")) for m in messages))
        return "Action: check valid actions"

    config = EvalConfig(
        envs=PDDL, tasks="1", max_steps=2, progress_bar=False, env_args=parse_env_args(["text_format=clear"])
    )
    with ScriptedChatServer(policy) as server:
        agent = LLMAgent(LLMConfig(model="scripted", base_url=server.base_url, api_key="k"))
        result = run_eval(agent, config, tmp_path)
        agent.close()
    assert result.complete
    clear, default = load_prompt("pddl", "clear"), load_prompt("pddl", "agentboard")
    assert clear.instruction != default.instruction
    episode_systems = [text for text in systems if clear.system in text or default.system in text]
    assert episode_systems and all(clear.instruction in text for text in episode_systems)
    assert not any(default.instruction in text for text in episode_systems)
    row = next(read_jsonl(tmp_path / "episodes.jsonl"))
    assert row["initial_observation"] != _first_observation()  # AgentBoard's words are not what was played


def test_cli_env_arg_makes_every_env_with_it_and_a_resume_must_match(tmp_path):
    def cli(*args):
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "agentgym_text.cli",
                "eval",
                "--agent",
                "expert",
                "--envs",
                PDDL,
                "--tasks",
                "2",
                "--out",
                str(tmp_path),
                "--no-report",
                "--quiet",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )

    result = cli("--env-arg", "text_format=clear")
    assert result.returncode == 0, result.stderr
    settings = json.loads((tmp_path / "run.json").read_text())
    assert settings["env_args"] == settings["resume"]["env_args"] == {"*": {"text_format": "clear"}}
    rows = sorted(read_jsonl(tmp_path / "episodes.jsonl"), key=lambda row: row["task_id"])
    assert rows[0]["initial_observation"] == _first_observation(text_format="clear")
    assert all(row["success"] for row in rows)
    with pytest.raises(RunMismatch):
        run_eval(
            __import__("agentgym_text.agents", fromlist=["make_agent"]).make_agent("expert"),
            EvalConfig(envs=PDDL, tasks="2", progress_bar=False),
            tmp_path,
        )


@pytest.mark.parametrize("arg", ["text_format", "=clear", "not a key=1"])
def test_malformed_env_args_are_refused(arg):
    with pytest.raises(ValueError, match="--env-arg takes"):
        parse_env_args([arg])
