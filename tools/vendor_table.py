"""Generate the markdown table of supported vendors (``docs/vendors.md``).

A tool of the repository, not of the package.  Run from the repository root::

    python -m tools.vendor_table            # print to stdout
    python -m tools.vendor_table --write    # (re)write docs/vendors.md
    python -m tools.vendor_table --write out.md
"""
from __future__ import annotations

import sys
from pathlib import Path

from tagcrawl.engine.vendors import CATALOG

#: docs/vendors.md of this repository (tools/ sits at its root).
DOC_PATH = Path(__file__).resolve().parents[1] / "docs" / "vendors.md"
#: The "Catalog files" section (file format, adding a vendor), copied into the page.
FORMAT_PATH = Path(__file__).with_name("vendor_catalog_format.md")


_POLICY = """## Ids as sent, and their warnings

A request is recognised as a vendor's by host, path and parameter shape (issue 19). Its account id is then
reported as the page sent it: a well-formed id in its canonical form (`AW-` prefix added to a bare Google Ads
conversion id, case folded where ids are case-insensitive), any other id exactly as sent (surrounding white space
stripped, at most 200 characters). An id outside the vendor's usual format is never dropped: the pixel carries
`warnings`, a list of sentences saying what is unusual. A vendor seen on the page with no readable id in any of
its requests is reported once with `account_id: null`; as soon as one request of that vendor carries an id
(even a flagged one), only the ids are reported. Validation rules (`rule_type: Pixel`) see the same hits, so a
rule on a flagged id matches it.

The format table (the `example id` column; `tagcrawl/engine/vendors/ids.py`) is used for the warnings, for the
canonical form, and to tell vendors apart where they share a shape (GA4 `G-` and Universal Analytics `UA-`
ids on `/collect`, Matomo's numeric and Piwik PRO's UUID `idsite`). Without a vendor host (first-party
collection) the id's form is part of the shape, so a first-party `matomo.php?idsite=abc` is not reported. On a
vendor's own host the length of an id in a URL path or host name is not part of the shape
(`q.quora.com/_/ad/<31 hex>/pixel` is Quora's pixel with a truncated id); its characters still are, so a
placeholder in a script path is reported from the vendor's beacon, which carries it as a parameter.

### Warning vocabulary

Each warning is one of these sentences (`<ids>` is the vendor's noun, e.g. "TikTok pixel codes", else
"<vendor name> ids"):

| warning | when |
| --- | --- |
| `account id has <n> characters; <ids> have <m>` (or `<lo> to <hi>`) | the length is outside the format |
| `account id lacks the "<prefix>" prefix of <ids>` | a required prefix (`G-`, `UA-`, `GTM-`, `GT-`) is missing |
| `account id does not match the format of <ids> (example: <id>)` | right length, wrong characters |
| `account id looks like a placeholder` | `XXXXXXXX`, `G-XXXXXXXXXX`, `{{pixel_id}}`, `${id}`, `YOUR_PIXEL_ID`, `undefined`, `null`, `0000`, `123456789`, ... |
| `account id looks like a test id` | a word `test`, `dummy`, `sample`, `example`, `demo`, `staging` or `sandbox` in the id |
| `account id is longer than 200 characters; truncated` | the id was cut |

## Encodings decoded

Before any id is read, a request is decoded (`tagcrawl/engine/vendors/encodings.py`, `decode.py`, `lzstring.py`).
Every decoder is bounded by its output (at most 256 KiB, so a compression bomb stops there; the table of
bounds is in `docs/security.md`, "Decoders: bounded by output"), never raises, and charges its work to the
crawl's decoding budget when there is one (`vendors.decode_budget`):

* request bodies with `Content-Encoding: gzip`, `deflate` (zlib or raw) or `br`, and gzip/zlib bodies
  recognised by their magic bytes (posthog-js `compression=gzip-js` sends gzip as `text/plain`); the capture
  keeps the raw bytes Chrome hands over CDP (`postDataEntries`, `Network.getRequestPostData` with
  `base64Encoded`);
* base64 and base64url payloads (bodies, and parameters such as Mixpanel's `data=`), and gzip inside base64;
* lz-string `compressToBase64` and `compressToEncodedURIComponent` (posthog-js `compression=lz64`), checked
  against the lz-string npm package (`tests/unit/test_lzstring.py`); 256 KB cost tens of milliseconds;
* JSON bodies (also sent as `text/plain`), JSON inside a form field, NDJSON, batched arrays (one hit per
  event), `multipart/form-data`, form bodies and GA4's one-event-per-line batches;
* write keys sent only as HTTP Basic auth (`Authorization: Basic base64(<key>:)`: Segment, RudderStack,
  Hightouch);
* ids that appear only in a configuration or library fetch (an SDK's remote config, a token in a script path):
  reported when no beacon of the vendor carried one.

Captured traffic can be exported and classified offline as HAR 1.2: see `docs/har.md`.
"""

_BROWSER_TESTS = (
    "Besides the recorded request shapes (the cases of the catalog files), "
    "`tests/browser/test_vendor_pages.py` crawls fixture pages in real Chrome (offline fixture web, "
    "`tests/support/web/`): one page per major vendor installing the vendor's own published snippet, with "
    "an emulated library (`tests/support/web/vendor_libs/`) that sends hits in the real library's shape "
    "(Meta, GA4, Universal Analytics, GTM, Google Ads, Floodlight, TikTok, LinkedIn, X, Bing UET, "
    "Pinterest, Snapchat, Reddit, Hotjar, Clarity, Segment, Amplitude, Mixpanel, HubSpot, Criteo, "
    "Taboola, Outbrain, Quora, Yandex Metrica, Klaviyo); hits of the major vendors over image, fetch, "
    "XHR, sendBeacon, JSON POST, iframe and delayed (`setTimeout`) transports; look-alikes that must not "
    "be reported; first-party collection (GA4 via server-side GTM, Adobe on a CNAME, self-hosted Matomo); "
    "and ids found only in tag library URLs. The pages are listed in `tests/support/vendor_pages.py` (the "
    "snippets, beacons and script URLs come from the catalog files: `[snippet]`, `[beacon]`, `[[script_id]]`). "
    "`tests/browser/test_encodings_browser.py` sends ids inside a gzip body made by the page's own "
    "`CompressionStream` (with and without `Content-Encoding`) and inside lz-string payloads made by the "
    "lz-string npm package, with their look-alikes; malformed ids on the look-alike page are reported, "
    "flagged."
)


def _cell(text: str) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ")


_KINDS = {"q": "query", "p": "parameter (query, form or JSON)", "json": "JSON body", "path": "URL path",
          "host": "host name", "auth": "Basic auth user", "hdr": "header"}


def id_encoding(vendor) -> str:
    """Where and how a vendor's account id is encoded in its requests, from
    its patterns' id specs (the README vendor table's encoding column),
    e.g. ``"URL path; JSON body; base64/lz-string JSON in `data`"``."""
    parts: list[str] = []
    batched = False
    for p in vendor.patterns:
        batched = batched or bool(p.split)
        texts = [_KINDS.get(spec.partition(":")[0], spec.partition(":")[0]) for spec in p.ids]
        texts += [f"base64/lz-string JSON in `{name}`" for name in p.embedded]
        for t in texts:
            if t not in parts:
                parts.append(t)
    if batched and parts:
        parts.append("batches: one hit per event")
    return "; ".join(parts) or "not sent (library load only)"


def markdown_table() -> str:
    """Markdown document with one table row per catalog vendor.

    Columns: key, display name, category, where the account id comes from,
    how it is encoded (:func:`id_encoding`), example id (canonical form);
    then the catalog file format (``vendor_catalog_format.md``), the id policy, the warning vocabulary and
    the decoded encodings.  Rows are grouped by category, then sorted
    by key.  Returns the whole document (title, intro, table) as a string.
    """
    lines = [
        "# Supported vendors",
        "",
        "<!-- generated by `python -m tools.vendor_table --write`; do not edit by hand -->",
        "",
        f"{len(CATALOG)} vendors.  A request is matched on host and on path / parameter shape; "
        "first-party setups (server-side GTM, CNAME'd Adobe tracking servers, self-hosted Matomo, "
        "proxied Plausible, Snowplow collectors, ...) are recognised by their parameter shape. "
        "Ids are reported as sent; one outside the vendor's usual format is flagged in the pixel's "
        "`warnings`, never dropped (below). A library load without an id yields a hit with no account id; "
        "a CORS preflight (`OPTIONS`) is never a hit. Every body and parameter is decoded first "
        "(compression, base64, lz-string, multipart, ...: see \"Encodings decoded\"). "
        "Every vendor has positive and negative request fixtures (in its catalog file: see \"Catalog files\"); "
        "`GET /api/v1/vendors` lists the catalog.",
        "",
        "| key | name | category | account id from | id encoding | example id |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for v in sorted(CATALOG, key=lambda v: (v.category, v.key)):
        example = f"`{v.example_id}`" if v.example_id else ""
        lines.append(f"| `{v.key}` | {_cell(v.name)} | {v.category} | {_cell(v.id_source)} | "
                     f"{_cell(id_encoding(v))} | {_cell(example)} |")
    lines += ["", FORMAT_PATH.read_text(encoding="utf-8"), _POLICY, "## Tested in Chrome", "", _BROWSER_TESTS]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """CLI entry point (see module docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    text = markdown_table()
    if args and args[0] == "--write":
        path = Path(args[1]) if len(args) > 1 else DOC_PATH
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(CATALOG)} vendors)")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
