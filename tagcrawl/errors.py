"""The two error shapes of the spec, and the handlers that produce them.

- 422 ``HTTPValidationError``: ``{"detail": [{"loc": [...], "msg": str, "type": str}]}``,
  one entry per problem, for crawl request bodies.
- ``ErrorMessage``: ``{"error": true, "message": str}``, for everything else
  (401, 404, 413, 429, 500, 503 and the stream's 400).
"""
from __future__ import annotations

from flask import Flask, jsonify
from marshmallow import Schema, ValidationError, fields
from werkzeug.exceptions import HTTPException

from .schemas import MESSAGE_TYPES

#: marshmallow error key -> type code, for the type errors of each field class.
_TYPE_CODES = {
    fields.String: "string_type",
    fields.UUID: "uuid_parsing",
    fields.Url: "url_parsing",
    fields.Boolean: "bool_type",
    fields.Integer: "int_type",
    fields.Float: "float_type",
    fields.Number: "float_type",
    fields.Dict: "dict_type",
    fields.Nested: "dict_type",
    fields.List: "list_type",
}


class ApiError(Exception):
    """An error answered as ``ErrorMessage`` with ``status``."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def error_message(message: str, status: int, headers: dict | None = None):
    """Flask response ``{"error": true, "message": message}`` with ``status``."""
    response = jsonify({"error": True, "message": message})
    response.status_code = status
    response.headers.update(headers or {})
    return response


def _type_code(field: fields.Field | None, message: str) -> str:
    if message in MESSAGE_TYPES:
        return MESSAGE_TYPES[message]
    if field is None:
        return "extra_forbidden" if message == "Unknown field." else "value_error"
    key = next((k for k, v in field.error_messages.items() if v == message), None)
    if key == "required":
        return "missing"
    if key == "null":
        return "none_not_allowed"
    if key in {"invalid", "invalid_uuid", "type"}:
        for cls in type(field).__mro__:
            if cls in _TYPE_CODES:
                return _TYPE_CODES[cls]
        return "type_error"
    if key in {"too_large", "special"}:
        return "number_invalid"
    return "value_error"


def _child(field, part):
    """The field (or schema) reached by one step of an error path."""
    if isinstance(field, Schema):
        return field.fields.get(part)
    if isinstance(field, fields.List):
        return field.inner if isinstance(part, int) else None
    if isinstance(field, fields.Nested):
        return _child(field.schema, part)
    return None


def flatten_errors(messages, schema: Schema, loc=("body",)) -> list[dict]:
    """Turn marshmallow's nested ``messages`` into the spec's ``detail`` list.

    Args:
        messages: ``ValidationError.messages`` (dict keyed by field name or list
            index, leaves are lists of strings).
        schema: the schema instance that raised it, to find each field's class.
        loc: location prefix, ``("body",)`` for request bodies.
    Returns:
        ``[{"loc": [...], "msg": str, "type": str}, ...]`` in field order.
    """
    detail: list[dict] = []

    def walk(node, field, path):
        if isinstance(node, dict):
            for key, sub in node.items():
                if key == "_schema":  # schema-level error: belongs to the object itself
                    walk(sub, field, path)
                    continue
                part = int(key) if isinstance(key, int) or (isinstance(key, str) and key.isdigit()) else key
                walk(sub, _child(field, part) if field is not None else None, path + [part])
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, (dict, list)):
                    walk(item, field, path)
                else:
                    detail.append({"loc": path, "msg": str(item),
                                   "type": _type_code(field if isinstance(field, fields.Field) else None, str(item))})
        else:
            detail.append({"loc": path, "msg": str(node), "type": "value_error"})

    walk(messages, schema, list(loc))
    return detail


def validation_error_response(err: ValidationError, schema: Schema):
    """422 response in the spec's HTTPValidationError shape."""
    return jsonify({"detail": flatten_errors(err.messages, schema)}), 422


def register_error_handlers(app: Flask) -> None:
    """Every HTTP error answers in the ErrorMessage shape, never an HTML page."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return error_message(exc.message, exc.status, exc.headers)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        response = error_message(exc.description or exc.name, exc.code or 500)
        if exc.code == 405 and getattr(exc, "valid_methods", None):
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unhandled error")
        return error_message("Internal server error.", 500)
