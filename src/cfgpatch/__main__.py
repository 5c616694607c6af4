"""``python -m cfgpatch``: the same as the ``cfgpatch`` command."""

import sys

from .cli import main

sys.exit(main())
