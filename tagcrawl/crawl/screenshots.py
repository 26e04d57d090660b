"""Screenshot files: unguessable names under ``SCREENSHOT_DIR``, addressed
by ``SCREENSHOT_URL`` + name, or by the app's ``/screenshots/<name>``
(absolute with ``PUBLIC_URL``, else a path).

The address is built from settings only, never from the request: the
``Host`` header is whatever the caller sent, and a report (or the webhook
payload, or a stored crawl read later) must not point at a host the caller
chose.  Behind a proxy, set ``PUBLIC_URL`` to the address the proxy serves."""
from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from tagcrawl.core.settings import Settings

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{32,64}\.png$")


def screenshot_dir(settings: Settings) -> Path:
    """The directory screenshots are written to (created on demand)."""
    path = Path(settings.screenshot_dir or os.path.join(settings.instance_path, "screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def screenshot_base(settings: Settings) -> str:
    """The prefix of every screenshot URL, ending in ``/``: ``SCREENSHOT_URL``,
    else ``PUBLIC_URL`` + ``/screenshots/``, else ``/screenshots/`` (a path on this service)."""
    if settings.screenshot_url:
        return settings.screenshot_url.rstrip("/") + "/"
    return (settings.public_url or "").rstrip("/") + "/screenshots/"


def save_screenshot(settings: Settings, png: bytes) -> str:
    """Write ``png`` (bytes) under a random 256-bit name; return its URL,
    ``screenshot_base(settings)`` + name."""
    name = secrets.token_urlsafe(32) + ".png"
    (screenshot_dir(settings) / name).write_bytes(png)
    return screenshot_base(settings) + name
