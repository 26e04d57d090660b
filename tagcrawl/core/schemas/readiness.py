"""The answer of ``GET /health/ready`` (200 and 503 alike), as JSON Schema components.

``openapi.py`` registers ``READINESS_COMPONENTS`` (name -> JSON Schema);
``web/views/health.py`` builds the answer (what each field means is its
module docstring).
"""
from __future__ import annotations

_STATE = {"$ref": "#/components/schemas/ServiceState"}

READINESS_COMPONENTS: dict[str, dict] = {
    "ServiceState": {"type": "string", "enum": ["ok", "unavailable"]},
    "Readiness": {"type": "object", "required": ["status", "database", "browsers"], "properties": {
        "status": {"type": "integer", "enum": [200, 503]},
        "database": _STATE,
        "stream": {"type": "object", "required": ["batches"], "properties": {"batches": {"type": "integer"}}},
        "browsers": {"type": "object", "required": ["state", "size", "alive", "idle"], "properties": {
            "state": _STATE, "size": {"type": "integer"}, "alive": {"type": "integer"},
            "idle": {"type": "integer"}}}}},
}
