"""Consent: find the banner (``flow``, ``scan.js``), choose and click accept
or reject and verify it (``choice``; the outcome and its typed evidence in
``result``), the known CMPs (one data file each, ``cmps/<slug>.json``) and the
multilingual vocabulary (one file per language, ``words/<lang>.json``),
loaded and validated by ``rules`` against ``schema``, the page scripts
(``scripts``), and the consent signals of every frame (``signals``: TCF, US
Privacy, GPP)."""
