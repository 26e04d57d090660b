"""From a validated StreamEventRequest to the stored record.

The mapping (request field -> record column) is documented in docs/stream.md
("Request fields", "The stored record"); each request field names its column
on the schema (``schemas.stored_as``).  ``np`` is never stored; undeclared
keys go to ``extra``.  A ``cn`` that is an IAB TCF v2 TC string (or a US
Privacy string) is also stored decoded, in ``extra["cn_decoded"]``
(``decoded_consent``).
"""
from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from urllib.parse import urlsplit

from tagcrawl.engine.compliance import signals, tcf
from tagcrawl.core.schemas import StreamEventRequestSchema
from tagcrawl.engine.vendors import vendor_key_for
from tagcrawl.stream.useragent import UA_MAX, browser_info, ip_prefix
from tagcrawl.stream.origins import normalize_host, registrable_domain

#: Client time is trusted as the event time when within this of server time.
MAX_SKEW_MS = 5 * 60 * 1000
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MS = timedelta(milliseconds=1)

_REQUEST_FIELDS = StreamEventRequestSchema().fields
DECLARED = frozenset(_REQUEST_FIELDS)

#: Record column <- request field, for the fields stored as the schema loads them: those whose
#: ``stored_as`` metadata is ``copied`` (read once, at import; schema order).
COPIED = {field.metadata["column"]: name for name, field in _REQUEST_FIELDS.items()
          if field.metadata["column"] is not None and field.metadata["copied"]}


@lru_cache(maxsize=1024)
def _vendor_by_name(vn: str) -> str:
    return vendor_key_for(vn, None)


def vendor_key(vn: str, vu: str | None) -> str:
    """Catalog key for ``vn`` (memoized), else for ``vu``, else ``"unknown"``.

    Same result as ``vendors.vendor_key_for(vn, vu)``, which tries the name first.
    """
    key = _vendor_by_name(vn)
    if key == "unknown" and vu:
        key = vendor_key_for(None, vu)
    return key


def event_time(tm: float | None, received_at: datetime) -> tuple[int | None, datetime, int | None]:
    """The client timestamp, the event time and the clock skew.

    Args:
        tm: client epoch time in milliseconds (``tm``), or None.
        received_at: server receive time (aware UTC).
    Returns:
        ``(client_timestamp_ms, event_timestamp, clock_skew_ms)``: the event
        time is the client's when ``|skew| <= MAX_SKEW_MS`` (5 minutes), else
        ``received_at``; skew is client minus server, in ms (None without ``tm``).
    """
    if tm is None:
        return None, received_at, None
    client_ms = int(round(tm))
    skew = int(round(tm - (received_at - EPOCH) / _MS))
    if abs(skew) <= MAX_SKEW_MS:
        return client_ms, EPOCH + timedelta(milliseconds=tm), skew
    return client_ms, received_at, skew


def decoded_consent(cn: str | None) -> dict | None:
    """The consent state ``cn`` decoded: ``{"tcf": TCString.summary()}`` for a
    TC string, ``{"us_privacy": {string, notice, opt_out_sale, lspa}}`` for a
    US Privacy string, else None (the raw value stays in ``consent_state``).

    A site sends the same few strings with every event, so the last
    ``CONSENT_CACHE_SIZE`` decodings are kept: the dict returned is shared
    between the rows that carry the same ``cn`` and is never changed."""
    if not isinstance(cn, str) or not cn:
        return None
    return _decode_consent(cn)


#: Distinct ``cn`` values whose decoding the stream keeps (per process).
CONSENT_CACHE_SIZE = 1024


@lru_cache(maxsize=CONSENT_CACHE_SIZE)
def _decode_consent(cn: str) -> dict | None:
    decoded = tcf.try_decode(cn) if cn[:1] == "C" else None
    if decoded is not None:
        return {"tcf": decoded.summary()}
    usp = signals.decode_usp(cn)
    if usp is not None:
        return {"us_privacy": {"string": usp.raw, "notice": usp.notice, "opt_out_sale": usp.opt_out_sale,
                               "lspa": usp.lspa}}
    return None


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_upper(text: str) -> str:
    """``text`` with its ASCII letters upper-cased, nothing else changed.  An HTTP
    method is an ASCII token; ``str.upper`` would also lengthen a validated value
    (``"ß"`` becomes ``"SS"``) past its column's width."""
    return text.translate(_ASCII_UPPER)


def _page_parts(url: str | None) -> tuple[str, str | None]:
    """``(host, path)`` of the page URL ``u``; ``("", None)`` without one."""
    if not url:
        return "", None
    try:
        parts = urlsplit(url)
        return normalize_host(parts.hostname or ""), parts.path or "/"
    except ValueError:
        return "", None


def normalize(event: dict, *, customer_id: int, origin_host: str | None, environ: dict,
              received_at: datetime) -> dict:
    """Build the ``stream_events`` row of one accepted event.

    Args:
        event: the dict loaded by ``StreamEventRequestSchema``.
        customer_id: the token's customer.
        origin_host: host of the request's Origin (or Referer), used for
            ``domain``/``host`` when the event has no ``u``.
        environ: the WSGI environ (User-Agent, and ``REMOTE_ADDR``: the client
            address, which ``ProxyFix`` sets behind ``TRUSTED_PROXIES`` proxies).
        received_at: server receive time, aware UTC (from the app's clock).
    Returns:
        a dict with one key per ``stream_events`` column except ``id``.
    """
    row = {column: event.get(field) for column, field in COPIED.items()}
    client_ms, event_ts, skew = event_time(event.get("tm"), received_at)
    page_host, path_of_u = _page_parts(event.get("u"))
    host = page_host or origin_host or ""
    page_path = event.get("p", path_of_u)
    user_agent = environ.get("HTTP_USER_AGENT") or None
    ua = browser_info(user_agent[:UA_MAX] if user_agent else None)
    extra = {key: value for key, value in event.items() if key not in DECLARED}
    consent = decoded_consent(event.get("cn"))
    if consent:
        extra["cn_decoded"] = consent
    row.update(
        event_id=str(uuid.uuid4()),
        customer_id=customer_id,
        received_at=received_at,
        client_timestamp=client_ms,
        event_timestamp=event_ts,
        clock_skew_ms=skew,
        vendor=vendor_key(event["vn"], event.get("vu")),
        domain=registrable_domain(host)[:255] or None,
        host=host[:255] or None,
        page_path=page_path,
        http_method=ascii_upper(event["m"]) if event.get("m") else None,
        session_id=str(event["sid"]) if event.get("sid") is not None else None,
        extra=extra or None,
        user_agent=user_agent[:UA_MAX] if user_agent else None,
        ip_prefix=ip_prefix(environ.get("REMOTE_ADDR")),
        **ua._asdict(),
    )
    return row
