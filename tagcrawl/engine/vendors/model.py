"""Data model of the vendor catalog: :class:`Vendor` and :class:`Pattern`.

A catalog entry is pure data, written as one TOML file per vendor
(``catalog/<key>.toml``, format in ``docs/vendors.md``).  The generic matcher
(``matcher.py``; specs are parsed and resolved by ``sources.py``) reads it;
there is no per-vendor code.  Values are located with small *source specs*, strings of the form
``"<kind>:<arg>"``:

=================  ==========================================================
``p:<name>``       decoded parameter: query, ``;k=v`` path params, form body,
                   JSON body flattened one level, current batch item
``q:<name>``       query-string parameter only
``json:<a.b.0.c>`` dotted path into the JSON document (current batch item
                   first, then the whole body / embedded JSON document)
``path:<regex>``   regex searched in the URL path; capture groups joined "/"
``host:<regex>``   regex searched in the lower-cased host name
``url:<regex>``    regex searched in the full URL
``hdr:<name>``     request header (case-insensitive)
``auth:basic``     user name of an ``Authorization: Basic`` header
``const:<text>``   a constant (e.g. event "pageview")
=================  ==========================================================

``p``, ``q``, ``json`` and ``hdr`` accept a ``~<regex>`` suffix: the regex is
searched in the value and its first group (or whole match) is used, e.g.
``"p:events~\\[\\[\\"([^\\"]+)"`` for X's ``events=[["pageview",{}]]``.

All regex sources are kept JavaScript-compatible (no ``(?P<...>)``, inline
flags, ``\\A``/``\\Z``, possessive or atomic groups) because they are exported
by :func:`tagcrawl.engine.vendors.browser_patterns`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tagcrawl.engine.vendors.ids import IdFormat

#: Category names used in the catalog.
CATEGORIES = (
    "advertising",
    "affiliate",
    "analytics",
    "customer data platform",
    "customer success",
    "marketing automation",
    "optimization",
    "performance monitoring",
    "session replay",
    "tag manager",
)


@dataclass(frozen=True)
class Pattern:
    """One request shape of a vendor (a beacon endpoint or a script load).

    Attributes:
        host: regex source searched in the lower-cased request host, e.g.
            ``r"(?:^|\\.)facebook\\.com$"``; None matches any host (a
            first-party / CNAME setup) and then ``require`` or an id-capturing
            ``path`` must pin the shape down.
        path: regex source searched in the URL path (``;params`` included).
        require: ``((spec, regex), ...)``: every spec must resolve to a value
            in which ``regex`` is found (``""`` = any non-empty value), e.g.
            ``(("p:v", "^2$"), ("p:tid", "^[Gg]-"))`` for GA4.
        ids: source specs of the account id, tried in order; the first that
            yields a value decides (a malformed value drops the hit).  A JSON
            list value gives one hit per element.
        events: source specs of the event name, first non-empty wins.
        split: None, ``"lines"`` (one hit per body line: GA4 batches) or
            ``"json:<path>"`` (one hit per element of the list at ``path`` of
            the JSON document; ``"json:"`` = the document itself is a list).
        id_sep: separator of a multi-id value (Outbrain ``marketerId=a,b``,
            Adobe multi-suite ``/b/ss/rs1,rs2/``): one hit per id.
        embedded: parameters whose value is a JSON document, verbatim or
            base64 / lz-string (Mixpanel ``data``); it becomes the JSON document.
        config: a configuration fetch of the vendor's SDK (remote config,
            feature flags, settings): it carries the account id but is no
            event (the stream tag leaves it out).
    """

    host: str | None = None
    path: str | None = None
    require: tuple[tuple[str, str], ...] = ()
    ids: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    split: str | None = None
    id_sep: str | None = None
    embedded: tuple[str, ...] = ()
    config: bool = False


@dataclass(frozen=True)
class Vendor:
    """A catalog entry: one marketing/analytics vendor.

    Attributes:
        key: stable catalog key (``"facebook"``, ``"google_analytics"``).
        name: display name (``"Meta Pixel"``).
        category: one of :data:`CATEGORIES`.
        patterns: request shapes, tried in order.
        aliases: other names the vendor is known by (``"Facebook"``, ``"Meta"``).
        id_format: validation/normalisation of the account id (None: any
            non-empty token is accepted).
        id_source: human description of where the account id comes from
            (used in docs and docstrings).
    """

    key: str
    name: str
    category: str
    patterns: tuple[Pattern, ...]
    aliases: tuple[str, ...] = ()
    id_format: IdFormat | None = None
    id_source: str = ""

    @property
    def example_id(self) -> str:
        """An example account id in canonical form ("" if unknown)."""
        return self.id_format.example if self.id_format else ""


def host_re(*domains: str) -> str:
    """Host regex source matching ``domains`` and their sub-domains (what a
    catalog file's ``domains = [...]`` stands for):
    ``host_re("facebook.com")`` -> ``(?:^|\\.)(?:facebook\\.com)$``."""
    alts = "|".join(d.replace(".", r"\.") for d in domains)
    return rf"(?:^|\.)(?:{alts})$"


def library_load(path: str | None) -> bool:
    """True for a pattern path that only matches script files (``...\\.js$``).

    Loading a vendor's library is not an event: these patterns are left out of
    the browser tag (scripts are not among the requests it observes) and do
    not make their host the vendor's collection host (``matcher.py``).
    """
    if not path or not re.search(r"\\\.js\)?\$$", path):
        return False
    depth, i = 0, 0
    while i < len(path):  # an alternative at the top level may match more than scripts
        if path[i] == "\\":
            i += 1
        elif path[i] in "([":
            depth += 1
        elif path[i] in ")]":
            depth -= 1
        elif path[i] == "|" and depth == 0:
            return False
        i += 1
    return True
