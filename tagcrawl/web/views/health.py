"""``GET /health/ready``: readiness for load balancers (liveness is ``GET /``).

``GET /`` never touches the database nor the browsers: it says the process
answers.  ``/health/ready`` says whether this instance can do its work:

- ``database``: ``"ok"`` when ``SELECT 1`` succeeds within the database
  timeouts (``dbtimeouts.py``: a hung server fails it in a few seconds),
  else ``"unavailable"``;
- ``stream``: ``{"batches"}``, the group commits of this worker's stream writer
  so far (one transaction per batch; rows / batches is the grouping achieved);
- ``browsers``: this worker's pool, ``{"state", "size", "alive", "idle"}``;
  ``state`` is ``"ok"`` when Chrome and ChromeDriver answer ``--version`` (local)
  or the Selenium Grid's ``/status`` says ready (remote), else ``"unavailable"``
  (``engine/chrome/availability.py``: cached ``READY_CACHE_S`` seconds, default 10).
  It never starts a browser.  A busy pool is still ready (crawls wait, then 503 ``pool_busy``).

Answer: 200 ``{"status": 200, "database": "ok", "browsers": {...}}``, or 503
with the same shape (``status: 503``) and ``Retry-After`` when either fails.
"""
from __future__ import annotations

from flask import current_app, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from tagcrawl.web.edge import Blueprint, operation
from tagcrawl.core.extensions import db
from tagcrawl.core.settings import Settings, current_settings
from tagcrawl.stream.writer import committed_batches

bp = Blueprint("health", __name__)

#: The readiness answer (200 and 503 alike): the ``Readiness`` component (``core/schemas/readiness.py``).
READY_SCHEMA = {"$ref": "#/components/schemas/Readiness"}

def database_state() -> str:
    """``"ok"`` or ``"unavailable"`` (the session is rolled back either way)."""
    try:
        db.session.execute(text("SELECT 1"))
        return "ok"
    except SQLAlchemyError as exc:
        current_app.logger.warning("readiness: database unavailable: %s", exc.__class__.__name__)
        return "unavailable"
    finally:
        try:
            db.session.rollback()
        except SQLAlchemyError:
            pass


def browser_state(settings: Settings) -> dict:
    """This worker's pool: ``{"state": "ok"|"unavailable", "size", "alive", "idle"}``.
    A worker that has not crawled yet has no pool: it reports the size it will
    have, with no browser alive (the check never creates a pool)."""
    from tagcrawl.engine.chrome.pool import existing_pool, pool_size

    from tagcrawl.engine.chrome.availability import browsers_unavailable

    pool = existing_pool(settings)
    stats = pool.stats() if pool is not None else {"alive": 0, "idle": 0}
    reason = browsers_unavailable(settings)
    if reason:
        current_app.logger.warning("readiness: browsers unavailable: %s", reason)
    return {"state": "unavailable" if reason else "ok",
            "size": pool.size if pool is not None else pool_size(settings),
            "alive": stats["alive"], "idle": stats["idle"]}


@bp.get("/health/ready")
@bp.doc(**operation("Readiness (database and browsers)", "ready", tag="meta",
                    description="For load balancers. `GET /` is the liveness check and touches neither."))
@bp.response(200, READY_SCHEMA, description="Ready: the database answers and browsers can be started.")
@bp.alt_response(503, schema=READY_SCHEMA, description="Not ready: the database or the browsers are unavailable "
                                                       "(with `Retry-After`).")
def ready():
    """Readiness; see the module docstring."""
    settings = current_settings()
    database, browsers = database_state(), browser_state(settings)
    status = 200 if database == "ok" and browsers["state"] == "ok" else 503
    response = jsonify({"status": status, "database": database,
                        "stream": {"batches": committed_batches(current_app)}, "browsers": browsers})
    response.status_code = status
    if status == 503:
        response.headers["Retry-After"] = str(settings.stream_retry_after_s)
    return response
