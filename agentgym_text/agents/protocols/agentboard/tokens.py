"""AgentBoard's token counter for context trimming (``OPENAI_GPT.num_tokens_from_messages``): each message's role
and content encoded, +3 per message for a few dated engines, +3 once. The encoding is a tiktoken one when tiktoken
and that encoding load offline, or a local Hugging Face tokenizer (``tokenizer.json``, read with ``tokenizers``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TokenCounter", "make_counter", "PER_MESSAGE_ENGINES"]

PER_MESSAGE_ENGINES = frozenset(
    {
        "gpt-3.5-turbo-0613",
        "gpt-3.5-turbo-16k-0613",
        "gpt-4-0314",
        "gpt-4-32k-0314",
        "gpt-4-0613",
        "gpt-4-32k-0613",
    }
)
"""Engines whose messages count 3 tokens more each (``llm/openai_gpt.py``)."""


@dataclass(frozen=True)
class TokenCounter:
    """``num_tokens_from_messages`` over ``encode`` (a text's token count); ``name`` says which tokenizer."""

    encode: Callable[[str], int]
    name: str
    per_message: int = 0

    def __call__(self, messages: list[dict[str, str]]) -> int:
        total = 0
        for message in messages:
            total += self.per_message
            for value in message.values():
                total += self.encode(value)
        return total + 3


def _tiktoken(name: str) -> Callable[[str], int] | None:
    """tiktoken's encoding ``name`` (or the one for the model ``name``) when it loads from tiktoken's cache: a
    download is refused (nothing is fetched at run time)."""
    try:
        import tiktoken
        import tiktoken.load as loader
    except ImportError:
        return None
    with _NO_DOWNLOAD:
        fetch = getattr(loader, "read_file", None)
        loader.read_file = _refuse_download
        try:
            try:
                encoding = tiktoken.get_encoding(name)
            except Exception:  # not an encoding name, or not cached
                encoding = tiktoken.encoding_for_model(name)
        except Exception:
            return None
        finally:
            loader.read_file = fetch
    return lambda text: len(encoding.encode(text, disallowed_special=()))


_NO_DOWNLOAD = threading.Lock()


def _refuse_download(blobpath: str) -> bytes:
    raise OSError(f"{blobpath} is not in tiktoken's cache, and nothing is downloaded at run time")


def _hugging_face(name: str) -> Callable[[str], int] | None:
    folder = Path(name).expanduser()
    path = folder / "tokenizer.json" if folder.is_dir() else folder
    if not path.is_file():
        return None
    try:
        from tokenizers import Tokenizer
    except ImportError:
        return None
    tokenizer = Tokenizer.from_file(str(path))
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


def make_counter(tokenizer: str | None, model: str) -> TokenCounter:
    """The counter for ``tokenizer`` (a tiktoken encoding name, or a Hugging Face tokenizer folder or
    ``tokenizer.json``; None: tiktoken's encoding for ``model``, else cl100k_base, as AgentBoard falls back).
    ``ValueError`` saying what is missing when none loads offline."""
    per_message = 3 if model in PER_MESSAGE_ENGINES else 0
    if tokenizer:
        encode = _hugging_face(tokenizer) or _tiktoken(tokenizer)
        if encode is None:
            raise ValueError(
                f"cannot load the tokenizer {tokenizer!r} for AgentBoard's context trimming: name a tiktoken "
                "encoding that is installed offline, or a local Hugging Face tokenizer folder (tokenizer.json)"
            )
        return TokenCounter(encode, tokenizer, per_message)
    for name in (model, "cl100k_base"):
        encode = _tiktoken(name) if name else None
        if encode is not None:
            return TokenCounter(encode, f"tiktoken:{name}", per_message)
    raise ValueError(
        "AgentBoard trims the history to the context window with tiktoken, which (or whose encoding) is not "
        "available offline here: pass --tokenizer naming a local Hugging Face tokenizer folder, or install tiktoken "
        "with its encoding cached, or leave the context window unset"
    )
