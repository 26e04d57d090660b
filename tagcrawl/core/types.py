"""Vocabulary shared by every layer (core): plain constants, no imports of tagcrawl.

Validation rules (``validationRules`` of a crawl request, docs/rules.md):
``condition`` is one of ``CONDITIONS`` and ``rule_type`` one of ``RULE_TYPES``;
a missing or null value means the default.  The schemas (core) validate with
these, the rules engine (``crawl/rules.py``, services) evaluates with them.
"""
from __future__ import annotations

CONDITIONS = ("OR", "AND")
RULE_TYPES = ("Pixel", "Cookie", "DataLayer", "Consent")
DEFAULT_CONDITION = "OR"
DEFAULT_RULE_TYPE = "Pixel"

#: Caps on caller input (422 from the API schema; docs/security.md): characters
#: per rule pattern or key, rules per request, segments of a dataLayer path.
PATTERN_MAX = 512
RULES_MAX = 100
PATH_SEGMENTS_MAX = 32

#: Stable codes of a crawl the service could not make (docs/api.md, "Status codes"): the
#: ``code`` of the ``ErrorMessage`` that ``POST /api/v1`` answers with 503 (the first four)
#: or 504 (``deadline_exceeded``), and of the stored or webhook CrawlResponse's ``error``.
SERVICE_ERROR_CODES = ("browser_unavailable", "grid_unreachable", "pool_busy", "egress_unavailable",
                       "deadline_exceeded")
