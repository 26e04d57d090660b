"""Generated fixture pages for the vendor browser tests (data in
``tests/support/vendor_pages.py``):

- ``https://snippets.example/<vendor key>``: the vendor's own install snippet;
- ``https://snippets.example/transport/<name>``: one hit per major vendor over
  one transport (image, fetch, xhr, beacon, json, iframe, delayed);
- ``https://snippets.example/lookalikes``: pixel look-alikes (+ one real pixel);
- ``https://snippets.example/script-ids``: tag libraries loaded bare;
- ``https://myshop.example/<sgtm|adobe|matomo>``: first-party collection, with
  the first-party libraries served on the site's own hosts.

Other paths on these hosts fall through to ``vendors.route`` (a GIF for GET,
``{}`` for POST), which is what a first-party collector answers.  Also routes
``gtag/js?id=DC-...`` to gtag.js + its Floodlight part (``LIBRARIES`` in
``vendors.py`` routes by path only).
"""
from __future__ import annotations

import json
from html import escape

from ..vendor_pages import (
    BEACONS_BY_VENDOR, FIRST_PARTY, FIRST_PARTY_HOST, FIRST_PARTY_LIBS, FORM, LOOKALIKE_CONTROL,
    LOOKALIKES, MATRIX, SCRIPT_IDS, SNIPPETS_BY_VENDOR, SNIPPETS_HOST, TRANSPORTS, request_for,
)
from .vendors import LIBS

HTML = {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}
JS = {"Content-Type": "application/javascript", "Cache-Control": "no-store"}

#: (host, path, query parameter, value prefix) -> vendor_libs files served concatenated.
QUERY_LIBRARIES = {
    ("www.googletagmanager.com", "/gtag/js", "id", "DC-"): ("gtag.js", "gtag_floodlight.js"),
}

_HELPERS = """
function frame(u) {
  var f = document.createElement("iframe"); f.width = f.height = "1"; f.src = u; document.body.appendChild(f);
}
function xhr(m, u, b, t) {
  var x = new XMLHttpRequest(); x.open(m, u); if (t) x.setRequestHeader("Content-Type", t); x.send(b);
}
function post(u, b, t) {
  var json = t === "application/json";
  fetch(u, { method: "POST", mode: json ? "cors" : "no-cors", keepalive: true, body: b,
             headers: t ? { "Content-Type": t } : {} }).catch(function () {});
}
"""


def _page(title: str, head: str = "", body: str = "") -> tuple[int, dict, str]:
    return 200, HTML, (f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{escape(title)}</title>\n'
                       f"{head}</head>\n<body><h1>{escape(title)}</h1>\n{body}</body></html>\n")


def _js(*names: str) -> tuple[int, dict, bytes]:
    return 200, JS, b"\n".join((LIBS / n).read_bytes() for n in names)


def _send(transport: str, method: str, url: str, body: str | None, ctype: str | None) -> str:
    """One JS statement sending a request over ``transport``."""
    u, b, t = json.dumps(url), json.dumps(body), json.dumps(ctype)
    if transport == "image":
        return f"new Image().src = {u};"
    if transport == "iframe":
        return f"frame({u});"
    if transport == "xhr":
        return f"xhr({json.dumps(method)}, {u}, {b}, {t});"
    if transport == "beacon":
        if body is None:
            return f"navigator.sendBeacon({u});"
        return f"navigator.sendBeacon({u}, {f'new URLSearchParams({b})' if ctype == FORM else b});"
    if transport == "delayed":
        inner = _send("image", method, url, body, ctype) if method == "GET" else f"post({u}, {b}, {t});"
        return f"setTimeout(function () {{ {inner} }}, 1200);"
    if method == "GET":  # fetch
        return f"fetch({u}, {{ mode: \"no-cors\", credentials: \"include\" }}).catch(function () {{}});"
    return f"post({u}, {b}, {t});"  # fetch POST / json


def transport_page(transport: str):
    lines = [f"// {vendor}\n" + _send(transport, *request_for(BEACONS_BY_VENDOR[vendor], transport))
             for vendor, t in MATRIX if t == transport]
    return _page(f"Transport: {transport}", body=f"<script>{_HELPERS}\n" + "\n".join(lines) + "\n</script>\n")


def lookalikes_page():
    lines = []
    for case in LOOKALIKES:
        if case.send == "image":
            lines.append(_send("image", "GET", case.url, None, None))
        elif case.send == "script":
            lines.append(f"var s = document.createElement('script'); s.async = true; s.src = {json.dumps(case.url)}; "
                         "document.head.appendChild(s);")
        else:
            lines.append(f"post({json.dumps(case.url)}, {json.dumps(case.body)}, {json.dumps(case.content_type)});")
    lines.append(_send("image", "GET", LOOKALIKE_CONTROL.get, None, None))
    gtag = ("window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}\n"
            "gtag('js', new Date()); gtag('config', 'X-ABC123XYZ9');\n")
    return _page("Look-alikes", body=f"<script>{_HELPERS}\n{gtag}" + "\n".join(lines) + "\n</script>\n")


def script_ids_page():
    tags = "".join(f'<script async src="{escape(url)}"></script>\n' for _vendor, _id, url in SCRIPT_IDS)
    return _page("Tag libraries only", head=tags)


def _snippets_host(path: str):
    name = path.strip("/")
    if name in SNIPPETS_BY_VENDOR:
        return _page(f"Snippet: {name}", head=SNIPPETS_BY_VENDOR[name].render(), body="<p>A page with one tag.</p>\n")
    if name.startswith("transport/") and name[len("transport/"):] in TRANSPORTS:
        return transport_page(name[len("transport/"):])
    if name == "lookalikes":
        return lookalikes_page()
    if name == "script-ids":
        return script_ids_page()
    return None


def route(host, path, query, method, body, headers, web):
    if host == SNIPPETS_HOST:
        return _snippets_host(path)
    if host == FIRST_PARTY_HOST or host.endswith("." + FIRST_PARTY_HOST):
        lib = FIRST_PARTY_LIBS.get((host, path))
        if lib:
            return _js(lib)
        page = next((f for f in FIRST_PARTY if host == FIRST_PARTY_HOST and path == f"/{f.name}"), None)
        if page:
            return _page(f"First party: {page.name}", head=page.html, body="<p>Shop home.</p>\n")
        return None
    for (lib_host, lib_path, param, prefix), names in QUERY_LIBRARIES.items():
        if host == lib_host and path == lib_path and query.get(param, "").upper().startswith(prefix):
            return _js(*names)
    return None
