"""AgentBench/OS-v0: task set, action format, expert, progress, determinism, vector envs."""

import hashlib
import json
import os
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.core import ActionError
from agentgym_text.envs.os.actions import parse_action
from agentgym_text.envs.os.expert import bash_action
from agentgym_text.envs.os.sandbox import Sandbox, sandbox_problem
from agentgym_text.envs.os.tasks import MAX_STEPS, TASK_COUNT, TEMPLATES, instance, make_tasks
from agentgym_text.testing import garbage_actions

ENV_ID = "AgentBench/OS-v0"
pytestmark = pytest.mark.skipif(sandbox_problem() is not None, reason=str(sandbox_problem()))
ALL_IDS = make_tasks().task_ids
SAMPLE_IDS = ALL_IDS[:: len(ALL_IDS) // 24]  # two per template


def _expert_episode(env, task_id):
    obs, info = env.reset(options={"task_id": task_id})
    assert info["progress_rate"] == 0.0 and not any(info["subgoals_done"])
    records = [(None, obs, info)]
    while not env.unwrapped.episode_over:
        action = env.unwrapped.expert_action()
        obs, reward, terminated, truncated, info = env.step(action)
        records.append((action, obs, info))
        assert info["valid"], obs
    return records


@pytest.fixture(scope="module")
def env():
    made = gym.make(ENV_ID)
    yield made
    made.close()


def test_task_set_has_144_tasks_in_three_groups():
    tasks = make_tasks()
    assert len(tasks) == TASK_COUNT == 144 and len(TEMPLATES) == 12
    groups = {task.params["group"] for task in tasks}
    assert groups == {"information retrieval", "file and permission manipulation", "text processing"}
    answers = [instance(t.params["template"], t.params["seed"]).answer is not None for t in tasks]
    assert 0 < sum(answers) < len(answers)  # both exact-answer and checker tasks
    inits = {instance(t.params["template"], t.params["seed"]).init for t in tasks}
    assert len(inits) == len(tasks)  # every instance has its own machine


def test_registration_matches_the_task_set():
    entry = next(e for e in agentgym_text.list_envs() if e.env_id == ENV_ID)
    assert (entry.task_count, entry.max_steps) == (TASK_COUNT, MAX_STEPS)
    assert gym.spec(ENV_ID).max_episode_steps == MAX_STEPS


def test_training_split_is_disjoint_and_any_size():
    train = make_tasks("train", 30)
    assert len(train) == 30 and not set(train.task_ids) & set(ALL_IDS)

    def inits(tasks):
        return {instance(t.params["template"], t.params["seed"]).init for t in tasks}

    assert not inits(train) & inits(make_tasks())


def test_no_milestone_holds_before_the_agent_acts():
    for template in TEMPLATES:
        task = instance(template, 0)
        scripts = [m.script for m in task.milestones if m.kind == "state"] + ([task.check] if task.check else [])
        with Sandbox(task.init) as box:
            assert not any(box.checks(scripts)), template


def test_random_agent_progresses_less_than_expert(env):
    rng = np.random.default_rng(0)
    random_rates, expert_rates = [], []
    for task_id in SAMPLE_IDS[::4]:
        env.reset(options={"task_id": task_id})
        info = {}
        for _ in range(8):
            actions = env.unwrapped.admissible_actions()
            obs, reward, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
            if terminated or truncated:
                break
        random_rates.append(info["progress_rate"])
        expert_rates.append(_expert_episode(env, task_id)[-1][2]["progress_rate"])
    assert np.mean(random_rates) < np.mean(expert_rates) == 1.0


@pytest.mark.parametrize(
    "action, reason, words",
    [
        ("ls -la /etc", "unparsable", "No action found"),
        ("I think I should look at the files first, then count them.", "unparsable", "No action found"),
        ("Think: list.\n\nAct: bash", "bad_argument", "code block"),
        ("Act: jump off the roof", "unparsable", "names no action"),
        ("```bash\nls", "bad_argument", "not closed"),
        ("x" * 9000, "too_long", "limit"),
        ("", "empty", "empty"),
    ],
)
def test_bad_input_is_invalid_with_a_clear_message(env, action, reason, words):
    env.reset(options={"task_index": 0})
    obs, reward, terminated, truncated, info = env.step(action)
    assert not info["valid"] and info["invalid_reason"] == reason and words in obs
    assert not terminated and reward == 0.0


def test_garbage_never_reaches_the_shell(env, monkeypatch):
    env.reset(options={"task_index": 0})
    calls = []
    monkeypatch.setattr(env.unwrapped.sandbox, "run", lambda command: calls.append(command))
    for action in garbage_actions(400, seed=3):
        assert env.step(action)[4]["valid"] is False
    assert calls == []


def test_agentbench_action_forms_parse():
    assert parse_action("Think: a\n\nAct: bash\n\n```bash\nls\n```\n\n```bash\npwd\n```").content == "ls\n\npwd"
    assert parse_action("Act: answer(1)\nAct: finish").kind == "finish"  # the last Act: line counts
    assert parse_action("Act: answer(  /home/x (old) )").content == "  /home/x (old) "
    assert parse_action("answer(42)").content == "42"
    assert parse_action("```bash ls -l```").content == "ls -l"
    assert parse_action("```\nls\n```").content == "ls"
    assert parse_action("bash   ls /tmp").content == "ls /tmp"
    with pytest.raises(ActionError):
        parse_action("Act: answer")


def test_answer_and_finish_end_the_episode(env):
    task_id = next(t for t in ALL_IDS if "count-modified" in t)
    env.reset(options={"task_id": task_id})
    obs, reward, terminated, truncated, info = env.step("Act: answer(-1)")
    assert terminated and not info["success"] and info["finish_reason"] == "failure" and "not correct" in obs
    env.reset(options={"task_id": task_id})
    obs, reward, terminated, truncated, info = env.step("Act: finish")
    assert terminated and not info["success"]
    check_id = next(t for t in ALL_IDS if "readonly" in t)
    env.reset(options={"task_id": check_id})
    obs, reward, terminated, truncated, info = env.step("Act: finish")
    assert terminated and not info["success"] and "not done" in obs


def test_output_is_truncated_with_agentbench_marker(env):
    env.reset(options={"task_index": 0})
    obs = env.step(bash_action("seq 1 2000"))[0]
    assert obs.startswith("The output of the OS:\n\n1\n2\n")
    assert obs.endswith("[truncated because the output is too long]") and len(obs) < 900
    assert env.step(bash_action("true"))[0] == "The output of the OS is empty."


_STATE_DUMP = (
    "find /etc /root /home /tmp /var /opt /srv -xdev -printf '%p %m %s %T@\\n' | sort; "
    "find /etc /root /home /tmp /var /opt /srv -xdev -type f -exec md5sum {} + | sort"
)


def _trajectory_with_state(task_id):
    env = gym.make(ENV_ID)
    try:
        records = _expert_episode(env, task_id)[:-1]  # all but the final answer/finish
        env.reset(options={"task_id": task_id})
        steps = []
        for action, _, _ in records[1:]:
            steps.append(env.step(action))
        steps.append(env.step(bash_action(_STATE_DUMP)))
        dump = env.unwrapped.sandbox.run(_STATE_DUMP).output
        return json.dumps([[s[0], s[4]] for s in steps], sort_keys=True, default=str), dump
    finally:
        env.close()


@pytest.mark.parametrize("template", ["sort-by-extension", "readonly-except", "extract-domains"])
def test_same_seed_same_trajectory_including_sandbox_contents(template):
    task_id = f"os-{template}-03"
    first, second = _trajectory_with_state(task_id), _trajectory_with_state(task_id)
    assert first[0] == second[0]
    assert first[1] == second[1] and len(first[1].splitlines()) > 20
    listing = [line.split() for line in first[1].splitlines() if line.startswith("/") and len(line.split()) == 4]
    stamps = {float(fields[3]) for fields in listing if not fields[0].startswith(("/etc/alternatives", "/etc/ld."))}
    assert stamps and max(stamps) < 1_750_000_000  # virtual 2023/2024 times, never the wall clock


def test_twenty_concurrent_episodes_leave_no_process_or_temp_dir(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    envs = gym.make_vec(ENV_ID, num_envs=20, vectorization_mode="async")
    try:
        envs.reset(seed=list(range(20)))
        for _ in range(3):
            envs.step([bash_action("ls -la /home /var/log; echo $$")] * 20)
        workers = {process.pid for process in envs.unwrapped.processes}
        sandboxes = _children_named(workers, "bwrap")
        assert len(sandboxes) >= 20
    finally:
        envs.close()
    assert not [pid for pid in sandboxes if _alive(pid)]
    assert not _children_named(workers, "bwrap")
    assert list(scratch.iterdir()) == []


def _alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _children_named(parents, name):
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _alive(int(entry)):
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if stat.split("(", 1)[1].startswith(name) and int(stat.rsplit(")", 1)[1].split()[1]) in parents:
                found.add(int(entry))
    return found


def test_sandbox_contents_digest_is_stable_across_processes():
    import subprocess
    import sys

    script = (
        "from agentgym_text.envs.os.sandbox import Sandbox\n"
        "from agentgym_text.envs.os.tasks import instance\n"
        f"box = Sandbox(instance('count-modified-after', 5).init)\n"
        f"print(box.run({_STATE_DUMP!r}).output)\n"
        "box.close()\n"
    )
    outputs = [
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in (1, 2)
    ]
    assert outputs[0] == outputs[1] and "/var/log/" in outputs[0]
    assert hashlib.sha256(outputs[0].encode()).hexdigest()
