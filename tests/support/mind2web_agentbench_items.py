"""Three small Mind2Web annotations written here in Mind2Web's format (its own files never enter this repository),
nine steps each, on pages in ``cleaned_html`` form with the quirks of the real ones: visible text in ``<text>``
elements carrying their own ``backend_node_id``, wrappers with no attribute, attribute values that are URLs,
``hidden`` or words of 15 letters or more (a wrapper whose only attribute shows nothing stays), an svg icon class,
long texts, quotes in a text, escaped ``&``, a select with options, a list of 30 links (more than 50 elements and texts
below it; a link in it has more than 3 siblings on each side), and ``action_reprs`` as Mind2Web writes them. Used by
the Mind2Web replay of the ``agentbench``
protocol (``tests/reference/record_agentbench_protocol.py``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

__all__ = ["ANNOTATIONS", "write_items", "samples"]


class _Page:
    """Builds one page's ``cleaned_html``; every element, text ones included, gets the next ``backend_node_id``."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)

    def el(self, tag: str, *children: str, uid: list[str] | None = None, **attrs: str) -> str:
        number = str(next(self.ids))
        if uid is not None:
            uid.append(number)
        shown = "".join(f' {name}="{value}"' for name, value in attrs.items())
        inner = "".join(children)
        return (
            f'<{tag} backend_node_id="{number}"{shown}>{inner}</{tag}>'
            if inner
            else f'<{tag} backend_node_id="{number}"{shown}/>'
        )

    def text(self, words: str) -> str:
        return f'<text backend_node_id="{next(self.ids)}">{words}</text>'


def _shop_page(query: str, products: list[str], marks: dict[str, list[str]]) -> str:
    """A shop page; ``marks`` collects the ids of named elements (``search``, ``go``, ``sort``, ``product<i>``,
    ``cart``, ``next``, ``footer``, ``link<i>``)."""
    p = _Page()
    nav = p.el(
        "ul",
        *(
            p.el("li", p.el("a", p.text(name), title=f"https://shop.example/{name.lower()}"))
            for name in ("Home", "Deals", "Help")
        ),
    )
    header = p.el(
        "header",
        p.el("svg", **{"class": "header-icon logo-Icon big"}),
        p.el("div", p.el("div", nav)),
        p.el("a", p.text("Cart (0)"), uid=marks.setdefault("cart", []), aria_label="Shopping cart"),
    )
    search = p.el(
        "form",
        p.el("input", type="hidden", name="csrf"),
        p.el("input", type="hidden"),
        p.el(
            "input",
            uid=marks.setdefault("search", []),
            type="search",
            placeholder="Search products",
            input_value=query,
            aria_label="Searchterm withaverylongword",
        ),
        p.el("button", p.text("Go"), uid=marks.setdefault("go", []), type="submit"),
        role="search",
    )
    sort = p.el(
        "select",
        *(
            p.el("option", p.text(name), **({"option_selected": "true"} if i == 0 else {}))
            for i, name in enumerate(("Relevance", "Price: Low to High", "Newest"))
        ),
        uid=marks.setdefault("sort", []),
        name="sort",
    )
    items = [
        p.el(
            "li",
            p.el("a", p.text(name), uid=marks.setdefault(f"product{i}", []), role="link"),
            p.el("span", p.text(f"${12 + 7 * i}.99 &amp; free shipping"), **{"class": "price"}),
            p.el("div", p.el("button", p.text("Add to Cart"), type="button", title="Add to Cart")),
            p.el(
                "div", p.el("span", p.text(f'"Best seller" in {name.split()[-1]}')), title="https://shop.example/best"
            ),
        )
        for i, name in enumerate(products)
    ]
    blurb = p.el(
        "p",
        p.text(
            "Every order over fifty dollars ships free to any address in the country, and returns are accepted for "
            "thirty days after delivery with no questions asked at all."
        ),
    )
    main = p.el(
        "main",
        p.el("h1", p.text(f"Results for {query}" if query else "Featured")),
        search,
        p.el("label", p.text("Sort by"), sort),
        p.el("ol", *items),
        p.el("nav", p.el("a", p.text("Next page"), uid=marks.setdefault("next", [])), aria_label="presentation"),
        blurb,
    )
    footer = p.el(
        "footer",
        p.el(
            "ul",
            *(
                p.el("li", p.el("a", p.text(f"Footer link {i}"), uid=marks.setdefault(f"link{i}", [])))
                for i in range(30)
            ),
            uid=marks.setdefault("footer", []),
            aria_label="Site links",
        ),
    )
    return p.el("html", p.el("body", header, main, footer))


def _annotation(task: str, products: list[str], steps: list[tuple[str, str, str, str]]) -> dict:
    """``steps``: (the query typed so far, the gold element's mark, "OP value", the action's repr)."""
    actions = []
    for query, mark, operation, _ in steps:
        marks: dict[str, list[str]] = {}
        html = _shop_page(query, products, marks)
        op, _, value = operation.partition(" ")
        actions.append(
            {
                "cleaned_html": html,
                "operation": {"op": op, "original_op": op, "value": value},
                "pos_candidates": [{"backend_node_id": marks[mark][0]}],
            }
        )
    return {
        "annotation_id": task.split()[0].lower(),
        "website": "shop",
        "confirmed_task": task,
        "actions": actions,
        "action_reprs": [s[3] for s in steps],
    }


_BOOKS = ["Nestwell 5 Tier Bookshelf", "Oak Ladder Shelf", "Metal Frame Corner Unit", "Floating Wall Shelves"]
_COFFEE = ["Golden Acre Dark Roast", "Morning Blend Decaf", "Single Origin Kenya AA", "Espresso Beans 2 lb"]
_LAMPS = ["Brightcell Desk Lamp", "Arc Floor Lamp", "Clip-on Reading Light", "Paper Lantern Pendant"]

ANNOTATIONS = [
    _annotation(
        "Find the Nestwell bookshelf, sort by price and add the cheapest two shelves to the cart",
        _BOOKS,
        [
            (
                "",
                "search",
                "TYPE Nestwell 5 Tier Bookshelf",
                "[searchbox]  Search products -> TYPE: Nestwell 5 Tier Bookshelf",
            ),
            ("Nestwell", "go", "CLICK", "[button]  Go -> CLICK"),
            ("Nestwell", "sort", "SELECT Price: Low to High", "[combobox]  Sort by -> SELECT: Price: Low to High"),
            ("Nestwell", "product0", "CLICK", "[link]  Nestwell 5 Tier Bookshelf -> CLICK"),
            ("Nestwell", "cart", "CLICK", "[link]  Cart (0) -> CLICK"),
            ("Nestwell", "product1", "CLICK", "[link]  Oak Ladder Shelf -> CLICK"),
            ("Nestwell", "footer", "CLICK", "[list]  Site links -> CLICK"),
            ("Nestwell", "product3", "CLICK", "[link]  Floating Wall Shelves -> CLICK"),
            ("Nestwell", "cart", "CLICK", "[link]  Cart (0) -> CLICK"),
        ],
    ),
    _annotation(
        "Buy a bag of Kenya coffee beans",
        _COFFEE,
        [
            ("", "search", "TYPE Kenya", "[searchbox]  Search products -> TYPE: Kenya"),
            ("Kenya", "go", "CLICK", "[button]  Go -> CLICK"),
            ("Kenya", "product2", "CLICK", "[link]  Single Origin Kenya AA -> CLICK"),
            ("Kenya", "sort", "SELECT Newest", "[combobox]  Sort by -> SELECT: Newest"),
            ("Kenya", "product3", "CLICK", "[link]  Espresso Beans 2 lb -> CLICK"),
            ("Kenya", "link15", "CLICK", "[link]  Footer link 15 -> CLICK"),
            ("Kenya", "product0", "CLICK", "[link]  Golden Acre Dark Roast -> CLICK"),
            ("Kenya", "search", "TYPE decaf", "[searchbox]  Search products -> TYPE: decaf"),
            ("decaf", "cart", "CLICK", "[link]  Cart (0) -> CLICK"),
        ],
    ),
    _annotation(
        "Compare the desk lamps and save the arc lamp",
        _LAMPS,
        [
            ("", "search", "TYPE lamp", "[searchbox]  Search products -> TYPE: lamp"),
            ("lamp", "go", "CLICK", "[button]  Go -> CLICK"),
            ("lamp", "product1", "CLICK", "[link]  Arc Floor Lamp -> CLICK"),
            ("lamp", "sort", "SELECT Relevance", "[combobox]  Sort by -> SELECT: Relevance"),
            ("lamp", "product0", "CLICK", "[link]  Brightcell Desk Lamp -> CLICK"),
            ("lamp", "product2", "CLICK", "[link]  Clip-on Reading Light -> CLICK"),
            ("lamp", "link2", "CLICK", "[link]  Footer link 2 -> CLICK"),
            ("lamp", "cart", "CLICK", "[link]  Cart (0) -> CLICK"),
            ("lamp", "product3", "CLICK", "[link]  Paper Lantern Pendant -> CLICK"),
        ],
    ),
]


def write_items(folder: Path) -> Path:
    """The annotations as a Mind2Web json file in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mind2web_items.json"
    path.write_text(json.dumps(ANNOTATIONS, ensure_ascii=False))
    return path


def samples(env: Any, played: dict[str, Any]) -> list[dict[str, Any]]:
    """One v0.2 sample per request (as ``get_data`` leaves it): the step's page, the task, every previous action
    (``format_input_multichoice`` keeps the last five), and the candidates the env chose: ``pos_ids`` the gold one,
    ``neg_candidates`` the others ranked 0, 1, ..., and ``choices`` all of them in letter order (ours, not v0.2's).
    ``env`` (unwrapped) has just played ``played`` (``tests/support/agentbench_replay.play``). A refused step asks
    its question again: the same sample."""
    from agentgym_text.envs.webbrowsing.render import ask

    annotation, index, found = env._annotation, 0, []
    for number in range(len(played["requests"])):
        step = annotation.steps[index]
        uids = [uid for uid, _ in ask(annotation, index, env.num_candidates).choices]
        found.append(
            {
                "cleaned_html": step.html,
                "confirmed_task": annotation.task,
                "previous_actions": [earlier.repr for earlier in annotation.steps[:index]],
                "pos_ids": [uid for uid in uids if uid in step.gold],
                "neg_candidates": [
                    {"backend_node_id": uid, "rank": rank}
                    for rank, uid in enumerate(uid for uid in uids if uid not in step.gold)
                ],
                "choices": uids,
            }
        )
        if number < len(played["infos"]) and played["infos"][number]["valid"]:
            index += 1
    return found
