"""SkyRL's ``BaseTextEnv`` contract (``skyrl_gym.make`` with a row as ``extras``, ``init``, ``step``, ``get_metrics``),
driven as SkyRL's generator drives it, on three ids."""

import pytest

skyrl_gym = pytest.importorskip("skyrl_gym", reason="needs the skyrl extra (make test-integrations)")

from agentgym_text.integrations.chat import ChatEnv  # noqa: E402
from agentgym_text.integrations.skyrl import GENERIC_ENV_CLASS, register_envs, skyrl_rows  # noqa: E402
from agentgym_text.integrations.skyrl_env import AgentGymTextEnv  # noqa: E402
from tests.support.protocol_episodes import REPLIES, chat_requests, protocols, reply  # noqa: E402

IDS = ["AgentQuest/Mastermind-v0", "AgentBoard/ToolQuery-v0", "AgentBench/DB-v0"]


@pytest.fixture(scope="module", autouse=True)
def registered():
    ids = register_envs()
    assert register_envs() == ids  # a second call is harmless
    return ids


def _play(env, twin: ChatEnv, replies_before_expert: int = 1) -> tuple[list[float], list[dict]]:
    """Step ``env`` to its end: first ``replies_before_expert`` replies that are no action, then the expert's
    actions read off ``twin`` (a local ChatEnv given the same replies); checks each step against the twin."""
    rewards, outputs, turn = [], [], 0
    while True:
        text = "I am thinking." if turn < replies_before_expert else f"Action: {twin.unwrapped.expert_action()}"
        out = env.step(text)
        reply, reward, terminated, truncated, info = twin.step(text)
        assert out["reward"] == pytest.approx(reward) and out["metadata"]["progress_rate"] == info["progress_rate"]
        assert out["metadata"]["valid"] == info["valid"] and out["metadata"]["task_id"] == info["task_id"]
        rewards.append(out["reward"])
        outputs.append(out)
        turn += 1
        if out["done"]:
            return rewards, outputs
        assert out["observations"] == [{"role": "user", "content": reply["content"]}]


@pytest.mark.parametrize("env_id", IDS)
def test_rewards_sum_to_the_progress_rate_and_metrics_report_the_episode(env_id, registered):
    assert env_id in registered
    row = skyrl_rows(env_id, limit=2)[1]
    env = skyrl_gym.make(row["env_class"], env_config={}, extras=row)
    twin = ChatEnv(env_id)
    messages, info = twin.reset(seed=row["seed"], options={"task_id": row["task_id"]})
    conversation, init_info = env.init(row["prompt"])
    assert conversation == messages and init_info["task_id"] == row["task_id"]

    rewards, outputs = _play(env, twin)
    metrics = env.get_metrics()
    assert sum(rewards) == pytest.approx(metrics["progress_rate"]) and metrics["progress_rate"] == 1.0
    assert metrics["success"] == 1.0 and outputs[-1]["observations"] == []
    assert outputs[-1]["metadata"]["finish_reason"] == "success"
    assert metrics["steps"] == len(rewards) and metrics["grounding_accuracy"] < 1.0  # the first reply was invalid
    env.close()
    twin.close()


def test_max_turns_ends_the_episode_and_the_rewards_still_sum_to_the_progress_so_far():
    row = {**skyrl_rows("AgentQuest/Mastermind-v0", limit=4)[3], "max_turns": 2}
    env = skyrl_gym.make(GENERIC_ENV_CLASS, env_config={}, extras=row)  # the id comes from the row
    conversation, _ = env.init(row["prompt"][:1])  # a prompt without the observation gets it appended
    assert [m["role"] for m in conversation] == ["system", "user"] and conversation[1] == row["prompt"][1]
    outputs = [env.step("Action: guess 0123") for _ in range(2)]
    assert [out["done"] for out in outputs] == [False, True] and outputs[-1]["metadata"]["finish_reason"] is None
    progress = env.get_metrics()["progress_rate"]
    assert sum(out["reward"] for out in outputs) == pytest.approx(progress) and 0 < progress < 1
    env.close()


def test_a_two_id_mixture_makes_each_rows_env_from_its_own_id():
    mixture = {"AgentQuest/Mastermind-v0": 1, "AgentBench/DB-v0": 1}
    rows = skyrl_rows(mixture, "test", size=4)
    assert [row["env_class"] for row in rows] == [row["env_id"] for row in rows]
    assert sorted(row["env_id"] for row in rows) == sorted(list(mixture) * 2)
    for row in rows:
        for env_class in (row["env_class"], GENERIC_ENV_CLASS):
            env = skyrl_gym.make(env_class, env_config={}, extras=row)
            conversation, info = env.init(row["prompt"])
            assert env.env_id == row["env_id"] and info == {"task_id": row["task_id"], "env_id": row["env_id"]}
            assert conversation == row["prompt"]
            env.close()
    other = next(row for row in rows if row["env_id"] != "AgentQuest/Mastermind-v0")
    with pytest.raises(ValueError, match="reached the env class of AgentQuest/Mastermind-v0"):
        skyrl_gym.make("AgentQuest/Mastermind-v0", env_config={}, extras=other)


# ---- under an agent protocol ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def originals(tmp_path_factory):
    return protocols(tmp_path_factory.mktemp("checkouts"))


@pytest.mark.parametrize("env_id", [env_id for env_id in REPLIES if env_id.startswith("AgentBench/")])
def test_under_agentbenchs_protocol_the_chat_history_is_chat_envs_requests(originals, env_id):
    protocol = originals["agentbench"]
    (row,) = skyrl_rows(env_id, limit=1)
    expected = chat_requests(env_id, protocol, task_id=row["task_id"], seed=row["seed"])
    env = AgentGymTextEnv(env_config={}, extras=row, protocol=protocol)
    history, _ = env.init(row["prompt"])  # SkyRL's generator: the prompt, then each reply and its observations
    seen = [list(history)]
    while True:
        text = reply(env_id, len(seen) - 1)
        out = env.step(text)
        if out["done"]:
            break
        history = [*history, {"role": "assistant", "content": text}, *out["observations"]]
        seen.append(list(history))
    assert seen == expected and len(seen) > 8
    assert "system" not in {m["role"] for m in history}
    env.close()


@pytest.mark.parametrize("name", ["ours", "agentboard"])
def test_a_protocol_that_rebuilds_its_requests_is_refused(originals, name):
    protocol = originals.get(name, name)
    with pytest.raises(ValueError, match="SkyRL .*'agentbench'"):
        register_envs(protocol=protocol)
    with pytest.raises(ValueError, match="SkyRL"):
        AgentGymTextEnv(env_config={}, extras=skyrl_rows("AgentBoard/WebShop-v0", limit=1)[0], protocol=protocol)
