"""The HTML report of an audit (tagcrawl/web/views/audit_html.py) in real Chromium, opened through a
shared link: the tables are there, and page-supplied markup (a cookie name, a URL, an error message
holding ``<script>`` / ``onerror``) is shown as text and never runs.

With ``TAGCRAWL_DOCS_SCREENSHOT=1`` the page's screenshot is written to docs/img/audit-report.png
(the README's picture); otherwise to the test's temporary folder.
"""
from __future__ import annotations

import os
import shutil
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tests.support.audit_pages import Row, cookie, crawl_response, page_result, pixel, site
from tests.support.config import settings

DOCS_PNG = Path(__file__).resolve().parents[2] / "docs" / "img" / "audit-report.png"
SCRIPT = "<script>window.__pwned = 'script'</script>"
IMG = "<img src=x onerror=\"window.__pwned = 'img'\">"


def _store(app, api_key_hash_owner: str) -> str:
    """An audit of the synthetic site plus one hostile page, as the runner would store it."""
    from tagcrawl.audit.config import canonical_body, config_hash
    from tagcrawl.core.models import ApiKey

    body = canonical_body({"startUrls": ["https://shop.example/"], "consentActions": ["accept", "reject"],
                           "expectations": [{"type": "vendorOnEveryPage", "vendor": "ga4",
                                             "pages": "https://shop.example/*"},
                                            {"type": "noPixelBeforeConsent"}]})
    hostile = "https://shop.example/q?x=" + SCRIPT
    rows = site() + [Row(hostile, "accept", "done", dict(page_result(crawl_response(
        hostile, pixels=[pixel("ga4", "G-SHOP1")], cookies=[cookie(SCRIPT, ".shop.example", None)])),
        error=IMG))]
    with app.app_context():
        key = db.session.scalars(db.select(ApiKey).filter_by(name=api_key_hash_owner)).one()
        now = datetime.now(timezone.utc)
        audit = Audit(api_key_id=key.id, status="done", config=body, config_hash=config_hash(body),
                      started_at=now - timedelta(minutes=1), finished_at=now)
        db.session.add(audit)
        db.session.flush()
        for row in rows:
            db.session.add(AuditPage(audit_id=audit.id, url=row.url, scenario=row.scenario, status=row.status,
                                     reason=row.reason, result=row.result, started_at=row.started_at,
                                     finished_at=row.finished_at))
        db.session.commit()
        return audit.id


@pytest.mark.browser
def test_the_html_report_in_chromium(app, api_key, private_pool, tmp_path):
    from selenium.webdriver.common.by import By

    from tagcrawl.engine.chrome.pool import get_pool

    audit_id = _store(app, "tests")
    link = app.test_client().post(f"/api/v1/audits/{audit_id}/share",
                                  headers={"x-api-key": api_key}).get_json()["htmlUrl"]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    png = tmp_path / "audit-report.png"
    try:
        with get_pool(settings(private_pool(POOL_SIZE=1))).browser() as handle:
            driver = handle.driver
            driver.set_window_size(1400, 1600)
            # localhost: the only host name that Chrome does not send to the fixture web
            driver.get(f"http://localhost:{server.server_port}{link}")
            driver.find_element(By.ID, "coverage")  # the page is loaded
            tables = {t.get_attribute("id"): len(t.find_elements(By.TAG_NAME, "tr"))
                      for t in driver.find_elements(By.TAG_NAME, "table")}
            headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#coverage th")]
            cookies_text = driver.find_element(By.ID, "cookies").text
            coverage_text = driver.find_element(By.ID, "coverage").text
            pwned = driver.execute_script("return window.__pwned === undefined ? null : window.__pwned")
            injected = driver.execute_script("return document.querySelectorAll('td script, td img').length")
            driver.save_screenshot(str(png))
            driver.get("about:blank")
    finally:
        server.shutdown()
    assert pwned is None and injected == 0
    assert tables["coverage"] == 1 + 17 and tables["expectations"] == 3
    assert headers == ["Page", "Scenario", "HTTP", "ga4:G-SHOP1", "meta:111222333", "Crawl"]
    assert SCRIPT in cookies_text  # shown as text
    assert IMG in coverage_text
    assert png.stat().st_size > 10_000
    if os.environ.get("TAGCRAWL_DOCS_SCREENSHOT") == "1":
        shutil.copyfile(png, DOCS_PNG)
