#!/usr/bin/env python3
"""Write ``src/cfgpatch/web/data/versions.json`` (package data, read by
``cfgpatch.web.versions_table``): where kubectl 1.27-1.33 answer a strategic
``patch --local`` differently from kubectl 1.32, from the recorded corpora
(``tests/data/kube/older-gvks`` and ``tests/data/kube/schema-shapes``, recorded by
``scripts/probe_kube_gvks.py`` and ``scripts/record_kube_schema_shapes.py`` from the real
binaries).  The page (``cfgpatch.web.versions``) says so when the current input touches
one of these kinds or fields.

    .venv/bin/python scripts/gen_web_versions.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ("tests/data/kube/older-gvks/cases.jsonl", "tests/data/kube/schema-shapes/cases.jsonl")
OUT = ROOT / "src" / "cfgpatch" / "web" / "data" / "versions.json"
REFERENCE = "1.32"


def _said(answer: dict) -> str:
    if answer.get("exit_code") == 0:
        return "exit 0"
    return (answer.get("stderr") or "").strip().splitlines()[0] if answer.get("stderr") else \
        f"exit {answer.get('exit_code')}"


def main() -> None:
    messages: list[str] = []
    table: dict[tuple[str, str, str], dict[str, int]] = {}
    for corpus in CORPORA:
        for line in (ROOT / corpus).read_text().splitlines():
            case = json.loads(line)
            if "strategic" not in case["argv"]:
                continue
            answers = case["kubectl"]
            reference = _said(answers[REFERENCE])
            differ = {}
            for version, answer in sorted(answers.items()):
                said = _said(answer)
                if version != REFERENCE and said != reference:
                    if said not in messages:
                        messages.append(said)
                    differ[version] = messages.index(said)
            if differ:
                if reference not in messages:
                    messages.append(reference)
                differ[REFERENCE] = messages.index(reference)
                key = (case["api_version"], case["kind"], case["path"])
                table.setdefault(key, {}).update(differ)
    rows = [[*key, value] for key, value in sorted(table.items())]
    text = json.dumps({"generated_by": "scripts/gen_web_versions.py", "reference": REFERENCE,
                       "messages": messages, "differences": rows}, indent=0,
                      ensure_ascii=False) + "\n"
    OUT.write_text(text)
    print(f"{len(table)} differing cases, {len(messages)} messages -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
