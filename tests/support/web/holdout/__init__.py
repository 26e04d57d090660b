"""The hold-out set of the long-tail benchmark (``bench/long_tail.py --holdout``): fixture pages
built from npm code that tagcrawl has never seen (the hold-out CMP libraries and the hold-out
vendors' SDKs, /work/wt/HOLDOUT.md), with their truth (``sites/<host>/truth.json``).  Pages are
served from ``sites/`` here, not from ``tests/support/web/sites/``, so that nobody tuning
tagcrawl reads them; no test opens them, only the bench, once, at the end."""
