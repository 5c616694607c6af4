"""Helpers for the server tests: in-process clients and real uvicorn processes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from starlette.testclient import TestClient

from cfgpatch.limits import ServiceLimits
from cfgpatch.server import Limits, create_app, parse_tokens
from cfgpatch.service import Service
from cfgpatch.store.sqlite import SQLiteStore

JSON = {"content-type": "application/json"}
JSON_PATCH = {"content-type": "application/json-patch+json"}
MERGE_PATCH = {"content-type": "application/merge-patch+json"}


def client_for(tmp_path: Path, *, tokens: str | None = None, limits: Limits | None = None,
               service_limits: ServiceLimits | None = None, base_url: str = "http://localhost",
               **options) -> TestClient:
    """A test client over a fresh SQLite-backed app (requests to ``localhost``)."""
    store = SQLiteStore(tmp_path / "api.db")
    table = parse_tokens(tokens) if tokens else None
    app = create_app(Service(store, limits=service_limits), tokens=table, limits=limits,
                     **options)
    return TestClient(app, raise_server_exceptions=False, base_url=base_url)


def put_document(client: TestClient, name: str, doc, **headers: str):
    """``PUT /v1/documents/NAME`` of ``doc`` as JSON; ``if_match=`` is sent as ``if-match``."""
    return client.put(f"/v1/documents/{name}", content=json.dumps(doc),
                      headers={**JSON, **_header_names(headers)})


def patch_document(client: TestClient, name: str, ops, *, merge: bool = False, **headers: str):
    """``PATCH /v1/documents/NAME``: a JSON Patch, or a merge patch with ``merge=True``."""
    kind = MERGE_PATCH if merge else JSON_PATCH
    return client.patch(f"/v1/documents/{name}", content=json.dumps(ops),
                        headers={**kind, **_header_names(headers)})


def _header_names(headers: dict[str, str]) -> dict[str, str]:
    return {name.replace("_", "-"): value for name, value in headers.items()}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """``cfgpatch serve`` in a child process on a free loopback port."""

    def __init__(self, store_url: str, *extra: str, port: int | None = None,
                 log: Path | None = None, env: dict[str, str] | None = None,
                 access_log: bool = False) -> None:
        self.log = log
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.quiet = () if access_log else ("--no-access-log",)
        for attempt in range(3):  # a free port can be taken before the server binds it
            self.port = port or free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self._start(store_url, extra)
            try:
                self.wait_ready()
                return
            except RuntimeError:
                if port is not None or attempt == 2 or self.proc.poll() is None:
                    raise

    def _start(self, store_url: str, extra: tuple[str, ...]) -> None:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cfgpatch", "serve", "--port", str(self.port),
             "--store", store_url, "--log-level", "warning", *self.quiet, *extra],
            stdout=out, stderr=out, env=self.env,
        )
        if self.log:
            out.close()

    def wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                detail = self.log.read_text() if self.log else ""
                raise RuntimeError(f"server exited with {self.proc.returncode}: {detail}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server on port {self.port} did not come up in {timeout}s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush beyond what was committed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
