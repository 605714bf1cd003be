"""The run's episodes still to play, handed to the runner's slots (``runner._Pool``) one at a time."""

from __future__ import annotations

import threading
from collections import Counter, deque

from agentgym_text.eval.plan import EpisodePlan

__all__ = ["EpisodeQueue"]


class EpisodeQueue:
    """The run's episodes still to play, per env id in plan order, shared by the slots.

    A slot keeps its id while the id has work. A slot without work (a new one, or one whose id has none left) takes
    the id with the most work left per slot holding it (work: the step budgets of its pending episodes), so the
    ids run side by side, each with slots in proportion to its work, and end together: the engines of several
    families (a browser, a JVM, this process's Python) then share the cores, and no id's last episodes are the
    run's long tail alone.
    """

    def __init__(self, todo: dict[str, list[EpisodePlan]]):
        # grouped by env kwargs (all alike but for a training split's instances), so a slot keeps its env longer
        self._pending = {
            env_id: deque(sorted(plans, key=lambda plan: repr(plan.env_kwargs)))
            for env_id, plans in todo.items()
            if plans
        }
        self._work = {env_id: sum(plan.budget for plan in plans) for env_id, plans in self._pending.items()}
        self._held: dict[int, str] = {}
        """Slot index -> the id of the last episode handed to it."""
        self._holders: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._stopped = False

    def take(self, slot: int) -> EpisodePlan | None:
        """The next episode for slot ``slot``: one of the id it was last given while that id has any, else one of
        the id with the most work left per slot holding it (None when nothing is left, or after ``stop``)."""
        with self._lock:
            if self._stopped:
                return None
            env_id = self._held.get(slot)
            pending = self._pending.get(env_id) if env_id is not None else None
            if not pending:
                if env_id is not None:
                    self._holders[env_id] -= 1
                    del self._held[slot]
                left = [name for name, queue in self._pending.items() if queue]
                if not left:
                    return None
                env_id = max(left, key=lambda name: self._work[name] / (self._holders[name] + 1))
                self._holders[env_id] += 1
                self._held[slot] = env_id
                pending = self._pending[env_id]
            plan = pending.popleft()
            self._work[env_id] -= plan.budget
            return plan

    def drop(self, env_id: str) -> None:
        """Play no more episodes of ``env_id`` in this run."""
        with self._lock:
            self._pending.pop(env_id, None)

    def stop(self) -> None:
        """Hand out no more episodes (the slots end after their current one)."""
        with self._lock:
            self._stopped = True
