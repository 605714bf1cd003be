"""AgentBench/OS-v0 on AgentBench's own items (task_file=): loading, v0.2's ids, its verdicts (match, checker
chains with arguments, python checkers, the example run at check time), the expert, on both sandboxes. Files are
written here in AgentBench's format (tests/support/os_agentbench_items.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.envs.os.agentbench_file import TaskFileError, load_task_file
from agentgym_text.envs.os.agentbench_judge import judge
from agentgym_text.envs.os.env import OsEnv
from agentgym_text.envs.os.expert import bash_action
from agentgym_text.envs.os.rootfs import rootfs_problem
from agentgym_text.envs.os.sandbox import sandbox_problem
from tests.support.os_agentbench_items import GROUP_1, INTEGER_MATCH, write_items

needs_bwrap = pytest.mark.skipif(sandbox_problem() is not None, reason=str(sandbox_problem()))
needs_rootfs = pytest.mark.skipif(rootfs_problem() is not None, reason=str(rootfs_problem()))
SANDBOXES = [pytest.param("bwrap", marks=needs_bwrap), pytest.param("rootfs", marks=needs_rootfs)]
IDS = [f"std-001-sample-{i:05d}" for i in range(len(GROUP_1))] + ["dev-001-dev-00000"]
BWRAP_CANNOT = {"std-001-sample-00003"}  # stat names the owner from /etc/passwd, which bwrap's /etc lacks


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_items(tmp_path)


def _config(root: Path) -> list[dict]:
    """AgentBench's data_config file list (configs/tasks/os.yaml's form)."""
    return [
        {
            "problem_file": str(root / "data/1/*.json"),
            "script_dir": str(root / "scripts/1/"),
            "index_prefix": "std-001-",
        },
        {
            "problem_file": str(root / "data/dev.json"),
            "script_dir": str(root / "scripts/dev/"),
            "index_prefix": "dev-001-",
        },
    ]


def _play_expert(env: OsEnv, task_id: str) -> dict:
    env.reset(options={"task_id": task_id})
    info: dict = {}
    while not env.episode_over:
        _, _, _, _, info = env.step(env.expert_action())
    return info


def test_items_load_with_v02_sample_names_and_scripts_read_from_the_script_folder(root):
    tasks = load_task_file(_config(root), None, 8)
    assert tasks.task_ids == IDS
    assert load_task_file(str(root / "data/*/*.json"), None, 8).task_ids == IDS[:-1]  # AgentBench's layout
    assert load_task_file(str(root / "data/dev.json"), None, 8).task_ids == IDS[-1:]
    first, logs, quirk, regex = (tasks[i].params for i in range(4))
    assert first["match"] == {"answer": "3", "strip": True} and first["init"][0][0] == "bash"
    assert logs["check"][0] is None and logs["check"][1] == ["python", INTEGER_MATCH]
    assert "touch /var/log/app/a.log" in logs["init"][0][1]  # read from scripts/1/init/logs.sh
    assert quirk["init"] == [] and quirk["check"][0] is None  # a create list: no init, as in v0.2
    assert regex["match"] == {"regex": "^(root|0)$", "strip": True} and len(regex["init"]) == 2
    assert tasks[5].params["init"][0][0] == "python" and tasks[7].params["start"] == "var=3.14"
    assert tasks[0].max_steps == 8 and tasks[0].goal == GROUP_1[0]["description"]


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda items: items[0].pop("description"), "item 0: the description is missing"),
        (lambda items: items[1]["evaluation"].update(check=[None]) or items[1]["evaluation"].pop("example"), "example"),
        (lambda items: items[1]["create"].update(init={"file": "init/none.sh"}), "not in the script folder"),
        (lambda items: items[1]["create"].update(init={"language": "c++", "code": "int main(){}"}), "is in 'c"),
        (lambda items: items[0].update(evaluation={}), "needs match or check"),
        (lambda items: items[0]["evaluation"].update(match={"regex": "("}), "does not compile"),
    ],
)
def test_bad_items_name_the_file_and_item(root, change, words):
    items = json.loads((root / "data/1/sample.json").read_text())
    change(items)
    (root / "data/1/sample.json").write_text(json.dumps(items))
    with pytest.raises(TaskFileError, match=words):
        load_task_file(str(root / "data/1/sample.json"), None, 8)


def test_bad_task_file_arguments_are_refused(root, tmp_path):
    with pytest.raises(TaskFileError, match="does not exist"):
        load_task_file(str(tmp_path / "none.json"), None, 8)
    (tmp_path / "broken.json").write_text("[{")
    with pytest.raises(TaskFileError, match="not JSON"):
        load_task_file(str(tmp_path / "broken.json"), None, 8)
    with pytest.raises(TaskFileError, match="no .json or .jsonl file matches"):
        load_task_file([{"problem_file": str(tmp_path / "x/*.json")}], None, 8)
    with pytest.raises(TaskFileError, match="script_dir= goes with a task_file= path"):
        load_task_file(_config(root), "scripts", 8)


@needs_bwrap
def test_options_that_choose_generated_tasks_are_refused(root):
    for option in ({"num_tasks": 3}, {"split": "train"}, {"templates": ["top-ip"]}):
        with pytest.raises(ValueError, match="with task_file= every item of the file is a task"):
            OsEnv(task_file=str(root / "data/dev.json"), sandbox="bwrap", **option)
    with pytest.raises(ValueError, match="script_dir= goes with task_file="):
        OsEnv(script_dir=str(root))
    with pytest.raises(ValueError, match="sandbox must be one of"):
        OsEnv(task_file=str(root / "data/dev.json"), sandbox="docker")


def test_checker_chain_passes_the_answer_and_every_output_on():
    calls = []

    def run(language, code, args):
        calls.append((language, code, args))
        return (0, "7\n") if code == "example" else (int(args[0] != "7"), "")

    params = {"check": [None, ["python", "compare"]], "example": ["bash", "example"]}
    assert judge(params, "7", run)[0]
    assert calls == [("bash", "example", ("7",)), ("python", "compare", ("7", "7\n"))]
    assert not judge(params, "8", run)[0]
    calls.clear()
    assert not judge(params, None, run)[0] and calls[0][2] == ("None",)  # finish: str(None), as v0.2
    assert not judge({"check": [["bash", "x"], None], "example": ["bash", "example"]}, "7", lambda *a: (1, ""))[0]
    assert judge({"match": {"regex": "^a+$", "strip": True}}, " aa \n", run)[0]
    assert not judge({"match": {"answer": "3", "strip": False}}, " 3", run)[0]
    assert not judge({"match": {"answer": "3", "strip": True}}, None, run)[0]


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_every_example_passes_its_checkers(root, sandbox):
    env = OsEnv(task_file=_config(root), sandbox=sandbox)
    try:
        for task_id in IDS:
            info = _play_expert(env, task_id)
            expected = not (sandbox == "bwrap" and task_id in BWRAP_CANNOT)
            assert info["success"] is expected and info["progress_rate"] == float(expected), (task_id, info)
    finally:
        env.close()


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_wrong_answers_and_undone_operations_fail(root, sandbox):
    env = OsEnv(task_file=_config(root), sandbox=sandbox)
    try:
        for task_id, action in [
            ("std-001-sample-00000", "Act: answer(4)"),
            ("std-001-sample-00000", "Act: finish"),
            ("std-001-sample-00001", "Act: answer(2)"),
            ("std-001-sample-00001", "Act: answer(three)"),  # the python checker fails on int('three')
            ("std-001-sample-00003", "Act: answer(jack)"),
            ("std-001-sample-00004", "Act: finish"),
            ("std-001-sample-00005", "Act: answer(apple)"),
        ]:
            env.reset(options={"task_id": task_id})
            _, reward, terminated, _, info = env.step(action)
            assert terminated and not info["success"] and reward == 0.0, (task_id, action)
    finally:
        env.close()


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_example_runs_at_check_time_after_the_agents_changes(root, sandbox):
    env = OsEnv(task_file=_config(root), sandbox=sandbox)
    try:
        env.reset(options={"task_id": "std-001-sample-00001"})
        env.step(bash_action("rm /var/log/app/a.log"))
        _, _, _, _, info = env.step("Act: answer(2)")  # 2 now, though the init made 3
        assert info["success"]
    finally:
        env.close()


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_init_background_processes_and_the_start_line_survive_steps(root, sandbox):
    env = OsEnv(task_file=_config(root), sandbox=sandbox)
    try:
        env.reset(options={"task_id": "std-001-sample-00006"})
        for _ in range(3):
            obs, *_ = env.step(bash_action("ps -eo comm | grep -c '^sleep$'"))
            assert obs.endswith("\n3"), obs
        env.reset(options={"task_id": "dev-001-dev-00000"})
        obs, *_ = env.step(bash_action("echo $var; pwd"))
        assert obs == "The output of the OS:\n\n3.14\n/"  # v0.2's shell: started in /, the start line's state kept
    finally:
        env.close()
