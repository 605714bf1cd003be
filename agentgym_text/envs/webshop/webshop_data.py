"""``webshop_data=<folder>``: WebShop's own released files imported into a SQLite catalogue, and its human goals.

The folder holds what WebShop's ``setup.sh`` downloads: the product file (``items_shuffle.json``, or
``items_shuffle_1000.json``), the attribute file (``items_ins_v2.json`` / ``items_ins_v2_1000.json``) and the
human instructions (``items_human_ins.json``). They are read as WebShop's ``load_products`` and
``get_human_goals`` read them (``web_agent_site/engine``), restated here:

- a product is skipped when its ASIN is ``nan`` or longer than 10 characters, or repeats an earlier one; its
  title is ``name``, its bullets ``small_description`` (a list, or one text), its description
  ``full_description``; ``pricing`` ("$12.99", "$10.00$20.00") gives one price or a range, and a range's price is
  drawn uniformly within it (none: $100.0); option groups are lower-cased, option values stripped, lower-cased,
  "/" written " | "; its attributes are the attribute file's (``['DUMMY_ATTR']`` when absent);
- goals: for each product in file order with human instructions, each instruction with attributes becomes a
  goal: the instruction without its final periods, plus ", and price lower than X dollars" where X is the
  greater of two of the first four multiples of 10 above the price (no price clause when fewer than two);
  the goals are then shuffled with ``random.seed(233)``, so goal k is the goal AgentBench's session k plays.

WebShop draws range prices and price limits from an unseeded generator; here one ``random.Random(0)`` draws them
in the same order, so prices and price clauses are fixed but need not equal a given WebShop run's. The product
nouns of the type reward are the name's words (WebShop tags nouns with spaCy). Search ranks with this package's
BM25 (``search.py``), not WebShop's Lucene index. The import runs once per set of file checksums into the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.cache import build_cached, progress_bar, source_key
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.webshop import search
from agentgym_text.envs.webshop.catalogue import SEARCH_RETURN_N, Catalogue
from agentgym_text.envs.webshop.generator import Product
from agentgym_text.envs.webshop.goals import goal_difficulty
from agentgym_text.envs.webshop.reward import Goal
from agentgym_text.envs.webshop.search import PostingsBuilder

__all__ = ["FILES", "WebShopFiles", "ImportedCatalogue", "find_files", "open_imported", "imported_tasks"]

FILES = {
    "products": ("items_shuffle.json", "items_shuffle_1000.json"),
    "attributes": ("items_ins_v2.json", "items_ins_v2_1000.json"),
    "human goals": ("items_human_ins.json",),
}
"""Each file WebShop's loader reads, by the names its ``setup.sh`` downloads them under (the full one first)."""
PRICE_RANGE = [10.0 * i for i in range(1, 100)]
_SHUFFLE_SEED = 233
_FILE = "catalogue.sqlite"
_GOALS = "goals.json"
_WORD = re.compile(r"[a-z][a-z'-]+")


class WebShopFiles:
    """The three files of a WebShop data folder."""

    def __init__(self, products: Path, attributes: Path, human_goals: Path):
        self.products, self.attributes, self.human_goals = products, attributes, human_goals

    def checksum(self) -> str:
        return source_key(*(_sha256(path) for path in (self.products, self.attributes, self.human_goals)))


def find_files(folder: str | os.PathLike[str]) -> WebShopFiles:
    """The folder's files; ``ValueError`` naming what is missing."""
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise ValueError(f"webshop_data: {root} is not a folder (WebShop's data folder, as its setup.sh fills it)")
    found = []
    for role, names in FILES.items():
        path = next((root / name for name in names if (root / name).is_file()), None)
        if path is None:
            raise ValueError(f"webshop_data: {root} has no {role} file ({' or '.join(names)})")
        found.append(path)
    return WebShopFiles(*found)


@lru_cache(maxsize=16)
def _sha256_of(path: str, size: int, mtime: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _sha256(path: Path) -> str:
    stat = path.stat()
    return _sha256_of(str(path), stat.st_size, stat.st_mtime_ns)


def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"webshop_data: cannot read {path}: {error}") from None


def _pricing(text: object) -> list[float]:
    if not text:
        return [100.0]
    prices = [float(Decimal(re.sub(r"[^\d.]", "", part))) for part in str(text).split("$")[1:]]
    return prices[:2] or [100.0]


def _nouns(name: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_WORD.findall(name.lower())))


def _product(index: int, item: dict, attributes: dict, rng: random.Random) -> Product:
    pricing = _pricing(item.get("pricing"))
    price = pricing[0] if len(pricing) == 1 else rng.uniform(*pricing)
    options = []
    for group, contents in (item.get("customization_options") or {}).items():
        if contents is None:
            continue
        values = tuple(str(c["value"]).strip().replace("/", " | ").lower() for c in contents)
        options.append((group.lower(), values))
    bullets = item.get("small_description") or []
    known = attributes.get(item["asin"]) or {}
    return Product(
        index=index,
        asin=item["asin"],
        type_id=0,
        category=str(item.get("category", "")),
        query=str(item.get("query", "")).lower().strip(),
        product_category=str(item.get("product_category", "")),
        brand="",
        title=str(item.get("name", "")),
        nouns=_nouns(str(item.get("name", ""))),
        price=float(price),
        attributes=tuple(known.get("attributes") or ["DUMMY_ATTR"]),
        options=tuple(options),
        bullets=tuple(str(b) for b in (bullets if isinstance(bullets, list) else [bullets])),
        description=str(item.get("full_description") or ""),
        reviews=(),
    )


def _to_row(product: Product) -> str:
    fields = dict(product.__dict__)
    fields["options"] = [[group, list(values)] for group, values in product.options]
    return json.dumps(fields)


def _from_row(text: str) -> Product:
    fields = json.loads(text)
    fields["options"] = tuple((group, tuple(values)) for group, values in fields["options"])
    for key in ("nouns", "attributes", "bullets", "reviews"):
        fields[key] = tuple(fields[key])
    return Product(**fields)


def _goals(products: list[Product], human: dict, rng: random.Random) -> list[dict]:
    goals = []
    for product in products:
        for wanted in human.get(product.asin) or []:
            if not wanted.get("instruction_attributes"):
                continue
            above = [p for p in PRICE_RANGE if p > product.price][:4]
            if len(above) >= 2:
                _, upper = sorted(rng.sample(above, 2))
                clause = f", and price lower than {upper:.2f} dollars"
            else:
                upper, clause = 1000000.0, ""
            instruction = str(wanted["instruction"]).strip(".") + clause
            goal = Goal.for_product(product, wanted["instruction_attributes"], {}, upper, instruction)
            options = wanted.get("instruction_options") or []
            options = list(options.values()) if isinstance(options, dict) else list(options)
            goals.append({**goal.to_params(), "options": options, "keywords": product.title.lower()})
    random.Random(_SHUFFLE_SEED).shuffle(goals)
    return goals


def _build(folder: Path, files: WebShopFiles, quiet: bool) -> None:
    items = _read_json(files.products)
    attributes = _read_json(files.attributes)
    human = _read_json(files.human_goals)
    if not isinstance(items, list) or not isinstance(attributes, dict) or not isinstance(human, dict):
        raise ValueError("webshop_data: the product file must hold a list, the attribute and goal files objects")
    rng, seen, products = random.Random(0), set(), []
    connection = sqlite3.connect(folder / _FILE)
    connection.executescript(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
        "CREATE TABLE pages (id INTEGER PRIMARY KEY, asin TEXT UNIQUE NOT NULL, page TEXT NOT NULL);"
    )
    postings = PostingsBuilder()
    for item in progress_bar(items, total=len(items), desc="webshop_data import", quiet=quiet):
        asin = str(item.get("asin", "nan"))
        if asin == "nan" or len(asin) > 10 or asin in seen:
            continue
        seen.add(asin)
        product = _product(len(products), item, attributes, rng)
        products.append(product)
        connection.execute("INSERT INTO pages VALUES (?, ?, ?)", (product.index, asin, _to_row(product)))
        postings.add(product.index, product.search_text())
    postings.write(connection)
    connection.commit()
    connection.close()
    (folder / _GOALS).write_text(json.dumps(_goals(products, human, rng)))


class ImportedCatalogue(Catalogue):
    """A catalogue of WebShop's own products: pages stored in the file, BM25 over the same fields."""

    def __init__(self, path: Path, cache_size: int = 512):
        connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        (count,) = connection.execute("SELECT count(*) FROM pages").fetchone()
        connection.close()
        super().__init__(path, int(count), seed=0, cache_size=cache_size)

    def search(self, query: str, limit: int = SEARCH_RETURN_N) -> list[str]:
        if not search.tokens(query):
            return []
        return [self.product_at(index).asin for index in self.index.top(query, limit)]

    def match(self, expression: str, limit: int = SEARCH_RETURN_N) -> list[str]:
        raise NotImplementedError("an imported WebShop catalogue has no FTS5 table")

    def index_of(self, asin: str) -> int | None:
        row = self.connection.execute("SELECT id FROM pages WHERE asin = ?", (asin,)).fetchone()
        return None if row is None else int(row[0])

    def product_at(self, index: int) -> Product:
        if not 0 <= index < self.num_products:
            raise IndexError(f"product index {index} out of range 0..{self.num_products - 1}")
        with self._cache_lock:
            product = self._products.get(index)
        if product is None:
            (text,) = self.connection.execute("SELECT page FROM pages WHERE id = ?", (index,)).fetchone()
            product = _from_row(text)
            with self._cache_lock:
                self._products[index] = product
                while len(self._products) > self._cache_size:
                    self._products.popitem(last=False)
        return product


_OPEN: dict[str, tuple[ImportedCatalogue, list[dict]]] = {}


def open_imported(folder: str | os.PathLike[str], quiet: bool = False) -> tuple[ImportedCatalogue, list[dict]]:
    """The imported catalogue and the shuffled goals (as task params) of a WebShop data folder."""
    files = find_files(folder)
    key = source_key(Path(__file__), search, files.checksum())
    built = build_cached("webshop-data", key, lambda staging: _build(staging, files, quiet), quiet=quiet)
    if key not in _OPEN:
        _OPEN[key] = (ImportedCatalogue(built / _FILE), json.loads((built / _GOALS).read_text()))
    return _OPEN[key]


def imported_tasks(goals: list[dict], count: int, max_steps: int) -> TaskSet:
    """Goals 0..count-1 as tasks ``webshop-goal-<k>`` (AgentBench's session k)."""
    specs = []
    for k, params in enumerate(goals[:count]):
        goal = Goal.from_params(params)
        specs.append(TaskSpec(f"webshop-goal-{k:05d}", params, goal.instruction, goal_difficulty(goal), max_steps))
    return TaskSet(specs)
