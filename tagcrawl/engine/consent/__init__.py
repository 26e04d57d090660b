"""Consent: find the banner (``flow``, ``consent_scan.js``), choose and click
accept or reject and verify it (``choice``), the known CMPs' rules and the
multilingual vocabulary (data), and the consent signals of every frame
(``signals``: TCF, US Privacy, GPP)."""
