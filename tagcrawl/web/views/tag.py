"""``GET /stream/tag.js``: the browser tag (built by ``tagcrawl.stream.tag.build``).

Caching: ``ETag`` is the content hash (``<hash>-gz`` for the gzip copy, served
to clients that accept it).  ``/stream/tag.js`` is cached 5 minutes;
``/stream/tag.js?v=<hash>`` (see ``build.tag_path``) is immutable for a year.
``Access-Control-Allow-Origin: *``.  What the tag sends is documented in ``docs/tag.md``.
"""
from __future__ import annotations

from flask import Response, request

from tagcrawl.stream.tag.build import IMMUTABLE_MAX_AGE_S, SHORT_MAX_AGE_S, rendered
from tagcrawl.web.edge import Blueprint, operation, query

bp = Blueprint("stream_tag", __name__)


@bp.get("/tag.js")  # (and HEAD, which Flask adds to every GET route)
@bp.doc(**operation("The browser tag script", "get_tag_js", tag="stream",
                    parameters=[query("v", "The script's hash: makes the answer cacheable for a year.")]),
        responses={200: {"description": "The script.",
                         "content": {"application/javascript": {"schema": {"type": "string"}}}},
                   304: {"description": "Not modified (ETag matched)."}})
def tag_js():
    """The browser tag.  ``?v=`` equal to the current hash makes the answer immutable."""
    tag = rendered()
    immutable = request.args.get("v") == tag.digest
    cache = (f"public, max-age={IMMUTABLE_MAX_AGE_S}, immutable" if immutable
             else f"public, max-age={SHORT_MAX_AGE_S}")
    use_gzip = "gzip" in (request.headers.get("Accept-Encoding") or "").lower()
    response = Response(tag.gzipped if use_gzip else tag.body, mimetype="application/javascript")
    if use_gzip:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{tag.digest}-gz" if use_gzip else tag.digest)
    response.headers.update({"Cache-Control": cache, "Access-Control-Allow-Origin": "*",
                             "X-Content-Type-Options": "nosniff"})
    return response.make_conditional(request)
