"""The product catalogue: generated products in a SQLite file with an FTS5 (BM25) search index.

Independent of the env, so other shops (e.g. a WebArena-style site) can reuse it:

    catalogue = open_catalogue(num_products=20_000)   # built into the cache at first use
    asins = catalogue.search("clip-in hair extension natural looking")   # up to 50, best first
    product = catalogue.product(asins[0])             # full page data (title, options, bullets, ...)

The file holds a ``products`` table (asin, category, type, brand, title, price, rating: enough to list, filter
and sort), BM25 postings over each product's title, description, bullet points and option lists (what
WebShop's Lucene index holds), and an FTS5 table over the same text for boolean and phrase queries
(``match``). Full product pages are regenerated from their index on demand (the generator is
deterministic), which keeps the file small. ``search`` ranks by BM25 over the query's words (any word may
match, as in Lucene's default), ties by product index; see ``search.py`` for why it does not use FTS5's
``bm25()``.

>>> small = open_catalogue(num_products=200, quiet=True)
>>> hit = small.search(small.product_at(17).title)[0]
>>> small.product(hit).title == small.product_at(17).title
True
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path

from agentgym_text.core.cache import build_cached, progress_bar, source_key
from agentgym_text.envs.webshop import generator, product_text, search
from agentgym_text.envs.webshop.generator import Product, asin_of, generate_product, index_of_asin
from agentgym_text.envs.webshop.search import BM25Index, PostingsBuilder

__all__ = ["Catalogue", "open_catalogue", "DEFAULT_NUM_PRODUCTS", "SEARCH_RETURN_N"]

DEFAULT_NUM_PRODUCTS = 20_000
SEARCH_RETURN_N = 50
"""WebShop returns the top 50 hits (5 pages of 10)."""
_FILE = "catalogue.sqlite"
_BATCH = 2_000


def _build(folder: Path, num_products: int, seed: int, quiet: bool) -> None:
    connection = sqlite3.connect(folder / _FILE)
    connection.executescript(
        """
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE products (
            id INTEGER PRIMARY KEY, asin TEXT NOT NULL, category TEXT NOT NULL, type_id INTEGER NOT NULL,
            brand TEXT NOT NULL, title TEXT NOT NULL, price REAL NOT NULL, rating TEXT NOT NULL
        );
        CREATE VIRTUAL TABLE search USING fts5(body, content='', tokenize='porter unicode61');
        """
    )
    connection.executemany("INSERT INTO meta VALUES (?, ?)", [("num_products", str(num_products)), ("seed", str(seed))])
    rows, docs, postings = [], [], PostingsBuilder()
    for index in progress_bar(range(num_products), total=num_products, desc="webshop catalogue", quiet=quiet):
        product = generate_product(index, seed)
        rows.append(
            (
                index,
                product.asin,
                product.category,
                product.type_id,
                product.brand,
                product.title,
                product.price,
                product.rating,
            )
        )
        body = product.search_text()
        docs.append((index, body))
        postings.add(index, body)
        if len(rows) >= _BATCH:
            _flush(connection, rows, docs)
    _flush(connection, rows, docs)
    postings.write(connection)
    del postings
    connection.execute("CREATE INDEX products_by_category ON products (category, type_id, price)")
    connection.execute("INSERT INTO search(search) VALUES ('optimize')")
    connection.commit()
    connection.execute("VACUUM")
    connection.close()


def _flush(connection: sqlite3.Connection, rows: list, docs: list) -> None:
    connection.executemany("INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    connection.executemany("INSERT INTO search(rowid, body) VALUES (?, ?)", docs)
    rows.clear()
    docs.clear()


class Catalogue:
    """A read-only view of one built catalogue file (search, product lookup, SQL over ``products``)."""

    def __init__(self, path: Path, num_products: int, seed: int = 0, cache_size: int = 512):
        self.path = Path(path)
        self.num_products = num_products
        self.seed = seed
        self.connection = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        # Memory-mapped reads: postings BLOBs of common words run to megabytes at a million products, and
        # copying them page by page through SQLite's cache took 3-4x longer than reading the mapped file.
        self.connection.execute("PRAGMA mmap_size = 1099511627776").fetchall()
        self.index = BM25Index(self.connection)
        self._products: OrderedDict[int, Product] = OrderedDict()
        self._cache_size = cache_size
        self._searches: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        # Envs in threads share a catalogue: a lookup and another thread's eviction must not interleave.
        self._cache_lock = threading.Lock()

    def __len__(self) -> int:
        return self.num_products

    def search(self, query: str, limit: int = SEARCH_RETURN_N) -> list[str]:
        """ASINs of the best ``limit`` products for ``query`` by BM25 (empty when the query has no words)."""
        key = f"{limit}\0{' '.join(search.tokens(query))}"
        with self._cache_lock:
            hits = self._searches.get(key)
            if hits is not None:
                self._searches.move_to_end(key)
                return list(hits)
        hits = tuple(asin_of(index, self.seed) for index in self.index.top(query, limit))
        with self._cache_lock:
            self._searches[key] = hits
            if len(self._searches) > 256:
                self._searches.popitem(last=False)
        return list(hits)

    def match(self, expression: str, limit: int = SEARCH_RETURN_N) -> list[str]:
        """ASINs for an FTS5 query expression (``"a b" AND c``, ``NEAR(...)``, prefixes), in FTS5's bm25 order.

        Raises ``sqlite3.OperationalError`` for a malformed expression.
        """
        rows = self.connection.execute(
            "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rank, rowid LIMIT ?", (expression, limit)
        ).fetchall()
        return [asin_of(rowid, self.seed) for (rowid,) in rows]

    def index_of(self, asin: str) -> int | None:
        index = index_of_asin(asin, self.seed)
        return index if index is not None and index < self.num_products else None

    def product(self, asin: str) -> Product | None:
        """The product with this ASIN, or None if the catalogue has no such product."""
        index = self.index_of(asin)
        return None if index is None else self.product_at(index)

    def product_at(self, index: int) -> Product:
        if not 0 <= index < self.num_products:
            raise IndexError(f"product index {index} out of range 0..{self.num_products - 1}")
        with self._cache_lock:
            product = self._products.get(index)
            if product is not None:
                self._products.move_to_end(index)
                return product
        product = generate_product(index, self.seed)
        with self._cache_lock:
            self._products[index] = product
            if len(self._products) > self._cache_size:
                self._products.popitem(last=False)
        return product

    def close(self) -> None:
        self.connection.close()


_OPEN: dict[tuple[int, int, str], Catalogue] = {}
_OPEN_LOCK = threading.Lock()


def open_catalogue(num_products: int = DEFAULT_NUM_PRODUCTS, seed: int = 0, *, quiet: bool = False) -> Catalogue:
    """The catalogue of ``num_products`` products (generator seed ``seed``), built into the cache on first use.

    Opened catalogues are shared within a process (one read-only SQLite connection for every env).
    """
    if num_products < 1:
        raise ValueError("num_products must be at least 1")
    key = source_key(
        generator,
        product_text,
        search,
        Path(generator.__file__).with_name("vocab.json"),
        Path(__file__),
        num_products,
        seed,
    )
    folder = build_cached(
        "webshop",
        f"catalogue-{num_products}-{key}",
        lambda staging: _build(staging, num_products, seed, quiet),
        verify="size",
        quiet=quiet,
    )
    handle = (num_products, seed, str(folder))
    with _OPEN_LOCK:
        if handle not in _OPEN:
            _OPEN[handle] = Catalogue(folder / _FILE, num_products, seed)
        return _OPEN[handle]
