"""A throw-away PostgreSQL cluster for the tests (Debian's server binaries).

``PgServer.start()`` runs initdb on a temporary directory and starts the
server on a free loopback port; ``stop()``/``start_again()`` let fault tests
take the database away mid-test.  Tests run it with ``fsync=off`` (speed);
``PgServer(durable=True)`` keeps PostgreSQL's production settings
(``fsync=on``, ``synchronous_commit=on``) and is what the benchmarks use.  As root, the server runs as the ``postgres``
user (PostgreSQL refuses to run as root).
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile


def pg_bin() -> str | None:
    """Directory of initdb/pg_ctl, newest major version first, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]), reverse=True)
    if found:
        return os.path.dirname(found[0])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One cluster; ``durable``: fsync and synchronous commit on (benchmarks), else fsync off."""

    def __init__(self, durable: bool = False):
        self.durable = durable
        self.bin = pg_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL server binaries not found (apt-get install postgresql)")
        self.dir = tempfile.mkdtemp(prefix="tagcrawl-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
            os.chmod(self.dir, 0o755)

    def _run(self, *args: str) -> None:
        cmd = [os.path.join(self.bin, args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.dir)

    @property
    def user(self) -> str:
        return "postgres" if self.as_root else os.environ.get("USER", "postgres")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg2://{self.user}@127.0.0.1:{self.port}/{database}"

    def start(self) -> "PgServer":
        self._run("initdb", "-D", self.data, "-A", "trust", "-U", self.user, "-E", "UTF8", "--no-sync")
        self.start_again()
        return self

    def start_again(self) -> None:
        durability = "-c fsync=on -c synchronous_commit=on" if self.durable else "-c fsync=off"
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 {durability} -c max_connections=200"
        self._run("pg_ctl", "-D", self.data, "-o", opts, "-l", os.path.join(self.dir, "log"), "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def create_database(self, name: str) -> str:
        import psycopg2

        conn = psycopg2.connect(self.url().replace("+psycopg2", ""))
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cur.execute(f'CREATE DATABASE "{name}"')
        conn.close()
        return self.url(name)

    def durability(self) -> str:
        """``"fsync=on synchronous_commit=on"`` as the running server reports them (``SHOW``)."""
        import psycopg2

        conn = psycopg2.connect(self.url().replace("+psycopg2", ""))
        try:
            with conn.cursor() as cur:
                values = []
                for name in ("fsync", "synchronous_commit"):
                    cur.execute(f"SHOW {name}")
                    values.append(f"{name}={cur.fetchone()[0]}")
        finally:
            conn.close()
        return " ".join(values)

    def destroy(self) -> None:
        try:
            self.stop()
        except Exception:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
