"""Sitemaps (sitemaps.org protocol 0.9): XML ``<urlset>`` and ``<sitemapindex>``
documents, gzip-compressed ones (``.xml.gz``, recognised by their magic bytes,
not their name) and plain-text sitemaps (one URL per line).

Why no sitemap library (docs/audits.md "Sitemaps"): ultimate-sitemap-parser is
GPL-3.0, which tagcrawl's licence (setup.cfg: Proprietary) cannot take;
py-sitemap-parser (MIT) fetches with its own HTTP client (niquests, past the
egress proxy) and loads a whole document into dicts (xmltodict) with no bound
on entries; Scrapy's ``Sitemap`` (BSD) needs all of Scrapy and Twisted.  What
is left is small: XML parsing with ``defusedxml`` (no DTD, no entities, no
external references: no billion-laughs or XXE) over the standard library's
streaming ``iterparse``, bounded at every step (``types.Limits``):

- bytes per sitemap: the fetch reads at most ``sitemap_bytes``; a gzip body is
  inflated in chunks and stops at ``sitemap_bytes`` of output (a gzip bomb
  costs at most that much memory);
- ``<loc>`` entries per sitemap: ``sitemap_urls`` (the rest is not parsed);
- sitemap documents per audit: ``sitemaps``; nesting of indexes: ``index_depth``.

Every failure is a ``Problem`` (``"malformed XML: ..."``), never an exception.
"""
from __future__ import annotations

import io
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from tagcrawl.audit.discovery.types import Fetcher, Limits, Problem

_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 64 * 1024


class SitemapError(Exception):
    """A sitemap that cannot be read; ``str(exc)`` says why, as a sentence."""


def unpack(body: bytes, max_bytes: int) -> bytes:
    """``body`` as XML/text bytes: gzip-inflated when it starts with the gzip
    magic bytes, else as it is.

    Raises:
        SitemapError: more than ``max_bytes`` bytes once inflated (checked per
            64 KiB chunk, before more is inflated), or a corrupt gzip stream.
    """
    if not body.startswith(_GZIP_MAGIC):
        if len(body) > max_bytes:
            raise SitemapError(f"sitemap larger than {max_bytes} bytes")
        return body
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = bytearray()
    pending = body
    try:
        while pending and not inflater.eof:
            out += inflater.decompress(pending, _CHUNK)
            pending = inflater.unconsumed_tail
            if len(out) > max_bytes:
                raise SitemapError(f"sitemap larger than {max_bytes} bytes decompressed")
    except zlib.error as exc:
        raise SitemapError(f"corrupt gzip data: {exc}") from exc
    if not inflater.eof:
        raise SitemapError("corrupt gzip data: the stream ends early")
    if len(out) > max_bytes:
        raise SitemapError(f"sitemap larger than {max_bytes} bytes decompressed")
    return bytes(out)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def parse_sitemap(data: bytes, max_urls: int) -> tuple[str, list[str], bool]:
    """Parse one (inflated) sitemap.

    Args:
        data: the document, already bounded by ``unpack``.
        max_urls: ``<loc>`` entries (or text lines) read at most.
    Returns:
        ``(kind, locs, cut)``: kind ``"urlset"``, ``"sitemapindex"`` or ``"text"``;
        the ``<loc>`` texts in document order (stripped, empty ones skipped);
        ``cut`` True when entries past ``max_urls`` were left unread.
    Raises:
        SitemapError: malformed XML, a DTD or entity (refused by defusedxml),
            or a root other than ``urlset``/``sitemapindex``.
    """
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        lines = (line.strip() for line in io.BytesIO(data))
        locs = []
        for line in lines:
            if line:
                if len(locs) >= max_urls:
                    return "text", locs, True
                locs.append(line.decode("utf-8", errors="replace"))
        return "text", locs, False
    locs: list[str] = []
    kind = ""
    try:
        for event, elem in iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=True):
            name = _local(elem.tag)
            if event == "start":
                if not kind:
                    kind = name
                    if kind not in ("urlset", "sitemapindex"):
                        raise SitemapError(f"not a sitemap: root element <{kind}>")
                continue
            if name == "loc" and (elem.text or "").strip():
                if len(locs) >= max_urls:
                    return kind, locs, True
                locs.append(elem.text.strip())
            elif name in ("url", "sitemap"):
                elem.clear()  # keep memory flat: entries already read are dropped
    except (ParseError, DefusedXmlException) as exc:
        raise SitemapError(f"malformed XML: {exc}") from exc
    return kind, locs, False


class SitemapWalker:
    """Reads sitemaps breadth-first from ``roots``, following indexes.

    Args:
        fetcher: the service's own fetches (``Fetcher``).
        limits: the bounds (module docstring).
        refuse: ``fn(url) -> reason | None`` for each sitemap document URL
            before it is fetched (scope and SSRF: ``Discovery``); a refused one
            is a ``Problem``.
    Attributes:
        problems: what could not be read (at most ``limits.problems``).
        fetched: sitemap documents fetched.
    """

    def __init__(self, fetcher: Fetcher, limits: Limits, refuse: Callable[[str], str | None]):
        self.fetcher = fetcher
        self.limits = limits
        self.refuse = refuse
        self.problems: list[Problem] = []
        self.fetched = 0

    def problem(self, url: str, error: str) -> None:
        """Record a ``Problem`` (dropped past ``limits.problems``)."""
        if len(self.problems) < self.limits.problems:
            self.problems.append(Problem(url, error))

    def pages(self, roots: list[str]) -> Iterator[str]:
        """The page URLs (``<loc>`` of ``<urlset>`` or text sitemaps) as
        found, in order; stop consuming at any time."""
        queue = deque((url, 0) for url in roots)
        seen = set()
        while queue:
            url, level = queue.popleft()
            if url in seen:
                continue
            seen.add(url)
            if self.fetched >= self.limits.sitemaps:
                self.problem(url, f"more than {self.limits.sitemaps} sitemaps: not fetched")
                return
            reason = self.refuse(url)
            if reason:
                self.problem(url, f"sitemap not fetched: {reason}")
                continue
            self.fetched += 1
            kind, locs = self._read(url)
            if kind == "sitemapindex":
                if level >= self.limits.index_depth:
                    self.problem(url, f"sitemap index nested deeper than {self.limits.index_depth}: not followed")
                    continue
                room = max(0, self.limits.sitemaps - self.fetched - len(queue))
                if len(locs) > room:
                    self.problem(url, f"more than {self.limits.sitemaps} sitemaps: {len(locs) - room} not followed")
                queue.extend((loc, level + 1) for loc in locs[:room])
            else:
                yield from locs

    def _read(self, url: str) -> tuple[str, list[str]]:
        result = self.fetcher.get(url, self.limits.sitemap_bytes)
        if result.error or result.status != 200:
            self.problem(url, result.error or f"HTTP {result.status}")
            return "", []
        if result.truncated:
            self.problem(url, f"sitemap larger than {self.limits.sitemap_bytes} bytes")
            return "", []
        try:
            kind, locs, cut = parse_sitemap(unpack(result.body, self.limits.sitemap_bytes), self.limits.sitemap_urls)
        except SitemapError as exc:
            self.problem(url, str(exc))
            return "", []
        if cut:
            self.problem(url, f"more than {self.limits.sitemap_urls} URLs: the rest ignored")
        return kind, locs
