"""``cfgpatch lint``'s human output on a repository with many Flux Kustomizations: the
``flux-substitution`` notes are summarised in one block (``--show-notes`` lists them), the
machine formats keep every finding, and the exit status does not change.

The repository (written by :func:`_repository`): five Flux Kustomizations whose objects
keep a ``${DOMAIN}`` after the build, one whose ``spec.path`` holds ``${CLUSTER}``, two of
another source whose path is not here (``flux-other-source``, two notes: listed in full),
and a kustomization where a field is set twice (a warning).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cfgpatch.cli import main
from cfgpatch.lint.rules import rule

TREES = Path(__file__).resolve().parent / "data" / "lint" / "trees"

FLUX = """\
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: {name}
  namespace: flux-system
spec:
  interval: 1h
  path: {path}
  postBuild:
    substitute: {{DOMAIN: example.org}}
  sourceRef: {{kind: GitRepository, name: {source}}}
"""
CONFIG = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  host: {name}.${{DOMAIN}}\n"


def _repository(root: Path) -> Path:
    apps = []
    for n in range(1, 6):
        (root / f"apps/app{n}").mkdir(parents=True)
        (root / f"apps/app{n}/config.yaml").write_text(CONFIG.format(name=f"app{n}"))
        apps.append(FLUX.format(name=f"app{n}", path=f"./apps/app{n}", source="flux-system"))
    apps.append(FLUX.format(name="web", path="./apps/${CLUSTER}/web", source="flux-system"))
    apps += [FLUX.format(name=f"tenant{n}", path=f"./tenant{n}", source="tenants")
             for n in (1, 2)]
    (root / "clusters/main").mkdir(parents=True)
    (root / "clusters/main/apps.yaml").write_text("".join(apps))
    shutil.copytree(TREES / "field-set-twice", root / "checkout")
    return root


def lint(root: Path, *args: str, capsys) -> tuple[int, str]:
    code = main(["lint", "--no-kubectl", "--root", str(root), "--disable", "ssa-stuck-field",
                 *args])
    return code, capsys.readouterr().out


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return _repository(tmp_path)


def test_the_notes_of_many_flux_kustomizations_are_one_block(repo, capsys):
    code, out = lint(repo, capsys=capsys)
    assert code == 0
    assert out.endswith(
        "notes summarised (--show-notes lists each):\n"
        f"  flux-substitution  6 notes: {rule('flux-substitution').short} (1 of them name "
        "what was not linted at all)\n"
        "    clusters/main/apps.yaml:10:3\n"
        "    clusters/main/apps.yaml:22:3\n"
        "    clusters/main/apps.yaml:34:3\n"
        "    and 3 more\n"
        "\n"
        "9 findings (0 errors, 1 warning, 8 notes) in 2 files; 2 patches checked "
        "(5 Flux Kustomizations, 1 kustomization)\n")
    assert "  6:3  warning  field-set-twice\n" in out  # a warning: in full
    assert out.count("  note  flux-other-source\n") == 2  # two notes: in full
    assert "  note  flux-substitution\n" not in out


def test_show_notes_and_fail_on_note_list_every_note(repo, capsys):
    code, shown = lint(repo, "--show-notes", capsys=capsys)
    assert code == 0
    assert "notes summarised" not in shown
    assert shown.count("  note  flux-substitution\n") == 6
    assert shown.count(f"    help: {rule('flux-substitution').help}\n") == 6
    assert "spec.path './apps/${CLUSTER}/web' holds a variable" in shown
    code, failing = lint(repo, "--fail-on", "note", capsys=capsys)
    assert code == 1
    assert failing == shown  # notes that fail the run are each shown


def test_the_exit_status_is_the_same_folded_or_not(repo, capsys):
    for extra in ((), ("--show-notes",)):
        assert lint(repo, *extra, capsys=capsys)[0] == 0
        assert lint(repo, "--fail-on", "warning", *extra, capsys=capsys)[0] == 1
        assert lint(repo, "--fail-on", "never", *extra, capsys=capsys)[0] == 0


def test_json_sarif_and_github_keep_every_note(repo, capsys):
    document = json.loads(lint(repo, "--format", "json", capsys=capsys)[1])
    notes = [f for f in document["findings"] if f["rule"] == "flux-substitution"]
    assert len(notes) == 6 and document["summary"]["note"] == 8
    unlinted = [f["message"].split(" holds")[0] for f in document["findings"]
                if f.get("detail", {}).get("linted") is False]
    assert len(unlinted) == 3 and "spec.path './apps/${CLUSTER}/web'" in unlinted
    sarif = json.loads(lint(repo, "--format", "sarif", capsys=capsys)[1])
    results = sarif["runs"][0]["results"]
    assert sum(r["ruleId"] == "flux-substitution" for r in results) == 6
    github = lint(repo, "--format", "github", "--show-notes", capsys=capsys)[1]
    assert github == lint(repo, "--format", "github", capsys=capsys)[1]
    assert github.count("title=flux-substitution::") == 6
