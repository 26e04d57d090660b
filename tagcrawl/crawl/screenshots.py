"""Screenshot files: unguessable names under ``SCREENSHOT_DIR``, addressed
by ``SCREENSHOT_URL`` + name, or by the app's ``/screenshots/<name>``."""
from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from ..settings import Settings

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{32,64}\.png$")


def screenshot_dir(settings: Settings) -> Path:
    """The directory screenshots are written to (created on demand)."""
    path = Path(settings.screenshot_dir or os.path.join(settings.instance_path, "screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_screenshot(settings: Settings, png: bytes) -> str:
    """Write ``png`` (bytes) under a random 256-bit name; return its URL
    (absolute with ``SCREENSHOT_URL``, else the path ``/screenshots/<name>``)."""
    name = secrets.token_urlsafe(32) + ".png"
    (screenshot_dir(settings) / name).write_bytes(png)
    base = settings.screenshot_url
    return (base.rstrip("/") + "/" + name) if base else "/screenshots/" + name
