"""Checking the body of ``POST /stream/api/v1`` (read by ``edge.read_capped``).

The order of the checks is the endpoint's contract: size (413, while
reading), content type (415), JSON object (400), schema (400).  Each failure raises ``ApiError``
with a message that names the problem (and the field, for schema errors).
"""
from __future__ import annotations

import json

from marshmallow import ValidationError

from tagcrawl.core.errors import ApiError
from tagcrawl.core.schemas import StreamEventRequestSchema, replace_lone_surrogates, strict_json_loads, unicode_problem

#: Content types a browser tag can send: fetch/XHR (application/json) and
#: ``navigator.sendBeacon(url, string)`` (text/plain;charset=UTF-8).  A request
#: with no content type at all is accepted too.
ACCEPTED_TYPES = frozenset({"application/json", "text/plain"})
ACCEPTED_CHARSETS = frozenset({"utf-8", "utf8", "us-ascii"})

_schema = StreamEventRequestSchema()


def check_content_type(value: str | None) -> None:
    """Refuse (415) anything but application/json, text/plain or no content type.

    Args:
        value: the ``Content-Type`` header, e.g. ``"text/plain;charset=UTF-8"``.
    """
    if not value or not value.strip():
        return
    mime, _, params = value.partition(";")
    mime = mime.strip().lower()
    if mime not in ACCEPTED_TYPES:
        raise ApiError(415, f"Content-Type {mime!r} is not accepted: send application/json or text/plain.")
    for param in params.split(";"):
        name, _, charset = param.partition("=")
        if name.strip().lower() == "charset" and charset.strip().strip('"').lower() not in ACCEPTED_CHARSETS:
            raise ApiError(415, f"charset {charset.strip()!r} is not accepted: send UTF-8.")


def parse_object(data: bytes) -> dict:
    """Parse ``data`` as a JSON object (400 otherwise).

    A string or key with U+0000 is refused (400: PostgreSQL cannot store
    it); a lone surrogate escape (half of a UTF-16 pair, e.g. a JavaScript
    string cut inside an emoji) is kept as U+FFFD, so the event is stored.

    Returns:
        the decoded dict.
    """
    if not data.strip():
        raise ApiError(400, "Body is empty: send the event as a JSON object.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"Body is not valid UTF-8 (byte {exc.start}).") from None
    try:
        value = strict_json_loads(text)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"Body is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).") from None
    except ValueError as exc:
        raise ApiError(400, f"Body is not valid JSON: {exc}.") from None
    except RecursionError:
        raise ApiError(400, "Body is nested too deeply.") from None
    if not isinstance(value, dict):
        raise ApiError(400, f"Body must be a JSON object, not {_json_kind(value)}.")
    problem = unicode_problem(value, text)  # else the commit fails: a 503 that no retry can cure
    if problem:
        raise ApiError(400, f"Body is not storable: {problem}")
    return replace_lone_surrogates(value, text)  # stored as U+FFFD, the event is kept


def _json_kind(value) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


def format_errors(messages: dict) -> str:
    """marshmallow error messages as one line that names each field.

    ``{"t": ["Not a valid UUID."], "dt": {0: ["..."]}}`` ->
    ``"t: Not a valid UUID.; dt.0: ..."``, in the schema's field order
    (undeclared keys last); schema-level errors are named ``body``.
    """
    order = {name: i for i, name in enumerate(_schema.fields)}
    parts: list[str] = []

    def walk(node, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.items():
                name = "body" if key == "_schema" else str(key)
                walk(sub, f"{path}.{name}" if path else name)
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, (dict, list)):
                    walk(item, path)
                else:
                    parts.append(f"{path}: {item}")
        else:
            parts.append(f"{path}: {node}")

    for key in sorted(messages, key=lambda k: order.get(k, len(order))):
        walk({key: messages[key]}, "")
    return "; ".join(parts)


def validate_event(body: dict) -> dict:
    """Load ``body`` with ``StreamEventRequestSchema`` (400 naming the field).

    A valid event takes the schema's quick path (``quick_load``); anything
    else goes through marshmallow's full ``load``, which names every problem.

    Returns:
        the loaded dict (``t`` and ``sid`` as ``uuid.UUID``, ``rl`` as str,
        undeclared keys as sent).
    """
    loaded = _schema.quick_load(body)
    if loaded is not None:
        return loaded
    try:
        return _schema.load(body)
    except ValidationError as err:
        raise ApiError(400, format_errors(err.messages)) from None
