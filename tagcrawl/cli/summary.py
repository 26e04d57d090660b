"""The short human summary ``flask crawl`` prints without ``--json``: the
outcome, the pixels (vendor, account id, consent phase), consent, cookies,
rules and errors, read from the CrawlResponse dict (docs/api.md)."""
from __future__ import annotations


def first_line(text: str | None) -> str | None:
    """The first line of ``text`` (a browser error can carry ChromeDriver's
    stack trace; the summary and stderr show its first line, ``--json`` all of it)."""
    return text.strip().splitlines()[0] if text and text.strip() else text


def _consent_line(response: dict) -> str:
    button = response.get("button") or {}
    consent = response.get("consent") or {}
    if not (button.get("consent_banner") or consent.get("banner")):
        return "consent: no banner found"
    parts = [f"banner of {consent['cmp']}" if consent.get("cmp") else "banner found"]
    action = consent.get("action")
    clicked = consent.get("button_text") or button.get("button_text")
    if action and action != "none":
        parts.append(f"{action}: {clicked!r}" if clicked else f"{action}: no button clicked")
        parts.append("verified" if consent.get("verified") else "not verified")
    if consent.get("violations"):
        parts.append(f"{len(consent['violations'])} violations after the refusal")
    return "consent: " + ", ".join(parts)


def summary_lines(response: dict, failure: str | None) -> list[str]:
    """Lines of the summary (at most the report's own caps: one per pixel,
    ``LIST_MAX`` at most, plus six).

    Args:
        response: the CrawlResponse dict (``CrawlOutcome.response``).
        failure: None on success, else ``"page"`` or ``"service"`` (``crawl.outcome.FailureKind``).
    """
    outcome = "success" if failure is None else f"FAILED ({failure})"
    lines = [f"{response.get('url')}: {outcome} in {response.get('timeTaken')} ms"]
    pixels = response.get("marketingPixels") or []
    lines.append(f"pixels: {len(pixels)}")
    for pixel in pixels:
        warnings = "; ".join(pixel.get("warnings") or [])
        lines.append(f"  {pixel.get('vendor')}\t{pixel.get('account_id') or '-'}\t{pixel.get('consent') or '-'}"
                     + (f"\t({warnings})" if warnings else ""))
    lines.append(_consent_line(response))
    before, after = response.get("cookiesBefore"), response.get("cookiesAfter")
    lines.append(f"cookies: {'-' if before is None else before} before consent, {'-' if after is None else after} after")
    results = response.get("validationResults") or []
    if results:
        passed = sum(1 for result in results if result.get("success"))
        lines.append(f"rules: {passed} of {len(results)} passed")
    error = (response.get("error") or {}).get("message")
    lines.append(f"error: {first_line(error)}" if error else "error: none")
    message = response.get("message")
    if message and message != error:
        lines.append(f"note: {first_line(message)}")
    return lines
