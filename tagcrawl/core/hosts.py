"""One host canonicalizer (core), shared by the SSRF guard and the stream's whitelist.

``canonical_host(raw)`` reads a URL's host the way a browser connects to it
(WHATWG URL standard, host parser): percent-decoded, mapped by UTS #46
(Unicode IDNA Compatibility Processing, non-transitional, with the ``idna``
package: case folding, full-width letters, digits and dots folded), encoded as
A-labels (``bücher.example`` -> ``xn--bcher-kva.example``), without trailing
dots, and numeric IPv4 spellings (``2130706433``, ``0x7f.1``, ``127.1``) as a
dotted quad.  ``netguard.py`` judges the canonical host; ``stream/origins.py``
compares it with the whitelist patterns, which are stored canonical too.
"""
from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote

import idna

_IPV4_PART = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")
_ENDS_IN_NUMBER = re.compile(r"0[xX][0-9a-fA-F]*|[0-9]+")


def whatwg_ipv4(host: str) -> str | None:
    """``host`` as a dotted quad when browsers read it as IPv4, else None.

    Browsers take a host whose last label is a number as IPv4, each label
    decimal, ``0x`` hex or ``0`` octal, the last one filling the remaining
    bytes: ``2130706433``, ``0x7f000001``, ``0177.1`` and ``127.1`` all mean
    127.0.0.1.  Python's ``ipaddress`` rejects those forms.

    Raises:
        ValueError: the host ends in a number but is no valid IPv4 (browsers
            refuse such a URL).
    """
    labels = host.split(".")
    if not _ENDS_IN_NUMBER.fullmatch(labels[-1]):
        return None
    if len(labels) > 4 or not all(_IPV4_PART.fullmatch(label) for label in labels):
        raise ValueError(f"invalid IPv4 host {host!r}")
    numbers = [int(label[2:] or "0", 16) if label[:2].lower() == "0x" else int(label, 8 if label[0] == "0" else 10)
               for label in labels]
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise ValueError(f"invalid IPv4 host {host!r}")
    value = numbers[-1] + sum(n << (8 * (3 - i)) for i, n in enumerate(numbers[:-1]))
    return str(ipaddress.IPv4Address(value))


def _a_labels(host: str) -> str:
    """UTS #46 mapping and A-label encoding of a non-ASCII host (idna raises ValueError subclasses)."""
    mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
    return ".".join(label if label.isascii() else idna.encode(label).decode("ascii")
                    for label in mapped.split("."))


def canonical_host(raw: str) -> str:
    """The canonical form of a URL host (see the module docstring).

    Args:
        raw: the host as written in a URL or header (``urlsplit().hostname``:
            an IPv6 literal comes without brackets and is returned lower-case).
    Returns:
        the canonical host; "" for an empty one.
    Raises:
        ValueError: a host browsers would refuse (bad IPv4 number, invalid IDNA label).
    """
    host = unquote(raw)
    if not host.isascii():
        host = _a_labels(host)
    host = host.lower().rstrip(".")
    if ":" in host or not host:  # IPv6 literal, or none
        return host
    return whatwg_ipv4(host) or host
