"""Account-id formats: validation and normalisation of vendor account ids.

Every catalog entry carries an :class:`IdFormat`.  A raw value found in a
request (query parameter, path segment, form/JSON body field, script URL) is
passed through :meth:`IdFormat.normalise`, which returns the canonical id
(e.g. ``"AW-123456789"``, ``"G-ABC123XYZ9"``, ``"DC-1234567"``) or ``None``
when the value does not have the vendor's format.  The matcher drops hits
whose id is present but malformed (see ``matcher.py``), so a request such as
``facebook.com/tr?id=abc`` never yields a Meta pixel with account id ``abc``.

Regexes here are written with ``[0-9]`` / ``[A-Z]`` classes (not ``\\d``) so
that they mean the same thing in Python and in JavaScript.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

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
    """

    body: str = r".+"
    prefix: str = ""
    prefix_required: bool = False
    case: str | None = None
    remove: str = ""
    example: str = ""
    _rx: re.Pattern = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_rx", re.compile(self.body, re.ASCII))

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


def digits(lo: int, hi: int, prefix: str = "", example: str = "") -> IdFormat:
    """Numeric id of ``lo``..``hi`` digits, optional canonical ``prefix``."""
    return IdFormat(body=f"[0-9]{{{lo},{hi}}}", prefix=prefix, example=example)


def pattern(body: str, case: str | None = None, example: str = "", **kw) -> IdFormat:
    """Id matching the regex ``body`` (full match) after case folding."""
    return IdFormat(body=body, case=case, example=example, **kw)


_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

# -- formats shared by several catalog entries --------------------------------
#: GA4 measurement id: ``tid`` of ``/g/collect``, ``id`` of ``gtag/js``.
GA4 = IdFormat(body="[A-Z0-9]{8,12}", prefix="G-", prefix_required=True, case="upper",
               example="G-ABC123XYZ9")
#: Universal Analytics property: ``tid`` of ``/collect`` or ``utmac`` of ``__utm.gif``.
UA = IdFormat(body="[0-9]{4,10}-[0-9]{1,4}", prefix="UA-", prefix_required=True, case="upper",
              example="UA-12345678-1")
#: Google Tag Manager web container: ``id`` of ``gtm.js`` / ``ns.html``.
GTM = IdFormat(body="[A-Z0-9]{4,9}", prefix="GTM-", prefix_required=True, case="upper",
               example="GTM-AB12CD3")
#: Google tag (``GT-``) id: ``id`` of ``gtag/js``.
GOOGLE_TAG = IdFormat(body="[A-Z0-9]{4,12}", prefix="GT-", prefix_required=True, case="upper",
                      example="GT-ABCD1234")
#: Google Ads conversion id: path of ``/pagead/conversion/<id>/`` or ``AW-<id>``.
AW = IdFormat(body="[0-9]{6,12}", prefix="AW-", example="AW-123456789")
#: Floodlight advertiser (``src=``) id, reported as ``DC-<src>``.
DC = IdFormat(body="[0-9]{4,12}", prefix="DC-", example="DC-1234567")
#: Meta pixel id: ``id`` of ``facebook.com/tr`` / ``signals/config/<id>``.
META = digits(15, 16, example="123456789012345")
#: TikTok pixel code: ``context.pixel.code`` (JSON body) / ``sdkid`` (script).
TIKTOK = IdFormat(body="[A-Z][A-Z0-9]{19}", example="C1A2B3C4D5E6F7G8H9I0")
UUID = pattern(_UUID, case="lower", example="0f8fad5b-d9cb-469f-a165-70867728950e")
HEX32 = pattern("[0-9a-f]{32}", case="lower", example="0123456789abcdef0123456789abcdef")
#: Permissive token (API keys, site codes, write keys): printable, no spaces.
TOKEN = pattern(r"[A-Za-z0-9_.:@/+=-]{3,100}", example="abc123")
