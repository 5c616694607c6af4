"""Running the external ``helm`` for ``kube build --enable-helm`` (a process: outside
the core, which also runs in the browser).

:class:`SubprocessHelm` answers as Go's ``os/exec`` words its failures, so the build's
error reads as ``kubectl kustomize``'s (``exec: "helm": executable file not found in
$PATH``, ``fork/exec /x/helm: no such file or directory``, ``exit status 1``).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile

from ..kube.kustomize.helm_options import HelmProcess, install_runner


class SubprocessHelm:
    """:class:`~cfgpatch.kube.kustomize.helm_options.HelmProcess` with :mod:`subprocess`."""

    def make_temp_dir(self) -> str:
        while True:  # Go's os.MkdirTemp: the prefix and a random number
            path = os.path.join(tempfile.gettempdir(),
                                f"kustomize-helm-{random.randrange(1, 1 << 32)}")
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                continue
            return path

    def write_file(self, path: str, data: bytes) -> None:
        with open(path, "wb") as handle:
            handle.write(data)

    def remove_tree(self, path: str) -> None:
        shutil.rmtree(path, ignore_errors=True)

    def run(self, command: str, args: list[str], env: dict[str, str]
            ) -> tuple[int, bytes, bytes]:
        if "/" not in command and shutil.which(command) is None:
            return -1, b"", f'exec: "{command}": executable file not found in $PATH'.encode()
        try:
            done = subprocess.run([command, *args], env={**os.environ, **env},
                                  capture_output=True, check=False)
        except OSError as err:
            reason = (err.strerror or str(err)).lower()
            return -1, b"", f"fork/exec {command}: {reason}".encode()
        if done.returncode < 0:
            name = signal.Signals(-done.returncode).name.lower().removeprefix("sig")
            return -1, done.stdout, f"signal: {_SIGNALS.get(name, name)}".encode()
        return done.returncode, done.stdout, done.stderr


#: Go's names of the usual signals.
_SIGNALS = {"kill": "killed", "term": "terminated", "segv": "segmentation fault",
            "int": "interrupt", "abrt": "aborted"}


def install() -> HelmProcess:
    """Install the subprocess runner for every build of this process; it is returned."""
    runner = SubprocessHelm()
    install_runner(runner)
    return runner
