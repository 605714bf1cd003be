"""The shop's storefront ("One Stop Market"): search, categories, product pages, cart, orders, wish list,
account, reviews. The visitor is the logged-in customer Emma Lopez (id 1)."""

from __future__ import annotations

import math

from agentgym_text.envs.webarena.sites.shop_data import CUSTOMER_ID
from agentgym_text.envs.webarena.sites.web import App, Redirect, Request, esc, field_text, link, pager, qs, table

__all__ = ["app", "CATEGORIES", "PER_PAGE"]

CATEGORIES = ("Beauty", "Electronics", "Fashion", "Furniture", "Grocery")
PER_PAGE = 20
SORTS = {
    "": ("Relevance", "id"),
    "price_asc": ("Price: low to high", "price, id"),
    "price_desc": ("Price: high to low", "price DESC, id"),
    "name": ("Name", "name, id"),
}

app = App(
    "shopping",
    "One Stop Market",
    [
        ("Home", "/"),
        ("My Account", "/account"),
        ("My Orders", "/orders"),
        ("My Wish List", "/wishlist"),
        ("My Cart", "/cart"),
    ],
)


def search_form(value: str = "") -> str:
    return (
        '<form role="search" action="/search" method="get"><label for="q">Search</label> '
        f'<input id="q" type="search" name="q" value="{esc(value)}"> <button type="submit">Go</button></form>'
    )


def money(value: float) -> str:
    return f"${value:,.2f}"


def product_list(request: Request, where: str, params: tuple, base: str, **keep: str) -> str:
    sort = keep.get("sort", "")
    order = SORTS.get(sort, SORTS[""])[1]
    total = request.one(f"SELECT COUNT(*) FROM products WHERE enabled = 1 AND {where}", params)[0]
    pages = max(1, math.ceil(total / PER_PAGE))
    page_no = min(request.int_arg("page"), pages)
    rows = request.all(
        f"SELECT * FROM products WHERE enabled = 1 AND {where} ORDER BY {order} LIMIT ? OFFSET ?",
        params + (PER_PAGE, (page_no - 1) * PER_PAGE),
    )
    sorts = " | ".join(
        esc(label) if key == sort else link(base + qs(**{**keep, "sort": key}), label)
        for key, (label, _) in SORTS.items()
    )
    items = "".join(
        f"<li>{link('/product/' + str(r['id']), r['name'])} <span>{money(r['price'])}</span></li>" for r in rows
    )
    return f"<p>{total} items found</p><p>Sort by: {sorts}</p><ul>{items}</ul>" + pager(base, page_no, pages, **keep)


@app.get("/")
def home(request: Request) -> str:
    cats = "".join(f"<li>{link(f'/category/{c.lower()}', c)}</li>" for c in CATEGORIES)
    return app.page("One Stop Market", search_form() + f"<h2>Shop by category</h2><ul>{cats}</ul>", title="Home")


@app.get("/search")
def search(request: Request) -> str:
    words = request.arg("q").split()[:12]
    where = " AND ".join(["name LIKE ?"] * len(words)) or "1"
    params = tuple(f"%{w}%" for w in words)
    body = search_form(request.arg("q")) + product_list(
        request, where, params, "/search", q=request.arg("q"), sort=request.arg("sort")
    )
    return app.page(f"Search results for: '{request.arg('q')}'", body, title="Search results")


@app.get("/category/([a-z]+)")
def category(request: Request) -> str:
    name = request.match[1].capitalize()
    if name not in CATEGORIES:
        return app.page("Page not found", "<p>No such category.</p>")
    price_max = request.arg("price_max")
    try:
        limit = float(price_max) if price_max else 1e12
    except ValueError:
        limit = 1e12
    base = f"/category/{name.lower()}"
    form = (
        f'<form action="{base}" method="get"><label for="price_max">Max price</label> '
        f'<input id="price_max" name="price_max" value="{esc(price_max)}">'
        f'<input type="hidden" name="sort" value="{esc(request.arg("sort"))}"> '
        '<button type="submit">Apply filter</button></form>'
    )
    body = form + product_list(
        request, "category = ? AND price <= ?", (name, limit), base, sort=request.arg("sort"), price_max=price_max
    )
    return app.page(name, search_form() + body)


@app.get(r"/product/(\d+)")
def product(request: Request) -> str:
    p = request.one("SELECT * FROM products WHERE id = ? AND enabled = 1", (request.match[1],))
    reviews = request.all("SELECT * FROM reviews WHERE product_id = ? ORDER BY date, id", (p["id"],))
    rating = (
        f"{sum(r['rating'] for r in reviews) / len(reviews):.1f} out of 5 ({len(reviews)} reviews)"
        if reviews
        else "No reviews yet"
    )
    stock = "In stock" if p["qty"] > 0 else "Out of stock"
    listed = "".join(
        f"<li><h3>{esc(r['title'])}</h3><p>Rating: {r['rating']} of 5, by {esc(r['nickname'])}"
        f" on {r['date']}</p><p>{esc(r['body'])}</p></li>"
        for r in reviews
    )
    stars = "".join(
        f'<label><input type="radio" name="rating" value="{n}"> {n} star{"s" if n > 1 else ""}</label> '
        for n in range(1, 6)
    )
    body = (
        search_form() + f"<p>Price: {money(p['price'])}</p><p>SKU: {esc(p['sku'])}</p><p>Brand: {esc(p['brand'])}</p>"
        f"<p>Category: {link('/category/' + p['category'].lower(), p['category'])}</p><p>{stock}</p>"
        f"<p>Rating: {rating}</p><p>{esc(p['description'])}</p>"
        f'<form action="/cart/add" method="post"><input type="hidden" name="product" value="{p["id"]}">'
        + field_text("qty", "Qty", 1)
        + '<button type="submit">Add to Cart</button></form>'
        f'<form action="/wishlist/add" method="post"><input type="hidden" name="product" value="{p["id"]}">'
        '<button type="submit">Add to Wish List</button></form>'
        f'<section aria-label="Customer Reviews"><h2>Customer Reviews</h2><ul>{listed}</ul></section>'
        f'<h2>Write Your Own Review</h2><form action="/review/add" method="post">'
        f'<input type="hidden" name="product" value="{p["id"]}"><fieldset><legend>Your Rating</legend>{stars}'
        "</fieldset>"
        + field_text("nickname", "Nickname")
        + field_text("title", "Summary")
        + field_text("body", "Review", area=True)
        + '<button type="submit">Submit Review</button></form>'
    )
    return app.page(p["name"], body)


def _product_id(request: Request) -> int:
    return request.one("SELECT id FROM products WHERE id = ?", (request.form.get("product", ""),))[0]


@app.post("/cart/add")
def cart_add(request: Request) -> Redirect:
    product = _product_id(request)
    try:
        qty = max(1, min(999, int(request.form.get("qty", "1"))))
    except ValueError:
        qty = 1
    request.db.execute(
        "INSERT INTO cart VALUES (?, ?) ON CONFLICT(product_id) DO UPDATE SET qty = qty + ?", (product, qty, qty)
    )
    return Redirect("/cart")


@app.post("/cart/remove")
def cart_remove(request: Request) -> Redirect:
    request.db.execute("DELETE FROM cart WHERE product_id = ?", (request.form.get("product", ""),))
    return Redirect("/cart")


@app.get("/cart")
def cart(request: Request) -> str:
    rows = request.all(
        "SELECT p.id, p.name, p.price, c.qty FROM cart c JOIN products p ON p.id = c.product_id ORDER BY p.name"
    )
    cells = [
        [
            link(f"/product/{r['id']}", r["name"]),
            str(r["qty"]),
            money(r["price"]),
            money(r["price"] * r["qty"]),
            f'<form action="/cart/remove" method="post"><input type="hidden" name="product" value="{r["id"]}">'
            f'<button type="submit" aria-label="Remove {esc(r["name"])}">Remove</button></form>',
        ]
        for r in rows
    ]
    total = sum(r["price"] * r["qty"] for r in rows)
    body = (
        table(["Item", "Qty", "Price", "Subtotal", ""], cells)
        + f"<p>Order Total: {money(total)}</p>"
        + (
            '<form action="/checkout" method="post"><button type="submit">Proceed to Checkout</button></form>'
            if rows
            else "<p>You have no items in your shopping cart.</p>"
        )
    )
    return app.page("Shopping Cart", body)


@app.post("/checkout")
def checkout(request: Request) -> Redirect:
    rows = request.all("SELECT p.id, p.price, c.qty FROM cart c JOIN products p ON p.id = c.product_id")
    if not rows:
        return Redirect("/cart")
    date = request.one("SELECT MAX(date) FROM orders")[0]
    total = round(sum(r["price"] * r["qty"] for r in rows), 2)
    cursor = request.db.execute(
        "INSERT INTO orders (customer_id, date, status, total) VALUES (?, ?, 'pending', ?)", (CUSTOMER_ID, date, total)
    )
    request.db.executemany(
        "INSERT INTO order_items VALUES (?, ?, ?, ?)", [(cursor.lastrowid, r["id"], r["qty"], r["price"]) for r in rows]
    )
    request.db.execute("DELETE FROM cart")
    return Redirect(f"/orders/{cursor.lastrowid}")


@app.get("/orders")
def orders(request: Request) -> str:
    rows = request.all("SELECT * FROM orders WHERE customer_id = ? ORDER BY date DESC, id DESC", (CUSTOMER_ID,))
    cells = [
        [
            f"{r['id']:06d}",
            r["date"],
            money(r["total"]),
            r["status"].capitalize(),
            link(f"/orders/{r['id']}", "View Order", f"View order {r['id']:06d}"),
        ]
        for r in rows
    ]
    return app.page("My Orders", table(["Order #", "Date", "Order Total", "Status", "Action"], cells))


@app.get(r"/orders/(\d+)")
def order(request: Request) -> str:
    o = request.one("SELECT * FROM orders WHERE id = ? AND customer_id = ?", (request.match[1], CUSTOMER_ID))
    items = request.all(
        "SELECT p.id, p.name, i.qty, i.price FROM order_items i JOIN products p "
        "ON p.id = i.product_id WHERE i.order_id = ? ORDER BY p.name",
        (o["id"],),
    )
    cells = [
        [link(f"/product/{r['id']}", r["name"]), str(r["qty"]), money(r["price"]), money(r["qty"] * r["price"])]
        for r in items
    ]
    body = (
        f"<p>Order Date: {o['date']}</p><p>Status: {o['status'].capitalize()}</p>"
        + table(["Product Name", "Qty", "Price", "Subtotal"], cells, "Items Ordered")
        + f"<p>Grand Total: {money(o['total'])}</p>"
    )
    return app.page(f"Order # {o['id']:06d}", body)


@app.get("/wishlist")
def wishlist(request: Request) -> str:
    rows = request.all(
        "SELECT p.id, p.name, p.price FROM wishlist w JOIN products p ON p.id = w.product_id ORDER BY w.added, p.id"
    )
    items = "".join(f"<li>{link('/product/' + str(r['id']), r['name'])} {money(r['price'])}</li>" for r in rows)
    return app.page("My Wish List", f"<ul>{items}</ul>" if rows else "<p>You have no items in your wish list.</p>")


@app.post("/wishlist/add")
def wishlist_add(request: Request) -> Redirect:
    date = request.one("SELECT MAX(date) FROM orders")[0]
    request.db.execute("INSERT OR IGNORE INTO wishlist VALUES (?, ?)", (_product_id(request), date))
    return Redirect("/wishlist")


@app.post("/review/add")
def review_add(request: Request) -> str | Redirect:
    product = _product_id(request)
    form = request.form
    if not form.get("rating", "").isdigit() or not form.get("nickname") or not form.get("body"):
        return app.page(
            "Review not saved",
            "<p>Please choose a rating and fill in Nickname and Review.</p>"
            + link(f"/product/{product}", "Back to the product"),
        )
    date = request.one("SELECT MAX(date) FROM orders")[0]
    request.db.execute(
        "INSERT INTO reviews (product_id, nickname, rating, title, body, date) VALUES (?,?,?,?,?,?)",
        (
            product,
            form["nickname"].strip(),
            int(form["rating"]),
            form.get("title", "").strip(),
            form["body"].strip(),
            date,
        ),
    )
    return Redirect(f"/product/{product}")


@app.get("/account")
def account(request: Request) -> str:
    c = request.one("SELECT * FROM customers WHERE id = ?", (CUSTOMER_ID,))
    body = (
        f"<h2>Contact Information</h2><p>{esc(c['name'])}</p><p>{esc(c['email'])}</p>"
        f"<h2>Default Address</h2><p>{esc(c['street'])}, {esc(c['city'])}</p><p>Phone: {esc(c['phone'])}</p>"
        '<h2>Edit Address</h2><form action="/account" method="post">'
        + field_text("street", "Street Address", c["street"])
        + field_text("city", "City", c["city"])
        + field_text("phone", "Phone Number", c["phone"])
        + '<button type="submit">Save Address</button></form>'
    )
    return app.page("My Account", body)


@app.post("/account")
def account_save(request: Request) -> Redirect:
    form = request.form
    request.db.execute(
        "UPDATE customers SET street = ?, city = ?, phone = ? WHERE id = ?",
        (form.get("street", "").strip(), form.get("city", "").strip(), form.get("phone", "").strip(), CUSTOMER_ID),
    )
    return Redirect("/account")
