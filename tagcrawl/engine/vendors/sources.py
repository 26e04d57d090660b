"""Source specs: parsing them and reading their value from a request.

A catalog :class:`~tagcrawl.engine.vendors.model.Pattern` names where its account
id, event name and required values live with *source specs*, strings of the
form ``"<kind>:<arg>"`` (``p:id``, ``json:events.0.name``, ``path:<regex>``
...; the table of kinds is in ``model.py``).  This module parses a spec once
(:func:`compile_spec` -> :class:`SourceSpec`) and resolves it against one
hit candidate of a decoded request (:func:`resolve`, :func:`first_value`;
decoding is ``request_context.py``), telling "absent" (None) from "present
but not matching the spec's ``~regex``" (:data:`MISMATCH`).

Deciding what a match is (host/path, ``require``, id policy) is left to
``matcher.py``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tagcrawl.engine.vendors import decode
from tagcrawl.engine.vendors.request_context import Candidate, RequestContext, json_get


#: Flags of every regex compiled from catalog data (JavaScript-compatible
#: ASCII semantics, see ``model.py``).
FLAGS = re.ASCII


@dataclass(frozen=True)
class SourceSpec:
    """A parsed source spec.

    Attributes:
        kind: ``"p"``, ``"q"``, ``"json"``, ``"hdr"``, ``"path"``, ``"host"``,
            ``"url"``, ``"auth"`` or ``"const"`` (see ``model.py``).
        arg: the parameter / header name, dotted JSON path, regex source or
            constant text (without a ``~regex`` suffix).
        rx: the compiled regex of ``path``/``host``/``url`` specs or of a
            ``~regex`` suffix; None otherwise.
    """

    kind: str
    arg: str
    rx: re.Pattern | None


def compile_spec(spec: str) -> SourceSpec:
    """Parse a ``"<kind>:<arg>"`` source spec (format: ``model.py``).

    Args:
        spec: e.g. ``"p:id"``, ``"p:events~\\[\\[\\"([^\\"]+)"``,
            ``"path:^/signals/config/([0-9]+)"``, ``"const:pageview"``.
    Returns:
        the :class:`SourceSpec`.
    Raises:
        ValueError: unknown kind; re.error: invalid regex (catalog bugs,
        caught when the catalog is compiled at import time).
    """
    kind, _, arg = spec.partition(":")
    if kind in ("path", "host", "url"):
        return SourceSpec(kind, arg, re.compile(arg, FLAGS))
    if kind in ("p", "q", "json", "hdr") and "~" in arg:
        name, _, rx = arg.partition("~")
        return SourceSpec(kind, name, re.compile(rx, FLAGS))
    if kind not in ("p", "q", "json", "hdr", "auth", "const"):
        raise ValueError(f"unknown source spec kind: {spec!r}")
    return SourceSpec(kind, arg, None)


#: Returned by :func:`resolve` when a value is present but its ``~regex``
#: does not match (an id source then counts as malformed, not absent).
MISMATCH = object()


def resolve(s: SourceSpec, ctx: RequestContext, it: Candidate) -> Any:
    """Value of a source spec for one candidate.

    Args:
        s: the spec; ctx: the decoded request; it: the candidate.
    Returns:
        None when absent or empty; :data:`MISMATCH` when present but the
        spec's ``~regex`` is not found in it; otherwise the value: a str (a
        ``path``/``host``/``url`` regex gives its non-empty groups joined
        with ``/`` or the whole match, a ``~regex`` its group 1 or whole
        match) or, for ``json`` without ``~regex``, any JSON value.
    """
    k = s.kind
    if k in ("path", "host", "url"):
        text = ctx.path if k == "path" else ctx.host if k == "host" else ctx.url
        m = s.rx.search(text)
        if not m:
            return None
        groups = [g for g in m.groups() if g]
        return "/".join(groups) if m.re.groups else m.group(0)
    if k == "const":
        return s.arg
    if k == "auth":
        return decode.basic_auth_user(ctx.headers)
    if k == "p":
        val: Any = it.params.get(s.arg)
    elif k == "q":
        val = ctx.query.get(s.arg)
    elif k == "hdr":
        val = next((v for h, v in ctx.headers.items() if str(h).lower() == s.arg.lower()), None)
    else:  # json
        val = None
        if isinstance(it.item, (dict, list)):
            val = json_get(it.item, s.arg)
        if val is None and it.doc is not None and it.doc is not it.item:
            val = json_get(it.doc, s.arg)
    if val is None or val == "" or val == []:
        return None
    if s.rx is not None:
        if not isinstance(val, str):
            val = decode._str(val)
        m = s.rx.search(val)
        if not m:
            return MISMATCH
        val = m.group(1) if s.rx.groups else m.group(0)
    return val


def first_value(specs: tuple[SourceSpec, ...], ctx: RequestContext, it: Candidate,
                strict: bool = False) -> Any:
    """First non-empty :func:`resolve` value of ``specs``, tried in order.

    Returns:
        that value, or None when none yields one.  A ``~regex`` mismatch is
        skipped, except with ``strict`` (id sources): it stops the search
        and :data:`MISMATCH` is returned.
    """
    for s in specs:
        v = resolve(s, ctx, it)
        if v is MISMATCH:
            if strict:
                return v
            continue
        if v is not None and v != "":
            return v
    return None
