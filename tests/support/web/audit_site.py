"""Generated sites for site audits (issue 29): ``site-<N>.example`` (seed 29) and
``site-<N>-s<SEED>.example`` (18 <= N <= 2000) build N crawlable pages deterministically from the
seed, with planted defects listed in a machine-readable truth
(``truth(host)``; tests read it, never the HTML).

Layout of ``http://site-N.example`` (plain http: the fixture's certificate
names no host, so a verified TLS fetch of it fails, by design):

- ``/robots.txt``: ``Disallow: /private/`` and ``Sitemap: /sitemap_index.xml``;
- ``/sitemap_index.xml`` -> ``/sitemaps/pages-1.xml`` (plain) and
  ``/sitemaps/pages-2.xml.gz`` (gzip); together they list ``/``, the regular
  pages ``/p/<i>``, ``/gone-1``, ``/loop-a``, ``/blocked``, ``/private/account``
  and one session-parameter twin (``/p/3;jsessionid=...``);
- ``/hostile/...`` (``HOSTILE``, listed nowhere): a gzip bomb, malformed XML, XML with entities;
- ``/cookie-policy``: linked only by the OneTrust banner (``bannerLinks``), a clean page;
- links deeper than the sitemap: ``/p/0`` -> ``/deep/1`` -> ``/deep/2`` -> ``/deep/3``;
- the home page links to a fragment twin (``/p/1#reviews``), ``/gone-2``,
  ``blog.site-N.example/outside`` (outside the include glob), an offsite
  page, an internal address (SSRF) and ``/p/0?print=1`` (the exclude glob);
- every page has GA4 (gtag.js, one measurement id, loaded once the
  performance group C0002 is granted) and Meta's base code (once the marketing
  group C0004 is granted) behind the fixture OneTrust banner
  (``vendor_libs/onetrust.js``): nothing tracks before a choice, nothing after
  a refusal, except the planted defects: pages without GA4, a page firing Meta before consent, a
  page firing Meta after any choice (a refusal too), two 404s, a redirect
  loop, a blocked page (Cloudflare's block page, HTTP 403).

Version 2 (``set_version(web, host, 2)``, same URLs, so two audits of one
configuration differ): one page loses GA4, one page sets a new cookie after
consent, one page fires Meta before consent (a new violation), one page is
gone (404, out of the sitemap).  ``truth(host, 2)["changes"]`` names them.
"""
from __future__ import annotations

import gzip
import random
import re
from functools import lru_cache
from pathlib import Path

HOST = re.compile(r"^(?:(blog)\.)?site-(\d{1,4})(?:-s(\d{1,6}))?\.example$")
GA4 = "G-AUDIT29XYZ"
META = "290029002900290"
SEED = 29
_BLOCK_PAGE = Path(__file__).parent / "sites" / "block-cloudflare.example" / "index.html"
_SPECIAL = 9  # /, /gone-1, /gone-2, /loop-a, /blocked, /deep/1..3, /cookie-policy


def set_version(web, host: str, version: int) -> None:
    """Serve ``host`` as version ``version`` (1 or 2) from now on."""
    if not hasattr(web, "audit_versions"):
        web.audit_versions = {}
    web.audit_versions[host] = version


def _parse(host: str) -> tuple[int, int] | None:
    match = HOST.match(host)
    if not match or not 18 <= int(match.group(2)) <= 2000:
        return None
    return int(match.group(2)), int(match.group(3) or SEED)


@lru_cache(maxsize=64)
def truth(host: str, version: int = 1) -> dict:
    """The site's plan and planted defects (JSON-able).  Raises ValueError for
    a host that is no generated site.  Keys: ``start``, ``include``,
    ``exclude``, ``pages`` (the N URLs an audit with that include/exclude finds,
    normalized, sorted), ``sitemapPages``, ``linkOnly``, ``excluded`` (URL ->
    reason), ``duplicates`` (twin -> page), ``defects``, ``links`` (path -> hrefs
    of its HTML), ``ga4``, ``meta``, ``changes`` (version 2 only)."""
    parsed = _parse(host)
    if parsed is None or host.startswith("blog."):
        raise ValueError(f"{host} is no generated audit site")
    n, seed = parsed
    base = f"http://{host}"
    rng = random.Random(seed * 7919 + n)
    regular = [f"/p/{i}" for i in range(n - _SPECIAL)]
    picks = rng.sample(regular[1:], 8)  # /p/0 stays clean: it leads to the deep pages
    no_ga4, before, ignores = sorted(picks[:2]), [picks[2]], [picks[3]]
    lose_ga4, new_cookie, new_violation, gone = picks[4:8]
    v2 = version == 2
    half = (len(regular) + 1) // 2
    sitemap1 = ["/"] + regular[:half] + ["/gone-1", "/private/account"]
    sitemap2 = regular[half:] + ["/loop-a", "/blocked", "/p/3;jsessionid=A1B2C3D4E5"]
    if v2:
        sitemap1 = [p for p in sitemap1 if p != gone]
        sitemap2 = [p for p in sitemap2 if p != gone]
    links = {"/": [f"/p/{i}" for i in range(min(6, len(regular)))] + [
        "/p/1#reviews", "/gone-2", f"http://blog.{host}/outside", "https://partner.example/",
        "http://127.0.0.1:9/admin", "/p/0?print=1", "mailto:shop@example.com"]}
    for i, path in enumerate(regular):
        links[path] = ["/"] + ([regular[i + 1]] if i + 1 < len(regular) else [])
    links["/p/0"].append("/deep/1")
    links["/deep/1"], links["/deep/2"], links["/deep/3"] = ["/deep/2", "/"], ["/deep/3", "/"], ["/"]
    links["/cookie-policy"] = ["/"]
    pages = ["/"] + regular + ["/gone-1", "/gone-2", "/loop-a", "/blocked", "/deep/1", "/deep/2", "/deep/3",
                               "/cookie-policy"]
    out = {
        "host": host, "n": n, "seed": seed, "version": version, "ga4": GA4, "meta": META,
        "start": base + "/", "include": [f"*://{host}/*"], "exclude": ["*print=1*"],
        "robots": base + "/robots.txt", "sitemapIndex": base + "/sitemap_index.xml",
        "sitemaps": [base + "/sitemaps/pages-1.xml", base + "/sitemaps/pages-2.xml.gz"],
        "sitemapPaths": {"pages-1.xml": sitemap1, "pages-2.xml.gz": sitemap2},
        "pages": sorted(base + p for p in pages),
        "sitemapPages": [base + p for p in sitemap1 + sitemap2 if ";" not in p],
        "linkOnly": [base + p for p in ("/gone-2", "/deep/1", "/deep/2", "/deep/3", "/cookie-policy")],
        "bannerLinks": [base + "/cookie-policy"],  # the OneTrust banner's link, after each page's own
        "excluded": {base + "/private/account": "robots", f"http://blog.{host}/outside": "include",
                     "https://partner.example/": "offsite", "http://127.0.0.1:9/admin": "ssrf",
                     base + "/p/0?print=1": "exclude"},
        "duplicates": {base + "/p/1#reviews": base + "/p/1", base + "/p/3;jsessionid=A1B2C3D4E5": base + "/p/3"},
        "links": links,
        "defects": {"noGa4": [base + p for p in sorted(no_ga4 + ([lose_ga4] if v2 else []))],
                    "metaBeforeConsent": [base + p for p in sorted(before + ([new_violation] if v2 else []))],
                    "ignoresRefusal": [base + p for p in ignores],
                    "notFound": [base + p for p in ["/gone-1", "/gone-2"] + ([gone] if v2 else [])],
                    "redirectLoop": [base + "/loop-a"], "blocked": [base + "/blocked"],
                    "outsideInclude": [f"http://blog.{host}/outside"]},
        "trackersBeforeConsent": {base + p: ["meta"] for p in sorted(before + ([new_violation] if v2 else []))},
        "plan": {"noGa4": no_ga4, "before": before, "ignores": ignores},
    }
    if v2:
        out["changes"] = {"loseGa4": base + lose_ga4, "newCookie": {"url": base + new_cookie, "name": "promo_v2"},
                          "newViolation": base + new_violation, "gone": base + gone}
    out["_v2"] = {"loseGa4": lose_ga4, "newCookie": new_cookie, "newViolation": new_violation, "gone": gone}
    return out


_GTAG = ("if (window.OnetrustActiveGroups.indexOf(',C0002,') !== -1 && !window.gtag) {"
         " var g = document.createElement('script'); g.async = true;"
         f" g.src = 'https://www.googletagmanager.com/gtag/js?id={GA4}'; document.head.appendChild(g);"
         " window.dataLayer = window.dataLayer || []; window.gtag = function () { dataLayer.push(arguments); };"
         f" gtag('js', new Date()); gtag('config', '{GA4}'); }}")
_META = ("!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments)"
         ":n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];"
         "t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}"
         "(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');"
         f"fbq('init','{META}');fbq('track','PageView');")
_ONETRUST = ('<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" '
             'data-domain-script="0190a1b2-audit"></script>\n')


def _page(host: str, path: str, t: dict) -> str:
    plan, v2 = t["plan"], t["_v2"] if t["version"] == 2 else {}
    ga4 = path not in plan["noGa4"] and path != v2.get("loseGa4")
    head = _ONETRUST
    if path in plan["before"] or path == v2.get("newViolation"):
        head += f"<script>{_META}</script>\n"  # fires at load, before any choice
        gate = "false"
    elif path in plan["ignores"]:
        gate = "/(?:^|; )OptanonAlertBoxClosed=/.test(document.cookie)"  # any choice, a refusal too
    else:
        gate = 'window.OnetrustActiveGroups.indexOf(",C0004,") !== -1'
    cookie = "document.cookie = 'promo_v2=1; path=/; max-age=2592000';" if path == v2.get("newCookie") else ""
    head += (f"<script>function OptanonWrapper() {{ {_GTAG if ga4 else ''} if ({gate} && !window.fbq) {{ {_META} }}"
             f" if (window.OnetrustActiveGroups.indexOf(',C0004,') !== -1) {{ {cookie} }} }}</script>\n")
    anchors = "".join(f'<li><a href="{h}">{h}</a></li>' for h in t["links"].get(path, []))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{host}{path}</title>\n'
            f'<link rel="canonical" href="http://{host}{path}">\n{head}</head>\n'
            f"<body><h1>{host}{path}</h1><ul>{anchors}</ul></body></html>")


def _sitemap(host: str, paths: list[str]) -> bytes:
    rows = "".join(f"<url><loc>http://{host}{p}</loc></url>" for p in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{rows}</urlset>\n").encode()


@lru_cache(maxsize=1)
def _bomb() -> bytes:
    """32 MiB of zeros, gzip-compressed to ~150 KiB: a sitemap bomb."""
    return gzip.compress(b"\0" * (32 * 1024 * 1024), compresslevel=1)


#: Hostile sitemaps of every generated site, listed nowhere (tests name them in ``sitemaps``).
HOSTILE = {"/hostile/bomb.xml.gz": lambda: (200, {"Content-Type": "application/gzip"}, _bomb()),
           "/hostile/malformed.xml": lambda: (200, {"Content-Type": "application/xml"},
                                              b"<urlset><url><loc>http://x/</loc></urlset>"),
           "/hostile/entities.xml": lambda: (200, {"Content-Type": "application/xml"},
                                             b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "aaaa">]><urlset>&a;</urlset>')}


def _html(status: int, text: str):
    return status, {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}, text


def route(host, path, query, method, body, headers, web):
    """The fixture web's route for generated sites (``server.py``); None for other hosts."""
    parsed = _parse(host)
    if parsed is None:
        return None
    if host.startswith("blog."):
        return _html(200, f"<!doctype html><title>blog</title><h1>{host}{path}</h1>")
    t = truth(host, getattr(web, "audit_versions", {}).get(host, 1))
    if path == "/robots.txt":
        text = f"User-agent: *\nDisallow: /private/\n\nSitemap: http://{host}/sitemap_index.xml\n"
        return 200, {"Content-Type": "text/plain"}, text
    if path == "/sitemap_index.xml":
        rows = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in t["sitemaps"])
        return 200, {"Content-Type": "application/xml"}, (
            '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{rows}</sitemapindex>\n")
    if path == "/sitemaps/pages-1.xml":
        return 200, {"Content-Type": "application/xml"}, _sitemap(host, t["sitemapPaths"]["pages-1.xml"])
    if path == "/sitemaps/pages-2.xml.gz":
        data = gzip.compress(_sitemap(host, t["sitemapPaths"]["pages-2.xml.gz"]), mtime=0)
        return 200, {"Content-Type": "application/gzip"}, data
    if path in HOSTILE:
        return HOSTILE[path]()
    if path in ("/loop-a", "/loop-b"):
        return 302, {"Location": "/loop-b" if path == "/loop-a" else "/loop-a", "Cache-Control": "no-store"}, b""
    if path == "/blocked":
        return 403, {"Content-Type": "text/html; charset=utf-8"}, _BLOCK_PAGE.read_bytes()
    if path in t["links"] and path != t["_v2"]["gone"] or (path == t["_v2"]["gone"] and t["version"] == 1):
        return _html(200, _page(host, path, t))
    return _html(404, "<!doctype html><title>Not found</title><h1>404</h1>")
