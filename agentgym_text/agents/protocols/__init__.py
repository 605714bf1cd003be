"""Agent protocols: how an episode becomes the requests a model reads, and how its replies become actions.

- ``ours`` (the default): this package's prompts (``agents/prompts``) and history window.
- ``agentboard``: the requests AgentBoard's harness sends (its VanillaAgent or ReactAgent and each task runner's
  rules), with the prompt texts read from the user's checkout of hkust-nlp/AgentBoard (``agentboard_dir=``, else
  ``$AGENTGYM_TEXT_AGENTBOARD_DIR``).
- ``agentbench``: the conversations AgentBench v0.2's task servers build and its OpenAI client sends, with the texts
  read from the user's checkout of THUDM/AgentBench at v0.2 (``agentbench_dir=``, else
  ``$AGENTGYM_TEXT_AGENTBENCH_DIR``).

``make_protocol(name, ...)`` makes one; a missing or wrong checkout is a ``CheckoutError`` naming the folder and the
file looked for. The originals' texts are read at run time and never stored in this package.
"""

from __future__ import annotations

import os

from agentgym_text.agents.protocols.base import (
    AgentProtocol,
    CheckoutError,
    Dialogue,
    Opening,
    Reading,
    Request,
)

__all__ = [
    "PROTOCOLS",
    "AGENTBOARD_DIR_SETTING",
    "AGENTBENCH_DIR_SETTING",
    "AgentProtocol",
    "CheckoutError",
    "Dialogue",
    "Opening",
    "Reading",
    "Request",
    "make_protocol",
]

PROTOCOLS = ("ours", "agentboard", "agentbench")
AGENTBOARD_DIR_SETTING = "AGENTGYM_TEXT_AGENTBOARD_DIR"
AGENTBENCH_DIR_SETTING = "AGENTGYM_TEXT_AGENTBENCH_DIR"


def make_protocol(
    name: str = "ours",
    *,
    style: str = "vanilla",
    history_tokens: int = 3000,
    agentboard_dir: str | None = None,
    agentbench_dir: str | None = None,
    context_window: int | None = None,
    tokenizer: str | None = None,
    model: str = "",
    max_tokens: int = 256,
) -> AgentProtocol:
    """The protocol ``name`` with its settings (the others are ignored). ``ValueError`` for an unknown name,
    ``CheckoutError`` for a missing or wrong checkout."""
    if name == "ours":
        from agentgym_text.agents.protocols.ours import OursProtocol

        return OursProtocol(style, history_tokens, context_window, max_tokens)
    if name == "agentboard":
        from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol

        return AgentBoardProtocol(
            agentboard_dir or os.environ.get(AGENTBOARD_DIR_SETTING),
            style=style,
            context_window=context_window,
            tokenizer=tokenizer,
            model=model,
        )
    if name == "agentbench":
        from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol

        return AgentBenchProtocol(agentbench_dir or os.environ.get(AGENTBENCH_DIR_SETTING))
    raise ValueError(f"unknown protocol {name!r}; choose from {', '.join(PROTOCOLS)}")
