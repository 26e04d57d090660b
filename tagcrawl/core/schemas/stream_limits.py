"""Caps of the stream body (docs/stream.md, "Request fields") and the helpers that enforce them:
``Capped`` (string length) and ``json_bounds_problem`` (free-form JSON:
depth, array and object sizes, key and string lengths).  Used by
``core/schemas/stream.py``; every name is re-exported from ``tagcrawl.core.schemas``."""
from __future__ import annotations

from marshmallow import ValidationError

from tagcrawl.core.schemas.coded import Coded
from tagcrawl.core.schemas.common import *  # noqa: F401,F403  (limits, messages)

STREAM_NAME_MAX = 255       # vn, e, do, vid, cid, s
STREAM_CN_MAX = 4096        # cn: a TCF v2 TC string with vendor consents runs to a few hundred characters, often more
STREAM_SHORT_MAX = 64       # dm, mv, sv, rl, env
STREAM_METHOD_MAX = 16      # m
STREAM_ARRAY_MAX = 100      # items of dt / np, and of any array inside them or in extra keys
STREAM_OBJECT_KEYS_MAX = 100  # keys of any object inside dt / np / extra keys
STREAM_FREE_STRING_MAX = 4096  # any string inside dt / np / extra keys
STREAM_KEY_MAX = 128        # length of any object key
STREAM_EXTRA_KEYS_MAX = 50  # undeclared top-level keys
STREAM_DEPTH_MAX = 8        # nesting levels of one top-level value ({"a": [1]} is 2)
STREAM_TM_MAX = 253402300799999  # 9999-12-31T23:59:59.999Z in epoch ms
STREAM_ET_MAX = 2 ** 53

TOO_MANY_MSG = Coded("Too many items.", "too_long")
EXTRA_KEYS_MSG = Coded(f"Too many undeclared keys (at most {STREAM_EXTRA_KEYS_MAX}).", "too_long")
NUMBER_MSG = Coded("Not a valid number.", "float_type")
STRING_OR_INT_MSG = Coded("Must be a string or an integer.", "string_type")
RANGE_TM_MSG = Coded(f"Must be an epoch time in milliseconds between 0 and {STREAM_TM_MAX}.", "number_invalid")
RANGE_ET_MSG = Coded(f"Must be an integer between 0 and {STREAM_ET_MAX}.", "number_invalid")


class Capped:
    """Length validator: "Must not be empty." below ``minimum``, "Too long." above ``maximum``.

    Args:
        maximum, minimum: bounds on ``len(value)`` (characters), inclusive.
    """

    def __init__(self, maximum: int, minimum: int = 0):
        self.maximum, self.minimum = maximum, minimum

    def __call__(self, value) -> None:
        if len(value) < self.minimum:
            raise ValidationError(EMPTY_MSG)
        if len(value) > self.maximum:
            raise ValidationError(TOO_LONG_MSG)


def json_bounds_problem(value) -> str | None:
    """The first cap that the free-form JSON ``value`` breaks, or None.

    Walks ``value`` iteratively (no recursion) and checks nesting depth
    (``STREAM_DEPTH_MAX``), array length (``STREAM_ARRAY_MAX``), object size
    (``STREAM_OBJECT_KEYS_MAX``), key length (``STREAM_KEY_MAX``) and string
    length (``STREAM_FREE_STRING_MAX``).  Returns one of the schema messages.
    """
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            if len(node) > STREAM_FREE_STRING_MAX:
                return TOO_LONG_MSG
            continue
        if not isinstance(node, (dict, list)):
            continue
        if depth + 1 > STREAM_DEPTH_MAX:
            return DEPTH_MSG
        if isinstance(node, list):
            if len(node) > STREAM_ARRAY_MAX:
                return TOO_MANY_MSG
            stack.extend((item, depth + 1) for item in node)
        else:
            if len(node) > STREAM_OBJECT_KEYS_MAX:
                return TOO_MANY_MSG
            if any(len(k) > STREAM_KEY_MAX for k in node):
                return TOO_LONG_MSG
            stack.extend((item, depth + 1) for item in node.values())
    return None


def _bounded_json(value) -> None:
    problem = json_bounds_problem(value)
    if problem is not None:
        raise ValidationError(problem)
