"""Running real kubectl on a local file, for the live differential tests."""

from __future__ import annotations

import subprocess


def kubectl_patch_local(kubectl: str, folder: str, patch_type: str,
                        patch_text: str) -> subprocess.CompletedProcess:
    """``kubectl patch --local -f doc.json --type T -p PATCH -o json`` run in ``folder``."""
    return subprocess.run([kubectl, "patch", "--local", "-f", "doc.json", "--type", patch_type,
                           "-p", patch_text, "-o", "json"], cwd=folder,
                          capture_output=True, text=True, timeout=60)
