"""The 20 academia tasks: seven question templates over entities drawn from the network with a fixed seed; the
training drafts: the same templates over entities drawn with another seed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

from agentgym_text.envs.tools.academia.network import citation_network
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.grading import AnswerRule
from agentgym_text.envs.tools.task_builder import TaskDraft

__all__ = ["drafts", "training_drafts"]

_LOAD_PAPERS = Call("loadPaperNet", {})
_LOAD_AUTHORS = Call("loadAuthorNet", {})


def _year(paper) -> TaskDraft:
    return TaskDraft(
        goal=f'In which year was the paper "{paper.title}" published?',
        calls=[_LOAD_PAPERS, Call("paperNodeCheck", {"node": paper.title})],
        answer=lambda out: out[1]["year"],
        rule=AnswerRule("number", abs_tol=0.0, rel_tol=0.0),
    )


def _venue(paper) -> TaskDraft:
    return TaskDraft(
        goal=f'At which venue was the paper "{paper.title}" published?',
        calls=[_LOAD_PAPERS, Call("paperNodeCheck", {"node": paper.title})],
        answer=lambda out: out[1]["venue"],
    )


def _collaborators(author) -> TaskDraft:
    return TaskDraft(
        goal=f"Who has {author.name} collaborated with? List all collaborators, in any order.",
        calls=[_LOAD_AUTHORS, Call("neighbourCheck", {"graph": "AuthorNet", "node": author.name})],
        answer=lambda out: out[1],
        rule=AnswerRule("list", ordered=False),
    )


def _organisation(author) -> TaskDraft:
    return TaskDraft(
        goal=f"Which organization is {author.name} affiliated with?",
        calls=[_LOAD_AUTHORS, Call("authorNodeCheck", {"node": author.name})],
        answer=lambda out: out[1]["org"],
    )


def _joint_count(first: str, second: str) -> TaskDraft:
    return TaskDraft(
        goal=f"How many papers have {first} and {second} written together?",
        calls=[_LOAD_AUTHORS, Call("authorEdgeCheck", {"node1": first, "node2": second})],
        answer=lambda out: len(out[1]["papers"]),
        rule=AnswerRule("number", abs_tol=0.0, rel_tol=0.0),
    )


def _earliest_cited(paper, cited) -> TaskDraft:
    def answer(out):
        details = out[2:]
        return min(zip(details, cited), key=lambda pair: (pair[0]["year"], pair[1]))[1]

    return TaskDraft(
        goal=f'Among the papers cited by "{paper.title}", which one was published earliest? Give its title.',
        calls=[_LOAD_PAPERS, Call("neighbourCheck", {"graph": "PaperNet", "node": paper.title})]
        + [Call("paperNodeCheck", {"node": title}) for title in cited],
        answer=answer,
    )


def _first_author_org(paper) -> TaskDraft:
    first = paper.authors[0]
    return TaskDraft(
        goal=f'Which organization is the first author of the paper "{paper.title}" affiliated with?',
        calls=[
            _LOAD_PAPERS,
            Call("paperNodeCheck", {"node": paper.title}),
            _LOAD_AUTHORS,
            Call("authorNodeCheck", {"node": first}),
        ],
        answer=lambda out: out[3]["org"],
    )


def _stream(rng: random.Random) -> Iterator[TaskDraft]:
    """Rounds of the seven templates, entities drawn with ``rng``; the third round leaves out the first-author
    question (the shipped 20 are the first three rounds)."""
    net = citation_network()
    papers = sorted(net.papers.values(), key=lambda paper: paper.title)
    authors = sorted((a for a in net.authors.values() if net.collaborators[a.name]), key=lambda a: a.name)
    pairs = sorted(pair for pair, titles in net.joint_papers.items())

    # Cited lists with a unique earliest year, so the question has one answer.
    def unique_earliest(paper) -> bool:
        years = sorted(net.paper(title).year for title in paper.cites)
        return 2 <= len(years) <= 4 and (len(years) == 1 or years[0] < years[1])

    earliest = [paper for paper in papers if unique_earliest(paper)]
    round_ = 0
    while True:
        yield _year(rng.choice(papers))
        yield _venue(rng.choice(papers))
        yield _collaborators(rng.choice(authors))
        yield _organisation(rng.choice(authors))
        first, second = rng.choice(pairs)
        yield _joint_count(first, second)
        paper = rng.choice(earliest)
        yield _earliest_cited(paper, list(paper.cites))
        if round_ != 2:
            yield _first_author_org(rng.choice(papers))
        round_ += 1


def drafts() -> list[TaskDraft]:
    return list(islice(_stream(random.Random(7)), 20))


def training_drafts() -> Iterator[TaskDraft]:
    """An endless stream of training drafts (the caller leaves out those asking what a shipped task asks)."""
    return _stream(random.Random("academia-training"))
