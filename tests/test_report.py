"""The HTML report: one self-contained file with every view, safe escaping, side-by-side comparison, and
rendering in headless Chromium without JavaScript errors."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from agentgym_text.agents import make_agent
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.report import default_report_path, write_report

CHROMIUM = Path("/usr/bin/chromium")
SECTIONS = (
    "Summary",
    "Progress rate vs step",
    "Sub-skill scores",
    "Hard vs easy",
    "Grounding accuracy",
    "Repetition rate vs step",
    "Finish reasons",
    "Trajectories",
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    config = EvalConfig(envs="AgentQuest/Sudoku-v0", tasks="quick", max_steps=6, num_envs=2, progress_bar=False)
    run_eval(make_agent("expert"), config, root / "expert")
    run_eval(make_agent("random"), config, root / "random")
    return root


def test_report_is_one_self_contained_file_with_every_view(runs):
    path = write_report([runs / "expert"])
    assert path == runs / "expert" / "report.html"
    text = path.read_text(encoding="utf-8")
    for section in SECTIONS:
        assert f"<h2>{section}</h2>" in text
    # nothing is loaded from elsewhere: every image is inline, no external script/style/link
    sources = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", text)
    assert sources and all(source.startswith("data:image/png;base64,") for source in sources)
    assert "<link" not in text and "@import" not in text
    assert text.count("<img") == 5
    assert text.count("<details class=episode") == 4
    assert "put " in text and "sudoku-000" in text


def test_compare_shows_runs_side_by_side(runs):
    path = write_report([runs / "expert", runs / "random"])
    assert (
        path == default_report_path([runs / "expert", runs / "random"]) and path.name == "compare-expert-vs-random.html"
    )
    text = path.read_text(encoding="utf-8")
    assert "expert<br>SR %" in text and "random<br>SR %" in text
    assert text.count("<details class=episode") == 8


def test_report_escapes_text_from_envs_and_models(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    episode = {
        "key": "X/Y-v0::t::0",
        "index": 0,
        "env_id": "X/Y-v0",
        "family": "y",
        "category": "game",
        "task_id": "t",
        "difficulty": "easy",
        "goal": "<script>alert('goal')</script>",
        "initial_observation": "<img src=x onerror=alert(1)>",
        "success": False,
        "progress_rate": 0.0,
        "steps": 1,
        "valid_steps": 0,
        "finish_reason": "invalid_format",
        "budget": 2,
        "score_change_record": [],
        "progress": [0.0],
        "repetition": [0.0],
    }
    step = {
        "episode": "X/Y-v0::t::0",
        "step": 1,
        "action": "</pre><script>alert(2)</script>",
        "observation": '"quoted" & <b>bold</b>',
        "valid": False,
        "invalid_reason": "unparsable",
        "progress_rate": 0.0,
    }
    (folder / "episodes.jsonl").write_text(json.dumps(episode) + "\n")
    (folder / "trajectories.jsonl").write_text(json.dumps(step) + "\n")
    text = write_report([folder]).read_text(encoding="utf-8")
    assert "<script>alert" not in text and "onerror=alert" not in text.replace("&lt;img src=x onerror=alert", "")
    assert "&lt;script&gt;alert(&#x27;goal&#x27;)&lt;/script&gt;" in text
    assert "&lt;b&gt;bold&lt;/b&gt;" in text


def test_report_of_a_folder_without_episodes_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a run folder"):
        write_report([tmp_path])


# `make test` installs Chromium (scripts/install-system.sh), so CI never skips this; a bare pytest run may.
@pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"), reason="needs /usr/bin/chromium (scripts/install-system.sh)"
)
def test_report_renders_in_headless_chromium_without_js_errors(runs, tmp_path):
    path = write_report([runs / "expert", runs / "random"], out=tmp_path / "report.html")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [str(CHROMIUM), *flags, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120
    )
    body = re.search(r"<body[^>]*>", dom.stdout)
    assert body, dom.stderr[-2000:]
    assert 'data-report-ready="1"' in body.group(0) and "data-js-error" not in body.group(0)
    assert "16 episodes shown" not in dom.stdout and "8 episodes shown" in dom.stdout
    shot = tmp_path / "report.png"
    subprocess.run(
        [str(CHROMIUM), *flags, "--window-size=1400,3000", f"--screenshot={shot}", path.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000


MARKUP = '<script>alert(1)</script>"&<>'
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&lt;&gt;"


def test_markup_in_an_env_id_a_task_id_and_an_action_is_escaped_everywhere(runs, tmp_path):
    folder = tmp_path / "planted"
    folder.mkdir()
    episodes = [json.loads(line) for line in (runs / "expert" / "episodes.jsonl").read_text().splitlines()]
    steps = [json.loads(line) for line in (runs / "expert" / "trajectories.jsonl").read_text().splitlines()]
    for episode in episodes:
        episode["env_id"] = f"X/{MARKUP}-v0"
        episode["task_id"] = f"{episode['task_id']}{MARKUP}"
    for step in steps:
        step["action"] = f"{step['action']} {MARKUP}"
    (folder / "episodes.jsonl").write_text("".join(json.dumps(e) + "\n" for e in episodes))
    (folder / "trajectories.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    text = write_report([folder]).read_text(encoding="utf-8")
    assert MARKUP not in text and "<script>alert" not in text and '"&<>' not in text
    assert f"<td class=label>X/{ESCAPED}-v0</td>" in text  # the tables
    assert f"sudoku-000{ESCAPED} (easy)" in text  # an episode's summary line
    assert f'data-search="planted · x/{ESCAPED}-v0 · sudoku-000{ESCAPED}' in text  # the filter's attribute
    assert text.count(f" {ESCAPED}</pre>") == len(steps) > 0  # the actions
