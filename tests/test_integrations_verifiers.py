"""verifiers v1: the ``agentgym-vf`` package (integrations/agentgym-vf) loads by id, and verifiers' own eval CLI,
run against a scripted OpenAI-compatible server on 127.0.0.1, writes traces whose progress and success are
``run_eval``'s for the same scripted actions, with nothing leaving the machine."""

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

vf = pytest.importorskip("verifiers.v1", reason="needs the verifiers extra (make test-integrations)")
pytest.importorskip("agentgym_vf", reason="needs integrations/agentgym-vf installed (make test-integrations)")

from agentgym_vf import AgentGymEnv, AgentGymTaskset  # noqa: E402

from agentgym_text.agents.protocols import AGENTBENCH_DIR_SETTING  # noqa: E402
from agentgym_text.integrations.chat import ChatEnv  # noqa: E402
from agentgym_text.integrations.datasets import tasks  # noqa: E402
from agentgym_text.testing.chat_server import ScriptedChatServer  # noqa: E402
from tests.support.integrations_script import ENV_ID, chat_policy, run_eval_rows  # noqa: E402
from tests.support.protocol_episodes import REPLIES, chat_requests, protocols, reply  # noqa: E402

MAX_STEPS = 6
OFFSET, LIMIT = 2, 2  # mastermind-002 (not solved by the script) and mastermind-003 (solved at step 3)

GUARD = textwrap.dedent("""
    # Loaded by every Python process of the run (PYTHONPATH): a connection or name lookup that leaves 127.0.0.1
    # fails and is written to $NET_GUARD_LOG.
    import os, socket
    _log = os.environ["NET_GUARD_LOG"]
    _connect, _getaddrinfo = socket.socket.connect, socket.getaddrinfo
    _LOCAL = ("127.0.0.1", "localhost", "::1")
    with open(_log, "a") as _f:
        _f.write(f"loaded {os.getpid()}\\n")

    def _blocked(what):
        with open(_log, "a") as f:
            f.write(f"blocked {what}\\n")
        raise OSError(f"blocked by the test: {what}")

    def _guarded_connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and str(address[0]) not in _LOCAL:
            _blocked(address)
        return _connect(self, address)

    def _guarded_getaddrinfo(host, *args, **kwargs):
        if host is not None and str(host) not in _LOCAL:
            _blocked(host)
        return _getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = _guarded_connect
    socket.getaddrinfo = _guarded_getaddrinfo
""")


def _config(**taskset):
    return vf.resolve_env_config({"taskset": {"id": "agentgym-vf", **taskset}})


@pytest.mark.parametrize("taskset_id", ["agentgym-vf", "agentgym_vf", "someone/agentgym-vf@0.1.0"])
def test_load_environment_resolves_the_package_by_id(taskset_id):
    config = vf.resolve_env_config({"taskset": {"id": taskset_id, "env_id": "AgentBoard/ToolQuery-v0", "limit": 2}})
    assert isinstance(vf.load_environment(config), AgentGymEnv)
    assert config.player.runtime.type == "subprocess"  # local by default (verifiers' default is a remote sandbox)
    loaded = list(vf.load_taskset(config.taskset).load())
    rows = tasks("AgentBoard/ToolQuery-v0", limit=2)
    assert [task.data.name for task in loaded] == [row["task_id"] for row in rows]
    assert [task.data.prompt for task in loaded] == [row["first_observation"] for row in rows]
    assert [task.data.system_prompt for task in loaded] == [row["system_prompt"] for row in rows]


def test_the_taskset_reads_its_settings():
    taskset = vf.load_taskset(_config(env_id=ENV_ID, offset=OFFSET, limit=LIMIT, max_steps=MAX_STEPS).taskset)
    assert isinstance(taskset, AgentGymTaskset)
    loaded = list(taskset.load())
    assert [task.data.task_id for task in loaded] == ["mastermind-002", "mastermind-003"]
    assert {json.dumps(task.data.env_kwargs) for task in loaded} == {json.dumps({"max_episode_steps": MAX_STEPS})}


@pytest.mark.parametrize(
    "env_ids", ["AgentQuest/Mastermind-v0=1,AgentBench/DB-v0=1", {"AgentQuest/Mastermind-v0": 1, "AgentBench/DB-v0": 1}]
)
def test_a_two_id_mixture_gives_tasks_whose_envs_reset_to_their_own_rows(env_ids):
    loaded = list(vf.load_taskset(_config(env_id=env_ids, split="test", size=4, mix_seed=3).taskset).load())
    rows = tasks({"AgentQuest/Mastermind-v0": 1, "AgentBench/DB-v0": 1}, "test", size=4, mix_seed=3)
    assert [(task.data.env_id, task.data.task_id) for task in loaded] == [(r["env_id"], r["task_id"]) for r in rows]
    assert {task.data.env_id for task in loaded} == {"AgentQuest/Mastermind-v0", "AgentBench/DB-v0"}
    for task in loaded:  # what AgentGymEnv.run makes and resets for the task
        chat = ChatEnv(task.data.env_id, **task.data.env_kwargs)
        messages, info = chat.reset(seed=task.data.seed, options={"task_id": task.data.task_id})
        assert info["task_id"] == task.data.task_id and messages[1]["content"] == task.data.prompt
        assert messages[0]["content"] == task.data.system_prompt
        chat.close()


def _v1_eval_command() -> list[str]:
    """verifiers' v1 eval CLI: ``vf-eval`` from 0.4, ``eval`` in 0.3 (where ``vf-eval`` is still the v0 one)."""
    scripts = importlib.metadata.entry_points(group="console_scripts")
    names = [ep.name for ep in scripts if ep.value == "verifiers.v1.cli.eval.main:main"]
    assert names, "no console script runs verifiers.v1.cli.eval.main"
    name = "vf-eval" if "vf-eval" in names else names[0]
    return [shutil.which(name, path=str(Path(sys.executable).parent)) or name]


def test_vf_eval_on_a_loopback_endpoint_matches_run_eval(tmp_path):
    expected = run_eval_rows(tmp_path / "run_eval", f"{OFFSET}:{OFFSET + LIMIT}", MAX_STEPS)
    guard_dir = tmp_path / "guard"
    guard_dir.mkdir()
    (guard_dir / "sitecustomize.py").write_text(GUARD)
    guard_log = tmp_path / "net_guard.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(guard_dir), os.environ.get("PYTHONPATH")])),
        "NET_GUARD_LOG": str(guard_log),
        "STUB_KEY": "unused",
    }
    with ScriptedChatServer(chat_policy) as server:
        command = [
            *_v1_eval_command(),
            "agentgym-vf",
            "--env.taskset.env-id",
            ENV_ID,
            "--env.taskset.offset",
            str(OFFSET),
            "--env.taskset.limit",
            str(LIMIT),
            "--env.taskset.max-steps",
            str(MAX_STEPS),
            "-m",
            "scripted",
            "--client.base-url",
            server.base_url,
            "--client.api-key-var",
            "STUB_KEY",
            "--no-push",
            "-o",
            str(tmp_path / "out"),
        ]
        run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]

    (traces_file,) = (tmp_path / "out").glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in traces_file.read_text().splitlines()]
    got = {}
    for episode in episodes:
        (trace,) = episode["traces"]
        assert episode["ok"] and not trace["errors"]
        got[trace["info"]["task_id"]] = {
            "progress_rate": trace["rewards"]["progress_rate"]["score"],
            "success": trace["metrics"]["success"],
            "steps": trace["metrics"]["steps"],
            "grounding_accuracy": trace["metrics"]["grounding_accuracy"],
            "finish_reason": trace["info"]["finish_reason"],
        }
    assert got == {
        task_id: {
            "progress_rate": row["progress_rate"],
            "success": float(row["success"]),
            "steps": float(row["steps"]),
            "grounding_accuracy": row["grounding_accuracy"],
            "finish_reason": row["finish_reason"],
        }
        for task_id, row in expected.items()
    }
    assert got["mastermind-003"]["success"] == 1.0 and got["mastermind-002"]["success"] == 0.0

    log = guard_log.read_text().splitlines()
    assert [line for line in log if line.startswith("blocked")] == []
    assert sum(line.startswith("loaded") for line in log) >= 2  # the CLI and the chat loop's processes were guarded


# ---- under an agent protocol ------------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", [env_id for env_id in REPLIES if env_id.startswith("AgentBench/")])
def test_vf_eval_under_agentbenchs_protocol_sends_chat_envs_requests(tmp_path, monkeypatch, env_id):
    protocol = protocols(tmp_path)["agentbench"]
    monkeypatch.setenv(AGENTBENCH_DIR_SETTING, str(protocol.checkout))  # for the CLI's processes too
    (row,) = tasks(env_id, limit=1)
    expected = chat_requests(env_id, protocol, task_id=row["task_id"], seed=row["seed"])
    opening = sum(m["role"] == "assistant" for m in expected[0])  # AgentBench's injected agent turns

    def replay(messages):
        return reply(env_id, sum(m["role"] == "assistant" for m in messages) - opening)

    with ScriptedChatServer(replay, keep_requests=True) as server:
        command = [
            *_v1_eval_command(), "agentgym-vf", "--env.taskset.env-id", env_id, "--env.taskset.limit", "1",
            "--env.taskset.protocol", "agentbench", "-m", "scripted", "--client.base-url", server.base_url,
            "--client.api-key-var", "STUB_KEY", "--no-push", "-o", str(tmp_path / "out"),
        ]  # fmt: skip
        run = subprocess.run(
            command, env={**os.environ, "STUB_KEY": "unused"}, capture_output=True, text=True, timeout=600, cwd=tmp_path
        )
        sent = [[{"role": m["role"], "content": m["content"]} for m in r["messages"]] for r in server.requests]
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert sent == expected and len(sent) > 8


@pytest.mark.parametrize("name", ["ours", "agentboard"])
def test_a_protocol_that_rebuilds_its_requests_is_refused(name):
    taskset = vf.load_taskset(_config(env_id="AgentBench/KG-v0", limit=1, protocol=name).taskset)
    with pytest.raises(ValueError, match="verifiers .*'agentbench'"):
        list(taskset.load())
