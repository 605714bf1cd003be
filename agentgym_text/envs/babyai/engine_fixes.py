"""A fix for minigrid's strict ("Debug") sequences.

In minigrid 3.2, when clause A of "A, then B" succeeds, the same low-level action is immediately verified
against clause B too. A strict clause B treats it as a wrong move (toggling a door that is not B's door,
picking up an object that is not B's object) and fails the episode, so e.g. every two-door mission of
``OpenDoorsOrderN4Debug`` is impossible. Here an action that completed one clause cannot fail another.
"""

from __future__ import annotations

from minigrid.envs.babyai.core.verifier import ActionInstr, SeqInstr

__all__ = ["fix_strict_sequences"]


def _leaves(instr) -> list[ActionInstr]:
    if isinstance(instr, ActionInstr):
        return [instr]
    if isinstance(instr, SeqInstr):
        return _leaves(instr.instr_a) + _leaves(instr.instr_b)
    return []


def fix_strict_sequences(env) -> None:
    """Patch the verifiers of ``env.instrs`` (call after every reset; only sequences need it)."""
    leaves = _leaves(env.instrs)
    if len(leaves) < 2:
        return
    credited = {"step": None}
    for leaf in leaves:
        original = leaf.verify_action

        def verify_action(action, original=original, leaf=leaf):
            result = original(action)
            if result == "success":
                credited["step"] = env.step_count
            elif result == "failure" and getattr(leaf, "strict", False) and credited["step"] == env.step_count:
                return "continue"
            return result

        leaf.verify_action = verify_action
