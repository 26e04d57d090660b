"""The version of tagcrawl (core: imported by the OpenAPI document and tag.js without loading the app)."""

__version__ = "0.1.0"
