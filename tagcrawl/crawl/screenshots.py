"""Screenshot files: unguessable names under ``SCREENSHOT_DIR``, addressed
by ``SCREENSHOT_URL`` + name, or by the app's ``/screenshots/<name>``."""
from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{32,64}\.png$")


def screenshot_dir(config: dict) -> Path:
    """The directory screenshots are written to (created on demand)."""
    path = Path(config.get("SCREENSHOT_DIR") or os.path.join(config.get("INSTANCE_PATH", "."), "screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_screenshot(config: dict, png: bytes) -> str:
    """Write ``png`` (bytes) under a random 256-bit name; return its URL
    (absolute with ``SCREENSHOT_URL``, else the path ``/screenshots/<name>``)."""
    name = secrets.token_urlsafe(32) + ".png"
    (screenshot_dir(config) / name).write_bytes(png)
    base = config.get("SCREENSHOT_URL")
    return (base.rstrip("/") + "/" + name) if base else "/screenshots/" + name
