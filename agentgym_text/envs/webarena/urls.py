"""Site URLs: WebArena's placeholders (``__SHOPPING__``) and public names (``http://onestopmarket.com``) <-> the
served base URLs.

>>> urls = UrlMap({"shopping": "http://127.0.0.1:8001", "shopping_admin": "http://127.0.0.1:8002/admin"})
>>> urls.fill("__SHOPPING_ADMIN__/sales/order/")
'http://127.0.0.1:8002/admin/sales/order/'
>>> urls.hide("URL: http://127.0.0.1:8002/admin/sales/order/")
'URL: http://luma.com/admin/sales/order/'
>>> urls.reveal("http://luma.com/admin/sales/order/")
'http://127.0.0.1:8002/admin/sales/order/'
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["UrlMap", "PLACEHOLDERS", "PUBLIC_NAMES"]

PLACEHOLDERS = {
    "shopping": "__SHOPPING__",
    "shopping_admin": "__SHOPPING_ADMIN__",
    "reddit": "__REDDIT__",
    "gitlab": "__GITLAB__",
    "wikipedia": "__WIKIPEDIA__",
    "map": "__MAP__",
    "homepage": "__HOMEPAGE__",
}
PUBLIC_NAMES = {
    # AgentBoard's rewriting of the local hosts in observations (and back in actions); a base URL's own path is
    # kept (WebArena's admin lives at http://host:7780/admin -> http://luma.com/admin).
    "shopping": "http://onestopmarket.com",
    "shopping_admin": "http://luma.com",
    "reddit": "http://reddit.com",
    "gitlab": "http://gitlab.com",
    "wikipedia": "http://wikipedia.org",
    "map": "http://openstreetmap.org",
    "homepage": "http://homepage.com",
}


class UrlMap:
    """Mapping between a deployment's base URLs, WebArena's placeholders and the public names shown."""

    def __init__(self, sites: dict[str, str]):
        self.sites = {name: url.rstrip("/") for name, url in sites.items()}

    def fill(self, text: str) -> str:
        """Placeholders -> base URLs (the longest placeholder first: __SHOPPING_ADMIN__ before __SHOPPING__)."""
        for name in sorted(self.sites, key=lambda n: -len(PLACEHOLDERS.get(n, n))):
            text = text.replace(PLACEHOLDERS.get(name, f"__{name.upper()}__"), self.sites[name])
        return text

    def _pairs(self) -> list[tuple[str, str]]:
        pairs = []
        for name, base in self.sites.items():
            path = urlsplit(base).path.rstrip("/")
            pairs.append((base, PUBLIC_NAMES.get(name, f"http://{name.replace('_', '')}.com") + path))
        return pairs

    def hide(self, text: str) -> str:
        """Base URLs -> public names (longest base first, so one base that prefixes another is not cut)."""
        for base, public in sorted(self._pairs(), key=lambda pair: -len(pair[0])):
            text = text.replace(base, public)
        return text

    def reveal(self, url: str) -> str:
        """A public name or a placeholder in ``url`` -> the base URL (also without the scheme or with https)."""
        url = self.fill(url.strip())
        for base, public in sorted(self._pairs(), key=lambda pair: -len(pair[1])):
            host = public.split("://", 1)[1]
            for prefix in (public, "https://" + host, host):
                if url == prefix or url.startswith(prefix + "/") or url.startswith(prefix + "?"):
                    return base + url[len(prefix) :]
        return url

    def public_bases(self) -> list[str]:
        return [public for _, public in self._pairs()]
