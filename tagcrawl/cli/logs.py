"""What a CLI command leaves on stderr: tagcrawl's own warnings and errors,
not the libraries' chatter (selenium, urllib3, proxy.py, werkzeug, Python
warnings), unless ``--verbose`` asks for every log line."""
from __future__ import annotations

import contextlib
import logging

#: Loggers whose records a quiet command keeps (``tagcrawl`` and its children).
OWN = "tagcrawl"


def _own(name: str) -> bool:
    return name == OWN or name.startswith(OWN + ".")


class _OwnOnly(logging.Filter):
    """Pass tagcrawl's records, drop every other logger's."""

    def filter(self, record: logging.LogRecord) -> bool:
        return _own(record.name)


_ONLY_OWN = _OwnOnly()


@contextlib.contextmanager
def command_logging(verbose: bool, level: str = "INFO"):
    """Logging for the duration of one CLI command, restored on exit (a
    command run in-process, e.g. by a test runner, leaves no trace).

    Args:
        verbose: every logger's records from ``level`` up go to stderr
            (``TAGCRAWL_LOG_LEVEL``, ``Settings.log_level``); else tagcrawl's
            own from WARNING up, and nothing of the libraries, whether they log
            through the root logger's handlers or through handlers of their own.
        level: the level name of the verbose mode.
    """
    root, own = logging.getLogger(), logging.getLogger(OWN)
    saved = (root.level, own.level)
    added = None
    if not root.handlers:  # create_app's basicConfig normally made one
        added = logging.StreamHandler()
        root.addHandler(added)
    filtered: list[logging.Handler] = []
    capturing = getattr(logging, "_warnings_showwarning", None) is not None
    if verbose:
        root.setLevel(level)
    else:
        logging.captureWarnings(True)  # Python warnings become "py.warnings" records, dropped below
        root.setLevel(logging.WARNING)
        own.setLevel(logging.WARNING)
        filtered = list(root.handlers) + [  # bounded: the loggers created so far
            handler for name, logger in list(logging.root.manager.loggerDict.items())
            if isinstance(logger, logging.Logger) and not _own(name) for handler in logger.handlers]
        for handler in filtered:
            handler.addFilter(_ONLY_OWN)
    try:
        yield
    finally:
        for handler in filtered:
            handler.removeFilter(_ONLY_OWN)
        if not capturing:
            logging.captureWarnings(False)
        root.setLevel(saved[0])
        own.setLevel(saved[1])
        if added is not None:
            root.removeHandler(added)
