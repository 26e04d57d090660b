"""URL normalization of discovered URLs (docs/audits.md "Normalization"), with
w3lib's ``canonicalize_url`` (Scrapy's request fingerprinting): host
lower-cased and IDNA-encoded, percent-encoding made canonical, query
arguments sorted by name then value, the fragment dropped.  Added here:

- the default port (``:80`` for http, ``:443`` for https) is dropped;
- session parameters are dropped, in the query (``?PHPSESSID=...``) and as
  path parameters (``/cart;jsessionid=...``): the names in
  :data:`SESSION_PARAMS`, compared case-insensitively.  Campaign parameters
  (``utm_*``, ``gclid``, ``fbclid``) are NOT session parameters: they change
  what tags send, so they are kept;
- ``rel=canonical`` is honoured only within the page's registrable domain
  (``canonical_for``).

Two URLs that normalize the same are one page (the audit's unique
``(audit_id, url, scenario)``).
"""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

from tagcrawl.core.hosts import canonical_host
from tagcrawl.core.registrable import registrable_domain

#: Query and path parameters that carry a session, not a page (lower case).
SESSION_PARAMS = frozenset({"jsessionid", "phpsessid", "sid", "sessionid", "session_id", "aspsessionid",
                            "cfid", "cftoken", "oscsid", "zenid"})
#: Longest URL normalized, characters (longer input gives None before any parsing).
URL_MAX = 2048
_PATH_SESSION = re.compile(r";(?:" + "|".join(sorted(SESSION_PARAMS)) + r")=[^/;?#]*", re.IGNORECASE)
_DEFAULT_PORTS = {"http": 80, "https": 443}
_STRIP = "".join(map(chr, range(0x21)))
_TAB_NEWLINE = re.compile(r"[\t\n\r]")


def normalize_url(url: str, base: str | None = None, max_chars: int = URL_MAX) -> str | None:
    """The normalized absolute form of ``url``, or None when it is no http(s) URL.

    Args:
        url: as found (an ``href``, a sitemap ``<loc>``, a start URL).
        base: the document's URL, to resolve a relative ``url`` against.
        max_chars: input longer than this (before and after resolving) gives None.
    Returns:
        ``"https://shop.example/p/1?a=1&b=2"``, or None for ``mailto:``,
        ``javascript:``, malformed or over-long input.
    """
    if not isinstance(url, str) or len(url) > max_chars:
        return None
    url = _TAB_NEWLINE.sub("", url.strip(_STRIP))
    try:
        if base:
            url = urljoin(base, url)
        if len(url) > max_chars:
            return None
        parts = urlsplit(url)
        if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
            return None
        port = parts.port
        host = canonical_host(parts.hostname)
    except ValueError:
        return None
    path = _PATH_SESSION.sub("", parts.path)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() not in SESSION_PARAMS]
    scheme = parts.scheme.lower()
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    rebuilt = urlunsplit((scheme, netloc, path or "/", urlencode(query), ""))
    try:
        out = canonicalize_url(rebuilt)
    except (ValueError, UnicodeError):
        return None
    return out if len(out) <= max_chars else None


def host_of(url: str) -> str:
    """Canonical host of a normalized URL ("" when it has none or a malformed one)."""
    try:
        return canonical_host(urlsplit(url).hostname or "")
    except ValueError:
        return ""


def site_of(url: str) -> str:
    """Registrable domain of a normalized URL's host (``core.registrable``)."""
    return registrable_domain(host_of(url))


def canonical_for(page_url: str, canonical: str | None) -> str | None:
    """The page's ``<link rel=canonical>`` as the URL to use, or None.

    Args:
        page_url: the normalized URL of the page.
        canonical: the link's ``href`` as the page gave it (relative or absolute), or None.
    Returns:
        The normalized canonical URL when it is http(s) and within the page's
        registrable domain (a canonical elsewhere is ignored: a page cannot
        move the audit to another site), else None.
    """
    if not canonical:
        return None
    target = normalize_url(canonical, base=page_url)
    if target is None or site_of(target) != site_of(page_url):
        return None
    return target
