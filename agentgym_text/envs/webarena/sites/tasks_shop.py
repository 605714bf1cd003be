"""Task generators for the shop (One Stop Market), modelled on WebArena's shopping intent templates."""

from __future__ import annotations

import sqlite3

from agentgym_text.envs.webarena.sites.shop import CATEGORIES, PER_PAGE, money
from agentgym_text.envs.webarena.sites.taskkit import (
    SHOPPING,
    Instance,
    SeededDatabase,
    Template,
    change,
    click,
    db_check,
    fill_in,
    make_tasks,
    money_variants,
    month_label,
    navigation,
    order_number,
    page_includes,
    question,
    rng_for,
    type_,
)

__all__ = ["generate", "findable_products", "TEMPLATES"]

NOT_SOLD = ("Brightcell Solar Hoverboard with Bluetooth Speaker", "Loftique Heated Marble Hammock for Two")
PRICE_SORTS = (("price_asc", "low to high"), ("price_desc", "high to low"))
PRICE_CAPS = (15, 25, 40, 60)
SEARCH_KEYWORDS = ("wireless earbuds", "throw pillow", "green tea")
NEW_ADDRESSES = (("231 Willow Way", "Hudson"), ("9 Harbor Rd", "Newport"), ("77 Summit Ave", "Salem"))
REVIEW_TEXTS = (
    "Works great, would buy again",
    "Arrived late but the quality is fine",
    "Not worth the price",
    "Exactly as pictured",
    "Good value for money",
)
NICKNAMES = ("emma_l", "EmmaL", "lopez_e")


def _search_results(db: SeededDatabase, text: str) -> list[int]:
    """The ids a search for ``text`` lists on its first page (every word in the name, as the shop searches)."""
    words = text.split()[:12]
    where = " AND ".join(["name LIKE ?"] * len(words))
    return db.column(
        f"SELECT id FROM products WHERE {where} ORDER BY id LIMIT ?", (*(f"%{word}%" for word in words), PER_PAGE)
    )


def findable_products(db: SeededDatabase) -> list[tuple[int, str, float]]:
    """Products with a unique name that a search for the full name lists on its first page."""
    unique = db.rows("SELECT MIN(id), name, MIN(price) FROM products GROUP BY name HAVING COUNT(*) = 1 ORDER BY 1")
    return [(pid, name, price) for pid, name, price in unique if pid in _search_results(db, name)]


def _my_orders(db: SeededDatabase) -> list[tuple[int, str, str, float]]:
    """(id, date, status, total) of the logged-in customer's orders, oldest first."""
    return db.rows("SELECT id, date, status, total FROM orders WHERE customer_id = 1 ORDER BY date, id")


def _find(name: str) -> list[dict]:
    return [type_("searchbox", "Search", name), click("link", name)]


def _product_page(pid: int) -> str:
    return f"{SHOPPING}/product/{pid}"


def _money_reference(amount: float) -> tuple[str, list[str]]:
    return ("must_include", [money_variants(amount)])


def _price(db: SeededDatabase) -> list[Instance]:
    return [
        question(
            {"product": name},
            _find(name),
            money(price),
            reference=_money_reference(price),
            page=_product_page(pid),
            seen=[f"Price: {money(price)}"],
        )
        for pid, name, price in rng_for(0).sample(db.shared(findable_products), 4)
    ]


def _price_not_sold(db: SeededDatabase) -> list[Instance]:
    assert not any(_search_results(db, name) for name in NOT_SOLD)
    return [
        question(
            {"product": name},
            [type_("searchbox", "Search", name)],
            "N/A",
            reference=("fuzzy_match", "N/A"),
            page=f"{SHOPPING}/search",
            seen=["0 items found"],
            note="The store does not sell this product.",
        )
        for name in NOT_SOLD
    ]


def _review_count(db: SeededDatabase) -> list[Instance]:
    instances = []
    for pid, name, _ in rng_for(1).sample(db.shared(findable_products), 4):
        count = db.value("SELECT COUNT(*) FROM reviews WHERE product_id = ?", (pid,))
        seen = f"({count} reviews)" if count else "No reviews yet"
        instances.append(question({"product": name}, _find(name), str(count), page=_product_page(pid), seen=[seen]))
    return instances


def _on_my_orders(slots: dict, answer: str, seen: str, reference: tuple[str, list] | None = None) -> Instance:
    """A question answered from the My Orders page, where ``seen`` shows."""
    steps = [click("link", "My Orders")]
    return question(slots, steps, answer, reference=reference, page=f"{SHOPPING}/orders", seen=[seen])


def _purchase_date(db: SeededDatabase) -> list[Instance]:
    mine = _my_orders(db)
    dates = (("first", mine[0][1]), ("latest", mine[-1][1]))
    return [_on_my_orders({"which": which}, date, date) for which, date in dates]


def _spent_in_month(db: SeededDatabase) -> list[Instance]:
    totals: dict[str, list[float]] = {}
    canceled: set[str] = set()
    for _, date, status, total in _my_orders(db):
        totals.setdefault(date[:7], []).append(total)
        if status == "canceled":
            canceled.add(date[:7])
    clean = [month for month in sorted(totals) if month not in canceled]
    instances = []
    for month in rng_for(3).sample(clean, min(5, len(clean))):
        spent = round(sum(totals[month]), 2)
        instances.append(_on_my_orders({"month": month_label(month)}, money(spent), month, _money_reference(spent)))
    return instances


def _latest_order_cost(db: SeededDatabase) -> list[Instance]:
    mine, instances = _my_orders(db), []
    for status in ("complete", "canceled", "pending", "processing"):
        of_status = [order for order in mine if order[2] == status]
        if of_status:
            oid, _, _, total = of_status[-1]
            slots = {"status": status}
            instances.append(_on_my_orders(slots, money(total), order_number(oid), _money_reference(total)))
    return instances


def _order_number_by_date(db: SeededDatabase) -> list[Instance]:
    return [
        _on_my_orders({"date": date}, order_number(oid), date, ("must_include", [order_number(oid)]))
        for oid, date, _, _ in rng_for(5).sample(_my_orders(db), 4)
    ]


def _wishlist_and_cart_picks(db: SeededDatabase) -> list[tuple[int, str, float]]:
    """Ten products in neither the wish list nor the cart: the first five for the wish list, the rest the cart."""
    taken = set(db.column("SELECT product_id FROM wishlist")) | set(db.column("SELECT product_id FROM cart"))
    return rng_for(6).sample([product for product in db.shared(findable_products) if product[0] not in taken], 10)


def _add_to_wishlist(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"product": name},
            [*_find(name), click("button", "Add to Wish List")],
            page_includes(f"{SHOPPING}/wishlist", name),
            db_check("shopping", "SELECT COUNT(*) FROM wishlist WHERE product_id = ?", (pid,), 1),
        )
        for pid, name, _ in db.shared(_wishlist_and_cart_picks)[:5]
    ]


def _add_to_cart(db: SeededDatabase) -> list[Instance]:
    instances = []
    for n, (pid, name, _) in enumerate(db.shared(_wishlist_and_cart_picks)[5:]):
        quantity = 2 + n % 3
        instances.append(
            change(
                {"quantity": quantity, "product": name},
                [*_find(name), *fill_in({"Qty": str(quantity)}, "Add to Cart")],
                page_includes(f"{SHOPPING}/cart", name),
                db_check("shopping", "SELECT qty FROM cart WHERE product_id = ?", (pid,), quantity),
            )
        )
    return instances


def _sorted_by_price(db: SeededDatabase) -> list[Instance]:
    sorts = [(category, key, label) for category in CATEGORIES for key, label in PRICE_SORTS]
    return [
        navigation(
            {"category": category.lower(), "order": label},
            [click("link", category), click("link", f"Price: {label}")],
            f"{SHOPPING}/category/{category.lower()}?sort={key}",
        )
        for category, key, label in rng_for(8).sample(sorts, 6)
    ]


def _under_price(db: SeededDatabase) -> list[Instance]:
    return [
        navigation(
            {"category": category.lower(), "price": price},
            [click("link", category), type_("textbox", "Max price", str(price))],
            f"{SHOPPING}/category/{category.lower()}?price_max={price}",
        )
        for category, price in zip(rng_for(9).sample(list(CATEGORIES), 4), PRICE_CAPS)
    ]


def _search(db: SeededDatabase) -> list[Instance]:
    return [
        navigation(
            {"keyword": keyword},
            [type_("searchbox", "Search", keyword)],
            f"{SHOPPING}/search?q={keyword.replace(' ', '+')}",
        )
        for keyword in SEARCH_KEYWORDS
    ]


def _update_address(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"street": street, "city": city},
            [
                click("link", "My Account"),
                *fill_in({"Street Address": street, "City": city}, "Save Address"),
            ],
            page_includes(f"{SHOPPING}/account", f"{street}, {city}"),
            db_check("shopping", "SELECT street, city FROM customers WHERE id = 1", (), [[street, city]]),
        )
        for street, city in NEW_ADDRESSES
    ]


def _rate_purchase(db: SeededDatabase) -> list[Instance]:
    bought = db.rows(
        "SELECT o.id, p.id, p.name FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p "
        "ON p.id = i.product_id WHERE o.customer_id = 1 AND p.name IN (SELECT name FROM products "
        "GROUP BY name HAVING COUNT(*) = 1) ORDER BY o.id, p.id",
    )
    instances = []
    for n, (oid, pid, name) in enumerate(rng_for(12).sample(bought, 5)):
        stars, nickname, text = 1 + (n * 2) % 5, NICKNAMES[n % 3], REVIEW_TEXTS[n]
        number = order_number(oid)
        instances.append(
            change(
                {"product": name, "order": number, "stars": stars, "nickname": nickname, "text": text},
                [
                    click("link", "My Orders"),
                    click("link", f"View order {number}"),
                    click("link", name),
                    click("radio", f"{stars} star{'s' if stars > 1 else ''}"),
                    *fill_in({"Nickname": nickname, "Review": text}, "Submit Review"),
                ],
                page_includes(_product_page(pid), text, f"by {nickname}"),
                db_check(
                    "shopping",
                    "SELECT rating, body FROM reviews WHERE product_id = ? AND nickname = ?",
                    (pid, nickname),
                    [[stars, text]],
                ),
            )
        )
    return instances


PRICE = "What is the price of {{product}}?"
TEMPLATES = (
    Template(0, PRICE, SHOPPING, _price),
    Template(13, PRICE, SHOPPING, _price_not_sold),
    Template(1, "How many customer reviews does {{product}} have?", SHOPPING, _review_count),
    Template(2, "What is the date when I made my {{which}} purchase on this site?", SHOPPING, _purchase_date),
    Template(3, "How much did I spend on shopping at One Stop Market in {{month}}?", SHOPPING, _spent_in_month),
    Template(4, "Tell me the total cost of my latest {{status}} order", SHOPPING, _latest_order_cost),
    Template(5, "What is the order number of the purchase I made on {{date}}?", SHOPPING, _order_number_by_date),
    Template(6, "Add {{product}} to my wish list", SHOPPING, _add_to_wishlist),
    Template(7, "Add {{quantity}} units of {{product}} to my shopping cart", SHOPPING, _add_to_cart),
    Template(8, "Show me the {{category}} products sorted by price from {{order}}", SHOPPING, _sorted_by_price),
    Template(9, "Show me {{category}} products that cost at most ${{price}}", SHOPPING, _under_price),
    Template(10, 'Search for "{{keyword}}" in the store', SHOPPING, _search),
    Template(11, "Update my shipping address to {{street}}, {{city}}", SHOPPING, _update_address),
    Template(
        12,
        "Rate my purchase of {{product}} from order {{order}} with {{stars}} stars, using my "
        'nickname {{nickname}} and the review "{{text}}"',
        SHOPPING,
        _rate_purchase,
    ),
)


def generate(connection: sqlite3.Connection) -> list[dict]:
    return make_tasks(TEMPLATES, SeededDatabase(connection))
