"""Three small Mind2Web annotations written here in Mind2Web's format (its own files never enter this repository),
nine steps each, on pages in ``cleaned_html`` form with the quirks of the real ones: visible text in ``<text>``
elements carrying their own ``backend_node_id``, wrappers with no attribute, attribute values that are URLs,
``hidden`` or words of 15 letters or more, an svg icon class, long texts, escaped ``&``, a select with options, long
lists of siblings, and ``action_reprs`` as Mind2Web writes them. Used by the Mind2Web replay of the ``agentbench``
protocol (``tests/reference/record_agentbench_protocol.py``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

__all__ = ["ANNOTATIONS", "write_items"]


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
        return f'<{tag} backend_node_id="{number}"{shown}>{inner}</{tag}>' if inner else f'<{tag} backend_node_id="{number}"{shown}/>'

    def text(self, words: str) -> str:
        return f'<text backend_node_id="{next(self.ids)}">{words}</text>'


def _shop_page(query: str, products: list[str], marks: dict[str, list[str]]) -> str:
    """A shop page; ``marks`` collects the ids of named elements (``search``, ``go``, ``sort``, ``product<i>``,
    ``cart``, ``next``)."""
    p = _Page()
    nav = p.el(
        "ul",
        *(p.el("li", p.el("a", p.text(name), title=f"https://shop.example/{name.lower()}")) for name in ("Home", "Deals", "Help")),
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
        *(p.el("option", p.text(name), **({"option_selected": "true"} if i == 0 else {})) for i, name in enumerate(("Relevance", "Price: Low to High", "Newest"))),
        uid=marks.setdefault("sort", []),
        name="sort",
    )
    items = [
        p.el(
            "li",
            p.el("a", p.text(name), uid=marks.setdefault(f"product{i}", []), role="link"),
            p.el("span", p.text(f"${12 + 7 * i}.99 &amp; free shipping"), **{"class": "price"}),
            p.el("div", p.el("button", p.text("Add to Cart"), type="button", title="Add to Cart")),
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
    return p.el("html", p.el("body", header, main))


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
            ("", "search", "TYPE Nestwell 5 Tier Bookshelf", "[searchbox]  Search products -> TYPE: Nestwell 5 Tier Bookshelf"),
            ("Nestwell", "go", "CLICK", "[button]  Go -> CLICK"),
            ("Nestwell", "sort", "SELECT Price: Low to High", "[combobox]  Sort by -> SELECT: Price: Low to High"),
            ("Nestwell", "product0", "CLICK", "[link]  Nestwell 5 Tier Bookshelf -> CLICK"),
            ("Nestwell", "cart", "CLICK", "[link]  Cart (0) -> CLICK"),
            ("Nestwell", "product1", "CLICK", "[link]  Oak Ladder Shelf -> CLICK"),
            ("Nestwell", "next", "CLICK", "[link]  Next page -> CLICK"),
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
            ("Kenya", "next", "CLICK", "[link]  Next page -> CLICK"),
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
            ("lamp", "next", "CLICK", "[link]  Next page -> CLICK"),
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
