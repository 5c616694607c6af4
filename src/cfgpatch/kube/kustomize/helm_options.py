"""How a build runs helm: the options of ``kubectl kustomize``'s helm flags and the
process that runs the binary (:class:`HelmProcess`, given to a build or installed once by
the command line).  Apart from :mod:`.helm`, which inflates the charts, so that a build
without ``helmCharts:`` does not import it.  Standard library only.
"""

from __future__ import annotations

from ...protocols import Protocol
from ...records import dataclass, field

__all__ = ["HelmOptions", "HelmProcess", "install_runner", "runner_installed"]


class HelmProcess(Protocol):
    """What inflating a chart needs from the machine."""

    def make_temp_dir(self) -> str:
        """A new empty folder (kustomize's ``kustomize-helm-*``)."""

    def write_file(self, path: str, data: bytes) -> None:
        """Write a values file."""

    def remove_tree(self, path: str) -> None:
        """Remove a folder made by :meth:`make_temp_dir`."""

    def run(self, command: str, args: list[str], env: dict[str, str]) -> tuple[int, bytes, bytes]:
        """Run ``command`` with ``args`` and ``env`` added to the environment: exit code,
        standard output, standard error (a command that cannot start: a negative code
        and Go's ``exec`` error text as standard error)."""


_installed: list[HelmProcess] = []


def install_runner(runner: HelmProcess) -> None:
    """Make ``runner`` the one builds use when they are given none."""
    _installed[:] = [runner]


class runner_installed:  # noqa: N801 (used as a function: ``with runner_installed(r):``)
    """Within the block, ``runner`` is the one builds use when they are given none (the
    one installed before comes back after it)."""

    __slots__ = ("_runner", "_saved")

    def __init__(self, runner: HelmProcess) -> None:
        self._runner = runner
        self._saved: list[HelmProcess] = []

    def __enter__(self) -> None:
        self._saved = list(_installed)
        _installed[:] = [self._runner]

    def __exit__(self, *_exc: object) -> None:
        _installed[:] = self._saved


@dataclass
class HelmOptions:
    """``kubectl kustomize``'s helm flags."""

    enabled: bool = False
    command: str = "helm"
    api_versions: tuple[str, ...] = ()
    kube_version: str = ""
    debug: bool = False
    runner: HelmProcess | None = field(default=None, repr=False)

    def process(self) -> HelmProcess | None:
        return self.runner if self.runner is not None else (
            _installed[0] if _installed else None)
