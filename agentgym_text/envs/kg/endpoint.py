"""The user's Freebase SPARQL endpoint (``sparql_url=`` or ``AGENTGYM_TEXT_SPARQL_URL``), through SPARQLWrapper.

Nothing connects before a query: making or resetting an env sends nothing. A query that cannot be answered (the
endpoint unreachable, a timeout, an HTTP error, a result that is not SPARQL JSON) raises ``EndpointError`` naming
the URL and the cause. Values come back as AgentBench reads them: Freebase's ``http://rdf.freebase.com/ns/``
prefix and the ``-08:00`` zone removed.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import urlparse

from agentgym_text.envs.kg.sparql import FREEBASE

__all__ = ["SparqlEndpoint", "EndpointError", "SETTING", "endpoint_url"]

SETTING = "AGENTGYM_TEXT_SPARQL_URL"
_TIMEOUT_SECONDS = 60


class EndpointError(RuntimeError):
    """A query the endpoint did not answer; ``unreachable``: no endpoint there at all (refused, no such host, HTTP 404)."""

    def __init__(self, message: str, unreachable: bool = False):
        super().__init__(message)
        self.unreachable = unreachable


def endpoint_url(sparql_url: str | None) -> str:
    """The endpoint to use (the option, else the setting); ``ValueError`` when there is none or it is no URL."""
    url = sparql_url or os.environ.get(SETTING, "")
    if not url:
        raise ValueError(
            f"AgentBench's KG items need a Freebase SPARQL endpoint: pass sparql_url='http://host:port/sparql' "
            f"or set {SETTING} (AgentBench's Virtuoso over dki-lab's Freebase dump; see the kg README)"
        )
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"sparql_url must be an http(s) URL such as http://localhost:3001/sparql, not {url!r}")
    return url


class SparqlEndpoint:
    """SELECT queries of one column against ``url``."""

    def __init__(self, url: str, timeout: float = _TIMEOUT_SECONDS):
        try:
            from SPARQLWrapper import JSON, SPARQLWrapper
        except ImportError as error:
            raise ImportError(
                "AgentBench's KG items (task_file=) need SPARQLWrapper: pip install 'agentgym-text[kg]'"
            ) from error
        self.url = url
        self._client = SPARQLWrapper(url)
        self._client.setReturnFormat(JSON)
        self._client.setTimeout(int(timeout))

    def select(self, query: str) -> list[str]:
        """The values of the query's one column, in the endpoint's order."""
        self._client.setQuery(query)
        try:
            results: Any = self._client.query().convert()
        except Exception as error:  # URLError, timeouts, SPARQLWrapper's HTTP errors, a bad JSON body
            raise EndpointError(
                f"the SPARQL endpoint {self.url} did not answer: {_cause(error)}", _unreachable(error)
            ) from error
        try:
            rows = results["results"]["bindings"]
            values = [next(iter(row.values()))["value"] for row in rows if row]
        except (TypeError, KeyError, AttributeError) as error:
            raise EndpointError(f"the SPARQL endpoint {self.url} sent no SPARQL JSON results") from error
        return [value.replace(FREEBASE, "").replace("-08:00", "") for value in values]


def _unreachable(error: Exception) -> bool:
    if type(error).__name__ == "EndPointNotFound":  # SPARQLWrapper's HTTP 404: no endpoint at this URL
        return True
    if isinstance(error, HTTPError) or isinstance(error, TimeoutError):
        return False
    if isinstance(error, URLError):
        return not isinstance(error.reason, TimeoutError)
    return isinstance(error, ConnectionError)


def _cause(error: Exception) -> str:
    text = " ".join(str(error).split(" Response:")[0].split())  # SPARQLWrapper appends the whole HTTP body
    return f"{type(error).__name__}: {text[:200]}" if text else type(error).__name__
