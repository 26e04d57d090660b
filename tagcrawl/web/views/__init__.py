"""The views: one module per resource (crawl, stream, events, tag, docs,
health), each a flask-smorest blueprint that ``web.register`` mounts."""
