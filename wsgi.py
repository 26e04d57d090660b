"""WSGI entry point: ``gunicorn wsgi:app`` and ``flask --app wsgi``."""
from tagcrawl import create_app

app = create_app()
