"""What an audit may crawl: the start URLs' registrable domains, the
include/exclude globs, and the SSRF guard (docs/audits.md "Scope").

Globs are the validation rules' globs (``crawl/globs.py``: ``*``, ``?`` and
``|`` alternatives, matched against the whole normalized URL by RE2 in time
linear in the URL; the API schema caps their number and length).  An empty
``include`` admits every URL in scope; ``exclude`` wins over ``include``.
"""
from __future__ import annotations

from collections.abc import Iterable

from urllib.parse import urlsplit

from tagcrawl.audit.discovery.normalize import site_of
from tagcrawl.core.netguard import url_refusal
from tagcrawl.crawl.globs import pattern_matches

#: Origins whose SSRF verdict a ``Scope`` keeps.
VERDICTS_MAX = 1024


class Scope:
    """Args:
        start_urls: the audit's start URLs (normalized); their registrable
            domains are the audit's sites.
        include, exclude: globs (each at most the schema's pattern length).
        allow_private: ``Settings.allow_private_targets`` (skips the address
            checks of the SSRF guard, as for crawls).
    """

    def __init__(self, start_urls: Iterable[str], include: Iterable[str] = (), exclude: Iterable[str] = (),
                 allow_private: bool = False):
        self.sites = frozenset(site_of(u) for u in start_urls if u)
        self.include = tuple(include or ())
        self.exclude = tuple(exclude or ())
        self.allow_private = allow_private
        self._verdicts: dict[str, str | None] = {}

    def ssrf(self, url: str) -> str | None:
        """Why the SSRF guard refuses ``url`` (``netguard.url_refusal``), or None.

        The guard judges the scheme and host only, so its verdict is kept per
        ``scheme://host`` for this audit (at most :data:`VERDICTS_MAX` origins;
        past that each URL is judged again): one DNS lookup per host, even for
        names that do not resolve (which ``netguard`` does not cache)."""
        try:
            parts = urlsplit(url)
            key = f"{parts.scheme}://{parts.hostname or ''}"
        except ValueError:
            return url_refusal(url, allow_private=self.allow_private)
        if key in self._verdicts:
            return self._verdicts[key]
        verdict = url_refusal(url, allow_private=self.allow_private)
        if len(self._verdicts) < VERDICTS_MAX:
            self._verdicts[key] = verdict
        return verdict

    def reason(self, url: str) -> str | None:
        """The ``Excluded`` reason for a normalized ``url``, or None when in scope.

        Checked in this order: ``ssrf`` (first, so an internal address is
        named as such wherever it points), ``offsite``, ``exclude``, ``include``.
        Linear in the URL per glob; resolving a host name (the SSRF guard) is
        cached 60 s by ``netguard``.
        """
        if self.ssrf(url):
            return "ssrf"
        if site_of(url) not in self.sites:
            return "offsite"
        if any(pattern_matches(glob, url) for glob in self.exclude):
            return "exclude"
        if self.include and not any(pattern_matches(glob, url) for glob in self.include):
            return "include"
        return None
