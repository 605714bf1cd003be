"""Task generators for the shop admin, modelled on WebArena's shopping_admin intent templates."""

from __future__ import annotations

import sqlite3

from agentgym_text.envs.webarena.sites.taskkit import (
    SHOPPING_ADMIN,
    Instance,
    SeededDatabase,
    Template,
    change,
    click,
    db_check,
    field_value,
    fill_in,
    make_tasks,
    month_label,
    navigation,
    order_number,
    page_includes,
    page_shows,
    question,
    rng_for,
    type_,
)
from agentgym_text.envs.webarena.sites.tasks_shop import findable_products

__all__ = ["generate", "TEMPLATES", "ORDERS_IN_MONTH", "ADMIN_TASK_COUNT"]

ADMIN_TASK_COUNT = 55
REVIEW_TERMS = ("refund", "quality", "cheap", "disappointed", "arrived")
ORDER_STATUSES = ("pending", "processing", "complete", "canceled")
STOCK_ARRIVALS = (12, 25, 40, 100)
ENABLED_LOCATOR = "document.querySelector('[name=\"enabled\"]').checked ? 'enabled' : 'disabled'"


def _years(db: SeededDatabase) -> list[str]:
    return db.column("SELECT DISTINCT substr(date, 1, 4) FROM orders ORDER BY 1")


def _report(db: SeededDatabase, link_name: str, path: str, year: str) -> tuple[list[dict], str]:
    """The steps to a yearly report and its URL: the report opens on the latest year, another is a link away."""
    steps, url = [click("link", "Reports"), click("link", link_name)], f"{SHOPPING_ADMIN}/admin/reports/{path}"
    if year != _years(db)[-1]:
        steps.append(click("link", year))
        url += f"?year={year}"
    return steps, url


def _product_edit_page(pid: int) -> str:
    return f"{SHOPPING_ADMIN}/admin/catalog/product/edit/{pid}"


def _saved(pid: int) -> dict:
    return {"url": _product_edit_page(pid), "contents": ["You saved the product."]}


def _edit(name: str) -> list[dict]:
    return [click("link", "Products"), type_("searchbox", "Search by keyword", name), click("link", f"Edit {name}")]


def _bestsellers(db: SeededDatabase) -> list[Instance]:
    instances = []
    for year in _years(db):
        sold = db.rows(
            "SELECT p.name, SUM(i.qty) AS n FROM order_items i JOIN orders o ON o.id = i.order_id JOIN "
            "products p ON p.id = i.product_id WHERE o.status != 'canceled' AND o.date LIKE ? "
            "GROUP BY p.id ORDER BY n DESC, p.id LIMIT 11",
            (f"{year}%",),
        )
        steps, url = _report(db, "Bestsellers", "bestsellers", year)
        for top in (1, 2, 3):
            if sold[top - 1][1] == sold[top][1]:
                continue  # a tie at the cut: the question has no single answer
            names = [name for name, _ in sold[:top]]
            instances.append(
                question(
                    {"n": top, "year": year},
                    steps,
                    ", ".join(names),
                    reference=("must_include", names),
                    page=url,
                    seen=[f"Bestsellers in {year}"],
                )
            )
    return instances


def _reviews_mentioning(db: SeededDatabase) -> list[Instance]:
    instances = []
    for term in REVIEW_TERMS:
        count = db.value(
            "SELECT COUNT(*) FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.title LIKE ? "
            "OR r.body LIKE ? OR p.name LIKE ?",
            (f"%{term}%",) * 3,
        )
        steps = [click("link", "Reviews"), type_("searchbox", "Search reviews", term)]
        page, seen = f"{SHOPPING_ADMIN}/admin/review?q={term}", [f"{count} records found"]
        instances.append(question({"term": term}, steps, str(count), page=page, seen=seen))
    return instances


def _product_picks(db: SeededDatabase) -> list[tuple[int, str, float]]:
    """Fourteen products whose search finds at most a page: six to reprice, four to disable, four to restock."""
    products = [
        product
        for product in db.shared(findable_products)
        if db.value("SELECT COUNT(*) FROM products WHERE name LIKE ?", (f"%{product[1]}%",)) <= 20
    ]
    return rng_for(22).sample(products, 14)


def _change_price(db: SeededDatabase) -> list[Instance]:
    instances = []
    for n, (pid, name, price) in enumerate(db.shared(_product_picks)[:6]):
        new = round(price * (0.8 if n % 2 else 1.15), 2)
        instances.append(
            change(
                {"product": name, "price": f"{new:.2f}"},
                [*_edit(name), *fill_in({"Price": f"{new:.2f}"}, "Save")],
                field_value(_product_edit_page(pid), "price", f"{new:.2f}"),
                db_check("shopping_admin", "SELECT price FROM products WHERE id = ?", (pid,), new),
                progress=_saved(pid),
            )
        )
    return instances


def _disable_product(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"product": name},
            [*_edit(name), click("checkbox", "Enable Product"), click("button", "Save")],
            page_shows(_product_edit_page(pid), ENABLED_LOCATOR, "disabled"),
            db_check("shopping_admin", "SELECT enabled FROM products WHERE id = ?", (pid,), 0),
            progress=_saved(pid),
        )
        for pid, name, _ in db.shared(_product_picks)[6:10]
    ]


def _restock(db: SeededDatabase) -> list[Instance]:
    instances = []
    for (pid, name, _), arrived in zip(db.shared(_product_picks)[10:14], STOCK_ARRIVALS):
        stock = db.value("SELECT qty FROM products WHERE id = ?", (pid,)) + arrived
        instances.append(
            change(
                {"count": arrived, "product": name},
                [*_edit(name), *fill_in({"Quantity": str(stock)}, "Save")],
                field_value(_product_edit_page(pid), "qty", str(stock)),
                db_check("shopping_admin", "SELECT qty FROM products WHERE id = ?", (pid,), stock),
                progress=_saved(pid),
            )
        )
    return instances


def _orders_list(status: str) -> tuple[list[dict], str]:
    """The steps to the orders of one status, and that list's URL."""
    steps = [click("link", "Orders"), click("link", status.capitalize())]
    return steps, f"{SHOPPING_ADMIN}/admin/sales/order?status={status}"


def _orders_of_status(db: SeededDatabase) -> list[Instance]:
    instances = []
    for status in ORDER_STATUSES:
        count = db.value("SELECT COUNT(*) FROM orders WHERE status = ?", (status,))
        steps, url = _orders_list(status)
        instances.append(question({"status": status}, steps, str(count), page=url, seen=[f"{count} records found"]))
    return instances


def _show_orders_of_status(db: SeededDatabase) -> list[Instance]:
    return [navigation({"status": status}, *_orders_list(status)) for status in ORDER_STATUSES]


def _customer_contact(db: SeededDatabase) -> list[Instance]:
    customers = db.rows("SELECT id, name, email, phone FROM customers WHERE id > 1 ORDER BY id")
    instances = []
    for n, (cid, name, email, phone) in enumerate(rng_for(26).sample(customers, 6)):
        info, answer = (("email address", email), ("phone number", phone))[n % 2]
        steps = [
            click("link", "Customers"),
            type_("searchbox", "Search by keyword", name),
            click("link", f"View {name}"),
        ]
        page = f"{SHOPPING_ADMIN}/admin/customer/{cid}"
        instances.append(question({"info": info, "name": name}, steps, answer, page=page, seen=[answer]))
    return instances


def _dissatisfied_customers(db: SeededDatabase) -> list[Instance]:
    unhappy = db.rows(
        "SELECT p.id, p.name FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.rating <= 2 "
        "AND p.name IN (SELECT name FROM products GROUP BY name HAVING COUNT(*) = 1) "
        "GROUP BY p.id HAVING COUNT(*) >= 1 ORDER BY p.id",
    )
    instances = []
    for pid, name in rng_for(27).sample(unhappy, 5):
        names = sorted(set(db.column("SELECT nickname FROM reviews WHERE product_id = ? AND rating <= 2", (pid,))))
        steps = [click("link", "Reviews"), type_("searchbox", "Search reviews", name)]
        reference, page = ("must_include", names), f"{SHOPPING_ADMIN}/admin/review"
        instances.append(
            question({"product": name}, steps, ", ".join(names), reference=reference, page=page, seen=names)
        )
    return instances


def _open_order_picks(db: SeededDatabase) -> list[int]:
    """Seven open orders: the first four to cancel, the rest to complete."""
    return rng_for(28).sample(
        db.column("SELECT id FROM orders WHERE status IN ('pending', 'processing') ORDER BY id"), 7
    )


def _order_action(oid: int, button: str, status: str) -> Instance:
    number = order_number(oid)
    return change(
        {"number": number},
        [
            click("link", "Orders"),
            type_("searchbox", "Search by order number or customer", number),
            click("link", f"View order {number}"),
            click("button", button),
        ],
        page_includes(f"{SHOPPING_ADMIN}/admin/sales/order/view/{oid}", f"Order Status: {status.capitalize()}"),
        db_check("shopping_admin", "SELECT status FROM orders WHERE id = ?", (oid,), status),
    )


def _cancel_order(db: SeededDatabase) -> list[Instance]:
    return [_order_action(oid, "Cancel Order", "canceled") for oid in db.shared(_open_order_picks)[:4]]


def _complete_order(db: SeededDatabase) -> list[Instance]:
    return [_order_action(oid, "Complete Order", "complete") for oid in db.shared(_open_order_picks)[4:]]


def _orders_in_month(db: SeededDatabase, count: int) -> list[Instance]:
    months = db.rows("SELECT substr(date, 1, 7), COUNT(*) FROM orders GROUP BY 1 ORDER BY 1")
    instances = []
    for month, orders in rng_for(30).sample(months, count):
        steps, url = _report(db, "Orders Report", "orders", month[:4])
        instances.append(question({"month": month_label(month)}, steps, str(orders), page=url, seen=[month]))
    return instances


TEMPLATES = (
    Template(20, "What are the top-{{n}} best-selling products in {{year}}?", SHOPPING_ADMIN, _bestsellers),
    Template(
        21,
        'Tell me the number of reviews that our store received by far that mention term "{{term}}"',
        SHOPPING_ADMIN,
        _reviews_mentioning,
    ),
    Template(22, "Change the price of {{product}} to ${{price}}", SHOPPING_ADMIN, _change_price),
    Template(
        23, "Disable {{product}} from the site, they are facing some quality issues", SHOPPING_ADMIN, _disable_product
    ),
    Template(24, "We received {{count}} more units of {{product}}: add them to its stock", SHOPPING_ADMIN, _restock),
    (
        Template(25, "How many {{status}} orders are there in the store?", SHOPPING_ADMIN, _orders_of_status),
        Template(32, "Show me all {{status}} orders", SHOPPING_ADMIN, _show_orders_of_status),
    ),
    Template(26, "What is the {{info}} of the customer {{name}}?", SHOPPING_ADMIN, _customer_contact),
    Template(
        27,
        "Show me the name of the customers who have expressed dissatisfaction with {{product}}",
        SHOPPING_ADMIN,
        _dissatisfied_customers,
    ),
    Template(28, "Cancel order {{number}}", SHOPPING_ADMIN, _cancel_order),
    Template(29, "Mark order {{number}} as complete", SHOPPING_ADMIN, _complete_order),
)
ORDERS_IN_MONTH = Template(30, "How many orders were placed in {{month}}?", SHOPPING_ADMIN, _orders_in_month)


def generate(connection: sqlite3.Connection) -> list[dict]:
    db = SeededDatabase(connection)
    tasks = make_tasks(TEMPLATES, db)
    # The monthly questions fill the site up to its task count: ties drop some of the bestseller questions.
    return tasks + ORDERS_IN_MONTH.tasks(db, max(4, ADMIN_TASK_COUNT - len(tasks)))
