"""The hold-out set of the long-tail benchmark (``bench/long_tail.py --holdout``): fixture pages
built from npm code that tagcrawl has never seen, with their truth (``truth.json``).  Pages are
served from ``sites/`` here, not from ``tests/support/web/sites/``, so that nobody tuning
tagcrawl reads them; no test runs them, only the bench, at the end."""
