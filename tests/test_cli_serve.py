"""``agentgym-text serve`` names what is missing: the family's extra, or the server's, never the wrong one."""

import pytest

from agentgym_text import cli
from agentgym_text.core import registry
from agentgym_text.integrations import openenv_server

BABYAI = "AgentBoard/BabyAI-v0"


def test_serve_names_the_family_extra_when_its_engine_is_not_installed(monkeypatch, capsys):
    monkeypatch.setattr(registry, "extra_installed", lambda extra: extra != "babyai")
    assert cli.main(["serve", "--env", BABYAI]) == 2
    error = capsys.readouterr().err
    assert "pip install 'agentgym-text[babyai]'" in error and "openenv" not in error


@pytest.mark.parametrize(
    ("module", "extra"), [("minigrid", "babyai"), ("uvicorn", "openenv"), ("openenv.core", "openenv")]
)
def test_a_module_missing_at_serve_time_is_blamed_on_the_right_extra(monkeypatch, capsys, module, extra):
    def missing(*args, **kwargs):
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)

    monkeypatch.setattr(openenv_server, "serve", missing)
    assert cli.main(["serve", "--env", BABYAI]) == 2
    error = capsys.readouterr().err
    assert f"pip install 'agentgym-text[{extra}]'" in error and repr(module) in error


def test_serve_reads_a_mixture_and_refuses_a_bad_one_in_one_line(monkeypatch, capsys):
    served = {}
    monkeypatch.setattr(openenv_server, "serve", lambda envs, **kwargs: served.update(envs=envs, **kwargs))
    mixture = "AgentQuest/Mastermind-v0=3,AgentQuest/Sudoku-v0=1"
    assert cli.main(["serve", "--env", mixture, "--size", "40", "--mix-seed", "7"]) == 0
    assert served["envs"] == mixture and served["size"] == 40 and served["mix_seed"] == 7
    assert cli.main(["serve", "--env", "AgentQuest/Mastermind-v0=3,AgentQuest/Sudoku-v0=lots"]) == 2
    assert "the weight of 'AgentQuest/Sudoku-v0' must be a positive number, not 'lots'" in capsys.readouterr().err
