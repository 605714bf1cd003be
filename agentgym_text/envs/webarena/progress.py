"""Progress rate for WebArena tasks: AgentBoard's Eq. 5 over URL and required-content subgoals.

- URL subgoal: the best, over the reference's " |OR| " alternatives, of domain_equal x (path LCS + param F1) / 2,
  where path LCS = longest common subsequence of path segments / the reference's segment count and param F1 is
  over "k=v" pairs (a reference without parameters: domain_equal x path LCS). Max over the episode.
- Content subgoals: each required content (any " |OR| " variant) seen, lower-cased and with whitespace
  collapsed, as a substring of a page's text at some step (OR-accumulated).
- Rate: URL only -> the URL score; contents only -> the fraction seen; both -> 3/(n+3) URL + n/(n+3) fraction.

Where the subgoals come from: url_match's reference URL; program_html targets read from the page text
(locator ""; JavaScript locators cannot be read from text and are skipped); and our ``progress`` key
(``{"url", "contents"}``: the page holding the answer and text there) when the config has one. For a
string_match task without that key (a user's own WebArena config), the reference answers are the contents;
AgentBoard gives such tasks no progress at all, which we fix. The rate never decreases.

``agentboard_rule=True`` (``agentboard_fixes=False``) computes it as AgentBoard's browser env does, bugs included
(``agentboard_text.py`` lists them).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable

from agentgym_text.envs.webarena.agentboard_text import agentboard_url_score, content_seen, longest_common_subsequence
from agentgym_text.envs.webarena.evaluators import resolve

__all__ = ["ProgressTracker", "url_soft_score"]


def _normal(text: str) -> str:
    return " ".join(str(text).lower().split())


def url_soft_score(ref: str, url: str) -> float:
    r, p = urllib.parse.urlparse(ref), urllib.parse.urlparse(url)
    if r.netloc != p.netloc:
        return 0.0
    ref_segments = [s for s in urllib.parse.unquote(r.path).split("/") if s]
    pred_segments = [s for s in urllib.parse.unquote(p.path).split("/") if s]
    path = longest_common_subsequence(ref_segments, pred_segments) / len(ref_segments) if ref_segments else 1.0
    ref_params = {f"{k}={v}" for k, vs in urllib.parse.parse_qs(r.query).items() for v in vs}
    if not ref_params:
        return path
    pred_params = {f"{k}={v}" for k, vs in urllib.parse.parse_qs(p.query).items() for v in vs}
    common = len(ref_params & pred_params)
    f1 = 0.0 if not common else 2 * common / (len(ref_params) + len(pred_params))
    return (path + f1) / 2


class ProgressTracker:
    """Feed it every page the agent lands on; ``rate`` is the episode's progress so far (monotone)."""

    def __init__(self, config: dict, sites: dict[str, str], agentboard_rule: bool = False):
        self.agentboard_rule = agentboard_rule
        if agentboard_rule:
            self._start_agentboard(config, sites)
            return
        evaluation = config.get("eval", {})
        types = evaluation.get("eval_types", [])
        extra = config.get("progress") or {}
        self.urls: list[str] = []
        if "url_match" in types and evaluation.get("reference_url"):
            self.urls = [resolve(u, sites) for u in evaluation["reference_url"].split(" |OR| ")]
        elif extra.get("url"):
            self.urls = [resolve(extra["url"], sites)]
        self.contents: list[list[str]] = []
        if "program_html" in types:
            for target in evaluation.get("program_html", []):
                if target.get("locator", "").strip():
                    continue
                required = target.get("required_contents", {})
                if "exact_match" in required:
                    self.contents.append([required["exact_match"]])
                for item in required.get("must_include", []):
                    self.contents.append(item.split(" |OR| "))
        self.contents += [[c] for c in extra.get("contents", [])]
        if not self.contents and not extra and "string_match" in types:
            for _approach, value in (evaluation.get("reference_answers") or {}).items():
                if value == "N/A":
                    continue
                for item in value if isinstance(value, list) else [value]:
                    self.contents.append(str(item).split(" |OR| "))
        self.contents = [[_normal(v) for v in alts if _normal(v)] for alts in self.contents]
        self.contents = [alts for alts in self.contents if alts]
        self.best_url = 0.0
        self.seen = [False] * len(self.contents)
        self.rate = 0.0

    def _start_agentboard(self, config: dict, sites: dict[str, str]) -> None:
        evaluation = config.get("eval", {})
        types = evaluation.get("eval_types", [])
        reference = resolve(evaluation.get("reference_url") or "", sites)
        self.urls = reference.split(" |OR| ") if "url_match" in types and reference.startswith("http") else []
        self.targets: list[tuple[str, str]] = []  # (locator, required content as AgentBoard cleans it)
        if "program_html" in types:
            for target in evaluation.get("program_html", []):
                required = target["required_contents"]
                contents = required["must_include"] if "must_include" in required else [required["exact_match"]]
                self.targets += [(target["locator"], str(content).strip().lower()) for content in contents]
        self.contents = [[content] for _, content in self.targets]
        self.best_url = 0.0
        self.seen = [False] * len(self.targets)
        self.rate = 0.0

    @property
    def subgoals(self) -> list[str]:
        return ([f"reach {' or '.join(self.urls)}"] if self.urls else []) + [
            "see " + " or ".join(f"'{alt}'" for alt in alts) for alts in self.contents
        ]

    @property
    def subgoals_done(self) -> list[bool]:
        return ([self.best_url >= 1.0] if self.urls else []) + list(self.seen)

    def update(self, url: str, page_text: str, read_page: Callable[[str], str] | None = None) -> float:
        """The rate after a step that ends on ``url``; AgentBoard's rule reads the page with ``read_page(locator)``
        (the HTML source for "", a JavaScript locator's value otherwise) instead of ``page_text``."""
        if self.agentboard_rule:
            return self._update_agentboard(url, read_page or (lambda locator: ""))
        if self.urls:
            self.best_url = max([self.best_url] + [url_soft_score(ref, url) for ref in self.urls])
        text = _normal(page_text)
        for i, alternatives in enumerate(self.contents):
            if not self.seen[i] and any(alt in text for alt in alternatives):
                self.seen[i] = True
        n = len(self.contents)
        fraction = sum(self.seen) / n if n else 0.0
        if self.urls and n:
            now = 3 / (n + 3) * self.best_url + n / (n + 3) * fraction
        elif self.urls:
            now = self.best_url
        else:
            now = fraction
        self.rate = max(self.rate, now)
        return self.rate

    def _update_agentboard(self, url: str, read_page: Callable[[str], str]) -> float:
        if self.urls:
            self.best_url = max(self.best_url, agentboard_url_score(self.urls, url))
        pages: dict[str, str] = {}
        for i, (locator, content) in enumerate(self.targets):
            if locator.strip().startswith("func:"):
                continue  # AgentBoard evals the function against the live site; never here
            key = "" if not locator.strip() else locator
            if key not in pages:
                pages[key] = (read_page(key) or "").strip().lower()
            if content_seen(content, pages[key]):
                self.seen[i] = True
        n = len(self.targets)
        if self.urls and n:
            fraction = sum(self.seen) / n
            self.rate = max(self.rate, (3 / (n + 3)) * self.best_url + (n / (n + 3)) * fraction)
        elif self.urls:
            self.rate = max(self.rate, self.best_url)
        elif n:
            self.rate = sum(self.seen) / n
        return self.rate
