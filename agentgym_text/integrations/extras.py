"""The one message for an integration whose framework is not installed: which extra brings it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["extra_needed"]


@contextmanager
def extra_needed(extra: str, what: str) -> Iterator[None]:
    """Imports inside the block that fail raise ``ModuleNotFoundError`` naming ``extra`` and the missing module.

    >>> with extra_needed("skyrl", "the SkyRL env"):
    ...     import no_such_framework_here
    Traceback (most recent call last):
    ModuleNotFoundError: the SkyRL env needs the 'skyrl' extra: pip install 'agentgym-text[skyrl]' (missing module 'no_such_framework_here')
    """
    try:
        yield
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"{what} needs the {extra!r} extra: pip install 'agentgym-text[{extra}]' (missing module {error.name!r})",
            name=error.name,
        ) from error
