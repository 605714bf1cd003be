"""The shop's admin panel (Magento-like paths): product grid and edit form, orders with status filters and
actions, customers, reviews, reports (bestsellers, orders per month). Shares the shop's database."""

from __future__ import annotations

import math

from agentgym_text.envs.webarena.sites.shop import money
from agentgym_text.envs.webarena.sites.web import App, Redirect, Request, esc, field_text, link, pager, qs, table

__all__ = ["app", "PER_PAGE"]

PER_PAGE = 20
app = App(
    "shopping_admin",
    "Admin Panel",
    [
        ("Dashboard", "/admin"),
        ("Products", "/admin/catalog/product"),
        ("Orders", "/admin/sales/order"),
        ("Customers", "/admin/customer"),
        ("Reviews", "/admin/review"),
        ("Reports", "/admin/reports"),
    ],
)


def grid_search(base: str, label: str, value: str, **hidden: str) -> str:
    extra = "".join(f'<input type="hidden" name="{k}" value="{esc(v)}">' for k, v in hidden.items() if v)
    return (
        f'<form role="search" action="{base}" method="get"><label for="q">{esc(label)}</label> '
        f'<input id="q" type="search" name="q" value="{esc(value)}">{extra} '
        '<button type="submit">Search</button></form>'
    )


def grid(request: Request, base: str, sql: str, params: tuple, order: str, **keep: str) -> tuple[list, str, int]:
    total = request.one(f"SELECT COUNT(*) FROM ({sql})", params)[0]
    pages = max(1, math.ceil(total / PER_PAGE))
    page_no = min(request.int_arg("page"), pages)
    rows = request.all(f"{sql} ORDER BY {order} LIMIT ? OFFSET ?", params + (PER_PAGE, (page_no - 1) * PER_PAGE))
    return rows, f"<p>{total} records found</p>", pager(base, page_no, pages, **keep)


@app.get("/admin")
def dashboard(request: Request) -> str:
    orders, revenue = request.one("SELECT COUNT(*), SUM(total) FROM orders WHERE status != 'canceled'")
    customers = request.one("SELECT COUNT(*) FROM customers")[0]
    body = f"<p>Lifetime Sales: {money(revenue)}</p><p>Orders: {orders}</p><p>Customers: {customers}</p>"
    return app.page("Dashboard", body)


@app.get("/admin/catalog/product")
def products(request: Request) -> str:
    q = request.arg("q")
    rows, count, nav = grid(
        request,
        "/admin/catalog/product",
        "SELECT * FROM products WHERE name LIKE ? OR sku = ?",
        (f"%{q}%", q),
        "id",
        q=q,
    )
    cells = [
        [
            str(r["id"]),
            esc(r["name"]),
            esc(r["sku"]),
            money(r["price"]),
            str(r["qty"]),
            "Enabled" if r["enabled"] else "Disabled",
            link(f"/admin/catalog/product/edit/{r['id']}", "Edit", f"Edit {r['name']}"),
        ]
        for r in rows
    ]
    body = (
        grid_search("/admin/catalog/product", "Search by keyword", q)
        + count
        + table(["ID", "Name", "SKU", "Price", "Quantity", "Status", "Action"], cells)
        + nav
    )
    return app.page("Products", body)


@app.get(r"/admin/catalog/product/edit/(\d+)")
def product_edit(request: Request) -> str:
    p = request.one("SELECT * FROM products WHERE id = ?", (request.match[1],))
    checked = " checked" if p["enabled"] else ""
    saved = '<p role="status">You saved the product.</p>' if request.arg("saved") else ""
    body = (
        saved + f'<form action="/admin/catalog/product/edit/{p["id"]}" method="post">'
        f'<p><label><input type="checkbox" name="enabled" value="1"{checked}> Enable Product</label></p>'
        + field_text("name", "Product Name", p["name"])
        + field_text("price", "Price", f"{p['price']:.2f}")
        + field_text("qty", "Quantity", p["qty"])
        + field_text("description", "Description", p["description"], area=True)
        + '<button type="submit">Save</button></form>'
    )
    return app.page(f"Edit {p['name']}", body)


@app.post(r"/admin/catalog/product/edit/(\d+)")
def product_save(request: Request) -> str | Redirect:
    p = request.one("SELECT * FROM products WHERE id = ?", (request.match[1],))
    form = request.form
    try:
        price = round(float(form.get("price", "").replace("$", "").replace(",", "")), 2)
        qty = int(form.get("qty", ""))
    except ValueError:
        return app.page(
            "Product not saved",
            "<p>Price must be a number and Quantity a whole number.</p>"
            + link(f"/admin/catalog/product/edit/{p['id']}", "Back to the product"),
        )
    request.db.execute(
        "UPDATE products SET name = ?, price = ?, qty = ?, enabled = ?, description = ? WHERE id = ?",
        (
            form.get("name", p["name"]).strip() or p["name"],
            price,
            qty,
            1 if form.get("enabled") else 0,
            form.get("description", "").strip(),
            p["id"],
        ),
    )
    return Redirect(f"/admin/catalog/product/edit/{p['id']}?saved=1")


STATUS_FILTERS = ("", "pending", "processing", "complete", "canceled")


@app.get("/admin/sales/order")
def orders(request: Request) -> str:
    q, status = request.arg("q"), request.arg("status")
    filters = " | ".join(
        esc((s or "all").capitalize())
        if s == status
        else link("/admin/sales/order" + qs(status=s), (s or "all").capitalize())
        for s in STATUS_FILTERS
    )
    sql = (
        "SELECT o.*, c.name FROM orders o JOIN customers c ON c.id = o.customer_id "
        "WHERE (? = '' OR o.status = ?) AND (? = '' OR c.name LIKE ? OR printf('%06d', o.id) = ?)"
    )
    rows, count, nav = grid(
        request,
        "/admin/sales/order",
        sql,
        (status, status, q, f"%{q}%", q.zfill(6)),
        "o.date DESC, o.id DESC",
        q=q,
        status=status,
    )
    cells = [
        [
            f"{r['id']:06d}",
            r["date"],
            esc(r["name"]),
            money(r["total"]),
            r["status"].capitalize(),
            link(f"/admin/sales/order/view/{r['id']}", "View", f"View order {r['id']:06d}"),
        ]
        for r in rows
    ]
    body = (
        f"<p>Status: {filters}</p>"
        + grid_search("/admin/sales/order", "Search by order number or customer", q, status=status)
        + count
        + table(["Order #", "Purchase Date", "Bill-to Name", "Grand Total", "Status", "Action"], cells)
        + nav
    )
    return app.page("Orders", body)


@app.get(r"/admin/sales/order/view/(\d+)")
def order_view(request: Request) -> str:
    o = request.one(
        "SELECT o.*, c.name, c.email FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = ?",
        (request.match[1],),
    )
    items = request.all(
        "SELECT p.name, p.sku, i.qty, i.price FROM order_items i JOIN products p "
        "ON p.id = i.product_id WHERE i.order_id = ? ORDER BY p.name",
        (o["id"],),
    )
    cells = [[esc(r["name"]), esc(r["sku"]), str(r["qty"]), money(r["price"])] for r in items]
    actions = ""
    if o["status"] in ("pending", "processing"):
        actions = "".join(
            f'<form action="/admin/sales/order/view/{o["id"]}" method="post" style="display:inline">'
            f'<input type="hidden" name="status" value="{s}"><button type="submit">{label}</button>'
            "</form> "
            for s, label in (("canceled", "Cancel Order"), ("complete", "Complete Order"))
        )
    body = (
        actions + f"<p>Order Date: {o['date']}</p><p>Order Status: {o['status'].capitalize()}</p>"
        f"<p>Customer Name: {esc(o['name'])}</p><p>Email: {esc(o['email'])}</p>"
        + table(["Product", "SKU", "Qty", "Price"], cells, "Items Ordered")
        + f"<p>Grand Total: {money(o['total'])}</p>"
    )
    return app.page(f"Order # {o['id']:06d}", body)


@app.post(r"/admin/sales/order/view/(\d+)")
def order_action(request: Request) -> Redirect:
    o = request.one("SELECT * FROM orders WHERE id = ?", (request.match[1],))
    status = request.form.get("status", "")
    if o["status"] in ("pending", "processing") and status in ("canceled", "complete"):
        request.db.execute("UPDATE orders SET status = ? WHERE id = ?", (status, o["id"]))
    return Redirect(f"/admin/sales/order/view/{o['id']}")


@app.get("/admin/customer")
def customers(request: Request) -> str:
    q = request.arg("q")
    rows, count, nav = grid(
        request,
        "/admin/customer",
        "SELECT * FROM customers WHERE name LIKE ? OR email LIKE ?",
        (f"%{q}%", f"%{q}%"),
        "id",
        q=q,
    )
    cells = [
        [
            str(r["id"]),
            esc(r["name"]),
            esc(r["email"]),
            esc(r["phone"]),
            esc(r["city"]),
            link(f"/admin/customer/{r['id']}", "View", f"View {r['name']}"),
        ]
        for r in rows
    ]
    body = (
        grid_search("/admin/customer", "Search by keyword", q)
        + count
        + table(["ID", "Name", "Email", "Phone", "City", "Action"], cells)
        + nav
    )
    return app.page("Customers", body)


@app.get(r"/admin/customer/(\d+)")
def customer(request: Request) -> str:
    c = request.one("SELECT * FROM customers WHERE id = ?", (request.match[1],))
    rows = request.all("SELECT * FROM orders WHERE customer_id = ? ORDER BY date DESC, id DESC", (c["id"],))
    cells = [
        [
            link(f"/admin/sales/order/view/{r['id']}", f"{r['id']:06d}"),
            r["date"],
            money(r["total"]),
            r["status"].capitalize(),
        ]
        for r in rows
    ]
    body = (
        f"<p>Email: {esc(c['email'])}</p><p>Phone: {esc(c['phone'])}</p>"
        f"<p>Address: {esc(c['street'])}, {esc(c['city'])}</p><p>Customer Since: {c['joined']}</p>"
        + table(["Order #", "Date", "Grand Total", "Status"], cells, "Orders")
    )
    return app.page(c["name"], body)


@app.get("/admin/review")
def reviews(request: Request) -> str:
    q = request.arg("q")
    sql = (
        "SELECT r.*, p.name FROM reviews r JOIN products p ON p.id = r.product_id "
        "WHERE (? = '' OR r.title LIKE ? OR r.body LIKE ? OR p.name LIKE ?)"
    )
    rows, count, nav = grid(request, "/admin/review", sql, (q, f"%{q}%", f"%{q}%", f"%{q}%"), "r.id", q=q)
    cells = [
        [str(r["id"]), r["date"], esc(r["name"]), esc(r["nickname"]), str(r["rating"]), esc(r["title"]), esc(r["body"])]
        for r in rows
    ]
    body = (
        grid_search("/admin/review", "Search reviews", q)
        + count
        + table(["ID", "Created", "Product", "Nickname", "Rating", "Title", "Review"], cells)
        + nav
    )
    return app.page("Reviews", body)


@app.get("/admin/reports")
def reports(request: Request) -> str:
    return app.page(
        "Reports",
        "<ul>"
        + "".join(
            f"<li>{link(href, text)}</li>"
            for text, href in (
                ("Bestsellers", "/admin/reports/bestsellers"),
                ("Orders Report", "/admin/reports/orders"),
            )
        )
        + "</ul>",
    )


def _years(request: Request, base: str) -> tuple[str, str]:
    years = [r[0] for r in request.all("SELECT DISTINCT substr(date, 1, 4) FROM orders ORDER BY 1")]
    year = request.arg("year") if request.arg("year") in years else years[-1]
    links = " | ".join(esc(y) if y == year else link(base + qs(year=y), y) for y in years)
    return year, f"<p>Year: {links}</p>"


@app.get("/admin/reports/bestsellers")
def bestsellers(request: Request) -> str:
    year, years = _years(request, "/admin/reports/bestsellers")
    rows = request.all(
        "SELECT p.name, SUM(i.qty) AS sold FROM order_items i JOIN orders o ON o.id = i.order_id "
        "JOIN products p ON p.id = i.product_id WHERE o.status != 'canceled' AND o.date LIKE ? "
        "GROUP BY p.id ORDER BY sold DESC, p.id LIMIT 10",
        (f"{year}%",),
    )
    cells = [[str(n), esc(r["name"]), str(r["sold"])] for n, r in enumerate(rows, 1)]
    return app.page(
        "Bestsellers Report", years + table(["Rank", "Product", "Order Quantity"], cells, f"Bestsellers in {year}")
    )


@app.get("/admin/reports/orders")
def orders_report(request: Request) -> str:
    year, years = _years(request, "/admin/reports/orders")
    rows = request.all(
        "SELECT substr(date, 1, 7) AS month, COUNT(*) AS n, SUM(status = 'complete') AS done, "
        "SUM(CASE WHEN status != 'canceled' THEN total ELSE 0 END) AS revenue FROM orders "
        "WHERE date LIKE ? GROUP BY month ORDER BY month",
        (f"{year}%",),
    )
    cells = [[r["month"], str(r["n"]), str(r["done"]), money(r["revenue"])] for r in rows]
    return app.page(
        "Orders Report", years + table(["Month", "Orders", "Complete Orders", "Revenue"], cells, f"Orders in {year}")
    )
