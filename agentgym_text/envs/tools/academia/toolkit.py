"""The academia tool: load the two nets, then check nodes, neighbours and edges."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.tools.academia.network import CitationNetwork, citation_network
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import Toolkit
from agentgym_text.envs.tools.schema import FunctionSpec, Param

__all__ = ["AcademiaToolkit"]

_GRAPHS = ("PaperNet", "AuthorNet")


class AcademiaToolkit(Toolkit):
    """PaperNet (papers, edges = citations) and AuthorNet (authors, edges = co-authorship)."""

    name = "academia"
    functions = (
        FunctionSpec("loadPaperNet", "Load PaperNet: nodes are papers, edges are citations.", (), "a confirmation"),
        FunctionSpec(
            "loadAuthorNet", "Load AuthorNet: nodes are authors, edges are collaborations.", (), "a confirmation"
        ),
        FunctionSpec(
            "neighbourCheck",
            "List the neighbours of a node: in PaperNet the papers it cites, in AuthorNet the author's collaborators.",
            (Param("graph", choices=_GRAPHS), Param("node")),
            "a list of node names",
        ),
        FunctionSpec(
            "paperNodeCheck",
            "Details of a paper in PaperNet.",
            (Param("node"),),
            "authors, year, venue, n_citation, keywords, doc_type",
        ),
        FunctionSpec("authorNodeCheck", "Details of an author in AuthorNet.", (Param("node"),), "name, org"),
        FunctionSpec(
            "authorEdgeCheck", "The papers two authors wrote together.", (Param("node1"), Param("node2")), "papers"
        ),
        FunctionSpec(
            "paperEdgeCheck",
            "Whether one paper cites the other.",
            (Param("node1"), Param("node2")),
            "the citation relation",
        ),
    )

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.net: CitationNetwork = citation_network()
        self.loaded: set[str] = set()

    def _need(self, graph: str) -> None:
        if graph not in self.loaded:
            raise ActionError(f"{graph} is not loaded; call load{graph} first.", InvalidReason.PRECONDITION)

    def _paper(self, node: str):
        paper = self.net.paper(node)
        if paper is None:
            raise ActionError(f"There is no paper named {node[:120]!r} in PaperNet.", InvalidReason.UNKNOWN_OBJECT)
        return paper

    def _author(self, node: str):
        author = self.net.author(node)
        if author is None:
            raise ActionError(f"There is no author named {node[:120]!r} in AuthorNet.", InvalidReason.UNKNOWN_OBJECT)
        return author

    def do_loadPaperNet(self) -> str:
        self.loaded.add("PaperNet")
        return "PaperNet is loaded."

    def do_loadAuthorNet(self) -> str:
        self.loaded.add("AuthorNet")
        return "AuthorNet is loaded."

    def do_neighbourCheck(self, graph: str, node: str) -> list[str]:
        self._need(graph)
        if graph == "PaperNet":
            return list(self._paper(node).cites)
        return list(self.net.collaborators[self._author(node).name])

    def do_paperNodeCheck(self, node: str) -> dict[str, Any]:
        self._need("PaperNet")
        paper = self._paper(node)
        return {
            "authors": list(paper.authors),
            "year": paper.year,
            "venue": paper.venue,
            "n_citation": paper.n_citation,
            "keywords": list(paper.keywords),
            "doc_type": paper.doc_type,
        }

    def do_authorNodeCheck(self, node: str) -> dict[str, Any]:
        self._need("AuthorNet")
        author = self._author(node)
        return {"name": author.name, "org": author.org}

    def do_authorEdgeCheck(self, node1: str, node2: str) -> dict[str, Any]:
        self._need("AuthorNet")
        first, second = self._author(node1), self._author(node2)
        papers = self.net.papers_together(first.name, second.name)
        if not papers:
            raise ActionError(
                f"There is no edge between {first.name} and {second.name} in AuthorNet.", InvalidReason.UNKNOWN_OBJECT
            )
        return {"papers": papers}

    def do_paperEdgeCheck(self, node1: str, node2: str) -> dict[str, Any]:
        self._need("PaperNet")
        first, second = self._paper(node1), self._paper(node2)
        if second.title in first.cites:
            return {"relation": f"{first.title} cites {second.title}"}
        if first.title in second.cites:
            return {"relation": f"{second.title} cites {first.title}"}
        raise ActionError(
            f"There is no edge between {first.title!r} and {second.title!r} in PaperNet.", InvalidReason.UNKNOWN_OBJECT
        )

    def example_calls(self) -> list[Call]:
        calls = [Call("loadPaperNet", {}), Call("loadAuthorNet", {})]
        papers = list(self.net.papers.values())[::40]
        authors = list(self.net.authors.values())[::30]
        if "PaperNet" in self.loaded:
            for paper in papers:
                calls.append(Call("paperNodeCheck", {"node": paper.title}))
                calls.append(Call("neighbourCheck", {"graph": "PaperNet", "node": paper.title}))
        if "AuthorNet" in self.loaded:
            for author in authors:
                calls.append(Call("authorNodeCheck", {"node": author.name}))
                calls.append(Call("neighbourCheck", {"graph": "AuthorNet", "node": author.name}))
        return calls
