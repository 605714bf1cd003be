"""Task generators for the shop (One Stop Market), modelled on WebArena's shopping intent templates."""

from __future__ import annotations

import calendar
import sqlite3

from agentgym_text.envs.webarena.sites.taskkit import S, click, money_variants, rng_for, rows, stop, task, type_

__all__ = ["generate", "findable_products"]


def findable_products(c: sqlite3.Connection) -> list[tuple[int, str, float]]:
    """Products with a unique name that a search for the full name lists on its first page."""
    unique = rows(c, "SELECT MIN(id), name, MIN(price) FROM products GROUP BY name HAVING COUNT(*) = 1 ORDER BY 1")
    found = []
    for pid, name, price in unique:
        words = name.split()[:12]
        where = " AND ".join(["name LIKE ?"] * len(words))
        hits = rows(c, f"SELECT id FROM products WHERE {where} ORDER BY id LIMIT 20", tuple(f"%{w}%" for w in words))
        if pid in [h[0] for h in hits]:
            found.append((pid, name, price))
    return found


def _find(name: str) -> list[dict]:
    return [type_("searchbox", "Search", name), click("link", name)]


def generate(c: sqlite3.Connection) -> list[dict]:
    out: list[dict] = []
    products = findable_products(c)

    rng = rng_for(0)
    for pid, name, price in rng.sample(products, 4):
        out.append(
            task(
                0,
                "What is the price of {{product}}?",
                {"product": name},
                S,
                _find(name) + [stop(f"${price:,.2f}")],
                answer=("must_include", [money_variants(price)]),
                progress={"url": f"{S}/product/{pid}", "contents": [f"Price: ${price:,.2f}"]},
            )
        )

    for name in ("Brightcell Solar Hoverboard with Bluetooth Speaker", "Loftique Heated Marble Hammock for Two"):
        words = name.split()
        hits = rows(
            c,
            "SELECT COUNT(*) FROM products WHERE " + " AND ".join(["name LIKE ?"] * len(words)),
            tuple(f"%{w}%" for w in words),
        )[0][0]
        assert hits == 0, name
        out.append(
            task(
                13,
                "What is the price of {{product}}?",
                {"product": name},
                S,
                [type_("searchbox", "Search", name), stop("N/A")],
                answer=("fuzzy_match", "N/A"),
                string_note="The store does not sell this product.",
                progress={"url": f"{S}/search", "contents": ["0 items found"]},
            )
        )

    rng = rng_for(1)
    for pid, name, _ in rng.sample(products, 4):
        count = rows(c, "SELECT COUNT(*) FROM reviews WHERE product_id = ?", (pid,))[0][0]
        out.append(
            task(
                1,
                "How many customer reviews does {{product}} have?",
                {"product": name},
                S,
                _find(name) + [stop(str(count))],
                answer=("exact_match", str(count)),
                progress={
                    "url": f"{S}/product/{pid}",
                    "contents": [f"({count} reviews)" if count else "No reviews yet"],
                },
            )
        )

    mine = rows(c, "SELECT id, date, status, total FROM orders WHERE customer_id = 1 ORDER BY date, id")
    for which, (_oid, date, _, _) in (("first", mine[0]), ("latest", mine[-1])):
        out.append(
            task(
                2,
                "What is the date when I made my {{which}} purchase on this site?",
                {"which": which},
                S,
                [click("link", "My Orders"), stop(date)],
                answer=("exact_match", date),
                progress={"url": f"{S}/orders", "contents": [date]},
            )
        )

    months: dict[str, list] = {}
    for _oid, date, status, total in mine:
        months.setdefault(date[:7], []).append((status, total))
    clean = [m for m, orders in sorted(months.items()) if all(s != "canceled" for s, _ in orders)]
    for month in rng_for(3).sample(clean, min(5, len(clean))):
        total = round(sum(t for _, t in months[month]), 2)
        label = f"{calendar.month_name[int(month[5:])]} {month[:4]}"
        out.append(
            task(
                3,
                "How much did I spend on shopping at One Stop Market in {{month}}?",
                {"month": label},
                S,
                [click("link", "My Orders"), stop(f"${total:,.2f}")],
                answer=("must_include", [money_variants(total)]),
                progress={"url": f"{S}/orders", "contents": [month]},
            )
        )

    for status in ("complete", "canceled", "pending", "processing"):
        latest = [o for o in mine if o[2] == status]
        if latest:
            oid, date, _, total = latest[-1]
            out.append(
                task(
                    4,
                    "Tell me the total cost of my latest {{status}} order",
                    {"status": status},
                    S,
                    [click("link", "My Orders"), stop(f"${total:,.2f}")],
                    answer=("must_include", [money_variants(total)]),
                    progress={"url": f"{S}/orders", "contents": [f"{oid:06d}"]},
                )
            )

    for oid, date, _, _ in rng_for(5).sample(mine, 4):
        out.append(
            task(
                5,
                "What is the order number of the purchase I made on {{date}}?",
                {"date": date},
                S,
                [click("link", "My Orders"), stop(f"{oid:06d}")],
                answer=("must_include", [f"{oid:06d}"]),
                progress={"url": f"{S}/orders", "contents": [date]},
            )
        )

    in_wishlist = {r[0] for r in rows(c, "SELECT product_id FROM wishlist")}
    in_cart = {r[0] for r in rows(c, "SELECT product_id FROM cart")}
    candidates = [p for p in products if p[0] not in in_wishlist | in_cart]
    picks = rng_for(6).sample(candidates, 10)
    for pid, name, _ in picks[:5]:
        out.append(
            task(
                6,
                "Add {{product}} to my wish list",
                {"product": name},
                S,
                _find(name) + [click("button", "Add to Wish List"), stop()],
                html=[{"url": f"{S}/wishlist", "locator": "", "required_contents": {"must_include": [name]}}],
                db=[
                    {
                        "site": "shopping",
                        "sql": f"SELECT COUNT(*) FROM wishlist WHERE product_id = {pid}",
                        "expected": 1,
                    }
                ],
            )
        )
    for n, (pid, name, _) in enumerate(picks[5:]):
        qty = 2 + n % 3
        out.append(
            task(
                7,
                "Add {{quantity}} units of {{product}} to my shopping cart",
                {"quantity": qty, "product": name},
                S,
                _find(name) + [type_("textbox", "Qty", str(qty), 0), click("button", "Add to Cart"), stop()],
                html=[{"url": f"{S}/cart", "locator": "", "required_contents": {"must_include": [name]}}],
                db=[{"site": "shopping", "sql": f"SELECT qty FROM cart WHERE product_id = {pid}", "expected": qty}],
            )
        )

    sorts = [
        (cat, key, label)
        for cat in ("Beauty", "Electronics", "Fashion", "Furniture", "Grocery")
        for key, label in (("price_asc", "low to high"), ("price_desc", "high to low"))
    ]
    for cat, key, label in rng_for(8).sample(sorts, 6):
        out.append(
            task(
                8,
                "Show me the {{category}} products sorted by price from {{order}}",
                {"category": cat.lower(), "order": label},
                S,
                [click("link", cat), click("link", f"Price: {label}"), stop()],
                url=f"{S}/category/{cat.lower()}?sort={key}",
            )
        )

    for cat, price in zip(
        rng_for(9).sample(["Beauty", "Electronics", "Fashion", "Furniture", "Grocery"], 4), (15, 25, 40, 60)
    ):
        out.append(
            task(
                9,
                "Show me {{category}} products that cost at most ${{price}}",
                {"category": cat.lower(), "price": price},
                S,
                [click("link", cat), type_("textbox", "Max price", str(price)), stop()],
                url=f"{S}/category/{cat.lower()}?price_max={price}",
            )
        )

    for keyword in ("wireless earbuds", "throw pillow", "green tea"):
        out.append(
            task(
                10,
                'Search for "{{keyword}}" in the store',
                {"keyword": keyword},
                S,
                [type_("searchbox", "Search", keyword), stop()],
                url=f"{S}/search?q={keyword.replace(' ', '+')}",
            )
        )

    for street, city in (("231 Willow Way", "Hudson"), ("9 Harbor Rd", "Newport"), ("77 Summit Ave", "Salem")):
        out.append(
            task(
                11,
                "Update my shipping address to {{street}}, {{city}}",
                {"street": street, "city": city},
                S,
                [
                    click("link", "My Account"),
                    type_("textbox", "Street Address", street, 0),
                    type_("textbox", "City", city, 0),
                    click("button", "Save Address"),
                    stop(),
                ],
                html=[
                    {"url": f"{S}/account", "locator": "", "required_contents": {"must_include": [f"{street}, {city}"]}}
                ],
                db=[
                    {
                        "site": "shopping",
                        "sql": "SELECT street, city FROM customers WHERE id = 1",
                        "expected": [[street, city]],
                    }
                ],
            )
        )

    bought = rows(
        c,
        "SELECT o.id, p.id, p.name FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p "
        "ON p.id = i.product_id WHERE o.customer_id = 1 AND p.name IN (SELECT name FROM products "
        "GROUP BY name HAVING COUNT(*) = 1) ORDER BY o.id, p.id",
    )
    texts = (
        "Works great, would buy again",
        "Arrived late but the quality is fine",
        "Not worth the price",
        "Exactly as pictured",
        "Good value for money",
    )
    for n, (oid, pid, name) in enumerate(rng_for(12).sample(bought, 5)):
        stars, nick, text = 1 + (n * 2) % 5, ("emma_l", "EmmaL", "lopez_e")[n % 3], texts[n]
        out.append(
            task(
                12,
                "Rate my purchase of {{product}} from order {{order}} with {{stars}} stars, using my "
                'nickname {{nickname}} and the review "{{text}}"',
                {"product": name, "order": f"{oid:06d}", "stars": stars, "nickname": nick, "text": text},
                S,
                [
                    click("link", "My Orders"),
                    click("link", f"View order {oid:06d}"),
                    click("link", name),
                    click("radio", f"{stars} star{'s' if stars > 1 else ''}"),
                    type_("textbox", "Nickname", nick, 0),
                    type_("textbox", "Review", text, 0),
                    click("button", "Submit Review"),
                    stop(),
                ],
                html=[
                    {
                        "url": f"{S}/product/{pid}",
                        "locator": "",
                        "required_contents": {"must_include": [text, f"by {nick}"]},
                    }
                ],
                db=[
                    {
                        "site": "shopping",
                        "sql": f"SELECT rating, body FROM reviews WHERE product_id = {pid} AND nickname = '{nick}'",
                        "expected": [[stars, text]],
                    }
                ],
            )
        )
    return out
