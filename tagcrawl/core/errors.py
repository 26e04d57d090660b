"""The two error shapes of the spec, and the handlers that produce them.

- 422 ``HTTPValidationError``: ``{"detail": [{"loc": [...], "msg": str, "type": str}]}``,
  one entry per problem, for crawl request bodies.
- ``ErrorMessage``: ``{"error": true, "message": str}``, for everything else
  (401, 404, 413, 429, 500, 503 and the stream's 400).
"""
from __future__ import annotations

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


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


class RequestValidationError(Exception):
    """A request body that its schema refused: answered 422 ``HTTPValidationError``.

    Args:
        messages: ``ValidationError.messages`` of the schema (or a list of
            messages about the body as a whole).
    """

    def __init__(self, messages):
        super().__init__(messages)
        self.messages = messages


def flatten_errors(messages, loc=("body",)) -> list[dict]:
    """Turn marshmallow's nested ``messages`` into the spec's ``detail`` list.

    Args:
        messages: ``ValidationError.messages`` (dict keyed by field name or list
            index, leaves are lists of messages).  A message's ``type`` is its
            ``.type`` (``schemas.Coded``: attached where it was raised), else
            ``value_error``.
        loc: location prefix, ``("body",)`` for request bodies.
    Returns:
        ``[{"loc": [...], "msg": str, "type": str}, ...]`` in field order.
    """
    detail: list[dict] = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, sub in node.items():
                if key == "_schema":  # schema-level error: belongs to the object itself
                    walk(sub, path)
                    continue
                part = int(key) if isinstance(key, int) or (isinstance(key, str) and key.isdigit()) else key
                walk(sub, path + [part])
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, (dict, list)):
                    walk(item, path)
                else:
                    detail.append({"loc": path, "msg": str(item), "type": getattr(item, "type", "value_error")})
        else:
            detail.append({"loc": path, "msg": str(node), "type": getattr(node, "type", "value_error")})

    walk(messages, list(loc))
    return detail


def validation_error_response(messages):
    """422 response in the spec's HTTPValidationError shape."""
    return jsonify({"detail": flatten_errors(messages)}), 422


def register_error_handlers(app: Flask) -> None:
    """Every HTTP error answers in the ErrorMessage shape, never an HTML page."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return error_message(exc.message, exc.status, exc.headers)

    @app.errorhandler(RequestValidationError)
    def _invalid_body(exc: RequestValidationError):
        return validation_error_response(exc.messages)

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
