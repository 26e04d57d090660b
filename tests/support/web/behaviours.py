"""Fixture behaviours under ``/__fixture/`` on any host: status codes,
redirects (one hop with ``redirect-as``: chains across hosts), error pages with a tag, never-ending, endless and huge responses, JSON for XHR-gated tags."""
from __future__ import annotations

import json

GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,"
       b"\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def _never_ending(handler):
    """Send headers and part of a page, then hold the connection open."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b"<html><head><title>slow</title></head><body><p>loading"
    handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    handler.wfile.flush()
    handler.server.web.stop_event.wait(60)


def _endless(handler):
    """A body that never ends, written as fast as the connection takes it, until
    the connection closes, the fixture stops, or a write waits 10 s (the socket
    timeout of ``server.FixtureWeb``).  Bytes written add up in ``web.endless_bytes``."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Cache-Control", "no-store")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
    web = handler.server.web
    handler.close_connection = True
    try:
        while not web.stop_event.is_set():
            handler.wfile.write(chunk)
            with web.lock:
                web.endless_bytes += 65536
    except OSError:
        pass


def _big(handler, size: int):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", str(size + 40))
    handler.end_headers()
    handler.wfile.write(b"<html><head><title>big</title></head><body>")
    block = (b"<p>" + b"x" * 1017 + b"</p>\n")
    for _ in range(size // len(block)):
        handler.wfile.write(block)
    handler.wfile.write(b" " * (size + 40 - 44 - (size // len(block)) * len(block)) + b"</body>")


def route(host, path, query, method, body, headers, web):
    if not path.startswith("/__fixture/"):
        return None
    name = path[len("/__fixture/"):]
    if name.startswith("status/"):
        code = int(name.split("/")[1])
        return code, {"Content-Type": "text/html"}, f"<html><head><title>Status {code}</title></head><body>status {code}</body></html>"
    if name == "redirect":
        return 302, {"Location": query.get("to", "/")}, b""
    if name == "redirect-as":  # ?code=301|302|303|307|308&to=URL: one hop of a redirect chain
        code = int(query.get("code", "302"))
        return (code if code in (301, 302, 303, 307, 308) else 302), {"Location": query.get("to", "/")}, b""
    if name == "error-page":  # ?status=404|500&id=<Meta pixel id>: an error page that still carries a tag
        code = int(query.get("status", "404"))
        pixel_id = "".join(c for c in query.get("id", "") if c.isdigit())
        return code, {"Content-Type": "text/html", "Cache-Control": "no-store"}, meta_page(pixel_id)
    if name == "redirect-loop":
        return 302, {"Location": "/__fixture/redirect-loop?n=" + str(int(query.get("n", 0)) + 1)}, b""
    if name == "hang":  # accept the request, never answer
        return 200, {}, lambda h: h.server.web.stop_event.wait(60)
    if name == "slow":
        return 200, {}, _never_ending
    if name == "endless":  # a body that never ends (egress proxy backpressure)
        return 200, {}, _endless
    if name == "big":
        size = int(query.get("mb", "20")) * 1024 * 1024
        return 200, {}, lambda h: _big(h, size)
    if name == "json":
        return 200, {"Content-Type": "application/json", "Access-Control-Allow-Origin": "*"}, json.dumps({"ok": True, "load": query.get("load")})
    if name == "meta-page":  # a page with the Meta snippet for ?id=
        pixel_id = "".join(c for c in query.get("id", "") if c.isdigit())
        return 200, {"Content-Type": "text/html", "Cache-Control": "no-store"}, meta_page(pixel_id)
    if name == "pixel.gif":
        return 200, {"Content-Type": "image/gif"}, GIF
    if name == "set-cookie":
        cookies = [f"{k}={v}; Path=/; Max-Age=3600" for k, v in query.items()]
        return 200, {"Content-Type": "text/plain", "Set-Cookie": cookies}, b"ok"
    return 404, {"Content-Type": "text/plain"}, b"unknown fixture behaviour"


def meta_page(pixel_id: str) -> str:
    """A page installing Meta's own Pixel snippet (the one in tests/support/vendor_pages.py)."""
    from ..vendor_pages import SNIPPETS

    snippet = next(s for s in SNIPPETS if s.vendor == "facebook").html.replace("{ID}", pixel_id)
    return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>Meta page {pixel_id}</title>{snippet}"
            f"</head><body><h1>Meta page {pixel_id}</h1></body></html>")
