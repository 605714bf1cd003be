"""Seeded content of the shop and its admin (one database): WebShop catalogue products, customers, orders,
reviews, a cart and a wish list of the logged-in customer (id 1)."""

from __future__ import annotations

import random
import sqlite3

from agentgym_text.envs.webarena.sites.names import CITIES, FIRST, LAST, STREETS
from agentgym_text.envs.webshop.generator import generate_product

__all__ = ["build_shop", "NUM_PRODUCTS", "CUSTOMER_ID", "STATUSES"]

NUM_PRODUCTS = 2000
CUSTOMER_ID = 1
STATUSES = ("pending", "processing", "complete", "canceled")
_COMPLAINTS = (
    ("Disappointed", 1, "Broke after two weeks. The quality is poor and I want a refund."),
    ("Not as described", 2, "The material feels cheap and it looks nothing like the photos."),
    ("Waste of money", 1, "Stopped working after a few days. Very disappointed with this purchase."),
    ("Mediocre", 2, "It is okay but the quality could be much better for the price."),
)

SCHEMA = """
CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT, name TEXT, category TEXT, type TEXT, brand TEXT,
    price REAL, qty INTEGER, enabled INTEGER, description TEXT);
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, phone TEXT, street TEXT, city TEXT,
    joined TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, date TEXT, status TEXT, total REAL);
CREATE TABLE order_items (order_id INTEGER, product_id INTEGER, qty INTEGER, price REAL);
CREATE TABLE reviews (id INTEGER PRIMARY KEY, product_id INTEGER, nickname TEXT, rating INTEGER, title TEXT,
    body TEXT, date TEXT);
CREATE TABLE cart (product_id INTEGER PRIMARY KEY, qty INTEGER);
CREATE TABLE wishlist (product_id INTEGER PRIMARY KEY, added TEXT);
CREATE INDEX items_by_order ON order_items (order_id);
CREATE INDEX reviews_by_product ON reviews (product_id);
"""


def _date(rng: random.Random, first_year: int = 2022, last_year: int = 2023) -> str:
    return f"{rng.randint(first_year, last_year)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def build_shop(connection: sqlite3.Connection, seed: int) -> None:
    rng = random.Random(f"shop-{seed}")
    connection.executescript(SCHEMA)
    products = []
    for index in range(NUM_PRODUCTS):
        product = generate_product(index, 0)
        products.append(
            (
                index + 1,
                product.asin,
                product.title,
                product.category.capitalize(),
                product.query,
                product.brand,
                product.price,
                rng.randint(0, 250),
                1,
                product.description,
            )
        )
        for title, score, body in product.reviews:
            connection.execute(
                "INSERT INTO reviews (product_id, nickname, rating, title, body, date) VALUES (?, ?, ?, ?, ?, ?)",
                (index + 1, rng.choice(FIRST), score, title, body, _date(rng)),
            )
    connection.executemany("INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", products)
    names = set()
    customers = [(1, "Emma Lopez", "emma.lopez@example.com", "555-0100", "12 Oak St", "Springfield", "2021-03-14")]
    names.add("Emma Lopez")
    while len(customers) < 80:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name in names:
            continue
        names.add(name)
        first, last = name.lower().split()
        customers.append(
            (
                len(customers) + 1,
                name,
                f"{first}.{last}{rng.randint(1, 99)}@example.com",
                f"555-{rng.randint(1000, 9999)}",
                f"{rng.randint(1, 999)} {rng.choice(STREETS)}",
                rng.choice(CITIES),
                _date(rng, 2019, 2021),
            )
        )
    connection.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?, ?)", customers)
    popular = rng.sample(range(1, NUM_PRODUCTS + 1), 60)
    dates = set()
    for order_id in range(1, 401):
        customer = CUSTOMER_ID if order_id % 20 == 7 else rng.randint(2, len(customers))
        date = _date(rng)
        while customer == CUSTOMER_ID and date in dates:
            date = _date(rng)
        if customer == CUSTOMER_ID:
            dates.add(date)
        status = rng.choices(STATUSES, weights=(2, 2, 6, 1))[0]
        total = 0.0
        chosen = set()
        for _ in range(rng.randint(1, 4)):
            product = rng.choice(popular) if rng.random() < 0.6 else rng.randint(1, NUM_PRODUCTS)
            if product in chosen:
                continue
            chosen.add(product)
            qty = rng.randint(1, 3)
            price = products[product - 1][6]
            total += qty * price
            connection.execute("INSERT INTO order_items VALUES (?, ?, ?, ?)", (order_id, product, qty, price))
        connection.execute(
            "INSERT INTO orders VALUES (?, ?, ?, ?, ?)", (order_id, customer, date, status, round(total, 2))
        )
    # complaints about some ordered products, written by the customers who bought them
    for product in popular[:25]:
        buyers = connection.execute(
            "SELECT DISTINCT c.name FROM order_items i JOIN orders o ON o.id = i.order_id "
            "JOIN customers c ON c.id = o.customer_id WHERE i.product_id = ? AND c.id != 1 ORDER BY c.id",
            (product,),
        ).fetchall()
        for (name,) in buyers[: rng.randint(1, 3)]:
            title, score, body = rng.choice(_COMPLAINTS)
            connection.execute(
                "INSERT INTO reviews (product_id, nickname, rating, title, body, date) VALUES (?, ?, ?, ?, ?, ?)",
                (product, name, score, title, body, _date(rng)),
            )
    for product in rng.sample(range(1, NUM_PRODUCTS + 1), 3):
        connection.execute("INSERT INTO cart VALUES (?, ?)", (product, rng.randint(1, 2)))
    for product in rng.sample(range(1, NUM_PRODUCTS + 1), 4):
        connection.execute("INSERT INTO wishlist VALUES (?, ?)", (product, _date(rng)))
    connection.commit()
