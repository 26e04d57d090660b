"""HTTP API of the stream side (placeholder until ingestion lands)."""
from flask import Blueprint

bp = Blueprint("stream", __name__, url_prefix="/stream")
