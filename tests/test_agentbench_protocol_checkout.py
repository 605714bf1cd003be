"""The ``agentbench`` protocol's checkout reading and the session's cut: a missing or wrong checkout is one message
naming the folder and the file (exit 2 from the CLI), the texts are found by where they stand, and ``segments`` and
``filter_messages`` agree with AgentBench v0.2's ``Session`` on seeded histories (``agentbench_filter_messages.json``,
recorded by ``tests/reference/record_agentbench_protocol.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.agentbench.os_interaction import extract_action
from agentgym_text.agents.protocols.agentbench.session import filter_messages, segments
from agentgym_text.agents.protocols.base import CheckoutError
from agentgym_text.cli import main
from tests.support.agentbench_checkout import DB, FILES, write_checkout
from tests.support.agentbench_histories import histories

IDS = {
    "src/server/tasks/dbbench/__init__.py": "AgentBench/DB-v0",
    "src/server/tasks/os_interaction/task.py": "AgentBench/OS-v0",
    "src/server/tasks/knowledgegraph/task.py": "AgentBench/KG-v0",
    "src/server/tasks/ltp/task.py": "AgentBench/LateralThinking-v0",
    "src/server/tasks/webshop/__init__.py": "AgentBench/WebShop-v0",
    "src/server/tasks/alfworld/task.py": "AgentBench/ALFWorld-v0",
    "configs/tasks/alfworld.yaml": "AgentBench/ALFWorld-v0",
    "src/server/tasks/alfworld/prompts/examples.json": "AgentBench/ALFWorld-v0",
    "src/server/tasks/mind2web/task.py": "AgentBench/WebBrowsing-v0",
    "src/server/tasks/mind2web/dataloader.py": "AgentBench/WebBrowsing-v0",
    "configs/tasks/mind2web.yaml": "AgentBench/WebBrowsing-v0",
    "data/mind2web/prompt/examples.json": "AgentBench/WebBrowsing-v0",
    "src/server/tasks/card_game/AI/prompt/en.py": "AgentBench/CardGame-v0",
    "src/server/tasks/card_game/AI/client.py": "AgentBench/CardGame-v0",
}
CUT = json.loads((Path(__file__).parent / "reference" / "agentbench_filter_messages.json").read_text())["cases"]


@pytest.mark.parametrize("relative", sorted(FILES))
def test_a_missing_task_module_names_the_folder_and_the_file(tmp_path, relative):
    protocol = AgentBenchProtocol(write_checkout(tmp_path, skip=(relative,)))
    with pytest.raises(CheckoutError) as error:
        protocol.check([IDS[relative]])
    assert str(tmp_path) in str(error.value) and relative in str(error.value)
    protocol.check(sorted({i for i in IDS.values() if i != IDS[relative]}))  # the others read


def test_a_module_without_the_text_names_what_it_lacks(tmp_path):
    write_checkout(tmp_path)
    (tmp_path / "src/server/tasks/dbbench/__init__.py").write_text(DB.replace("big_prompt =", "other_prompt ="))
    with pytest.raises(CheckoutError, match="dbbench/__init__.py has no literal constant big_prompt"):
        AgentBenchProtocol(tmp_path).check(["AgentBench/DB-v0"])
    (tmp_path / "src/server/tasks/dbbench/__init__.py").write_text("def broken(:\n")
    with pytest.raises(CheckoutError, match="does not parse"):
        AgentBenchProtocol(tmp_path).check(["AgentBench/DB-v0"])


def test_the_cli_exits_2_with_one_message(tmp_path, capsys):
    args = ["eval", "--agent", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--protocol"]
    args += ["agentbench", "--envs", "AgentBench/KG-v0", "--out", str(tmp_path / "run"), "--agentbench-dir"]
    assert main([*args, str(tmp_path / "nowhere")]) == 2
    assert str(tmp_path / "nowhere") in capsys.readouterr().err
    write_checkout(tmp_path / "checkout", skip=("src/server/tasks/knowledgegraph/task.py",))
    assert main([*args, str(tmp_path / "checkout")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "src/server/tasks/knowledgegraph/task.py is missing" in err


def test_the_protocol_covers_its_ids_only_when_their_rules_exist(tmp_path):
    protocol = AgentBenchProtocol(write_checkout(tmp_path))
    assert all(protocol.covers(env_id) for env_id in IDS.values())
    assert not protocol.covers("AgentBoard/PDDL-v0")


def test_os_replies_read_as_extract_action_reads_them():
    assert extract_action("Act: bash\n\n```bash\nls\n```\n```bash\npwd\n```") == ("bash", "ls\n\npwd")
    assert extract_action("Act: answer(a (b) c)") == ("commit", "a (b) c")
    assert extract_action("Act: bash\n```bash\nls\n```\nAct: answer no brackets") == ("bash", "ls")
    assert extract_action("Act: finish\nAct: bash") == ("bash", "")
    assert extract_action("act: bash") == (None, None)


def test_segments_and_the_cut_agree_with_agentbenchs_session():
    assert len(CUT) == 60 and sum(bool(case["first_added"]) for case in CUT) >= 10
    for history, case in zip(histories(), CUT):
        assert [segments(m["content"]) for m in history] == case["segments"]
        sent = filter_messages(history)
        assert len(sent) == case["sent"]
        assert sent[0]["content"] == history[0]["content"] + case["first_added"]
        assert sent[1:] == history[len(history) - len(sent) + 1 :]
        assert [m["role"] for m in sent] == case["roles"]


def test_checkout_code_is_read_never_run(tmp_path):
    """A prompt method that does more than build a text is refused by name, and nothing of it runs."""
    from agentgym_text.agents.protocols.agentbench.source import TaskSource

    marker = tmp_path / "ran"
    module = tmp_path / "co" / "task.py"
    module.parent.mkdir()
    module.write_text(
        "class Prompter:\n"
        "    def base(self):\n"
        "        return 'base'\n\n"
        "class ENPrompter(Prompter):\n"
        "    def solver_instruction(self, story):\n"
        "        return f'{self.base()}: {story}'\n\n"
        "    def sneaky(self):\n"
        f"        return __import__('pathlib').Path({str(marker)!r}).write_text('x')\n"
    )
    prompter = TaskSource(tmp_path / "co", "task.py").instance("ENPrompter", bases=("Prompter",))
    assert prompter.solver_instruction("a story") == "base: a story"
    with pytest.raises(ValueError, match="more than a text expression"):
        prompter.sneaky()
    assert not marker.exists()
