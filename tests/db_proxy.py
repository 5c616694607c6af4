"""A TCP proxy in front of the test PostgreSQL that the tests can make "lose" the database.

* :meth:`DbProxy.stop`: every connection through it is closed and the port refuses new
  ones, as when the database server stops or its host reboots;
* :meth:`DbProxy.freeze`: connections stay open and new ones are accepted, but no byte
  goes either way, as when the database process hangs (or a firewall drops packets
  after the handshake);
* :meth:`DbProxy.start`: the database is back.

It listens on 127.0.0.1 only and forwards only to the PostgreSQL address it is given.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class DbProxy:
    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = 0
        self.frozen = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.start()

    def start(self) -> None:
        """Listen (on the same port as before, once one was chosen) and forward."""
        self.frozen.clear()
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        """Refuse new connections and close every open one."""
        if self._listener is not None:
            # shutdown wakes the accept() in progress (a close alone leaves it listening)
            _shut(self._listener)
            self._listener.close()
            self._listener = None
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            _shut(sock)
            sock.close()

    def freeze(self) -> None:
        """Keep every connection open but forward nothing (new ones too)."""
        self.frozen.set()
        time.sleep(0.2)  # a pump in its last recv() forwards that, then stops

    def _keep(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            self._keep(client)
            if self.frozen.is_set():
                continue  # accepted, never answered
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            self._keep(server)
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        source.settimeout(0.05)
        while True:
            if self.frozen.is_set():
                self.frozen.wait(0.05)
                if source.fileno() < 0:
                    return
                continue
            try:
                data = source.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                data = b""
            if not data:
                _shut(source)
                _shut(target)
                return
            try:
                target.sendall(data)
            except OSError:
                return
