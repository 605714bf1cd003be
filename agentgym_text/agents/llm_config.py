"""``LLMConfig``: the settings of the OpenAI-compatible LLM agent, in one place.

The CLI builds it from its arguments, the agent reads it, and the run record stores it; which of its fields
must match for a rerun to resume the same run is declared here too. Environment variables
(``OPENAI_BASE_URL``, ``OPENAI_API_KEY``) are read only in ``from_env``.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> LLMConfig.add_arguments(parser)
>>> config = LLMConfig.from_args(parser.parse_args(["--model", "m", "--base-url", "http://127.0.0.1:8000/v1"]))
>>> config.model, config.record()["base_url"], "api_key" in config.record()
('m', 'http://127.0.0.1:8000/v1', False)
"""

from __future__ import annotations

import argparse
import os
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

__all__ = ["LLMConfig", "STYLES"]

from agentgym_text.agents.prompts import STYLES
from agentgym_text.agents.protocols import PROTOCOLS, AgentProtocol, make_protocol


@dataclass(frozen=True)
class LLMConfig:
    """What the LLM agent asks for and how. ``api_key`` is never written to a run record."""

    model: str = ""
    base_url: str | None = None
    api_key: str | None = None
    style: str = "vanilla"
    temperature: float = 0.0
    max_tokens: int = 256
    history_tokens: int = 3000
    context_window: int | None = None
    timeout: float = 60.0
    max_retries: int = 6
    protocol: str = "ours"
    agentboard_dir: str | None = None
    agentbench_dir: str | None = None
    tokenizer: str | None = None

    RESUME_FIELDS = (
        "model",
        "base_url",
        "style",
        "temperature",
        "max_tokens",
        "history_tokens",
        "context_window",
        "protocol",
        "tokenizer",
    )
    """Fields that change what the model is asked or answers: a resumed run must match them all."""

    _HELP = {
        "model": "model name as the server knows it (required)",
        "base_url": "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL)",
        "api_key": "API key (default: $OPENAI_API_KEY)",
        "style": "vanilla: the reply is an action; react: a thought, then an action",
        "temperature": "sampling temperature",
        "max_tokens": "longest reply in tokens",
        "history_tokens": "tokens of recent turns kept in the prompt (AgentBoard's sliding window)",
        "context_window": "the model's context in tokens; a prompt that would not fit ends the episode (with "
        "--protocol agentboard: AgentBoard's context_length, the oldest history dropped until the prompt fits)",
        "timeout": "seconds to wait for one reply",
        "max_retries": "retries of a failed request (timeouts, connection errors, 429, 5xx) before giving up",
        "protocol": "whose requests the model reads: ours, agentboard (AgentBoard's harness) or agentbench "
        "(AgentBench v0.2's); the originals' protocols fix temperature, max tokens and stop as their configs do",
        "agentboard_dir": "with --protocol agentboard: a checkout of hkust-nlp/AgentBoard "
        "(default: $AGENTGYM_TEXT_AGENTBOARD_DIR)",
        "agentbench_dir": "with --protocol agentbench: a checkout of THUDM/AgentBench at v0.2 "
        "(default: $AGENTGYM_TEXT_AGENTBENCH_DIR)",
        "tokenizer": "with --protocol agentboard: the token counter of its context trimming, a tiktoken encoding "
        "name or a local Hugging Face tokenizer folder (default: tiktoken's encoding for --model, else cl100k_base, "
        "when tiktoken has it offline); only read with --context-window",
    }

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise ValueError(f"style must be one of {STYLES}, not {self.style!r}")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {PROTOCOLS}, not {self.protocol!r}")
        if self.max_tokens < 1 or self.history_tokens < 1 or self.timeout <= 0 or self.max_retries < 0:
            raise ValueError("max_tokens and history_tokens must be >= 1, timeout > 0 and max_retries >= 0")

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser | Any) -> None:
        """One ``--option`` per field (``--base-url`` for ``base_url``), defaults from the dataclass."""
        for spec in fields(cls):
            flag = "--" + spec.name.replace("_", "-")
            kind = {"float": float, "int": int}.get(str(spec.type).split(" ")[0])
            if spec.name == "context_window":
                kind = int
            parser.add_argument(
                flag,
                dest=f"llm_{spec.name}",
                type=kind or str,
                default=None,
                **({"choices": PROTOCOLS} if spec.name == "protocol" else {}),
                help=cls._HELP[spec.name] + (f" (default {spec.default})" if spec.default not in (None, "") else ""),
            )

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> LLMConfig:
        """The config from parsed arguments; unset ones fall back to the environment, then the defaults."""
        given = {spec.name: getattr(args, f"llm_{spec.name}", None) for spec in fields(cls)}
        return cls.from_env(**{name: value for name, value in given.items() if value is not None})

    @classmethod
    def from_env(cls, **overrides: Any) -> LLMConfig:
        """The config with ``base_url`` and ``api_key`` from ``$OPENAI_BASE_URL`` / ``$OPENAI_API_KEY`` unless given."""
        config = cls(**overrides)
        return replace(
            config,
            base_url=config.base_url or os.environ.get("OPENAI_BASE_URL") or None,
            api_key=config.api_key or os.environ.get("OPENAI_API_KEY") or None,
        )

    def record(self) -> dict[str, Any]:
        """The settings as stored in a run's ``run.json`` (no key)."""
        data = asdict(self)
        data.pop("api_key")
        return data

    def resume_settings(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.RESUME_FIELDS}

    def make_protocol(self) -> AgentProtocol:
        """The protocol these settings name (``CheckoutError`` for a missing or wrong checkout)."""
        return make_protocol(
            self.protocol,
            style=self.style,
            history_tokens=self.history_tokens,
            agentboard_dir=self.agentboard_dir,
            agentbench_dir=self.agentbench_dir,
            context_window=self.context_window,
            tokenizer=self.tokenizer,
            model=self.model,
            max_tokens=self.max_tokens,
        )
