"""CSV exports of an audit's report (docs/audits.md, "CSV"): the pages x vendors matrix and
the cookie inventory.

Cells are safe against CSV (formula) injection: a text cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return is prefixed with ``'`` (OWASP's
advice), so a spreadsheet shows a page-supplied ``=HYPERLINK(...)`` as text.
Bounded by the report (``report.LIST_MAX`` pages, ``inventory.ENTRIES_MAX`` cookies); at most
``VENDOR_COLUMNS_MAX`` vendor columns (the most seen).
"""
from __future__ import annotations

import csv
import io

VENDOR_COLUMNS_MAX = 200
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> str:
    """``value`` as a CSV cell: None is empty, lists are joined with ``;``, formula starts are prefixed with ``'``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        value = ";".join(str(v) for v in value)
    text = str(value)
    return "'" + text if text.startswith(_FORMULA) else text


def _write(header: list, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return out.getvalue()


def vendor_label(vendor: dict) -> str:
    """A vendor column's name: ``vendor`` or ``vendor:accountId``."""
    return f"{vendor['vendor']}:{vendor['accountId']}" if vendor.get("accountId") else str(vendor["vendor"])


def report_csv(report: dict) -> str:
    """The pages x vendors matrix: one row per (URL, scenario), one column per vendor and account,
    the cell the pixel's consent phase(s) when it fired there, empty otherwise."""
    columns = [v for v in report["vendors"] if v["pageCount"]][:VENDOR_COLUMNS_MAX]  # not the expected-only
    keys = [(v["vendor"], v["accountId"]) for v in columns]
    header = ["url", "scenario", "status", "pageStatus", "finalUrl", "error"] + [vendor_label(v) for v in columns]
    rows = []
    for page in report["pages"]:
        for scenario, entry in sorted(page["scenarios"].items()):
            fired: dict[tuple, set] = {}
            for pixel in entry["pixels"]:
                fired.setdefault((pixel["vendor"], pixel["accountId"]), set()).add(pixel["phase"] or "yes")
            rows.append([page["url"], scenario, entry["status"], entry["pageStatus"], entry["finalUrl"],
                         entry["error"]] + [sorted(fired[k]) if k in fired else "" for k in keys])
    return _write(header, rows)


def cookies_csv(report: dict) -> str:
    """The cookie inventory: name, domain, organisation, party, vendor, longest expiry, pages seen, phases."""
    header = ["name", "domain", "organisation", "party", "vendor", "expires", "pageCount", "phases", "scenarios"]
    return _write(header, ([c["name"], c["domain"], c["organisation"], c["party"], c["vendor"], c["expires"],
                            c["pageCount"], c["phases"], c["scenarios"]] for c in report["cookies"]))

