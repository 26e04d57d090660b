"""The API edge (web layer): how an endpoint is declared, and how a JSON body is read.

An endpoint is declared once, on its view, with flask-smorest (see
docs/architecture.md, "Declaring an endpoint"):

    bp = Blueprint("crawl", __name__)            # registered with a url_prefix

    @bp.post("")
    @bp.doc(**operation("Crawl a page", "crawl", tag="crawl", secured=True))
    @bp.arguments(CrawlRequestSchema)            # the body: loaded, or 422
    @bp.response(200, CrawlResponseSchema)       # documents the answer
    @bp.alt_response(401, response="Unauthorized")
    def crawl(data): ...

``openapi.py`` builds the OpenAPI document from these declarations.

Bodies: ``read_capped`` reads at most ``limit`` bytes of a request body (413
past it) for both the crawl API (through the arguments parser below, limit
``CRAWL_MAX_BYTES``) and the stream endpoint (``web/stream_body.py``, limit
``STREAM_MAX_BYTES``, on its own hot path).  The crawl API reads any content
type as JSON, strictly (UTF-8, no NaN/Infinity nor out-of-range numbers,
no U+0000; a lone surrogate escape is read as U+FFFD); a body or schema error is a 422
``HTTPValidationError`` whose ``type`` codes travel with the messages
(``core/schemas/coded.py``).
"""
from __future__ import annotations

import flask_smorest
from marshmallow import ValidationError
from webargs.flaskparser import FlaskParser

from tagcrawl.core.errors import ApiError, RequestValidationError
from tagcrawl.core.schemas import DEPTH_MSG, JSON_MSG, OBJECT_MSG, replace_lone_surrogates, strict_json_loads, unicode_problem
from tagcrawl.core.schemas.queries import first_error
from tagcrawl.core.settings import current_settings

_CHUNK = 16 * 1024
SECURITY = [{"ApiKeyAuth": []}]


def read_capped(environ: dict, limit: int) -> bytes:
    """Read the raw request body, refusing more than ``limit`` bytes (413).

    A ``Content-Length`` over the limit is refused before reading.  Without a
    Content-Length (chunked transfer), the body is read in chunks and refused
    as soon as the total passes ``limit``; that needs a server that
    terminates the input stream (``wsgi.input_terminated``, as gunicorn and
    werkzeug's server do), otherwise the body is taken as empty (werkzeug's
    safe fallback).

    Args:
        environ: the WSGI environ.
        limit: the largest accepted body, in bytes.
    Returns:
        the body bytes (at most ``limit`` of them).
    Raises:
        ApiError: 413 over the limit; 400 for a Content-Length that is not a number.
    """
    too_large = ApiError(413, f"Request body is larger than {limit} bytes.")
    stream = environ["wsgi.input"]
    raw_length = environ.get("CONTENT_LENGTH") or ""
    if raw_length.strip():
        try:
            length = int(raw_length)
        except ValueError:
            raise ApiError(400, "Content-Length is not a number.") from None
        if length > limit:
            raise too_large
        return stream.read(length) if length > 0 else b""
    if not environ.get("wsgi.input_terminated"):
        return b""
    parts, total = [], 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(parts)
        total += len(chunk)
        if total > limit:
            raise too_large
        parts.append(chunk)


def json_object(raw: bytes) -> dict:
    """``raw`` parsed strictly as a JSON object (``schemas.strict_json_loads``).

    A lone surrogate escape in a string or key is read as U+FFFD
    (``schemas.replace_lone_surrogates``); U+0000 is refused.

    Raises:
        ValidationError: a message about the body as a whole (coded
            ``json_invalid``, ``too_deep``, ``string_unicode`` or ``dict_type``).
    """
    try:
        text = raw.decode("utf-8-sig")
        data = strict_json_loads(text)
    except RecursionError:
        raise ValidationError([DEPTH_MSG]) from None
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ValidationError([JSON_MSG]) from None
    problem = unicode_problem(data, text)
    if problem:
        raise ValidationError([problem])
    if not isinstance(data, dict):
        raise ValidationError([OBJECT_MSG])
    return replace_lone_surrogates(data, text)


class BodyParser(FlaskParser):
    """webargs' Flask parser with tagcrawl's body rules and 422 shape.

    ``json`` location: the capped strict reader above, whatever the content
    type, limit ``CRAWL_MAX_BYTES`` (the stream endpoint reads its own body
    with ``read_capped`` and ``STREAM_MAX_BYTES``).  Errors:
    ``RequestValidationError`` (422 ``{detail: [...]}``, ``errors.py``).
    """

    def load_json(self, req, schema) -> dict:
        return json_object(read_capped(req.environ, current_settings().crawl_max_bytes))

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        messages = error.messages
        if isinstance(messages, dict) and len(messages) == 1 and "json" in messages:
            messages = messages["json"]  # webargs namespaces by location; the detail list says "body"
        raise RequestValidationError(messages)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, with tagcrawl's body parser.

    Arguments: those of ``flask.Blueprint`` (no ``url_prefix`` here: it is
    given when the app registers the blueprint).
    """

    ARGUMENTS_PARSER = BodyParser()


def load_query(schema_cls, args) -> dict:
    """Query arguments ``args`` loaded by ``schema_cls`` (``core/schemas/queries.py``).

    Raises:
        ApiError: 400 naming the first bad argument (``ErrorMessage`` shape).
    """
    try:
        return schema_cls().load(args)
    except ValidationError as err:
        raise ApiError(400, first_error(err) + ".") from None


def operation(summary: str, operation_id: str, *, tag: str, secured: bool = False, description: str = "",
              parameters: list | None = None) -> dict:
    """The documentation of one operation, for ``@bp.doc(**operation(...))``.

    Args:
        summary: one line.
        operation_id: stable id, a verb and the resource (``get_crawl``, ``list_events``), with no group
            prefix: generated clients name their functions after it (``api/<tag>/<operation_id>.py``).
        tag: the group, one of ``openapi.TAGS`` (``crawl``, ``stream`` or ``meta``).
        secured: the operation needs ``x-api-key``.
        description: more text (Markdown).
        parameters: OpenAPI parameter objects not derived from a schema
            (query parameters that the view reads itself).
    """
    # an explicit description: else flask-smorest would take the view's docstring (written for developers)
    doc = {"summary": summary, "operationId": operation_id, "tags": [tag], "description": description or summary}
    if secured:
        doc["security"] = SECURITY
    if parameters:
        doc["parameters"] = parameters
    return doc


def query(name: str, description: str, schema: dict | None = None) -> dict:
    """An optional query parameter (string unless ``schema`` says otherwise)."""
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string"}}


#: The documented error answers (``openapi.py`` components) by HTTP status.
ERROR_RESPONSES = {400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 409: "Conflict",
                   413: "PayloadTooLarge", 422: "ValidationFailed", 429: "RateLimited", 503: "CrawlUnavailable",
                   504: "CrawlDeadline"}


def errors(bp, *codes: int):
    """Document an operation's error answers: ``@errors(bp, 401, 404)`` is ``@bp.alt_response(401,
    response="Unauthorized")`` then ``@bp.alt_response(404, response="NotFound")``, each code's component
    from :data:`ERROR_RESPONSES` (a ``KeyError`` at import for a code without one)."""
    names = [ERROR_RESPONSES[code] for code in codes]

    def decorate(view):
        for code, name in reversed(list(zip(codes, names))):
            view = bp.alt_response(code, response=name)(view)
        return view
    return decorate
