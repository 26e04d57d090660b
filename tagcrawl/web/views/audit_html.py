"""The HTML report of an audit (docs/audits.md, "The HTML report"): ``GET /audits/<id>``.

Read with the owning key's ``x-api-key`` header, or without a key through a
signed link (``?expires=..&token=..``, made by ``POST /api/v1/audits/<id>/share``;
``audit/share.py``).  Every value is HTML-escaped by Jinja's autoescape (page
titles, URLs and cookie names are page-supplied, hence hostile), and the page is
served with a Content-Security-Policy that allows no script at all.  The page
shows at most ``ROWS_MAX`` matrix rows and ``COLUMNS_MAX`` vendor columns (the
JSON and CSV reports have everything).
"""
from __future__ import annotations

from flask import Response, render_template, request

from tagcrawl.accounts.apikeys import find_key
from tagcrawl.audit import store
from tagcrawl.audit.csv import vendor_label
from tagcrawl.audit.share import token_valid
from tagcrawl.core.errors import ApiError
from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey
from tagcrawl.web.edge import Blueprint, errors, operation, query

bp = Blueprint("audit_html", __name__, template_folder="../templates")
ROWS_MAX = 2000
COLUMNS_MAX = 40
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'none'")


def _reader_audit(audit_id: str):
    """The audit, when the caller's key owns it or the link's token opens it; else 401/404."""
    key = request.headers.get("x-api-key")
    if key:
        row = find_key(key)
        if row is None:
            raise ApiError(401, "Invalid API key.")
        audit = store.get_audit(audit_id, row.id)
    else:
        audit = store.get_audit(audit_id, None)
        owner = db.session.get(ApiKey, audit.api_key_id) if audit is not None else None
        if owner is None or owner.revoked_at is not None or not token_valid(
                owner.key_hash, audit.id, request.args.get("expires"), request.args.get("token")):
            raise ApiError(401, "Send the x-api-key header, or use a link from POST /api/v1/audits/<id>/share.")
    if audit is None:
        raise ApiError(404, "No audit with this id for this API key.")
    return audit


def matrix(report: dict) -> tuple[list[str], list[dict]]:
    """The coverage matrix: vendor column labels, and one row per (page, scenario) with a cell per column
    (the phases the pixel fired in, or empty)."""
    columns = [v for v in report["vendors"] if v["pageCount"]][:COLUMNS_MAX]  # not the expected-only
    keys = [(v["vendor"], v["accountId"]) for v in columns]
    rows = []
    for page in report["pages"]:
        for scenario, entry in sorted(page["scenarios"].items()):
            fired: dict[tuple, set] = {}
            for pixel in entry["pixels"]:
                fired.setdefault((pixel["vendor"], pixel["accountId"]), set()).add(pixel["phase"] or "fired")
            rows.append({"url": page["url"], "scenario": scenario, "entry": entry,
                         "cells": [", ".join(sorted(fired[k])) if k in fired else "" for k in keys]})
            if len(rows) >= ROWS_MAX:
                return [vendor_label(v) for v in columns], rows
    return [vendor_label(v) for v in columns], rows


@bp.get("/audits/<audit_id>")
@bp.doc(**operation("An audit's HTML report", "get_audit_html", tag="audit", secured=True, description=(
    "The coverage matrix, consent findings and cookie inventory as a page a privacy team can read. With "
    "the key's `x-api-key` header, or without it through a link from `POST /api/v1/audits/{audit_id}/share`."),
    parameters=[query("expires", "A shared link's expiry (epoch seconds)."),
                query("token", "A shared link's signature.")]))
@bp.response(200, description="HTML page.", content_type="text/html")
@errors(bp, 401, 404)
def page(audit_id: str):
    """The HTML report."""
    audit = _reader_audit(audit_id)
    report = store.report_of(audit)
    columns, rows = matrix(report)
    html = render_template("audit_report.html", audit=audit, report=report, columns=columns, rows=rows,
                           rows_cut=len(rows) >= ROWS_MAX, columns_cut=len(report["vendors"]) > COLUMNS_MAX)
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
