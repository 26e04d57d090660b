"""Placeholder, filled below."""
def route(host, path, query, method, body, headers, web):
    return None
