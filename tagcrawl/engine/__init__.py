"""The engine layer: no Flask.  Chrome (``chrome``: building, pooling,
contexts, CDP), the capture hub (``capture``), the collectors, the identity
the browser presents, consent, blocking, the vendor catalog and matcher
(``vendors``), consent compliance, HAR and the egress proxy; ``scripts``
reads the JavaScript files they run in pages."""
