"""HTTP API of audit schedules (docs/audits.md, "Schedules"): ``POST/GET /api/v1/audit-schedules``,
``DELETE /api/v1/audit-schedules/<id>``.  A key sees only its own schedules.

The body is ``{cron, audit}``: ``audit`` is validated as ``POST /api/v1/audits``'s body
(422 on a schema error); a cron that does not parse or runs more often than
``AUDIT_SCHEDULE_MIN_INTERVAL_S``, or ``maxPages`` over the cap is 400; more than
``AUDIT_MAX_SCHEDULES`` schedules for the key is 429.
"""
from __future__ import annotations

from flask import g, jsonify
from marshmallow import ValidationError

from tagcrawl.accounts.apikeys import require_api_key
from tagcrawl.audit.limits import current_limits
from tagcrawl.audit.schedules import ScheduleQuotaExceeded, create_schedule
from tagcrawl.core.audit_models import AuditSchedule
from tagcrawl.core.errors import ApiError
from tagcrawl.core.extensions import db
from tagcrawl.core.schemas.audit import AuditRequestSchema, AuditScheduleRequestSchema, AuditScheduleSchema
from tagcrawl.web.edge import Blueprint, errors, operation
from tagcrawl.web.ratelimits import crawl_key, crawl_limit, crawl_limit_off, rate_limited

bp = Blueprint("audit_schedule", __name__)
SCHEDULES_LISTED = 1000


def schedule_json(schedule: AuditSchedule) -> dict:
    """The ``AuditSchedule`` answer of a row."""
    return {"scheduleId": schedule.id, "cron": schedule.cron, "nextRunAt": schedule.next_run_at.isoformat(),
            "lastAuditId": schedule.last_audit_id, "enabled": schedule.enabled}


@bp.post("/audit-schedules")
@bp.doc(**operation("Schedule an audit", "create_audit_schedule", tag="audit", secured=True, description=(
    "Runs the audit body on a cron expression (5 fields, UTC). Each run posts its summary and its diff "
    "against the previous run to the key's webhook, signed as crawl webhooks are.")))
@rate_limited(crawl_limit, key_func=crawl_key, exempt_when=crawl_limit_off)
@require_api_key
@bp.arguments(AuditScheduleRequestSchema)
@bp.response(201, AuditScheduleSchema, description="The schedule.")
@errors(bp, 400, 401, 413, 422, 429)
def create(data: dict):
    """Validate and store a schedule."""
    body = AuditRequestSchema().dump(data["audit"])
    try:
        schedule = create_schedule(data["cron"], body, g.api_key.id, current_limits())
    except ValidationError as err:
        field, messages = next(iter(err.messages.items()))
        while isinstance(messages, dict):
            key, messages = next(iter(messages.items()))
            field = f"{field}.{key}"
        raise ApiError(400, f"{field}: {messages[0]}") from None
    except ScheduleQuotaExceeded as err:
        raise ApiError(429, str(err), {"Retry-After": "3600"}) from None
    reply = jsonify(schedule_json(schedule))
    reply.status_code = 201
    return reply


@bp.get("/audit-schedules")
@bp.doc(**operation("List this key's audit schedules", "list_audit_schedules", tag="audit", secured=True))
@require_api_key
@bp.response(200, AuditScheduleSchema(many=True), description=f"Oldest first, at most {SCHEDULES_LISTED}.")
@errors(bp, 401)
def listing():
    """This key's schedules."""
    rows = db.session.scalars(db.select(AuditSchedule).where(AuditSchedule.api_key_id == g.api_key.id)
                              .order_by(AuditSchedule.created_at).limit(SCHEDULES_LISTED))
    return jsonify([schedule_json(s) for s in rows])


@bp.delete("/audit-schedules/<schedule_id>")
@bp.doc(**operation("Delete an audit schedule", "delete_audit_schedule", tag="audit", secured=True))
@require_api_key
@bp.response(204, description="Deleted; its audits stay.")
@errors(bp, 401, 404)
def delete(schedule_id: str):
    """Delete one of this key's schedules (its audits stay)."""
    row = None if len(schedule_id) > 36 or "\x00" in schedule_id else db.session.get(AuditSchedule, schedule_id)
    if row is None or row.api_key_id != g.api_key.id:
        raise ApiError(404, "No schedule with this id for this API key.")
    db.session.delete(row)
    db.session.commit()
    return "", 204
