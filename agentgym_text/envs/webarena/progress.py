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
"""

from __future__ import annotations

import urllib.parse

from agentgym_text.envs.webarena.evaluators import resolve

__all__ = ["ProgressTracker", "url_soft_score"]


def _normal(text: str) -> str:
    return " ".join(str(text).lower().split())


def _lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def url_soft_score(ref: str, url: str) -> float:
    r, p = urllib.parse.urlparse(ref), urllib.parse.urlparse(url)
    if r.netloc != p.netloc:
        return 0.0
    ref_segments = [s for s in urllib.parse.unquote(r.path).split("/") if s]
    pred_segments = [s for s in urllib.parse.unquote(p.path).split("/") if s]
    path = _lcs(ref_segments, pred_segments) / len(ref_segments) if ref_segments else 1.0
    ref_params = {f"{k}={v}" for k, vs in urllib.parse.parse_qs(r.query).items() for v in vs}
    if not ref_params:
        return path
    pred_params = {f"{k}={v}" for k, vs in urllib.parse.parse_qs(p.query).items() for v in vs}
    common = len(ref_params & pred_params)
    f1 = 0.0 if not common else 2 * common / (len(ref_params) + len(pred_params))
    return (path + f1) / 2


class ProgressTracker:
    """Feed it every page the agent lands on; ``rate`` is the episode's progress so far (monotone)."""

    def __init__(self, config: dict, sites: dict[str, str]):
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

    @property
    def subgoals(self) -> list[str]:
        return ([f"reach {' or '.join(self.urls)}"] if self.urls else []) + [
            "see " + " or ".join(f"'{alt}'" for alt in alts) for alts in self.contents
        ]

    @property
    def subgoals_done(self) -> list[bool]:
        return ([self.best_url >= 1.0] if self.urls else []) + list(self.seen)

    def update(self, url: str, page_text: str) -> float:
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
