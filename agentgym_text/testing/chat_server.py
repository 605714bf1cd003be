"""A chat-completions HTTP server on 127.0.0.1 that answers with a scripted policy, for tests and benchmarks.

It speaks enough of the OpenAI protocol for the ``openai`` client (``POST .../chat/completions``, plain or with
``"stream": true``), can inject faults (timeouts, 429/500 answers, unreadable bodies, garbage text) on a share of
calls, and answers a context-length error when the prompt is longer than ``max_prompt_chars``.

>>> with ScriptedChatServer(lambda messages: "Action: look") as server:
...     server.base_url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

__all__ = ["ScriptedChatServer", "FAULT_KINDS", "Policy"]

FAULT_KINDS = ("timeout", "http_500", "http_429", "garbage_body", "garbage_text")

Policy = Callable[[list[dict[str, Any]]], str]
"""What the server answers: the request's messages -> the reply text (e.g. ``tests/scripted_policies.py``)."""


class ScriptedChatServer:
    """Serve ``policy(messages) -> reply text`` over HTTP until ``close()`` (or the ``with`` block ends).

    ``fault_rate`` of calls (drawn with ``fault_seed``) get one of ``fault_kinds``; a "timeout" sleeps
    ``timeout_s`` before answering, longer than the client waits. ``stats`` counts calls and faults.
    """

    def __init__(
        self,
        policy: Policy,
        *,
        fault_rate: float = 0.0,
        fault_kinds: Sequence[str] = FAULT_KINDS,
        fault_seed: int = 0,
        timeout_s: float = 2.0,
        max_prompt_chars: int | None = None,
        port: int = 0,
        models: Sequence[str] | None = None,
        api_key: str | None = None,
        keep_requests: bool = False,
    ):
        unknown = set(fault_kinds) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}")
        self.policy = policy
        self.fault_rate = fault_rate
        self.fault_kinds = tuple(fault_kinds)
        self.timeout_s = timeout_s
        self.max_prompt_chars = max_prompt_chars
        self.models = None if models is None else list(models)
        """Names served at ``GET /v1/models`` (None: that route answers 404, as on some servers)."""
        self.api_key = api_key
        """When set, a request without ``Authorization: Bearer <api_key>`` gets 401."""
        self.stats: Counter[str] = Counter()
        self.requests: list[dict[str, Any]] = []
        """With ``keep_requests``: every chat-completions request body, in arrival order."""
        self._keep_requests = keep_requests
        self._rng = np.random.default_rng(fault_seed)
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-chat", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedChatServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def draw_fault(self) -> str | None:
        with self._lock:
            self.stats["calls"] += 1
            if self.fault_rate <= 0 or self._rng.random() >= self.fault_rate:
                return None
            kind = self.fault_kinds[int(self._rng.integers(len(self.fault_kinds)))]
            self.stats[kind] += 1
            return kind


def _completion(model: str, text: str, prompt_chars: int) -> dict[str, Any]:
    prompt_tokens = max(1, prompt_chars // 4)
    completion_tokens = max(1, len(text) // 4)
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop", "logprobs": None}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _stream(completion: dict[str, Any]) -> bytes:
    """The completion as a chat-completions event stream (``"stream": true``): the reply in one delta, the finish
    reason, the usage, then ``[DONE]``."""
    head = {key: completion[key] for key in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    choice = completion["choices"][0]
    chunks = [
        {**head, "choices": [{"index": 0, "delta": choice["message"], "finish_reason": None, "logprobs": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"], "logprobs": None}]},
        {**head, "choices": [], "usage": completion["usage"]},
    ]
    return b"".join(f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks) + b"data: [DONE]\n\n"


def _handler_for(server: ScriptedChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # small header + body writes would otherwise wait on delayed ACKs

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _error(self, status: int, message: str, code: str | None = None) -> None:
            payload = {"error": {"message": message, "type": "invalid_request_error", "code": code}}
            self._send(status, json.dumps(payload).encode())

        def _authorised(self) -> bool:
            if server.api_key is None or self.headers.get("Authorization") == f"Bearer {server.api_key}":
                return True
            self._error(401, "Incorrect API key provided.", "invalid_api_key")
            return False

        def do_GET(self) -> None:  # noqa: N802 (http.server naming)
            if not self._authorised():
                return
            if not self.path.rstrip("/").endswith("/models") or server.models is None:
                self._error(404, f"no route {self.path}")
                return
            data = [{"id": name, "object": "model", "created": 0, "owned_by": "scripted"} for name in server.models]
            self._send(200, json.dumps({"object": "list", "data": data}).encode())

        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not self._authorised():
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._error(404, f"no route {self.path}")
                return
            try:
                request = json.loads(raw)
                messages = list(request["messages"])
                model = str(request.get("model", ""))
            except (ValueError, KeyError, TypeError):
                self._error(400, "request body is not a chat-completions request")
                return
            if server._keep_requests:
                with server._lock:
                    server.requests.append(request)
            if server.models is not None and model not in server.models:
                self._error(404, f"The model '{model}' does not exist", "model_not_found")
                return
            prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
            fault = server.draw_fault()
            if fault == "timeout":
                time.sleep(server.timeout_s)
            elif fault == "http_500":
                self._error(500, "injected server error", "server_error")
                return
            elif fault == "http_429":
                self._error(429, "injected rate limit", "rate_limit_exceeded")
                return
            elif fault == "garbage_body":
                self._send(200, b"<html>\x00not json{{", "application/json")
                return
            if server.max_prompt_chars is not None and prompt_chars > server.max_prompt_chars:
                with server._lock:
                    server.stats["context_errors"] += 1
                self._error(
                    400,
                    f"This model's maximum context length is {server.max_prompt_chars // 4} tokens; "
                    f"your messages resulted in {prompt_chars // 4} tokens.",
                    "context_length_exceeded",
                )
                return
            text = "%% ?? ~~" if fault == "garbage_text" else server.policy(messages)
            completion = _completion(model, text, prompt_chars)
            if request.get("stream"):
                self._send(200, _stream(completion), "text/event-stream")
            else:
                self._send(200, json.dumps(completion).encode())

    return Handler
