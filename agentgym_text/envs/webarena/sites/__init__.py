"""The five WebArena sites, served locally from SQLite with seeded content.

    server = SiteServer()
    urls = server.start()          # {"shopping": "http://127.0.0.1:PORT", ...}, one port per site
    server.reset()                 # every site back to a fresh copy of its seeded database (those changed)
    server.db_path("reddit")       # this server's live database of the forum (for program checks)
    server.close()

The seeded template databases are built once into the cache (``build_cached``; a new build when a generator
module changes). Each ``SiteServer`` copies them into its own temporary folder, so two servers (in one process
or two) never share state. The shop and its admin share one database, as Magento's storefront and admin do.
The user is logged in on every site (no login pages).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path

from agentgym_text.core.cache import build_cached, source_key
from agentgym_text.envs.webarena.sites import (
    admin,
    gitlab,
    gitlab_data,
    names,
    reddit,
    reddit_data,
    shop,
    shop_data,
    web,
    wiki,
    wiki_data,
)
from agentgym_text.envs.webshop import generator

__all__ = ["SITE_NAMES", "SiteServer", "template_dir", "SEED"]

SITE_NAMES = ("shopping", "shopping_admin", "reddit", "gitlab", "wikipedia")
SEED = 0
_DATABASES = {
    "shop": shop_data.build_shop,
    "reddit": reddit_data.build_reddit,
    "gitlab": gitlab_data.build_gitlab,
    "wiki": wiki_data.build_wiki,
}
_SITE_DB = {"shopping": "shop", "shopping_admin": "shop", "reddit": "reddit", "gitlab": "gitlab", "wikipedia": "wiki"}
_APPS = {
    "shopping": shop.app,
    "shopping_admin": admin.app,
    "reddit": reddit.app,
    "gitlab": gitlab.app,
    "wikipedia": wiki.app,
}


def _build(folder: Path, seed: int) -> None:
    for name, build in _DATABASES.items():
        connection = sqlite3.connect(folder / f"{name}.sqlite")
        connection.execute("PRAGMA journal_mode = DELETE")
        build(connection, seed)
        connection.execute("VACUUM")
        connection.close()


def template_dir(seed: int = SEED) -> Path:
    """The cache folder holding the seeded template databases (built at first use, about a second)."""
    key = source_key(
        shop_data,
        reddit_data,
        gitlab_data,
        wiki_data,
        names,
        generator,
        Path(generator.__file__).with_name("vocab.json"),
        seed,
    )
    return build_cached("webarena", f"sites-{key}", lambda folder: _build(folder, seed), quiet=True)


class SiteServer:
    """The five sites on 127.0.0.1, each on its own free port, over this server's own database copies."""

    def __init__(self, data_dir: Path | None = None):
        self.data_dir = Path(data_dir) if data_dir is not None else template_dir()
        self._work = Path(tempfile.mkdtemp(prefix="agentgym-webarena-"))
        self._locks = {name: threading.Lock() for name in _DATABASES}
        self._servers: list = []
        self.urls: dict[str, str] = {}
        self._changed: set[str] = set()
        self._stamps: dict[str, tuple[int, int]] = {}
        for name in _DATABASES:
            self._copy(name)

    def _copy(self, name: str) -> None:
        live = self._work / f"{name}.sqlite"
        shutil.copyfile(self.data_dir / f"{name}.sqlite", live)
        stat = live.stat()
        self._stamps[name] = (stat.st_mtime_ns, stat.st_size)

    def db_path(self, site: str) -> Path:
        if site not in _SITE_DB:
            raise KeyError(f"unknown site {site!r}; sites are {', '.join(SITE_NAMES)}")
        return self._work / f"{_SITE_DB[site]}.sqlite"

    def start(self) -> dict[str, str]:
        if not self.urls:
            for site in SITE_NAMES:
                name = _SITE_DB[site]
                live = web.LiveSite(
                    _APPS[site],
                    self.db_path(site),
                    self._locks[name],
                    on_write=lambda name=name: self._changed.add(name),
                )
                server, thread, url = web.serve(live)
                self._servers.append((server, thread))
                self.urls[site] = url
        return dict(self.urls)

    def reset(self) -> None:
        """Every database back to its seeded copy: those a request changed, or whose file changed otherwise (its
        time or size: a write through ``db_path``); the rest are still the copy."""
        for name, lock in self._locks.items():
            with lock:
                stat = (self._work / f"{name}.sqlite").stat()
                if name in self._changed or (stat.st_mtime_ns, stat.st_size) != self._stamps[name]:
                    self._copy(name)
                    self._changed.discard(name)

    def close(self) -> None:
        for server, thread in self._servers:
            web.stop(server, thread)
        self._servers.clear()
        self.urls = {}
        shutil.rmtree(self._work, ignore_errors=True)

    def __enter__(self) -> SiteServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if self._servers or self._work.exists():
                self.close()
        except Exception:
            pass
