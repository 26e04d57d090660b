"""HTTP API of site audits (docs/audits.md): ``POST/GET/DELETE /api/v1/audits``, the report
(JSON, CSV), the diff and the share link.  Schedules: ``audit_schedules.py``; the HTML report:
``audit_html.py``.

A key sees only its own audits (another key's id is 404, as an unknown one).  A body the schema
refuses is 422 ``HTTPValidationError`` (as a crawl's); ``maxPages`` over the operator's cap is 400;
more than ``AUDIT_MAX_RUNNING`` audits queued or running for the key is 429.
"""
from __future__ import annotations

from flask import Response, g, jsonify, request, url_for
from marshmallow import ValidationError

from tagcrawl.accounts.apikeys import require_api_key
from tagcrawl.audit import store
from tagcrawl.audit.config import create_audit
from tagcrawl.audit.csv import cookies_csv, report_csv
from tagcrawl.audit.limits import current_limits
from tagcrawl.audit.runner import cancel_audit, start_audit
from tagcrawl.audit.share import share_query
from tagcrawl.core.errors import ApiError, RequestValidationError
from tagcrawl.core.extensions import db
from tagcrawl.core.schemas.audit import AuditCreatedSchema, AuditRequestSchema, AuditShareSchema, AuditStatusSchema
from tagcrawl.web.edge import Blueprint, errors, operation, query
from tagcrawl.web.ratelimits import crawl_key, crawl_limit, crawl_limit_off, rate_limited

bp = Blueprint("audit", __name__)
_OBJECT = {"type": "object"}


def quota_or_invalid(err: ValidationError):
    """A ``ValidationError`` of ``parse_config``: 400 ``ErrorMessage`` for a quota, else 422 detail list."""
    flat = [(field, msg) for field, msgs in (err.messages.items() if isinstance(err.messages, dict) else ())
            for msg in (msgs if isinstance(msgs, list) else [])]
    quota = [(f, m) for f, m in flat if getattr(m, "type", None) == "quota_exceeded"]
    if quota:
        return ApiError(400, f"{quota[0][0]}: {quota[0][1]}")
    return RequestValidationError(err.messages)


def owned(audit_id: str):
    """This key's ``Audit`` ``audit_id``; 404 for an unknown id or another key's."""
    audit = store.get_audit(audit_id, g.api_key.id)
    if audit is None:
        raise ApiError(404, "No audit with this id for this API key.")
    return audit


@bp.post("/audits")
@bp.doc(**operation("Start a site audit", "create_audit", tag="audit", secured=True, description=(
    "Queues an audit of a site: its start URLs, sitemaps and links within include/exclude, each page crawled "
    "once per consent action. Answers 202 with the audit's id and its `Location` (docs/audits.md).")))
@rate_limited(crawl_limit, key_func=crawl_key, exempt_when=crawl_limit_off)
@require_api_key
@bp.arguments(AuditRequestSchema)
@bp.response(202, AuditCreatedSchema, description="Queued; poll `Location`.",
             headers={"Location": {"description": "The audit's URL.", "schema": {"type": "string"}}})
@errors(bp, 400, 401, 413, 422, 429)
def create(data: dict):
    """Validate, store and start an audit.  400: ``maxPages`` over the cap; 429: too many running."""
    limits = current_limits()
    if store.running_count(g.api_key.id) >= limits.audit_max_running:
        raise ApiError(429, f"At most {limits.audit_max_running} audits queued or running per API key.",
                       {"Retry-After": "60"})
    if data.get("webhook") and not g.api_key.webhook_url:
        raise RequestValidationError({"webhook": ["This API key has no webhook URL; set one with "
                                                  "`keys set-webhook`."]})
    try:
        audit = create_audit(AuditRequestSchema().dump(data), g.api_key.id, limits)
    except ValidationError as err:
        raise quota_or_invalid(err) from None
    start_audit(audit.id)
    reply = jsonify({"auditId": audit.id})
    reply.status_code = 202
    reply.headers["Location"] = url_for("audit.status", audit_id=audit.id)
    return reply


@bp.get("/audits/<audit_id>")
@bp.doc(**operation("An audit's status and progress", "get_audit", tag="audit", secured=True))
@require_api_key
@bp.response(200, AuditStatusSchema, description="Status, page counts, rate (pages/min) and ETA (s).")
@errors(bp, 401, 404)
def status(audit_id: str):
    """The audit's status, page counts, rate and ETA."""
    return jsonify(store.status_of(owned(audit_id)))


@bp.delete("/audits/<audit_id>")
@bp.doc(**operation("Cancel an audit", "cancel_audit", tag="audit", secured=True, description=(
    "Stops a queued or running audit: no page is started after this; pages already crawled stay in "
    "its report. 409 when it has already ended.")))
@require_api_key
@bp.response(200, AuditStatusSchema, description="The cancelled audit.")
@errors(bp, 401, 404, 409)
def cancel(audit_id: str):
    """Cancel the audit (``runner.cancel_audit``); 409 when it is done, failed or cancelled already."""
    audit = owned(audit_id)
    if cancel_audit(audit.id) is False:  # the runner marks it cancelled and excludes its queued pages
        raise ApiError(409, "The audit has already ended.")
    db.session.refresh(audit)
    return jsonify(store.status_of(audit))


@bp.get("/audits/<audit_id>/report")
@bp.doc(**operation("An audit's report", "get_audit_report", tag="audit", secured=True, description=(
    "Pages with their scenarios, vendors and accounts, consent findings, cookie inventory, third parties, "
    "broken/blocked/excluded pages, expectations and timing (docs/audits.md, \"The report\"). While the "
    "audit runs: the pages done so far.")))
@require_api_key
@bp.response(200, _OBJECT, description="The report.")
@errors(bp, 401, 404)
def report(audit_id: str):
    """The audit's report as JSON."""
    return jsonify(store.report_of(owned(audit_id)))


def _csv(body: str, name: str) -> Response:
    return Response(body, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/audits/<audit_id>/report.csv")
@bp.doc(**operation("An audit's pages x vendors matrix (CSV)", "get_audit_report_csv", tag="audit", secured=True))
@require_api_key
@bp.response(200, description="CSV: one row per page and scenario, one column per vendor and account.",
             content_type="text/csv")
@errors(bp, 401, 404)
def report_as_csv(audit_id: str):
    """The pages x vendors matrix as CSV (formula-safe cells)."""
    audit = owned(audit_id)
    return _csv(report_csv(store.report_of(audit)), f"audit-{audit.id}.csv")


@bp.get("/audits/<audit_id>/cookies.csv")
@bp.doc(**operation("An audit's cookie inventory (CSV)", "get_audit_cookies_csv", tag="audit", secured=True))
@require_api_key
@bp.response(200, description="CSV: one row per cookie name and domain.", content_type="text/csv")
@errors(bp, 401, 404)
def cookies_as_csv(audit_id: str):
    """The cookie inventory as CSV (formula-safe cells)."""
    audit = owned(audit_id)
    return _csv(cookies_csv(store.report_of(audit)), f"audit-{audit.id}-cookies.csv")


@bp.get("/audits/<audit_id>/diff")
@bp.doc(**operation("What changed since another audit", "get_audit_diff", tag="audit", secured=True,
                    description="Against `against`, by default this key's previous finished audit with the "
                                "same configuration (docs/audits.md, \"The diff\"). 404 when there is none.",
                    parameters=[query("against", "The audit to compare with (this key's).")]))
@require_api_key
@bp.response(200, _OBJECT, description="Vendors and accounts gained or lost, coverage changes, new "
                                       "violations, new cookies, pages gone or broken.")
@errors(bp, 401, 404)
def diff(audit_id: str):
    """The diff from ``against`` (or the previous audit with the same config) to this audit."""
    audit = owned(audit_id)
    against_id = request.args.get("against")
    against = owned(against_id) if against_id else store.previous_audit(audit)
    if against is None:
        raise ApiError(404, "No earlier finished audit with the same configuration; pass `against`.")
    return jsonify(store.diff_of(audit, against))


@bp.post("/audits/<audit_id>/share")
@bp.doc(**operation("A shareable link to the HTML report", "share_audit", tag="audit", secured=True,
                    description="A signed link to `/audits/<id>` readable without an API key, for this audit "
                                "only, until `expiresAt` (`TAGCRAWL_AUDIT_SHARE_TTL_S`; docs/audits.md)."))
@require_api_key
@bp.response(200, AuditShareSchema, description="The link.")
@errors(bp, 401, 404)
def share(audit_id: str):
    """A signed, expiring link to the audit's HTML report."""
    from datetime import datetime, timezone

    audit = owned(audit_id)
    query_string, expires = share_query(g.api_key.key_hash, audit.id, current_limits().audit_share_ttl_s)
    return jsonify({"htmlUrl": url_for("audit_html.page", audit_id=audit.id) + "?" + query_string,
                    "expiresAt": datetime.fromtimestamp(expires, timezone.utc).isoformat()})
