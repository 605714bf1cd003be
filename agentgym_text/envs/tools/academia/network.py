"""The generated citation network: built from a fixed seed on first use, cached in memory.

Papers cite only older papers; authors belong to an organisation and mostly write with colleagues of
their own group, so the co-authorship net has communities like a real one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from agentgym_text.envs.tools.naming import person_names

__all__ = ["Paper", "Author", "CitationNetwork", "citation_network", "node_key"]

NETWORK_SEED = 2024
PAPER_COUNT = 160
AUTHOR_COUNT = 90

_PREFIXES = (
    "Scalable",
    "Robust",
    "Efficient",
    "Interpretable",
    "Self-Supervised",
    "Few-Shot",
    "Adaptive",
    "Hierarchical",
    "Causal",
    "Lightweight",
)
_METHODS = (
    "Graph Neural Networks",
    "Contrastive Learning",
    "Transformers",
    "Variational Autoencoders",
    "Reinforcement Learning",
    "Bayesian Optimization",
    "Sparse Attention",
    "Knowledge Distillation",
    "Diffusion Models",
    "Meta-Learning",
    "Federated Learning",
    "Spectral Clustering",
)
_TASKS = (
    "Molecular Property Prediction",
    "Code Summarization",
    "Traffic Forecasting",
    "Question Answering",
    "Image Segmentation",
    "Recommendation",
    "Speech Recognition",
    "Program Synthesis",
    "Anomaly Detection",
    "Machine Translation",
    "Protein Structure Prediction",
    "Robot Navigation",
)
_VENUES = ("NeurIPS", "ICML", "ICLR", "ACL", "EMNLP", "CVPR", "KDD", "AAAI", "IJCAI", "WWW", "TKDE", "JMLR")
_JOURNALS = {"TKDE", "JMLR"}
_ORGS = (
    "Tsinghua University",
    "ETH Zurich",
    "University of Toronto",
    "Stanford University",
    "University of Tokyo",
    "Imperial College London",
    "KAIST",
    "University of Edinburgh",
    "Carnegie Mellon University",
    "Peking University",
    "University of Amsterdam",
    "EPFL",
    "University of Melbourne",
    "McGill University",
    "National University of Singapore",
)


@dataclass(frozen=True)
class Paper:
    title: str
    authors: tuple[str, ...]
    year: int
    venue: str
    n_citation: int
    keywords: tuple[str, ...]
    doc_type: str
    cites: tuple[str, ...]


@dataclass(frozen=True)
class Author:
    name: str
    org: str


def node_key(name: str) -> str:
    """How node names are looked up: case-insensitive, spaces collapsed, trailing period ignored."""
    return " ".join(name.split()).casefold().rstrip(".")


class CitationNetwork:
    """Papers and authors with lookups by node name."""

    def __init__(self, papers: list[Paper], authors: list[Author]):
        self.papers = {node_key(paper.title): paper for paper in papers}
        self.authors = {node_key(author.name): author for author in authors}
        joint: dict[tuple[str, str], list[str]] = {}
        for paper in papers:
            for first in paper.authors:
                for second in paper.authors:
                    if first < second:
                        joint.setdefault((first, second), []).append(paper.title)
        self.joint_papers = {pair: sorted(titles) for pair, titles in joint.items()}
        collaborators: dict[str, set[str]] = {author.name: set() for author in authors}
        for first, second in joint:
            collaborators[first].add(second)
            collaborators[second].add(first)
        self.collaborators = {name: sorted(names) for name, names in collaborators.items()}

    def paper(self, name: str) -> Paper | None:
        return self.papers.get(node_key(name))

    def author(self, name: str) -> Author | None:
        return self.authors.get(node_key(name))

    def papers_together(self, first: str, second: str) -> list[str]:
        pair = (first, second) if first < second else (second, first)
        return self.joint_papers.get(pair, [])


def _titles(rng: random.Random, count: int) -> list[str]:
    pool = [f"{prefix} {method} for {task}" for prefix in _PREFIXES for method in _METHODS for task in _TASKS]
    return rng.sample(pool, count)


@lru_cache(maxsize=1)
def citation_network() -> CitationNetwork:
    """The shipped network (same on every machine: ``random.Random`` with an int seed is stable)."""
    rng = random.Random(NETWORK_SEED)
    names = person_names(AUTHOR_COUNT, offset=5)
    authors = [Author(name, _ORGS[index % len(_ORGS)]) for index, name in enumerate(names)]
    groups: dict[str, list[str]] = {}
    for author in authors:
        groups.setdefault(author.org, []).append(author.name)
    titles = _titles(rng, PAPER_COUNT)
    years = sorted(rng.randint(2008, 2023) for _ in range(PAPER_COUNT))
    papers: list[Paper] = []
    for _index, (title, year) in enumerate(zip(titles, years)):
        group = groups[_ORGS[rng.randrange(len(_ORGS))]]
        team = rng.sample(group, min(len(group), rng.randint(1, 3)))
        if rng.random() < 0.3:
            outsider = names[rng.randrange(len(names))]
            if outsider not in team:
                team.append(outsider)
        older = [paper.title for paper in papers if paper.year < year]
        cites = tuple(sorted(rng.sample(older, min(len(older), rng.randint(1, 5))))) if older else ()
        venue = _VENUES[rng.randrange(len(_VENUES))]
        words = title.split(" for ")
        keywords = tuple(sorted({words[0].split(" ", 1)[1].lower(), words[1].lower()}))
        papers.append(
            Paper(
                title=title,
                authors=tuple(team),
                year=year,
                venue=venue,
                n_citation=rng.randint(0, 40) * (2024 - year),
                keywords=keywords,
                doc_type="Journal" if venue in _JOURNALS else "Conference",
                cites=cites,
            )
        )
    return CitationNetwork(papers, authors)
