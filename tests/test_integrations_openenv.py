"""`agentgym-text serve` played by OpenEnv's own client (GenericEnvClient) on 127.0.0.1, and OpenEnv 0.10's task API."""

import asyncio
import importlib.metadata
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("openenv.core", reason="needs the openenv extra")
from openenv.core import GenericEnvClient  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

import agentgym_text  # noqa: E402
from agentgym_text.core.registry import extra_installed  # noqa: E402
from agentgym_text.integrations.datasets import tasks, train_splits  # noqa: E402
from tests.support.protocol_episodes import REPLIES, chat_requests, protocols, reply  # noqa: E402


def _distribution(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


needs_task_api = pytest.mark.skipif(
    _distribution("openenv") is None, reason="OpenEnv's task API needs the `openenv` distribution (>= 0.4)"
)

ENTRIES = {entry.env_id: entry for entry in agentgym_text.list_envs()}
INFO_FIELDS = (
    "goal",
    "task_id",
    "progress_rate",
    "progress_now",
    "valid",
    "invalid_reason",
    "finish_reason",
    "success",
    "step",
    "max_steps",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, env_id: str, max_sessions: int = 4, *options: str):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile(mode="w+")  # a pipe nobody reads would block the server once full
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agentgym_text.cli",
                "serve",
                "--env",
                env_id,
                "--port",
                str(self.port),
                "--max-sessions",
                str(max_sessions),
                *options,
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"server exited: {self.log.read()}")
            try:
                urllib.request.urlopen(f"{self.url}/health", timeout=1).read()
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("server did not come up in 60 s")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=8)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def server_for():
    """Servers started on first use and shared by the module's tests (each takes seconds to start)."""
    servers = {}

    def start(env_id, max_sessions=16):
        if not extra_installed(ENTRIES[env_id].requires):
            pytest.skip(f"{env_id} needs the {ENTRIES[env_id].requires} extra")
        key = (env_id, max_sessions)
        if key not in servers:
            servers[key] = Server(env_id, max_sessions)
        return servers[key]

    yield start
    for server in servers.values():
        server.stop()


def _as_info(observation: dict) -> dict:
    return {key: observation[key] for key in INFO_FIELDS}


def _local_info(info: dict) -> dict:
    return {key: info[key] for key in INFO_FIELDS}


@pytest.mark.parametrize("env_id", ["AgentQuest/Mastermind-v0", "AgentBoard/ToolQuery-v0", "AgentBoard/BabyAI-v0"])
def test_openenv_client_plays_full_expert_episodes(server_for, env_id):
    server = server_for(env_id)
    local = gym.make(env_id)
    with GenericEnvClient(base_url=server.url).sync() as client:
        for task_index in (0, 1):
            task_id = local.unwrapped.task_ids[task_index]
            text, info = local.reset(seed=5, options={"task_id": task_id})
            result = client.reset(seed=5, task_id=task_id)
            assert result.observation["text"] == text and _as_info(result.observation) == _local_info(info)
            while not result.done:
                action = local.unwrapped.expert_action()
                text, reward, terminated, truncated, info = local.step(action)
                result = client.step({"message": action})
                assert result.observation["text"] == text
                assert result.reward == pytest.approx(reward) and result.done == (terminated or truncated)
                assert _as_info(result.observation) == _local_info(info)
            assert result.observation["success"] and result.observation["progress_rate"] == 1.0
        assert client.state()["task_id"] == task_id
    local.close()


def _play_local(env_id: str, session: int, steps: int) -> tuple[list, list]:
    """One episode: reset with seed = session, then seeded random actions (admissible, or garbage)."""
    local = gym.make(env_id)
    rng = np.random.default_rng(session)
    text, info = local.reset(seed=session)
    trajectory, actions = [(text, None, _local_info(info))], []
    for _ in range(steps):
        choices = local.unwrapped.admissible_actions()
        action = "not an action" if rng.random() < 0.2 or not choices else choices[rng.integers(len(choices))]
        text, reward, terminated, truncated, info = local.step(action)
        actions.append(action)
        trajectory.append((text, float(reward), _local_info(info)))
        if terminated or truncated:
            break
    local.close()
    return actions, trajectory


async def _play_remote(url: str, session: int, actions: list) -> list:
    async with GenericEnvClient(base_url=url) as client:
        result = await client.reset(seed=session)
        trajectory = [(result.observation["text"], result.reward, _as_info(result.observation))]
        for action in actions:
            result = await client.step({"message": action})
            trajectory.append((result.observation["text"], result.reward, _as_info(result.observation)))
    return trajectory


def test_sixteen_concurrent_sessions_equal_sixteen_local_envs(server_for):
    env_id = "AgentQuest/Mastermind-v0"
    server = server_for(env_id)
    local = [_play_local(env_id, session, 12) for session in range(16)]

    async def main():
        return await asyncio.gather(
            *(_play_remote(server.url, session, actions) for session, (actions, _) in enumerate(local))
        )

    remote = asyncio.run(main())
    assert len(remote) == 16
    for remote_trajectory, (_, local_trajectory) in zip(remote, local):
        assert remote_trajectory == local_trajectory and len(local_trajectory) > 1
    assert len({trajectory[0][2]["task_id"] for trajectory in remote}) > 1  # seeds drew different tasks


def test_a_session_over_the_limit_is_refused(server_for):
    server = server_for("AgentQuest/Mastermind-v0")

    async def main():
        clients = [GenericEnvClient(base_url=server.url) for _ in range(16)]
        try:
            for client in clients:
                await client.reset(seed=0)
            extra = GenericEnvClient(base_url=server.url)
            # the server answers CAPACITY_REACHED and closes; the client sees the error or the closed socket
            with pytest.raises((RuntimeError, ConnectionClosed), match="CAPACITY_REACHED|1000"):
                await extra.reset(seed=0)
            await extra.close()
            assert (await clients[0].step({"message": "guess 0123"})).observation["step"] == 1
        finally:
            for client in clients:
                await client.close()
        async with GenericEnvClient(base_url=server.url) as again:  # closed sessions free their slots
            assert (await again.reset(seed=1)).observation["step"] == 0

    asyncio.run(main())


def _descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, command name) of every process below ``pid``."""
    children: dict[int, list[int]] = {}
    names = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
        names[int(entry.name)] = name
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append((child, names[child]))
            stack.append(child)
    return found


CLIENT_SCRIPT = textwrap.dedent("""
    import sys, time
    from openenv.core import GenericEnvClient
    client = GenericEnvClient(base_url=sys.argv[1]).sync()
    client.connect()
    result = client.reset(seed=0, task_index=0)
    client.step({"message": "look around"})
    print("ready", flush=True)
    time.sleep(600)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_a_client_mid_episode_frees_its_scienceworld_jvm(server_for):
    server = server_for("AgentBoard/ScienceWorld-v0")
    client = subprocess.Popen([sys.executable, "-c", CLIENT_SCRIPT, server.url], stdout=subprocess.PIPE, text=True)
    try:
        assert client.stdout.readline().strip() == "ready"
        jvms = [pid for pid, name in _descendants(server.process.pid) if name == "java"]
        assert jvms, "the session's engine (a JVM) should be running"
        client.send_signal(signal.SIGKILL)  # the client vanishes without closing its session
        client.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(
            os.path.exists(f"/proc/{pid}") and Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
            for pid in jvms
        ):
            time.sleep(0.5)
        left = [pid for pid, name in _descendants(server.process.pid) if name == "java"]
        assert left == []
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()


def _get(url: str):
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


def _post(url: str, body: dict):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@needs_task_api
def test_task_api_routes_serve_the_shipped_rows(server_for):
    server = server_for("AgentQuest/Mastermind-v0")
    rows = tasks("AgentQuest/Mastermind-v0", "test")
    assert _get(f"{server.url}/list_environments") == ["AgentQuest-Mastermind-v0"]
    base = f"{server.url}/AgentQuest-Mastermind-v0"
    assert _get(f"{base}/splits") == [{"name": "test", "type": "test"}, {"name": "train", "type": "train"}]
    assert _post(f"{base}/num_tasks", {"split": "test"}) == (200, {"num_tasks": len(rows)})
    for index in (0, 3, len(rows) - 1):
        status, answer = _post(f"{base}/task", {"split": "test", "index": index})
        expected = {key: value for key, value in rows[index].items() if key != "prompt"}
        assert status == 200 and answer["task"] == {"id": rows[index]["task_id"], "index": index, **expected}
    status, answer = _post(f"{base}/task_range", {"split": "test", "start": 2, "stop": 5})
    assert [task["id"] for task in answer["tasks"]] == [row["task_id"] for row in rows[2:5]]
    assert _post(f"{base}/task", {"split": "test", "index": len(rows)})[0] == 400
    assert _post(f"{base}/num_tasks", {"split": "train"}) == (200, {"num_tasks": 200})
    assert _get(f"{server.url}/metadata")["name"] == "AgentQuest/Mastermind-v0"


@needs_task_api
def test_reset_by_split_and_index_lands_on_the_row_and_metadata_arrives(server_for):
    server = server_for("AgentQuest/Mastermind-v0")
    rows = tasks("AgentQuest/Mastermind-v0", "test")
    local = gym.make("AgentQuest/Mastermind-v0")
    with GenericEnvClient(base_url=server.url).sync() as client:
        for index in (0, 7, 31):
            result = client.reset(split="test", index=index)
            assert result.observation["task_id"] == rows[index]["task_id"]
            assert result.observation["text"] == rows[index]["first_observation"]
            assert result.observation["metadata"]["task_id"] == rows[index]["task_id"]
        local.reset(seed=0, options={"task_id": rows[31]["task_id"]})
        while not result.done:  # play row 31 to the end; metadata carries the suite's info at every step
            action = local.unwrapped.expert_action()
            _, reward, terminated, truncated, info = local.step(action)
            result = client.step({"message": action})
            metadata = result.observation["metadata"]
            assert {key: metadata[key] for key in INFO_FIELDS} == _local_info(info)
            assert metadata["truncated"] == truncated
        assert metadata["success"] and metadata["finish_reason"] == "success" and metadata["progress_rate"] == 1.0
        train = client.reset(split="train", index=0)
        assert train.observation["task_id"] == tasks("AgentQuest/Mastermind-v0", "train", limit=1)[0]["task_id"]
    local.close()


@needs_task_api
def test_openenv_installs_cleanly_beside_verifiers():
    """The `openenv` extra is OpenEnv's current distribution: no `openenv-core` (which ships the same `openenv`
    import folder) beside it, and `pip check` is clean with verifiers installed too."""
    assert _distribution("openenv-core") is None
    if _distribution("verifiers") is None:
        pytest.skip("verifiers is not installed (make test-integrations installs it)")
    check = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_web_interface_draws_the_observation_and_offers_the_help_action():
    from agentgym_text.integrations.openenv_server import AgentGymEnvironment

    env = AgentGymEnvironment("AgentQuest/Mastermind-v0")
    assert env.web_actions({}) == []  # no env made yet (task API calls make none either)
    observation = env.reset(task_id="mastermind-003")
    drawn = env.render_web({**observation.model_dump(), "text": "<script>x</script>", "done": False})
    assert "mastermind-003" in drawn and "&lt;script&gt;" in drawn and "<script>" not in drawn
    assert env.web_actions(observation.model_dump()) == [("check valid actions", {"message": "check valid actions"})]
    env.close()


def test_a_server_made_with_kwargs_serves_the_tasks_those_kwargs_make():
    from agentgym_text.integrations.openenv_server import AgentGymEnvironment

    env = AgentGymEnvironment("AgentQuest/Mastermind-v0", max_episode_steps=7)
    assert env.list_splits() == ["test"]  # a train row carries kwargs of its own
    assert env.num_tasks("test") == len(tasks("AgentQuest/Mastermind-v0", "test"))
    assert env.get_task("test", 3)["env_kwargs"] == {"max_episode_steps": 7}
    observation = env.reset(split="test", index=3)
    assert observation.task_id == "mastermind-003" and observation.max_steps == 7
    with pytest.raises(ValueError, match="no split 'train'"):
        env.num_tasks("train")
    env.close()


MIXTURE = "AgentQuest/Mastermind-v0=3,AgentBench/DB-v0=1"


def test_a_two_id_mixture_serves_its_mixed_rows_and_resets_each_to_its_own_id():
    from agentgym_text.integrations.openenv_server import AgentGymEnvironment, env_name

    rows = tasks(MIXTURE, "test", size=8, mix_seed=2)
    env = AgentGymEnvironment(MIXTURE, size=8, mix_seed=2)
    assert env_name(MIXTURE) == "AgentQuest-Mastermind-v0+AgentBench-DB-v0"
    every_id_trains = all(
        train_splits()[env_id].available for env_id in ("AgentQuest/Mastermind-v0", "AgentBench/DB-v0")
    )
    assert env.list_splits() == (["test", "train"] if every_id_trains else ["test"]) and env.num_tasks("test") == 8
    assert [task["env_id"] for task in env.get_task_range("test")] == [row["env_id"] for row in rows]
    for index, row in enumerate(rows):
        assert env.get_task("test", index) == {
            "id": row["task_id"],
            "index": index,
            **{key: value for key, value in row.items() if key != "prompt"},
        }
        observation = env.reset(split="test", index=index)
        assert env.env.spec.id == row["env_id"] and env.state.env_id == row["env_id"]
        assert observation.task_id == row["task_id"] and observation.text == row["first_observation"]
    observation = env.reset(env_id="AgentQuest/Mastermind-v0", task_id="mastermind-003")
    assert env.env.spec.id == "AgentQuest/Mastermind-v0" and observation.task_id == "mastermind-003"
    with pytest.raises(ValueError, match="AgentQuest/Sudoku-v0 is not served here"):
        env.reset(env_id="AgentQuest/Sudoku-v0")
    assert env.get_metadata().name == MIXTURE
    env.close()


@needs_task_api
def test_serve_takes_a_mixture_and_its_task_api_routes_serve_the_mixed_rows():
    server = Server(MIXTURE, 2, "--size", "8", "--mix-seed", "2")
    try:
        rows = tasks(MIXTURE, "test", size=8, mix_seed=2)
        name = "AgentQuest-Mastermind-v0+AgentBench-DB-v0"
        assert _get(f"{server.url}/list_environments") == [name]
        assert _post(f"{server.url}/{name}/num_tasks", {"split": "test"}) == (200, {"num_tasks": 8})
        status, answer = _post(f"{server.url}/{name}/task_range", {"split": "test", "start": 0, "stop": 8})
        assert [(t["env_id"], t["id"]) for t in answer["tasks"]] == [(r["env_id"], r["task_id"]) for r in rows]
        with GenericEnvClient(base_url=server.url).sync() as client:
            for index in (0, 1, 5):
                result = client.reset(split="test", index=index)
                assert result.observation["task_id"] == rows[index]["task_id"]
                assert result.observation["text"] == rows[index]["first_observation"]
    finally:
        server.stop()


def test_a_mixture_of_ids_with_training_splits_serves_train_rows_with_their_own_kwargs():
    from agentgym_text.integrations.openenv_server import AgentGymEnvironment

    mixture = ["AgentQuest/Mastermind-v0", "AgentQuest/Sudoku-v0"]
    rows = tasks(mixture, "train", size=4)
    env = AgentGymEnvironment(mixture, size=4)
    assert env.list_splits() == ["test", "train"] and env.num_tasks("train") == 4
    for index, row in enumerate(rows):
        observation = env.reset(split="train", index=index)
        assert env.env.spec.id == row["env_id"] and env.env.spec.kwargs == {**env.env.spec.kwargs, **row["env_kwargs"]}
        assert observation.task_id == row["task_id"] and observation.text == row["first_observation"]
    env.close()


# ---- under an agent protocol ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def protocol_server(tmp_path_factory):
    """One in-process server per protocol (a protocol object reaches ``make_app`` from Python only)."""
    import threading

    import uvicorn

    from agentgym_text.integrations.openenv_server import make_app

    originals = protocols(tmp_path_factory.mktemp("checkouts"))
    running = []

    def start(env_id: str, name: str) -> str:
        port = _free_port()
        app = make_app(env_id, max_sessions=2, protocol=originals[name])
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        running.append((server, thread))
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/health", timeout=1).read()
                return url
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the in-process server did not come up")

    yield originals, start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.parametrize("env_id", list(REPLIES))
def test_under_a_protocol_the_observations_carry_chat_envs_requests(protocol_server, env_id):
    originals, start = protocol_server
    name = env_id.split("/")[0].lower()
    (row,) = tasks(env_id, limit=1)
    expected = chat_requests(env_id, originals[name], task_id=row["task_id"], seed=row["seed"])
    with GenericEnvClient(base_url=start(env_id, name)).sync() as client:
        result = client.reset(seed=row["seed"], task_id=row["task_id"])
        seen, samplings = [result.observation["messages"]], [result.observation["sampling"]]
        while True:
            result = client.step({"message": reply(env_id, len(seen) - 1)})
            if result.done:
                break
            seen.append(result.observation["messages"])
            samplings.append(result.observation["sampling"])
            assert result.observation["text"] == seen[-1][-1]["content"]
    assert seen == expected and len(seen) > 8
    if name == "agentboard":  # a new [system, user] pair every step: the client sends the list as it comes
        assert {len(messages) for messages in seen} == {2} and {s.get("stop") for s in samplings} == {"\n"}
    else:
        assert {(s["temperature"], s["max_tokens"]) for s in samplings} == {(0, 512)}


def test_serve_protocol_from_the_command_line_sends_chat_envs_requests(tmp_path):
    env_id = "AgentBench/LateralThinking-v0"
    protocol = protocols(tmp_path)["agentbench"]
    (row,) = tasks(env_id, limit=1)
    expected = chat_requests(env_id, protocol, task_id=row["task_id"], seed=row["seed"])
    server = Server(env_id, 2, "--protocol", "agentbench", "--agentbench-dir", str(protocol.checkout))
    try:
        with GenericEnvClient(base_url=server.url).sync() as client:
            result = client.reset(seed=row["seed"], task_id=row["task_id"])
            seen = [result.observation["messages"]]
            while not (result := client.step({"message": reply(env_id, len(seen) - 1)})).done:
                seen.append(result.observation["messages"])
    finally:
        server.stop()
    assert seen == expected


def test_serve_with_a_missing_checkout_exits_2_naming_the_folder(tmp_path, capsys):
    from agentgym_text.cli import main

    missing = tmp_path / "nowhere"
    code = main(["serve", "--env", "AgentBench/KG-v0", "--protocol", "agentbench", "--agentbench-dir", str(missing)])
    assert code == 2 and str(missing) in capsys.readouterr().err
