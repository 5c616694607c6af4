"""``python -m cfgpatch``: the same as the ``cfgpatch`` command."""

from .cli.console import run

run()
