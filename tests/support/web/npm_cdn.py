"""Published npm packages, served unmodified as a public npm CDN serves them.

``https://cdn.jsdelivr.net/npm/<name>@<version>/<file>`` and
``https://unpkg.com/<name>@<version>/<file>`` answer with ``<file>`` from
``tests/support/web/npm/node_modules/<name>`` when ``<version>`` is the installed one
(the pins are in ``tests/support/web/npm/package.json``; ``make npm-fixtures`` installs
them).  A request for any other package or version is left to the other
fixture-web routes (older fixture pages emulate some CDN scripts).  Fixture pages load the vendors' and CMP authors' own code this way, so
nothing on them imitates anything.
"""
from __future__ import annotations

import json
import mimetypes
from pathlib import Path

NPM_ROOT = Path(__file__).with_name("npm") / "node_modules"
HOSTS = {"cdn.jsdelivr.net": "/npm/", "unpkg.com": "/"}
_CORS = {"Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=31536000"}


def installed() -> bool:
    """True when ``make npm-fixtures`` has installed the pinned packages."""
    return (NPM_ROOT / ".package-lock.json").is_file()


def package_version(name: str) -> str | None:
    """Installed version of npm package ``name`` (e.g. ``"posthog-js"``), or None."""
    try:
        return json.loads((NPM_ROOT / name / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def cdn_url(name: str, file: str) -> str:
    """``https://cdn.jsdelivr.net/npm/<name>@<installed version>/<file>``.

    Raises:
        LookupError: the package is not installed.
    """
    version = package_version(name)
    if version is None:
        raise LookupError(f"npm package {name} is not installed: run `make npm-fixtures`")
    return f"https://cdn.jsdelivr.net/npm/{name}@{version}/{file.lstrip('/')}"


def _split(spec: str) -> tuple[str, str, str] | None:
    """``@scope/name@1.2.3/dist/x.js`` -> (name, version, file)."""
    scope = ""
    if spec.startswith("@"):
        scope, _, spec = spec.partition("/")
        scope += "/"
    head, _, file = spec.partition("/")
    name, _, version = head.partition("@")
    if not name or not version or not file:
        return None
    return scope + name, version, file


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None when the host is not an npm CDN."""
    prefix = HOSTS.get(host)
    if prefix is None or not path.startswith(prefix):
        return None
    parts = _split(path[len(prefix):])
    not_found = (404, {"Content-Type": "text/plain", **_CORS}, b"Couldn't find the requested file.")
    if parts is None:
        return not_found
    name, version, file = parts
    if package_version(name) != version:
        return None
    root = (NPM_ROOT / name).resolve()
    target = (root / file).resolve()
    if not str(target).startswith(str(root) + "/") or not target.is_file():
        return not_found
    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if target.suffix in (".js", ".mjs", ".cjs"):
        kind = "application/javascript; charset=utf-8"
    return 200, {"Content-Type": kind, **_CORS}, target.read_bytes()
