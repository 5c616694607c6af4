"""The data files a package ships in its ``data/`` folder, as text.

Read directly when the package is a folder (the usual case, without importlib.resources'
start-up cost), through importlib.resources when it is zipped (the page's Pyodide).
"""

from __future__ import annotations

import os
import sys


def read_text(module: str, name: str) -> str:
    """``data/NAME`` in the package of the module named ``module`` (its ``__name__``)."""
    loaded = sys.modules[module]
    try:
        folder = os.path.dirname(getattr(loaded, "__file__", None) or "")
        with open(os.path.join(folder, "data", name), "rb") as f:
            data = f.read()
    except OSError:
        from importlib import resources

        package = loaded.__package__ or module.rpartition(".")[0]
        return resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    text = data.decode("utf-8")  # (whole: a text-mode file decodes 8 KB at a time)
    if "\r" in text:  # universal newlines, as a text-mode read gives them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
