"""What ``agentboard_fixes=False`` restores of AgentBoard's WebArena (``environment/browser_env/envs.py`` and
``evaluation_function.py``: ``progress_evaluator_router``, ``URLSoftEvaluator``, ``HTMLContentSoftEvaluator``; the
harness ``tasks/webbrowse.py``): its progress rule, computed in ``progress.ProgressTracker(agentboard_rule=True)``,
and when an episode ends solved. ``AgentBoardWebArena`` is the env's text mode. The default fixes each of these:

- FIX (string_match): a task judged by its answer alone gets no progress in AgentBoard (the router skips
  string_match); the default scores the page holding the answer and the answer seen there.
- FIX (page text): AgentBoard looks for required contents in the page's HTML source (markup, entities and
  attributes included); the default reads the rendered text, whitespace collapsed.
- FIX (|OR|): AgentBoard lower-cases a required content before splitting it on " |OR| ", so alternatives are never
  split and the whole "a |or| b" must appear; the default splits first.
- FIX (URL paths): AgentBoard splits paths raw ("%20" and " " differ, "a//b" has an empty segment); the default
  unquotes and drops empty segments.
- FIX (solved): a solved task's progress becomes 1.0 (its subgoals may not cover the answer); AgentBoard leaves
  it where it was.
- Other differences of the default: it skips contents read by a JavaScript locator (AgentBoard evaluates it on the
  current page, as fixes off does), adds our ``progress`` key's subgoals, and ends an episode when the evaluators
  pass (AgentBoard, and fixes off: when progress reaches 1.0, counted solved).
- Never reproduced: a ``func:`` locator is ``eval``-ed by AgentBoard against the live site's API; here it is never
  evaluated and counts as not seen. The URL subgoal counts only when the reference starts with "http" (after
  placeholders are filled), in both.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING

from agentgym_text.core.text_mode import AgentBoardText

if TYPE_CHECKING:
    from agentgym_text.envs.webarena.progress import ProgressTracker

__all__ = ["AgentBoardWebArena", "agentboard_url_score", "content_seen", "longest_common_subsequence"]


class AgentBoardWebArena(AgentBoardText):
    """AgentBoard's WebArena: its words are WebArena's; ``fixes`` decides how progress is scored and when a step
    ends the episode solved."""

    def tracker(self, config: dict, sites: dict[str, str]) -> ProgressTracker:
        """The episode's progress tracker."""
        from agentgym_text.envs.webarena.progress import ProgressTracker  # progress reads this module's rules

        return ProgressTracker(config, sites, agentboard_rule=not self.fixes)

    def ends_solved(self, progress: float, evaluators_pass: Callable[[], bool]) -> bool:
        """Whether a step (other than ``stop``) that leaves progress at ``progress`` ends the episode, solved."""
        if not self.fixes:
            return progress == 1.0  # AgentBoard stops at progress 1.0 and counts the task solved
        return evaluators_pass()

    def progress_at_stop(self, progress: float, solved: bool) -> float:
        """Progress once ``stop`` is judged."""
        # FIX: a solved task has made all its progress (its subgoals may not cover the answer)
        return 1.0 if solved and self.fixes else progress


def longest_common_subsequence(a: list[str], b: list[str]) -> int:
    """The length of the longest common subsequence of two lists of path segments."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def content_seen(content: str, page: str) -> bool:
    """AgentBoard's test of one required content (already stripped and lower-cased) on a page read the same way."""
    return any(alternative in page for alternative in content.split(" |OR| "))


def _agentboard_segments(path: str) -> list[str]:
    return path.rstrip("/").split("/")[1:]


def _agentboard_one_url(ref: str, pred: str) -> float:
    parsed_pred = urllib.parse.urlparse(pred.rstrip("/"))
    parsed_ref = urllib.parse.urlparse(ref.rstrip("/"))
    domain = float(parsed_pred.netloc == parsed_ref.netloc)
    ref_segments, pred_segments = _agentboard_segments(parsed_ref.path), _agentboard_segments(parsed_pred.path)
    if not ref_segments:
        path = 1.0
    elif not pred_segments:
        path = 0.0
    else:
        path = longest_common_subsequence(ref_segments, pred_segments) / len(ref_segments)
    ref_params = {f"{k}={v}" for k, vs in urllib.parse.parse_qs(parsed_ref.query).items() for v in vs}
    pred_params = {f"{k}={v}" for k, vs in urllib.parse.parse_qs(parsed_pred.query).items() for v in vs}
    if pred_params and ref_params:
        recall = len(ref_params & pred_params) / len(ref_params)
        precision = len(ref_params & pred_params) / len(pred_params)
        f1 = 2 * recall * precision / (recall + precision) if recall + precision > 0 else 0.0
    elif not ref_params:
        return domain * path
    else:
        f1 = 0.0
    return domain * (f1 + path) * 1 / 2


def agentboard_url_score(refs: list[str], url: str) -> float:
    """AgentBoard's ``URLSoftEvaluator``: the best reference's score (the first when there is one reference)."""
    if len(refs) == 1:
        return _agentboard_one_url(refs[0], url)
    return max([0.0] + [_agentboard_one_url(ref, url) for ref in refs])
