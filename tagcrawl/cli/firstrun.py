"""The CLI before the database is ready: a command run before ``db upgrade``
(or on a database that cannot be reached) says so in one line and what to
run, instead of SQLAlchemy's traceback.

``guard_commands`` wraps every tagcrawl command once (``cli.register``);
``require_schema`` checks up front, for a command that would otherwise do
long work first (``flask crawl``).
"""
from __future__ import annotations

import contextlib
import functools

import click
from sqlalchemy.exc import OperationalError, ProgrammingError

HINT = "run: flask --app wsgi db upgrade"

#: PostgreSQL SQLSTATEs of a schema that is missing or older than the code:
#: undefined_table, undefined_column (https://www.postgresql.org/docs/current/errcodes-appendix.html).
_PG_SCHEMA_CODES = frozenset({"42P01", "42703"})
#: SQLite's messages for the same (sqlite3 has no error codes for them).
_SQLITE_SCHEMA_TEXT = ("no such table", "no such column")
_WRAPPED = "_tagcrawl_db_guard"


class DatabaseNotReady(click.ClickException):
    """The database lacks tagcrawl's schema, or cannot be reached; printed as
    ``Error: <message>``, exit status ``exit_code`` (1 unless the command says otherwise)."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return (text.splitlines() or [exc.__class__.__name__])[0][:200]


def explain(exc: OperationalError | ProgrammingError) -> str | None:
    """The one-line message for a database error a user can fix, or None.

    Args:
        exc: a SQLAlchemy ``OperationalError``/``ProgrammingError``.
    Returns:
        "the database has no tagcrawl schema, or an older one (<driver's line>); run: ..."
        for a missing table or column; "cannot use the database: <driver's line>" for
        any other ``OperationalError`` (connection refused, unreadable file);
        None for the rest (a bug: the traceback stays).
    """
    orig = getattr(exc, "orig", None)
    line = _first_line(exc)
    if getattr(orig, "pgcode", None) in _PG_SCHEMA_CODES or any(t in line for t in _SQLITE_SCHEMA_TEXT):
        return f"the database has no tagcrawl schema, or an older one ({line}); {HINT}"
    if isinstance(exc, OperationalError):
        return f"cannot use the database: {line}"
    return None


@contextlib.contextmanager
def database_errors(exit_code: int = 1):
    """Turn a database error the user can fix (``explain``) into
    ``DatabaseNotReady`` with ``exit_code``; other errors pass unchanged."""
    try:
        yield
    except (OperationalError, ProgrammingError) as exc:
        message = explain(exc)
        if message is None:
            raise
        raise DatabaseNotReady(message, exit_code) from None


def require_schema(exit_code: int = 1) -> None:
    """Check that the tables of stored crawls exist with every column the
    code reads (one ``SELECT ... LIMIT 0`` each).  Raises ``DatabaseNotReady``."""
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import Crawl, CrawlHar

    with database_errors(exit_code):
        for model in (Crawl, CrawlHar):
            db.session.execute(db.select(model).limit(0)).all()


def guard_commands(commands) -> None:
    """Wrap the callback of each command in ``commands`` (click commands or
    groups, walked to their leaves; the tree is at most the CLI's two levels)
    in ``database_errors``.  Idempotent: ``create_app`` runs once per app, the
    command objects are shared."""
    for command in commands:
        if isinstance(command, click.Group):
            guard_commands(command.commands.values())
        elif command.callback is not None and not getattr(command.callback, _WRAPPED, False):
            command.callback = _guarded(command.callback)


def _guarded(callback):
    @functools.wraps(callback)
    def run(*args, **kwargs):
        with database_errors():
            return callback(*args, **kwargs)

    setattr(run, _WRAPPED, True)
    return run
