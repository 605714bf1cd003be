"""A fix for minigrid's strict ("Debug") sequences.

In minigrid 3.2, when clause A of "A, then B" succeeds, the same low-level action is immediately verified
against clause B too. A strict clause B treats it as a wrong move (toggling a door that is not B's door,
picking up an object that is not B's object) and fails the episode, so e.g. every two-door mission of
``OpenDoorsOrderN4Debug`` is impossible. Here an action that completed one clause cannot fail another.

The fix swaps each clause's class for a subclass (state kept on the instances), so a deep copy of the env
stays self-contained.
"""

from __future__ import annotations

from functools import cache

from minigrid.envs.babyai.core.verifier import ActionInstr, SeqInstr

__all__ = ["fix_strict_sequences"]


def _leaves(instr) -> list[ActionInstr]:
    if isinstance(instr, ActionInstr):
        return [instr]
    if isinstance(instr, SeqInstr):
        return _leaves(instr.instr_a) + _leaves(instr.instr_b)
    return []


@cache
def _fixed_class(cls: type) -> type:
    def verify_action(self, action):
        result = cls.verify_action(self, action)
        credit = self.sequence_credit
        if result == "success":
            credit["step"] = self.env.step_count
        elif result == "failure" and getattr(self, "strict", False) and credit["step"] == self.env.step_count:
            return "continue"
        return result

    return type(cls.__name__, (cls,), {"verify_action": verify_action, "__module__": __name__})


def fix_strict_sequences(env) -> None:
    """Patch the clauses of ``env.instrs`` (call after every reset; only sequences need it)."""
    leaves = _leaves(env.instrs)
    if len(leaves) < 2:
        return
    credit: dict = {"step": None}
    for leaf in leaves:
        leaf.__class__ = _fixed_class(type(leaf))
        leaf.sequence_credit = credit
