"""A multi-task mixture: several env ids with weights, each id's share of a total number of rows (largest-remainder
rounding), and the seeded order that interleaves them. ``datasets`` builds every multi-task set with it, so the
TRL factory, the verifiers taskset, the OpenEnv task API, SkyRL's rows and the Inspect task mix ids the same way.

An ``EnvIds`` is one of:

- one env id (``"AgentQuest/Mastermind-v0"``): not a mixture; its split in its own order;
- a mapping id -> weight (``{"AgentQuest/Mastermind-v0": 3, "AgentQuest/Sudoku-v0": 1}``);
- a list of ids (equal weights), or of ``"ID=W"`` items (Inspect's ``-T`` splits ``"ID=W,ID=W"`` so);
- a string as the CLIs take it: ``"ID=W,ID=W"``, or ``"ID,ID"`` for equal weights.

>>> mixture = parse_mixture("AgentQuest/Mastermind-v0=3,AgentQuest/Sudoku-v0=1")
>>> mixture.counts(10)
{'AgentQuest/Mastermind-v0': 8, 'AgentQuest/Sudoku-v0': 2}
>>> mixture.spec()
'AgentQuest/Mastermind-v0=3,AgentQuest/Sudoku-v0=1'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np

from agentgym_text.core.registry import get_entry

__all__ = ["EnvIds", "Mixture", "parse_mixture"]

EnvIds = str | Mapping[str, float] | Sequence[str]
"""One env id, or several with weights (see the module docstring)."""

_Row = TypeVar("_Row")
_FORMAT = "ID=WEIGHT,ID=WEIGHT (positive weights) or ID,ID (equal weights)"


@dataclass(frozen=True)
class Mixture:
    """Env ids with positive weights, in the order given. ``single``: one plain id, not a mixture (its rows keep
    the split's order and are not shuffled)."""

    weights: tuple[tuple[str, float], ...]
    single: bool = False

    @property
    def env_ids(self) -> tuple[str, ...]:
        return tuple(env_id for env_id, _ in self.weights)

    def counts(self, size: int) -> dict[str, int]:
        """Each id's rows of ``size``: ``size * weight / total`` rounded down, then the rows left over one each to
        the largest remainders (ties to the id listed first). Exact fractions: the same counts in any process."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ValueError(f"size must be a whole number >= 0, not {size!r}")
        exact = {env_id: Fraction(weight) for env_id, weight in self.weights}
        total = sum(exact.values())
        quotas = {env_id: size * weight / total for env_id, weight in exact.items()}
        counts = {env_id: math.floor(quota) for env_id, quota in quotas.items()}
        order = sorted(self.env_ids, key=lambda env_id: -(quotas[env_id] - counts[env_id]))  # stable: ties in order
        for env_id in order[: size - sum(counts.values())]:
            counts[env_id] += 1
        return counts

    def interleave(self, groups: Sequence[Sequence[_Row]], seed: int) -> list[_Row]:
        """The groups' rows in one seeded shuffle (``numpy.random.default_rng(seed)``); one plain id keeps its order."""
        rows = [row for group in groups for row in group]
        if self.single:
            return rows
        return [rows[index] for index in np.random.default_rng(seed).permutation(len(rows))]

    def spec(self) -> str:
        """The mixture as the CLIs write it (``ID=W,ID=W``); one plain id as itself."""
        if self.single:
            return self.env_ids[0]
        return ",".join(f"{env_id}={_number(weight)}" for env_id, weight in self.weights)

    @property
    def name(self) -> str:
        """A name usable in a path or URL segment: the ids with "/" as "-", joined by "+"."""
        return "+".join(env_id.replace("/", "-") for env_id in self.env_ids)


def _number(weight: float) -> str:
    """The shortest text that reads back as ``weight`` (``3`` for 3.0): a spec parses back to the same mixture."""
    text = repr(weight)
    return text[:-2] if text.endswith(".0") else text


def _weight(env_id: str, value: object) -> float:
    try:
        weight = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        weight = math.nan
    if isinstance(value, bool) or not math.isfinite(weight) or weight <= 0:
        raise ValueError(f"the weight of {env_id!r} must be a positive number, not {value!r} ({_FORMAT})")
    return weight


def _from_string(text: str) -> list[tuple[str, float]]:
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise ValueError(f"empty entry in the env mixture {text!r} ({_FORMAT})")
    weighted = ["=" in part for part in parts]
    if any(weighted) and not all(weighted):
        raise ValueError(f"give every id of {text!r} a weight, or none ({_FORMAT})")
    if not any(weighted):
        return [(part, 1.0) for part in parts]
    pairs = []
    for part in parts:
        env_id, _, weight = part.rpartition("=")
        if not env_id.strip():
            raise ValueError(f"{part!r} names no env id ({_FORMAT})")
        pairs.append((env_id.strip(), _weight(env_id.strip(), weight.strip())))
    return pairs


def parse_mixture(envs: EnvIds) -> Mixture:
    """``envs`` as a ``Mixture``; ``ValueError`` naming what is wrong (a bad weight, an unknown or repeated id)."""
    if isinstance(envs, str):
        text = envs.strip()
        if not text:
            raise ValueError(f"no env id given ({_FORMAT})")
        single = "=" not in text and "," not in text
        pairs = [(text, 1.0)] if single else _from_string(text)
    elif isinstance(envs, Mapping):
        single = False
        pairs = [(str(env_id), _weight(str(env_id), weight)) for env_id, weight in envs.items()]
    elif isinstance(envs, Sequence) and all(isinstance(env_id, str) for env_id in envs):
        single = False
        if any("=" in env_id for env_id in envs):  # "ID=W" items: a CLI that split "ID=W,ID=W" at its commas
            pairs = _from_string(",".join(envs))
        else:
            pairs = [(env_id.strip(), 1.0) for env_id in envs]
    else:
        raise ValueError(f"env ids must be an id, a mapping id -> weight, a list of ids or {_FORMAT}; not {envs!r}")
    if not pairs:
        raise ValueError(f"no env id given ({_FORMAT})")
    ids = [env_id for env_id, _ in pairs]
    repeated = sorted({env_id for env_id in ids if ids.count(env_id) > 1})
    if repeated:
        raise ValueError(f"the mixture names {', '.join(repeated)} more than once")
    for env_id in ids:
        try:
            get_entry(env_id)
        except KeyError as error:
            raise ValueError(error.args[0]) from None
    return Mixture(tuple(pairs), single=single)
