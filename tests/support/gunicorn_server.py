"""Run tagcrawl under real gunicorn for lifecycle and concurrency tests."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """``gunicorn -c python:tagcrawl.runtime.gunicorn_conf wsgi:app`` in a subprocess.

    Args:
        env: extra environment (DATABASE_URL, TAGCRAWL_*).
        workers, threads: gunicorn settings.
        config: the gunicorn config (``python:<module>``); tagcrawl's own by default.
    """

    def __init__(self, env: dict, workers: int = 1, threads: int = 2,
                 config: str = "python:tagcrawl.runtime.gunicorn_conf"):
        self.config = config
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = dict(os.environ, PORT=str(self.port), WEB_CONCURRENCY=str(workers),
                        GUNICORN_THREADS=str(threads), PYTHONPATH=str(ROOT), **env)
        self.proc: subprocess.Popen | None = None
        self.log: list[str] = []

    def flask(self, *args: str) -> str:
        result = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], env=self.env,
                                cwd=ROOT, check=True, capture_output=True, text=True)
        return result.stdout

    def start(self) -> "Gunicorn":
        """Start gunicorn and return once it serves: the master's "Listening
        at" log line says the socket is bound (read from its stderr, no
        polling); the first request then waits in the backlog for a worker."""
        self.proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", self.config,
                                      "--bind", f"127.0.0.1:{self.port}", "wsgi:app"],
                                     env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
        for line in self.proc.stderr:
            self.log.append(line)
            if "Listening at" in line:
                break
        else:
            raise RuntimeError("gunicorn exited during start-up:\n" + "".join(self.log))
        threading.Thread(target=lambda: self.log.extend(self.proc.stderr), daemon=True).start()
        with urllib.request.urlopen(self.base + "/", timeout=60) as resp:
            assert json.load(resp) == {"status": 200}
        return self

    def post(self, path: str, body: dict, key: str, timeout_s: float = 60) -> dict:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "x-api-key": key})
        with urllib.request.urlopen(request, timeout=timeout_s) as resp:
            return json.load(resp)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=60)
