"""The 20 sheet tasks: ten operation templates, each on its own generated product table "SheetN"; the training
drafts: the same templates on tables generated with another seed, named from "Sheet21" on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import count, islice

from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.grading import AnswerRule
from agentgym_text.envs.tools.sheet.cells import a1, format_value
from agentgym_text.envs.tools.task_builder import TaskDraft

__all__ = ["drafts", "training_drafts", "product_table", "HEADER"]

HEADER = ["Product", "Category", "Price", "Quantity", "Discount", "Location", "Rating"]
_PRODUCTS = {
    "Electronics": ("Headphones", "Keyboard", "Monitor", "Webcam", "Speaker", "Tablet", "Charger", "Mouse"),
    "Kitchen": ("Kettle", "Toaster", "Blender", "Frying Pan", "Knife Set", "Coffee Maker"),
    "Office": ("Notebook", "Stapler", "Desk Lamp", "Pen Set", "Backpack", "Calculator"),
    "Garden": ("Hose", "Shovel", "Planter", "Seed Pack", "Gloves"),
}
_LOCATIONS = ("Warehouse A", "Warehouse B", "Store 1", "Store 2")
_PRICE, _QUANTITY, _DISCOUNT, _LOCATION, _RATING = 3, 4, 5, 6, 7


def product_table(rng: random.Random, rows: int) -> list[list[str]]:
    """A header and ``rows`` products with distinct names and prices."""
    catalogue = [(category, name) for category, names in _PRODUCTS.items() for name in names]
    picked = rng.sample(catalogue, rows)
    prices = rng.sample(range(5, 400), rows)
    table = [list(HEADER)]
    for (category, name), price in zip(picked, prices):
        table.append(
            [
                name,
                category,
                format_value(price + rng.choice((0, 0.5, 0.99))),
                format_value(rng.randint(1, 60)),
                format_value(rng.choice((0, 1, 2, 5, 10))),
                rng.choice(_LOCATIONS),
                format_value(round(rng.uniform(2.5, 5.0), 1)),
            ]
        )
    return table


def _draft(goal: str, calls: list[Call], table: list[list[str]], name: str) -> TaskDraft:
    return TaskDraft(
        goal=f"In \"{name}\", {goal} Call finish with the answer 'done' when the sheet is ready.",
        calls=calls,
        answer="done",
        rule=AnswerRule("done"),
        graded_state=True,
        uses_subgoals=False,
        config={"sheet_name": name, "table": table},
    )


def _revenue(table, name):
    n = len(table)
    col = len(HEADER) + 1
    calls = [Call("update_cell", {"position": a1(1, col), "value": "Revenue"})] + [
        Call(
            "update_cell_by_formula",
            {"operator": "PRODUCT", "position_list": [a1(r, _PRICE), a1(r, _QUANTITY)], "result_position": a1(r, col)},
        )
        for r in range(2, n + 1)
    ]
    return _draft(
        f'add a column "Revenue" in column {a1(1, col)[:-1]} holding Price times Quantity for every product.',
        calls,
        table,
        name,
    )


def _final_price(table, name):
    n = len(table)
    col = len(HEADER) + 1
    calls = [Call("update_cell", {"position": a1(1, col), "value": "Final Price"})] + [
        Call(
            "update_cell_by_formula",
            {"operator": "MINUS", "position_list": [a1(r, _PRICE), a1(r, _DISCOUNT)], "result_position": a1(r, col)},
        )
        for r in range(2, n + 1)
    ]
    return _draft(
        f'add a column "Final Price" in column {a1(1, col)[:-1]} holding Price minus Discount for every product.',
        calls,
        table,
        name,
    )


def _sort(table, name, column: int, descending: bool):
    order = "descending" if descending else "ascending"
    return _draft(
        f'sort the products by "{HEADER[column - 1]}" in {order} order (keep the header row first).',
        [Call("sort_sheet_by_col", {"col_num": column, "order": "des" if descending else "asc"})],
        table,
        name,
    )


def _delete_location(table, name, location: str):
    rows = [r for r in range(2, len(table) + 1) if table[r - 1][_LOCATION - 1] == location]
    return _draft(
        f'delete the rows of all products located in "{location}".',
        [Call("delete_batch_data", {"dimension": "row", "index_list": rows})],
        table,
        name,
    )


def _reprice(table, name, row: int, price: float):
    product = table[row - 1][0]
    return _draft(
        f'change the price of "{product}" to {format_value(price)}.',
        [
            Call("filter_cells", {"query": product, "in_column": 1}),
            Call("update_cell", {"position": a1(row, _PRICE), "value": price}),
        ],
        table,
        name,
    )


def _total_quantity(table, name):
    n = len(table)
    return _draft(
        f'write "Total" in cell A{n + 1} and the total of the Quantity column in cell D{n + 1}.',
        [
            Call("update_cell", {"position": f"A{n + 1}", "value": "Total"}),
            Call(
                "update_cell_by_formula",
                {"operator": "SUM", "start_position": "D2", "end_position": f"D{n}", "result_position": f"D{n + 1}"},
            ),
        ],
        table,
        name,
    )


def _average_price(table, name):
    n = len(table)
    return _draft(
        f'write "Average" in cell A{n + 1} and the average Price in cell C{n + 1}.',
        [
            Call("update_cell", {"position": f"A{n + 1}", "value": "Average"}),
            Call(
                "update_cell_by_formula",
                {
                    "operator": "AVERAGE",
                    "start_position": "C2",
                    "end_position": f"C{n}",
                    "result_position": f"C{n + 1}",
                },
            ),
        ],
        table,
        name,
    )


def _drop_discount(table, name):
    return _draft(
        'remove the "Discount" column.',
        [Call("delete_batch_data", {"dimension": "col", "index_list": [_DISCOUNT]})],
        table,
        name,
    )


def _append(table, name, rng: random.Random):
    row = ["Umbrella", "Garden", "14.5", format_value(rng.randint(5, 30)), "0", "Store 1", "4.2"]
    return _draft(
        f"add the product {dict(zip(HEADER, row))} as a new last row.",
        [Call("insert_rows", {"values_list": [row], "row_idx": len(table) + 1})],
        table,
        name,
    )


def _lowest_rated(table, name):
    return _draft(
        'sort the products by "Rating" in ascending order, then delete the row of the product with the lowest rating.',
        [
            Call("sort_sheet_by_col", {"col_num": _RATING, "order": "asc"}),
            Call("delete_batch_data", {"dimension": "row", "index_list": [2]}),
        ],
        table,
        name,
    )


def _stream(rng: random.Random, first_sheet: int) -> Iterator[TaskDraft]:
    """Drafts taking the ten templates in turn on tables drawn with ``rng``, named "Sheet<first_sheet>" on."""
    for index in count():
        name = f"Sheet{first_sheet + index}"
        table = product_table(rng, rng.randint(5, 8))
        kind = index % 10
        if kind == 0:
            yield _revenue(table, name)
        elif kind == 1:
            yield _sort(table, name, _PRICE, descending=True)
        elif kind == 2:
            location = table[rng.randrange(1, len(table))][_LOCATION - 1]
            yield _delete_location(table, name, location)
        elif kind == 3:
            yield _reprice(table, name, rng.randrange(2, len(table) + 1), rng.randrange(5, 300) + 0.5)
        elif kind == 4:
            yield _total_quantity(table, name)
        elif kind == 5:
            yield _final_price(table, name)
        elif kind == 6:
            yield _drop_discount(table, name)
        elif kind == 7:
            yield _append(table, name, rng)
        elif kind == 8:
            ratings = [row[_RATING - 1] for row in table[1:]]
            while len(set(ratings)) != len(ratings) or min(ratings) == sorted(ratings)[1]:
                table = product_table(rng, len(table) - 1)
                ratings = [row[_RATING - 1] for row in table[1:]]
            yield _lowest_rated(table, name)
        else:
            yield _sort(table, name, _QUANTITY, descending=False)


def drafts() -> list[TaskDraft]:
    return list(islice(_stream(random.Random(21), first_sheet=1), 20))


def training_drafts() -> Iterator[TaskDraft]:
    """An endless stream of training drafts (names after the shipped sheets', so no goal repeats a shipped one)."""
    return _stream(random.Random("sheet-training"), first_sheet=21)
