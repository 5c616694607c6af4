"""``cfgpatch kube apply`` on files of several objects, against recorded kubectl.

``tests/data/kube/apply/several.jsonl`` holds what kubectl 1.27, 1.32 and 1.33 did for
each case of ``scripts/kube_apply_many_cases.py`` against the fake API server
(``scripts/record_kube_apply_many.py``): standard output and error, exit code, and
every PATCH and POST.  Ours must print kubectl's lines and errors byte for byte
(our own ``cfgpatch:`` lines aside), send the same PATCH bodies and create the same
objects, in the same order.  The live test asks kubectl 1.32 itself about random files
of several objects (required in CI).
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from cfgpatch.cli import main
from conftest import require

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from fake_kube_api import kubectl_apply_files, object_path  # noqa: E402
from kube_apply_cases import annotate, deploy  # noqa: E402
from kube_apply_many_cases import KINDS, applied, config_map, inputs_of  # noqa: E402

RECORDED = Path(__file__).parent / "data" / "kube" / "apply" / "several.jsonl"
CASES = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]


def run(tmp_path, monkeypatch, capsys, case: dict) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    files, file_args = inputs_of(case)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    live = {"apiVersion": "v1", "kind": "List", "items": case["live"]}
    (tmp_path / "live.json").write_text(json.dumps(live), encoding="utf-8")
    code = main(["kube", "apply", *file_args, "--live", "live.json", "--show", "patch,result",
                 "-o", "json", *case["flags"]])
    out, err = capsys.readouterr()
    return code, out, err


def parse(out: str) -> tuple[list[str], list[tuple]]:
    """kubectl's lines of our output, and what we send: ("PATCH", content type, body) or
    ("POST", the created object)."""
    lines, sent = [], []
    rows = iter(out.splitlines())
    for row in rows:
        if row.startswith("# patch (application/"):
            sent.append(("PATCH", row[len("# patch ("):-2], next(rows)))
        elif row.startswith("# result (created"):
            block = []
            for inner in rows:
                block.append(inner)
                if inner == "}":
                    break
            sent.append(("POST", json.loads("\n".join(block))))
        elif row.startswith("# result ("):
            for inner in rows:
                if inner == "}":
                    break
        elif not row.startswith("#"):
            lines.append(row)
    return lines, sent


def kubectl_sent(answer: dict) -> list[tuple]:
    return [("PATCH", content_type, body) if method == "PATCH" else ("POST", json.loads(body))
            for method, _, content_type, body in answer["writes"]]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_several_objects_as_kubectl_applies_them(tmp_path, monkeypatch, capsys, case):
    assert_as_kubectl(case["kubectl"]["1.32"], *run(tmp_path, monkeypatch, capsys, case),
                      flags=case["flags"])


def assert_as_kubectl(answer: dict, code: int, out: str, err: str, flags: list) -> None:
    """Our run did what kubectl did: exit code, lines, writes, errors (ours aside).

    What we print is what kubectl sends, except in a client dry run (kubectl sends
    nothing; we print what a real apply would send) and with ``-o name`` (we print the
    names alone)."""
    lines, sent = parse(out)
    assert code == answer["exit_code"], (err, answer["stderr"])
    assert lines == answer["stdout"].splitlines()
    if "--dry-run=client" in flags:
        assert answer["writes"] == []
    elif "name" not in flags:
        assert sent == kubectl_sent(answer)
    ours = "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith("cfgpatch: "))
    assert ours == answer["stderr"]


def test_every_write_goes_where_kubectl_sends_it():
    """The recorded paths follow the objects' identities (namespace from -n included)."""
    for case in CASES:
        for method, path, _, body in case["kubectl"]["1.32"]["writes"]:
            obj = json.loads(body) if method == "POST" else None
            if obj is not None and obj.get("apiVersion"):
                assert path == object_path(obj).rpartition("/")[0]


def random_case(seed: int) -> dict:
    """A file of a few objects (each at most once), some live (applied, hand-edited or
    never applied), some not; now and then documents without kind, objects in other
    namespaces than ``-n``, ``--overwrite=false``, a dry run, YAML that stops the
    reading."""
    rng = random.Random(seed)
    objects: list[dict | str] = []
    live: list[dict] = []
    for name in rng.sample("abcdef", rng.randint(1, 4)):
        new = config_map(name, {key: str(rng.randint(0, 2))
                                for key in rng.sample("klm", rng.randint(1, 3))})
        objects.append(new)
        before = config_map(name, {key: str(rng.randint(0, 2))
                                   for key in rng.sample("klm", rng.randint(1, 3))})
        how = rng.choice(["none", "applied", "edited", "bare"])
        if how == "applied":
            live.append(applied(before))
        elif how == "edited":
            live.append(annotate({**before, "data": {**before["data"], "k": "hand"}}, before))
        elif how == "bare":
            live.append(before)
    if rng.random() < 0.5:
        objects.append(deploy(rng.randint(1, 3)))
        live.append(annotate(deploy(rng.randint(1, 3)), deploy(rng.randint(1, 3))))
    for name in rng.sample(["q", "r", "q"], rng.choice([0, 0, 1, 2])):
        objects.insert(rng.randrange(len(objects) + 1),
                       {"apiVersion": "v1", "metadata": {"name": name}})
    flags: list[str] = []
    if rng.random() < 0.4:
        for name in rng.sample(["z1", "z2"], rng.randint(1, 2)):
            objects.insert(rng.randrange(len(objects) + 1),
                           config_map(name, {"k": "1"}, rng.choice(["other", "third"])))
        flags += ["-n", "default"]
    if rng.random() < 0.4:
        flags.append("--overwrite=false")
    if rng.random() < 0.2:
        flags.append(rng.choice(["--dry-run=client", "--dry-run=server"]))
    rng.shuffle(live)
    texts = [yaml.safe_dump(obj) for obj in objects]
    if rng.random() < 0.15:
        texts.append("a: [\n")  # the reading stops here
    case = {"id": f"random-{seed}", "live": live, "flags": flags, "kinds": KINDS}
    if rng.random() < 0.6:
        return {**case, "manifest": "---\n".join(texts)}
    # the documents spread over the files of a folder, given whole or file by file
    names = rng.sample(["a.yaml", "b.yml", "c.json", "d.yaml", "e.txt"], 3)
    files: dict[str, list[str]] = {f"m/{name}": [] for name in names}
    for text in texts:
        files[f"m/{rng.choice(names)}"].append(text)
    args = ["-f", "m"] if rng.random() < 0.5 else [
        arg for name in rng.sample(names, 2) for arg in ("-f", f"m/{name}")]
    return {**case, "files": {name: "---\n".join(docs) for name, docs in files.items()},
            "args": args}


@pytest.mark.parametrize("seed", range(40))
def test_random_files_as_kubectl_applies_them(tmp_path, monkeypatch, capsys, seed):
    kubectl = shutil.which("kubectl")
    require(kubectl is not None, "kubectl not on PATH")
    case = random_case(seed)
    done = kubectl_apply_files(kubectl, case["live"], *inputs_of(case), KINDS,
                               tuple(case["flags"]))
    answer = {"exit_code": done.code, "stdout": done.stdout, "stderr": done.stderr,
              "writes": done.writes}
    assert_as_kubectl(answer, *run(tmp_path, monkeypatch, capsys, case), flags=case["flags"])
