"""Error messages that carry their stable ``type`` code from where they are raised.

The 422 body of the crawl API is ``{"detail": [{"loc", "msg", "type"}]}``;
``type`` is a stable code (``missing``, ``uuid_version``, ``too_long``...).
A message is a :class:`Coded` string: the text, plus ``.type``.  tagcrawl's
own validators raise ``ValidationError(Coded(...))``; marshmallow's built-in
field errors get theirs when a field is bound to a :class:`CodedSchema`
(``on_bind_field``: the field's ``error_messages`` become Coded, by error key
and field class, see ``BUILTIN_CODES``).  ``errors.flatten_errors`` reads
``.type``; nothing is recovered from the text.
"""
from __future__ import annotations

from marshmallow import Schema, fields


class Coded(str):
    """An error message (``str``) with its stable type code in ``.type``.

    ``format`` keeps the code, so marshmallow's ``"{max}"``-style messages stay coded.
    """

    __slots__ = ("type",)

    def __new__(cls, text: str, type_code: str):
        message = super().__new__(cls, text)
        message.type = type_code
        return message

    def format(self, *args, **kwargs) -> "Coded":  # noqa: A003  (str.format)
        return Coded(str.format(self, *args, **kwargs), self.type)


#: Type code of a field's "wrong type" errors (keys ``invalid``, ``invalid_uuid``, ``type``), by field class.
TYPE_ERROR_CODES = {
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
#: Type code of marshmallow's built-in field errors, by error key (the rest: ``value_error``).
BUILTIN_CODES = {"required": "missing", "null": "none_not_allowed", "too_large": "number_invalid",
                 "special": "number_invalid"}
_TYPE_KEYS = frozenset({"invalid", "invalid_uuid", "type"})


def type_error_code(field: fields.Field) -> str:
    """The code of ``field``'s wrong-type errors (``type_error`` for a class not in ``TYPE_ERROR_CODES``)."""
    return next((TYPE_ERROR_CODES[cls] for cls in type(field).__mro__ if cls in TYPE_ERROR_CODES), "type_error")


def code_field(field: fields.Field) -> None:
    """Make every error message of ``field`` (and of its list items) a :class:`Coded` one, in place."""
    for key, message in field.error_messages.items():
        if isinstance(message, str) and not isinstance(message, Coded):
            code = type_error_code(field) if key in _TYPE_KEYS else BUILTIN_CODES.get(key, "value_error")
            field.error_messages[key] = Coded(message, code)
    if isinstance(field, fields.List):
        code_field(field.inner)


class CodedSchema(Schema):
    """Base of the request schemas: every error they raise carries its type code."""

    error_messages = {"unknown": Coded("Unknown field.", "extra_forbidden"),
                      "type": Coded("Invalid input type.", "dict_type")}

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        code_field(field_obj)
