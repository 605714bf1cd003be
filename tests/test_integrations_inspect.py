"""Inspect AI: our Task, solver and scorer against ``run_eval`` on the same scripted actions, fully offline."""

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai", reason="needs the inspect extra (make test-integrations)")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai._util.config import parse_cli_args  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from agentgym_text.integrations.datasets import tasks  # noqa: E402
from agentgym_text.integrations.inspect import agentgym  # noqa: E402
from agentgym_text.testing.chat_server import ScriptedChatServer  # noqa: E402
from tests.support.integrations_script import ENV_ID, chat_policy, run_eval_rows, scripted_action  # noqa: E402
from tests.support.protocol_episodes import REPLIES, chat_requests, protocols, reply  # noqa: E402

MAX_STEPS = 7
TASKS = 5
USAGE = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # without it mockllm fetches a tokenizer


@pytest.fixture
def no_network(monkeypatch):
    """Every connection or name lookup that leaves 127.0.0.1 fails and is recorded."""
    attempts = []
    connect, getaddrinfo = socket.socket.connect, socket.getaddrinfo

    def local(host) -> bool:
        return str(host) in ("127.0.0.1", "localhost", "::1")

    def guarded_connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and not local(address[0]):
            attempts.append(address)
            raise OSError(f"blocked by the test: {address}")
        return connect(self, address)

    def guarded_getaddrinfo(host, *args, **kwargs):
        if host is not None and not local(host):
            attempts.append(host)
            raise socket.gaierror(f"blocked by the test: {host}")
        return getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    yield attempts
    assert attempts == [], f"something tried to leave the machine: {attempts}"


def _steps_taken(messages) -> int:
    return sum(1 for message in messages if message.role == "assistant")


def scripted_text(messages, tools, tool_choice, config) -> ModelOutput:
    output = ModelOutput.from_content(model="mockllm", content=f"Action: {scripted_action(_steps_taken(messages))}")
    output.usage = USAGE
    return output


def scripted_tool_call(messages, tools, tool_choice, config) -> ModelOutput:
    assert [tool.name for tool in tools] == ["act"]
    command = scripted_action(_steps_taken(messages))
    output = ModelOutput.for_tool_call(model="mockllm", tool_name="act", tool_arguments={"command": command})
    output.usage = USAGE
    return output


@pytest.fixture(scope="module")
def expected_rows(tmp_path_factory):
    return run_eval_rows(tmp_path_factory.mktemp("run_eval"), str(TASKS), MAX_STEPS)


def _per_sample(samples) -> dict:
    return {
        sample.id: {
            "progress_rate": sample.scores["env_score"].value["progress_rate"],
            "success": sample.scores["env_score"].value["success"],
            "grounding_accuracy": sample.scores["env_score"].value["grounding_accuracy"],
            "finish_reason": sample.scores["env_score"].answer,
            "steps": sample.scores["env_score"].metadata["steps"],
        }
        for sample in samples
    }


def _expected(rows: dict) -> dict:
    return {
        task_id: {
            "progress_rate": row["progress_rate"],
            "success": float(row["success"]),
            "grounding_accuracy": row["grounding_accuracy"],
            "finish_reason": row["finish_reason"],
            "steps": row["steps"],
        }
        for task_id, row in rows.items()
    }


@pytest.mark.parametrize("tools", [False, True], ids=["text", "tool_calls"])
def test_per_sample_scores_equal_run_eval_and_the_log_reads_back(no_network, expected_rows, tmp_path, tools):
    model = get_model("mockllm/model", custom_outputs=scripted_tool_call if tools else scripted_text)
    task = agentgym(env_id=ENV_ID, limit=TASKS, max_steps=MAX_STEPS, tools=tools)
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    expected = _expected(expected_rows)
    assert _per_sample(log.samples) == expected
    assert {row["success"] for row in expected_rows.values()} == {True, False}  # the script wins one task only

    again = read_eval_log(log.location)
    assert again.location.endswith(".eval") and _per_sample(again.samples) == expected
    means = {score.name: score.metrics["mean"].value for score in again.results.scores}
    assert means["progress_rate"] == pytest.approx(sum(r["progress_rate"] for r in expected.values()) / TASKS)
    assert means["success"] == pytest.approx(1 / TASKS)
    solved = next(sample for sample in again.samples if sample.id == "mastermind-003")
    assert [message.role for message in solved.messages][:3] == ["system", "user", "assistant"]


def test_a_two_id_mixture_plays_each_sample_on_its_own_ids_env(no_network, expected_rows, tmp_path):
    model = get_model("mockllm/model", custom_outputs=scripted_text)
    mixture = f"{ENV_ID}=4,AgentQuest/Sudoku-v0=1"
    cli = parse_cli_args([f"env_id={mixture}", "size=5", "mix_seed=1", f"max_steps={MAX_STEPS}"])  # `-T` as typed
    assert cli["env_id"] == [f"{ENV_ID}=4", "AgentQuest/Sudoku-v0=1"]  # Inspect splits the commas
    task = agentgym(**cli)
    rows = tasks(mixture, size=5, mix_seed=1, env_kwargs={"max_episode_steps": MAX_STEPS})
    assert task.name == "agentgym-AgentQuest-Mastermind-v0+AgentQuest-Sudoku-v0"
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    by_id = {sample.id: sample for sample in log.samples}
    assert sorted(by_id) == sorted(f"{row['env_id']}/{row['task_id']}" for row in rows)
    scores = _per_sample(log.samples)
    expected = _expected(expected_rows)
    for row in rows:
        sample = by_id[f"{row['env_id']}/{row['task_id']}"]
        assert sample.messages[1].content == row["first_observation"]
        assert sample.scores["env_score"].metadata["task_id"] == row["task_id"]
        if row["env_id"] == ENV_ID:  # the Mastermind samples score as run_eval scores the same tasks
            assert scores[sample.id] == expected[row["task_id"]]
        else:  # the scripted guesses are no Sudoku moves
            assert scores[sample.id]["progress_rate"] == 0.0 and scores[sample.id]["steps"] == MAX_STEPS


def test_an_openai_compatible_server_on_loopback_plays_the_same_episodes(no_network, expected_rows, tmp_path):
    """``--model openai-api/...`` as a user runs it, against a scripted chat server on 127.0.0.1."""

    with ScriptedChatServer(chat_policy) as server:
        model = get_model("openai-api/local/scripted", base_url=server.base_url, api_key="unused")
        task = agentgym(env_id=ENV_ID, limit=TASKS, max_steps=MAX_STEPS)
        (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    assert _per_sample(log.samples) == _expected(expected_rows)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_log_viewer_opens_our_log_offline_in_headless_chromium(tmp_path):
    """``inspect view`` serves our log on 127.0.0.1; Chromium (every request outside the viewer refused and
    recorded) lists the task, opens it and shows each sample's answer and scores; the screenshot is kept."""
    playwright = pytest.importorskip("playwright.sync_api", reason="needs playwright (make test-integrations)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("needs Debian's Chromium (make system; make test-integrations)")
    model = get_model("mockllm/model", custom_outputs=scripted_text)
    inspect_eval(agentgym(env_id=ENV_ID, offset=2, limit=2, max_steps=MAX_STEPS), model=model, log_dir=str(tmp_path))
    port = _free_port()
    viewer = subprocess.Popen(
        [str(Path(sys.executable).with_name("inspect")), "view", "--log-dir", str(tmp_path), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    origin = f"http://127.0.0.1:{port}"
    refused = []

    def only_the_viewer(route):
        if route.request.url.startswith((origin, "data:", "blob:")):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    try:
        with playwright.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.route("**/*", only_the_viewer)
            for _ in range(120):  # the viewer takes a few seconds to start
                try:
                    page.goto(origin + "/")
                    break
                except playwright.Error:
                    time.sleep(0.5)
            page.get_by_text("agentgym-AgentQuest-Mastermind-v0").first.click(timeout=60_000)
            page.get_by_text("mastermind-003").first.wait_for(timeout=60_000)
            text = page.inner_text("body")
            page.screenshot(path=str(tmp_path / "inspect-viewer.png"))
            browser.close()
    finally:
        viewer.terminate()
        viewer.wait(timeout=10)
    assert refused == []
    assert "mastermind-002" in text and "success" in text and "step_limit" in text and "progress_rate" in text
    assert (tmp_path / "inspect-viewer.png").stat().st_size > 10_000


# ---- under an agent protocol ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def originals(tmp_path_factory):
    return protocols(tmp_path_factory.mktemp("checkouts"))


@pytest.mark.parametrize("env_id", list(REPLIES))
def test_under_a_protocol_the_model_sees_chat_envs_requests(no_network, originals, tmp_path, env_id):
    protocol = originals[env_id.split("/")[0].lower()]
    (row,) = tasks(env_id, limit=1)
    expected = chat_requests(env_id, protocol, task_id=row["task_id"], seed=row["seed"])
    seen, configs = [], []

    def replay(messages, tools, tool_choice, config) -> ModelOutput:
        seen.append([{"role": m.role, "content": m.text} for m in messages])
        configs.append(config)
        output = ModelOutput.from_content(model="mockllm", content=reply(env_id, len(seen) - 1))
        output.usage = USAGE
        return output

    model = get_model("mockllm/model", custom_outputs=replay)
    (log,) = inspect_eval(agentgym(env_id=env_id, limit=1, protocol=protocol), model=model, display="none",
                          log_dir=str(tmp_path))  # fmt: skip
    assert log.status == "success", log.error
    assert seen == expected and len(seen) > 8
    (sample,) = log.samples
    assert sample.scores["env_score"].metadata["steps"] == len(seen)
    if env_id.startswith("AgentBoard/"):
        assert {tuple(c.stop_seqs or ()) for c in configs} == {("\n",)} and {c.temperature for c in configs} == {0}
    else:
        assert {(c.temperature, c.max_tokens) for c in configs} == {(0, 512)}


def test_a_protocol_with_tools_is_refused(originals):
    with pytest.raises(ValueError, match="plain text"):
        agentgym(env_id="AgentBench/KG-v0", limit=1, tools=True, protocol=originals["agentbench"])


def test_under_react_a_kept_thought_is_asked_again_and_is_no_step(no_network, tmp_path):
    from agentgym_text.agents.protocols import make_protocol
    from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout

    env_id = "AgentBoard/WebShop-v0"
    protocol = make_protocol("agentboard", style="react", agentboard_dir=str(write_web_tools_checkout(tmp_path / "AB")))
    replies = ["Think: I should search first.", "Action: search[red shoes]"]
    seen = []

    def replay(messages, tools, tool_choice, config) -> ModelOutput:
        seen.append([{"role": m.role, "content": m.text} for m in messages])
        output = ModelOutput.from_content(model="mockllm", content=replies[(len(seen) - 1) % 2])
        output.usage = USAGE
        return output

    (log,) = inspect_eval(agentgym(env_id=env_id, limit=1, protocol=protocol), model=get_model(
        "mockllm/model", custom_outputs=replay), display="none", log_dir=str(tmp_path / "logs"))  # fmt: skip
    assert log.status == "success", log.error
    assert "I should search first." in seen[1][-1]["content"]  # the thought went into the next request
    steps = log.samples[0].scores["env_score"].metadata["steps"]
    assert len(seen) == 2 * steps  # every other request was a thought asked again


def test_a_protocol_by_name_reads_its_checkout_from_the_setting(no_network, originals, monkeypatch, tmp_path):
    """``-T protocol=agentbench`` as typed: the checkout comes from ``AGENTGYM_TEXT_AGENTBENCH_DIR``."""
    env_id = "AgentBench/LateralThinking-v0"
    monkeypatch.setenv("AGENTGYM_TEXT_AGENTBENCH_DIR", str(originals["agentbench"].checkout))
    (row,) = tasks(env_id, limit=1)
    expected = chat_requests(env_id, originals["agentbench"], task_id=row["task_id"], seed=row["seed"])
    seen = []

    def replay(messages, tools, tool_choice, config) -> ModelOutput:
        seen.append([{"role": m.role, "content": m.text} for m in messages])
        output = ModelOutput.from_content(model="mockllm", content=reply(env_id, len(seen) - 1))
        output.usage = USAGE
        return output

    task = agentgym(**parse_cli_args([f"env_id={env_id}", "limit=1", "protocol=agentbench"]))
    (log,) = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=replay), display="none",
                          log_dir=str(tmp_path))  # fmt: skip
    assert log.status == "success", log.error
    assert seen == expected
