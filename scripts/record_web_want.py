#!/usr/bin/env python3
"""Record kubectl 1.32's answers for the page's "write the patch" mode.

For every case of ``scripts/want_cases.py`` and every patch type the mode gives, the
patch cfgpatch computes (``cfgpatch.web.wantmode``) is handed to the real
``kubectl.1.32 patch --local -f obj.yaml --type T -p PATCH -o json``; its answer is stored
in ``tests/data/web/want/recorded.jsonl`` with the patch, so the test can check offline
that the patches are still the same and that kubectl turned the object into the wanted one.

    .venv/bin/python scripts/record_web_want.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from want_cases import CASES  # noqa: E402

from cfgpatch.web.wantmode import compute_want  # noqa: E402

OUT = ROOT / "tests" / "data" / "web" / "want" / "recorded.jsonl"


def kubectl_binary() -> str:
    found = shutil.which("kubectl.1.32")
    if found:
        return found
    plain = shutil.which("kubectl")
    if plain is None:
        sys.exit("kubectl is not on PATH")
    return str(Path(plain).resolve().parent / "kubectl.1.32")


def run_kubectl(binary: str, object_text: str, patch_text: str, patch_type: str) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.yaml").write_text(object_text)
        done = subprocess.run([binary, "patch", "--local", "-f", "obj.yaml", "--type",
                               patch_type, "-p", patch_text, "-o", "json"], cwd=folder,
                              capture_output=True, text=True, timeout=60)
    return {"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def main() -> None:
    binary = kubectl_binary()
    lines = []
    for case_id, obj, wanted in CASES:
        data = compute_want(obj, wanted)
        for patch_type, made in data["patches"].items():
            if not made["ok"]:
                lines.append({"id": case_id, "type": patch_type, "patch": None,
                              "refused": made["plain"]})
                continue
            answer = run_kubectl(binary, obj, made["text"], patch_type)
            lines.append({"id": case_id, "type": patch_type, "patch": made["text"],
                          "kubectl": answer})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines))
    print(f"{len(lines)} answers recorded in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
