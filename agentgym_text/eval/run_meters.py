"""What the runner shows and times while it plays: the progress bar with each id's counts, and the per-slot clock."""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence

__all__ = ["ProgressBar", "Clock"]


class ProgressBar:
    """The run's tqdm bar on stderr: its postfix gives each id in play its episodes done of those to play, and the
    count of agent errors; a warning line at the first agent error and at each engine error. Thread-safe."""

    def __init__(self, totals: dict[str, int], label: str, enabled: bool):
        from tqdm.auto import tqdm

        self.totals = {env_id: total for env_id, total in totals.items() if total}
        self.done: Counter[str] = Counter()
        self.bar = tqdm(total=sum(self.totals.values()), desc=label, unit="ep", disable=not enabled, dynamic_ncols=True)
        self.agent_errors = 0
        self.engine_errors = 0
        self._tqdm = tqdm
        self._lock = threading.Lock()

    def episode_done(self, env_id: str) -> None:
        with self._lock:
            self.done[env_id] += 1
            if self.bar.disable:
                return
            counts = [
                f"{name.rpartition('/')[2]} {self.done[name]}/{total}"
                for name, total in self.totals.items()
                if 0 < self.done[name] < total or name == env_id
            ]
            if self.agent_errors:
                counts.append(f"agent errors: {self.agent_errors}")
            # no redraw here: update() redraws at most every mininterval, not once per episode
            self.bar.set_postfix_str(", ".join(counts), refresh=False)
            self.bar.update(1)

    def agent_error(self, env_id: str, error: str | None, endpoint: str) -> None:
        with self._lock:
            self.agent_errors += 1
            if self.agent_errors == 1:
                self._tqdm.write(
                    f"warning: the agent could not be reached ({error}) at {endpoint}; the episode of {env_id} ends "
                    "with finish_reason=agent_error and is played again on the next run.",
                    file=sys.stderr,
                )

    def engine_error(self, env_id: str, error: str) -> None:
        with self._lock:
            self.engine_errors += 1
            self._tqdm.write(
                f"warning: an episode of {env_id} ended with finish_reason=engine_error ({error}); it is "
                "played again on the next run.",
                file=sys.stderr,
            )

    def close(self) -> None:
        self.bar.close()


class Clock:
    """Time spent per kind. Each slot thread keeps its own (no lock on the step path); ``merged`` sums them, so
    with several slots the parts add up to more than the wall."""

    KINDS = ("setup_s", "agent_s", "env_s", "steps")

    def __init__(self) -> None:
        self.totals: dict[str, float] = dict.fromkeys(self.KINDS, 0.0)

    def add(self, name: str, since: float, count: float | None = None) -> None:
        self.totals[name] += time.perf_counter() - since if count is None else count

    @classmethod
    def merged(cls, clocks: Sequence[Clock]) -> dict[str, float]:
        return {kind: sum(clock.totals[kind] for clock in clocks) for kind in cls.KINDS}
