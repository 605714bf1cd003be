"""A gymnasium text space for free-form UTF-8 text, and its shared-memory handlers for async vector envs.

gymnasium's ``spaces.Text`` defaults to an alphanumeric charset ("go north" is outside it) and its
shared-memory path encodes characters through that charset, which corrupts text. ``UTF8Text`` accepts any
string up to ``max_length`` characters and stores it in shared memory as UTF-8 bytes.
"""

from __future__ import annotations

import multiprocessing as mp
import string
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import shared_memory as gym_shared_memory

__all__ = ["UTF8Text", "MAX_OBSERVATION_CHARS", "MAX_ACTION_CHARS"]

MAX_OBSERVATION_CHARS = 65_536
"""Observations are cut to this many characters (with a marker saying so)."""

MAX_ACTION_CHARS = 8_192
"""Actions longer than this are rejected as invalid (the env still answers)."""

_SAMPLE_ALPHABET = string.ascii_letters + string.digits + " .,:;!?'-_()" + "éüñ中→"
_LENGTH_PREFIX_BYTES = 4
_BYTES_PER_CHAR = 4  # the most UTF-8 needs for one code point


class UTF8Text(spaces.Text):
    """Any Python ``str`` of at most ``max_length`` characters.

    >>> space = UTF8Text(max_length=16)
    >>> space.contains("go north, then pick up the ключ")
    False
    >>> space.contains("go north!")
    True
    """

    def __init__(self, max_length: int, *, seed: int | np.random.Generator | None = None):
        super().__init__(max_length=max_length, min_length=0, charset=_SAMPLE_ALPHABET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random short string drawn from a mixed ASCII/unicode alphabet (useful as garbage input)."""
        length = int(self.np_random.integers(0, min(self.max_length, 40) + 1))
        chars = self.np_random.choice(list(_SAMPLE_ALPHABET), size=length)
        return "".join(chars)

    def __repr__(self) -> str:
        return f"UTF8Text(max_length={self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UTF8Text) and other.max_length == self.max_length

    def __hash__(self) -> int:
        return hash(("UTF8Text", self.max_length))

    @property
    def slot_bytes(self) -> int:
        return _LENGTH_PREFIX_BYTES + _BYTES_PER_CHAR * self.max_length


class _SharedTextView(Sequence):
    """A live, read-only view of n texts in shared memory, decoded on access.

    ``AsyncVectorEnv`` reads shared memory once, at construction, and expects a live view afterwards; a tuple
    of str would be stale. The vector env deep-copies observations before returning them, which gives a tuple.
    """

    def __init__(self, buffer: np.ndarray, n: int, slot_bytes: int):
        self._buffer = buffer
        self._n = n
        self._slot_bytes = slot_bytes

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError(index)
        start = index * self._slot_bytes
        size = int.from_bytes(self._buffer[start : start + _LENGTH_PREFIX_BYTES].tobytes(), "little")
        payload = self._buffer[start + _LENGTH_PREFIX_BYTES : start + _LENGTH_PREFIX_BYTES + size]
        return payload.tobytes().decode("utf-8")

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __copy__(self) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: Any) -> bool:
        return tuple(self) == tuple(other) if isinstance(other, Sequence) else NotImplemented

    def __repr__(self) -> str:
        return repr(tuple(self))


@gym_shared_memory.create_shared_memory.register(UTF8Text)
def _create_utf8_shared_memory(space: UTF8Text, n: int = 1, ctx: ModuleType = mp) -> Any:
    return ctx.Array("B", n * space.slot_bytes)


@gym_shared_memory.read_from_shared_memory.register(UTF8Text)
def _read_utf8_shared_memory(space: UTF8Text, shared_memory: Any, n: int = 1) -> _SharedTextView:
    buffer = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8)
    return _SharedTextView(buffer, n, space.slot_bytes)


@gym_shared_memory.write_to_shared_memory.register(UTF8Text)
def _write_utf8_shared_memory(space: UTF8Text, index: int, value: str, shared_memory: Any) -> None:
    encoded = value.encode("utf-8")[: space.slot_bytes - _LENGTH_PREFIX_BYTES]
    buffer = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8)
    start = index * space.slot_bytes
    buffer[start : start + _LENGTH_PREFIX_BYTES] = np.frombuffer(
        len(encoded).to_bytes(_LENGTH_PREFIX_BYTES, "little"), dtype=np.uint8
    )
    buffer[start + _LENGTH_PREFIX_BYTES : start + _LENGTH_PREFIX_BYTES + len(encoded)] = np.frombuffer(
        encoded, dtype=np.uint8
    )
