"""Account-id formats: validation and normalisation of vendor account ids.

Every catalog entry carries an :class:`IdFormat`.  A raw value found in a
request (query parameter, path segment, form/JSON body field, script URL) is
passed through :meth:`IdFormat.normalise`, which returns the canonical id
(e.g. ``"AW-123456789"``, ``"G-ABC123XYZ9"``, ``"DC-1234567"``) or ``None``
when the value does not have the vendor's format.

An id outside its vendor's usual format is still reported, exactly as sent
(stripped of surrounding white space), and :func:`id_warnings` says what is
unusual about it (see "Warning vocabulary" below and ``docs/vendors.md``):
an audit exists to show a truncated pixel code or a test id left in
production, so the matcher never drops a recognised request for its id.

Warning vocabulary (stable sentence shapes; ``<noun>`` is the format's
``noun`` or "<vendor name> ids"):

* ``account id has <n> characters; <noun> have <m>`` (or ``<lo> to <hi>``)
* ``account id lacks the "<prefix>" prefix of <noun>``
* ``account id does not match the format of <noun> (example: <example>)``
* ``account id looks like a placeholder``
* ``account id looks like a test id``
* ``account id is longer than 200 characters; truncated``

Regexes here are written with ``[0-9]`` / ``[A-Z]`` classes (not ``\\d``) so
that they mean the same thing in Python and in JavaScript.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

try:  # Python >= 3.11
    from re import _parser as _sre_parse
except ImportError:  # pragma: no cover
    import sre_parse as _sre_parse

MAX_ID_LENGTH = 200


@dataclass(frozen=True)
class IdFormat:
    """Format of one vendor's account id.

    Attributes:
        body: regex (full match) for the id without its canonical prefix.
        prefix: canonical prefix written in front of the body ("AW-", "G-").
            An input that already starts with it (case-insensitively) has it
            stripped before the body is validated.
        prefix_required: when True an input without the prefix is rejected
            (a GA4 ``tid`` must say ``G-``); when False it is added
            (Google Ads conversion paths carry bare digits -> ``AW-<digits>``).
        case: "upper" / "lower" to fold the body's case before validation,
            or None to keep it (case-sensitive ids such as TikTok codes).
        remove: characters deleted from the input first (e.g. "/" for the
            Crazy Egg ``0012/3456`` script path -> ``00123456``).
        example: an example id, used by the documentation table.
        noun: plural noun of the ids in warnings ("TikTok pixel codes");
            "" = "<vendor name> ids".
    """

    body: str = r".+"
    prefix: str = ""
    prefix_required: bool = False
    case: str | None = None
    remove: str = ""
    example: str = ""
    noun: str = ""
    _rx: re.Pattern = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_rx", re.compile(self.body, re.ASCII))

    @property
    def lengths(self) -> tuple[int, int]:
        """(min, max) length in characters of a canonical id (prefix
        included), from the body regex; max may be very large (``.+``)."""
        lo, hi = _sre_parse.parse(self.body).getwidth()
        return lo + len(self.prefix), min(hi, 10**6) + len(self.prefix)

    def normalise(self, raw: object) -> str | None:
        """Return the canonical account id for ``raw``, or None if malformed.

        Args:
            raw: the value found in the request (any type; non-strings other
                than ints are rejected).
        Returns:
            ``prefix + body`` with the configured case folding, or None.
        """
        if isinstance(raw, bool) or raw is None:
            return None
        if isinstance(raw, int):
            raw = str(raw)
        if not isinstance(raw, str):
            return None
        value = raw.strip()
        for ch in self.remove:
            value = value.replace(ch, "")
        if not value or len(value) > MAX_ID_LENGTH:
            return None
        if self.prefix:
            if value[: len(self.prefix)].upper() == self.prefix.upper():
                value = value[len(self.prefix):]
            elif self.prefix_required:
                return None
        if self.case == "upper":
            value = value.upper()
        elif self.case == "lower":
            value = value.lower()
        if not self._rx.fullmatch(value):
            return None
        return self.prefix + value

    def is_valid(self, raw: object) -> bool:
        """True when ``raw`` normalises to an id of this format."""
        return self.normalise(raw) is not None


#: Values a developer leaves where the real id should go.
_PLACEHOLDER = re.compile(
    r"^(?:x+|0+|1234567890?|insert[ _-]?.*|.*(?:your|my)[ _-]?[a-z_ -]*(?:id|key|code|token).*"
    r"|.*(?:pixel|account|tracking|measurement|write)[ _-]?(?:id|key|code).*"
    r"|undefined|null|none|nan|false|true|tbd|todo|replace[ _-]?me|changeme|id|key|token|xxx.*|.*x{6,}.*)$"
    r"|^(?:[A-Z]+-)?x{4,}$|\{\{.*\}\}|\$\{.*\}|%%.*%%|<.*>|\[.*\]|^%[A-Za-z_]+%$",
    re.IGNORECASE)
_TEST = re.compile(r"(?:^|[^a-z])(?:test|dummy|sample|example|demo|staging|sandbox)(?:[^a-z]|$)|^test|test$",
                   re.IGNORECASE)


def id_warnings(fmt: IdFormat | None, value: str, noun: str) -> tuple[str, ...]:
    """Why an account id as sent is unusual for its vendor (module vocabulary).

    Args:
        fmt: the vendor's format (None: only placeholder / test checks).
        value: the id as reported (already stripped, at most
            :data:`MAX_ID_LENGTH` characters).
        noun: plural noun for the vendor's ids ("TikTok pixel codes").
    Returns:
        a tuple of warning sentences, empty when the id looks normal.
    """
    out: list[str] = []
    if _PLACEHOLDER.search(value):
        out.append("account id looks like a placeholder")
    elif _TEST.search(value):
        out.append("account id looks like a test id")
    if fmt is None or fmt.normalise(value) is not None:
        return tuple(out)
    bare = value
    for ch in fmt.remove:
        bare = bare.replace(ch, "")
    has_prefix = bool(fmt.prefix) and bare[: len(fmt.prefix)].upper() == fmt.prefix.upper()
    if fmt.prefix and fmt.prefix_required and not has_prefix:
        out.append(f'account id lacks the "{fmt.prefix}" prefix of {noun}')
        return tuple(out)
    lo, hi = fmt.lengths
    if fmt.prefix and not has_prefix:
        lo, hi = lo - len(fmt.prefix), hi - len(fmt.prefix)
    if not lo <= len(bare) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        chars = "character" if len(bare) == 1 else "characters"
        out.append(f"account id has {len(bare)} {chars}; {noun} have {want}")
    else:
        example = f" (example: {fmt.example})" if fmt.example else ""
        out.append(f"account id does not match the format of {noun}{example}")
    return tuple(out)


_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

# -- formats named by kind in catalog files (``[id] kind = "uuid"`` / ``"hex32"``) ------------
#: Lower-case UUID.
UUID = IdFormat(body=_UUID, case="lower", example="0f8fad5b-d9cb-469f-a165-70867728950e")
#: 32 lower-case hex digits (an MD5-sized API key or token).
HEX32 = IdFormat(body="[0-9a-f]{32}", case="lower", example="0123456789abcdef0123456789abcdef")
