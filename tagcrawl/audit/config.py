"""An audit's configuration: the validated request body (docs/audits.md, "The request").

``parse_config`` validates a body (``AuditRequestSchema``, shared with the web
views and the CLI) and applies the operator's cap on ``maxPages``;
``create_audit`` stores a queued ``Audit``.  ``config_hash`` is what "the
previous audit with the same configuration" means for the diff.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from marshmallow import ValidationError

from tagcrawl.audit.limits import AuditLimits
from tagcrawl.core.audit_models import Audit
from tagcrawl.core.extensions import db
from tagcrawl.core.schemas.audit import AuditRequestSchema
from tagcrawl.core.schemas.coded import Coded


@dataclass(frozen=True)
class AuditConfig:
    """An audit's configuration, built from the validated body (field names: the seam in AUDIT_SEAMS.md)."""

    start_urls: tuple[str, ...]
    sitemaps: tuple[str, ...] | None
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    max_pages: int
    max_depth: int
    consent_actions: tuple[str, ...]
    options: dict
    validation_rules: list
    expectations: list
    respect_robots: bool
    webhook: bool | None


def canonical_body(body: dict) -> dict:
    """The JSON form of a body as loaded and dumped by ``AuditRequestSchema`` (defaults filled in).

    Raises:
        ValidationError: the body is refused by the schema (``messages`` keyed by field).
    """
    schema = AuditRequestSchema()
    return json.loads(json.dumps(schema.dump(schema.load(body)), default=str))


def _limits(settings) -> AuditLimits:
    return settings if isinstance(settings, AuditLimits) else AuditLimits.load(getattr(settings, "config", None))


def parse_config(body: dict, settings=None) -> AuditConfig:
    """Validate ``body`` and build its ``AuditConfig``.

    Args:
        body: the request body (JSON object).
        settings: an ``AuditLimits``, or a Flask app / None (limits from its config and the environment).
    Raises:
        ValidationError: schema errors, or ``maxPages`` over the operator's cap (type ``quota_exceeded``).
    """
    data = canonical_body(body)
    cap = _limits(settings).audit_max_pages
    if data["maxPages"] > cap:
        raise ValidationError({"maxPages": [Coded(f"At most {cap} pages per audit on this service.",
                                                  "quota_exceeded")]})
    return config_of(data)


def config_of(data: dict) -> AuditConfig:
    """``AuditConfig`` of a stored body (``Audit.config``): canonical when made by ``create_audit``; a body
    stored otherwise (older CLI, tests) gets the schema's defaults for what it lacks."""
    return AuditConfig(
        start_urls=tuple(data.get("startUrls") or ()),
        sitemaps=None if data.get("sitemaps") is None else tuple(data["sitemaps"]),
        include=tuple(data.get("include") or ()), exclude=tuple(data.get("exclude") or ()),
        max_pages=int(data.get("maxPages") or 500), max_depth=int(data.get("maxDepth", 3)),
        consent_actions=tuple(data.get("consentActions") or ("accept",)),
        options=dict(data.get("options") or {}), validation_rules=list(data.get("validationRules") or []),
        expectations=list(data.get("expectations") or []), respect_robots=bool(data.get("respectRobots", True)),
        webhook=bool(data.get("webhook")))


def config_hash(data: dict) -> str:
    """SHA-256 hex of the canonical body's JSON (sorted keys) without ``webhook``."""
    kept = {k: v for k, v in data.items() if k != "webhook"}
    return hashlib.sha256(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def create_audit(body: dict, api_key_id: int, settings=None, schedule_id: str | None = None) -> Audit:
    """Validate ``body``, store a queued ``Audit`` for ``api_key_id`` and commit.

    Returns:
        the stored Audit (``config`` is the canonical body).
    Raises:
        ValidationError: as ``parse_config``; nothing is stored.
    """
    parse_config(body, settings)
    data = canonical_body(body)
    audit = Audit(api_key_id=api_key_id, schedule_id=schedule_id, status="queued", config=data,
                  config_hash=config_hash(data))
    db.session.add(audit)
    db.session.commit()
    return audit
