"""Settings that point Chrome at the fixture web (browser tests only)."""
from __future__ import annotations

import shutil

from .needs import missing


def browser_config(web, tmp_path) -> dict:
    """App settings (Flask-style dict) for crawling the fixture web ``web``
    (a ``FixtureWeb``), screenshots under ``tmp_path``.  Skips the test, or fails
    it in CI, when Chromium or ChromeDriver is not installed."""
    if not (shutil.which("chromium") or shutil.which("google-chrome")) or not shutil.which("chromedriver"):
        missing("Chromium/ChromeDriver")
    return {"CHROME_ARGS": web.chrome_args(), "ALLOW_PRIVATE_TARGETS": True, "QUIET_MS": 400,
            "SCREENSHOT_DIR": str(tmp_path / "shots"), "POOL_SIZE": 2}
