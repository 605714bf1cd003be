"""Task generators for the shop admin, modelled on WebArena's shopping_admin intent templates."""

from __future__ import annotations

import calendar
import sqlite3

from agentgym_text.envs.webarena.sites.taskkit import A, click, rng_for, rows, stop, task, type_

__all__ = ["generate"]

_VALUE = "document.querySelector('[name=\"{}\"]').value"


def _saved(pid: int) -> dict:
    return {"url": f"{A}/admin/catalog/product/edit/{pid}", "contents": ["You saved the product."]}


def _edit(name: str) -> list[dict]:
    return [click("link", "Products"), type_("searchbox", "Search by keyword", name), click("link", f"Edit {name}")]


def generate(c: sqlite3.Connection) -> list[dict]:
    out: list[dict] = []
    years = [r[0] for r in rows(c, "SELECT DISTINCT substr(date, 1, 4) FROM orders ORDER BY 1")]
    for year in years:
        sold = rows(
            c,
            "SELECT p.name, SUM(i.qty) AS n FROM order_items i JOIN orders o ON o.id = i.order_id JOIN "
            "products p ON p.id = i.product_id WHERE o.status != 'canceled' AND o.date LIKE ? "
            "GROUP BY p.id ORDER BY n DESC, p.id LIMIT 11",
            (f"{year}%",),
        )
        for n in (1, 2, 3):
            if sold[n - 1][1] == sold[n][1]:
                continue  # a tie at the cut: the question has no single answer
            names = [s[0] for s in sold[:n]]
            steps = [click("link", "Reports"), click("link", "Bestsellers")]
            if year != years[-1]:
                steps.append(click("link", year))
            out.append(
                task(
                    20,
                    "What are the top-{{n}} best-selling products in {{year}}?",
                    {"n": n, "year": year},
                    A,
                    steps + [stop(", ".join(names))],
                    answer=("must_include", names),
                    progress={
                        "url": f"{A}/admin/reports/bestsellers" + (f"?year={year}" if year != years[-1] else ""),
                        "contents": [f"Bestsellers in {year}"],
                    },
                )
            )

    for term in ("refund", "quality", "cheap", "disappointed", "arrived"):
        count = rows(
            c,
            "SELECT COUNT(*) FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.title LIKE ? "
            "OR r.body LIKE ? OR p.name LIKE ?",
            (f"%{term}%",) * 3,
        )[0][0]
        out.append(
            task(
                21,
                'Tell me the number of reviews that our store received by far that mention term "{{term}}"',
                {"term": term},
                A,
                [click("link", "Reviews"), type_("searchbox", "Search reviews", term), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{A}/admin/review?q={term}", "contents": [f"{count} records found"]},
            )
        )

    from agentgym_text.envs.webarena.sites.tasks_shop import findable_products

    products = [
        p
        for p in findable_products(c)
        if rows(c, "SELECT COUNT(*) FROM products WHERE name LIKE ?", (f"%{p[1]}%",))[0][0] <= 20
    ]
    picks = rng_for(22).sample(products, 14)
    for n, (pid, name, price) in enumerate(picks[:6]):
        new = round(price * (0.8 if n % 2 else 1.15), 2)
        out.append(
            task(
                22,
                "Change the price of {{product}} to ${{price}}",
                {"product": name, "price": f"{new:.2f}"},
                A,
                _edit(name) + [type_("textbox", "Price", f"{new:.2f}", 0), click("button", "Save"), stop()],
                progress=_saved(pid),
                html=[
                    {
                        "url": f"{A}/admin/catalog/product/edit/{pid}",
                        "locator": _VALUE.format("price"),
                        "required_contents": {"exact_match": f"{new:.2f}"},
                    }
                ],
                db=[{"site": "shopping_admin", "sql": f"SELECT price FROM products WHERE id = {pid}", "expected": new}],
            )
        )
    for pid, name, _ in picks[6:10]:
        out.append(
            task(
                23,
                "Disable {{product}} from the site, they are facing some quality issues",
                {"product": name},
                A,
                _edit(name) + [click("checkbox", "Enable Product"), click("button", "Save"), stop()],
                progress=_saved(pid),
                html=[
                    {
                        "url": f"{A}/admin/catalog/product/edit/{pid}",
                        "locator": "document.querySelector('[name=\"enabled\"]').checked ? 'enabled' : 'disabled'",
                        "required_contents": {"exact_match": "disabled"},
                    }
                ],
                db=[{"site": "shopping_admin", "sql": f"SELECT enabled FROM products WHERE id = {pid}", "expected": 0}],
            )
        )
    for n, (pid, name, _) in enumerate(picks[10:14]):
        qty = rows(c, "SELECT qty FROM products WHERE id = ?", (pid,))[0][0]
        more = (12, 25, 40, 100)[n]
        out.append(
            task(
                24,
                "We received {{count}} more units of {{product}}: add them to its stock",
                {"count": more, "product": name},
                A,
                _edit(name) + [type_("textbox", "Quantity", str(qty + more), 0), click("button", "Save"), stop()],
                progress=_saved(pid),
                html=[
                    {
                        "url": f"{A}/admin/catalog/product/edit/{pid}",
                        "locator": _VALUE.format("qty"),
                        "required_contents": {"exact_match": str(qty + more)},
                    }
                ],
                db=[
                    {
                        "site": "shopping_admin",
                        "sql": f"SELECT qty FROM products WHERE id = {pid}",
                        "expected": qty + more,
                    }
                ],
            )
        )

    for status in ("pending", "processing", "complete", "canceled"):
        count = rows(c, "SELECT COUNT(*) FROM orders WHERE status = ?", (status,))[0][0]
        out.append(
            task(
                25,
                "How many {{status}} orders are there in the store?",
                {"status": status},
                A,
                [click("link", "Orders"), click("link", status.capitalize()), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{A}/admin/sales/order?status={status}", "contents": [f"{count} records found"]},
            )
        )
        out.append(
            task(
                32,
                "Show me all {{status}} orders",
                {"status": status},
                A,
                [click("link", "Orders"), click("link", status.capitalize()), stop()],
                url=f"{A}/admin/sales/order?status={status}",
            )
        )

    customers = rows(c, "SELECT id, name, email, phone FROM customers WHERE id > 1 ORDER BY id")
    for n, (cid, name, email, phone) in enumerate(rng_for(26).sample(customers, 6)):
        what, value = (("email address", email), ("phone number", phone))[n % 2]
        out.append(
            task(
                26,
                "What is the {{info}} of the customer {{name}}?",
                {"info": what, "name": name},
                A,
                [
                    click("link", "Customers"),
                    type_("searchbox", "Search by keyword", name),
                    click("link", f"View {name}"),
                    stop(value),
                ],
                answer=("exact_match", value),
                progress={"url": f"{A}/admin/customer/{cid}", "contents": [value]},
            )
        )

    unhappy = rows(
        c,
        "SELECT p.id, p.name FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.rating <= 2 "
        "AND p.name IN (SELECT name FROM products GROUP BY name HAVING COUNT(*) = 1) "
        "GROUP BY p.id HAVING COUNT(*) >= 1 ORDER BY p.id",
    )
    for pid, name in rng_for(27).sample(unhappy, 5):
        names = sorted(
            {r[0] for r in rows(c, "SELECT nickname FROM reviews WHERE product_id = ? AND rating <= 2", (pid,))}
        )
        out.append(
            task(
                27,
                "Show me the name of the customers who have expressed dissatisfaction with {{product}}",
                {"product": name},
                A,
                [click("link", "Reviews"), type_("searchbox", "Search reviews", name), stop(", ".join(names))],
                answer=("must_include", names),
                progress={"url": f"{A}/admin/review", "contents": names},
            )
        )

    open_orders = rows(c, "SELECT id FROM orders WHERE status IN ('pending', 'processing') ORDER BY id")
    for n, (oid,) in enumerate(rng_for(28).sample(open_orders, 7)):
        status, intent, button = (
            ("canceled", "Cancel order {{number}}", "Cancel Order"),
            ("complete", "Mark order {{number}} as complete", "Complete Order"),
        )[n >= 4]
        number = f"{oid:06d}"
        out.append(
            task(
                28 if n < 4 else 29,
                intent,
                {"number": number},
                A,
                [
                    click("link", "Orders"),
                    type_("searchbox", "Search by order number or customer", number),
                    click("link", f"View order {number}"),
                    click("button", button),
                    stop(),
                ],
                html=[
                    {
                        "url": f"{A}/admin/sales/order/view/{oid}",
                        "locator": "",
                        "required_contents": {"must_include": [f"Order Status: {status.capitalize()}"]},
                    }
                ],
                db=[
                    {"site": "shopping_admin", "sql": f"SELECT status FROM orders WHERE id = {oid}", "expected": status}
                ],
            )
        )

    months = rows(c, "SELECT substr(date, 1, 7), COUNT(*) FROM orders GROUP BY 1 ORDER BY 1")
    for month, count in rng_for(30).sample(months, max(4, 55 - len(out))):  # 55 admin tasks (fewer bestseller ties)
        label = f"{calendar.month_name[int(month[5:])]} {month[:4]}"
        steps = [click("link", "Reports"), click("link", "Orders Report")]
        if month[:4] != years[-1]:
            steps.append(click("link", month[:4]))
        out.append(
            task(
                30,
                "How many orders were placed in {{month}}?",
                {"month": label},
                A,
                steps + [stop(str(count))],
                answer=("exact_match", str(count)),
                progress={
                    "url": f"{A}/admin/reports/orders" + (f"?year={month[:4]}" if month[:4] != years[-1] else ""),
                    "contents": [month],
                },
            )
        )
    return out
