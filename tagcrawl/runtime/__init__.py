"""The runtime layer: how the service runs under gunicorn (its config and worker
hooks, gunicorn's own error answers as JSON, the warm-up of the ingestion path).
It may import every layer below; nothing imports it."""
