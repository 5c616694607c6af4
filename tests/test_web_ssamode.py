"""The apply mode's server-side half (``cfgpatch.web.ssamode``): for the page's examples
and variations of them (another field manager, force, JSON output, no CRD), the stored
object, the conflict text and the explanation equal what ``cfgpatch kube apply
--server-side --explain`` prints on the same texts."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube.ssa import fieldpath as fp
from cfgpatch.web.printed import printed_text
from cfgpatch.web.ssamode import compute_server_side, field_tree, server_side_json
from conftest import ROOT
from ssa_cli_support import TIME, cli_server_side

EXAMPLES = json.loads((ROOT / "web" / "src" / "ssa-examples.json").read_text())
VARIANTS = [(e["id"], e["manager"], False, "yaml") for e in EXAMPLES] + [
    ("ssa-hpa-conflict", "helm", True, "json"),
    ("ssa-hpa-conflict", "kubectl", False, "yaml"),
    ("ssa-csa-migration", "helm", False, "yaml"),
    ("ssa-label-removed", "kubectl", False, "json"),
    ("ssa-custom-resource", "operator", False, "yaml"),
]


def example(name: str) -> dict:
    return next(e for e in EXAMPLES if e["id"] == name)


def page(live: str, manifest: str, crd: str = "", **options) -> dict:
    return compute_server_side(live, manifest, crd, {"time": TIME, **options})


@pytest.mark.parametrize(("name", "manager", "force", "fmt"), VARIANTS)
def test_the_page_says_what_the_command_line_says(tmp_path, name, manager, force, fmt):
    e = example(name)
    cli = cli_server_side(tmp_path, e["live"], e["manifest"], e.get("crd", ""),
                          manager=manager, force=force, fmt=fmt)
    data = page(e["live"], e["manifest"], e.get("crd", ""), manager=manager, force=force,
                format=fmt)
    assert data["explain"] == cli["explain"]
    if cli["code"] == 0:
        assert data["ok"]
        assert printed_text([(text, ()) for text, _, _ in data["lines"]]) == cli["out"]
        assert data["line"].endswith(" serverside-applied")
    else:
        assert not data["ok"]
        assert data["error"]["kubectl"] == cli["error"]
        assert data["conflicts"] and all(c["ways"] for c in data["conflicts"])


def test_a_conflict_names_its_owner_and_the_three_ways_out():
    e = example("ssa-hpa-conflict")
    data = page(e["live"], e["manifest"], manager="helm")
    conflict = data["conflicts"][0]
    assert conflict["owner"] == '"kube-controller-manager" using apps/v1'
    assert [way[:3] for way in conflict["ways"]] == ["1. ", "2. ", "3. "]
    assert "--force-conflicts" in conflict["ways"][0]
    assert any(tool.startswith("Helm 4") for tool in conflict["tools"])
    managers = [(m["manager"], m["operation"]) for m in data["managers_before"]]
    assert managers == [("helm", "Apply"), ("kube-controller-manager", "Update")]


def test_force_takes_the_field_and_says_so():
    e = example("ssa-hpa-conflict")
    data = page(e["live"], e["manifest"], manager="helm", force=True)
    assert data["ok"] and data["result"]["spec"]["replicas"] == 3
    assert data["forced"] == ['.spec.replicas: taken from "kube-controller-manager" using '
                              'apps/v1']
    owner = next(o for o in data["owners"] if o["path"] == ".spec.replicas")
    assert owner["changed"] and owner["after"] == "helm (Apply)"


def test_removals_and_stuck_fields_are_said():
    e = example("ssa-label-removed")
    data = page(e["live"], e["manifest"])
    assert data["removed"] == [".metadata.labels.tier"]
    assert any(line.startswith("removed .metadata.labels.tier") for line in data["removals"])
    assert ["-", "    tier: web"] in data["before_after"]
    m = example("ssa-csa-migration")
    moved = page(m["live"], m["manifest"])
    assert "minReadySeconds" not in moved["result"]["spec"]
    assert moved["steps"][1] == "managed fields of kubectl-client-side-apply moved to kubectl"


def test_the_crd_gives_the_list_keys_and_its_absence_is_explained():
    e = example("ssa-custom-resource")
    data = page(e["live"], e["manifest"], e["crd"])
    ports = data["result"]["spec"]["ports"]
    assert {p["name"]: p["port"] for p in ports} == {"http": 8080, "metrics": 9090}
    without = page(e["live"], e["manifest"])
    assert not without["ok"]
    assert "no corresponding type for example.com/v1, Kind=Gizmo" in without["error"]["kubectl"]
    assert "CRD editor" in without["error"]["plain"]


def test_unreadable_inputs_are_placed():
    e = example("ssa-create")
    data = page("", e["manifest"], "kind: [")
    assert data["inputs"]["crd"]["line"] == 1 and not data["ok"]
    assert data["error"]["plain"].startswith("The CRD cannot be read")
    data = page("", e["manifest"], "apiVersion: v1\nkind: ConfigMap\n")
    assert "no CustomResourceDefinition" in data["inputs"]["crd"]["plain"] + \
        data["inputs"]["crd"]["kubectl"]
    data = page("a: [1", e["manifest"])
    assert data["inputs"]["live"]["line"] == 1


def test_another_object_in_the_live_editor_is_left_alone_as_the_command_line_does(tmp_path):
    e = example("ssa-create")
    other = e["manifest"].replace("name: web", "name: api")
    data = page(other, e["manifest"])
    cli = cli_server_side(tmp_path, other, e["manifest"])
    assert data["ok"] and "another object" in data["warning"]
    assert data["explain"] == cli["explain"][:-1]
    assert cli["explain"][-1].endswith("of --live matches no object of -f (left as it is)")


def test_the_json_call_never_raises():
    assert json.loads(server_side_json("", "", "", "not json"))["ok"] is False
    assert json.loads(server_side_json("", "kind: [", "", "{}"))["inputs"]["manifest"]


paths = st.lists(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4),
                 max_size=8)


@given(paths)
@settings(max_examples=60, deadline=None)
def test_the_field_tree_has_one_line_per_node_indented_by_depth(names):
    fields = fp.FieldSet.from_paths([tuple(fp.field(n) for n in p) for p in names])
    nodes = {tuple(p[:i]) for p in names for i in range(1, len(p) + 1)}
    lines = field_tree(fields)
    assert len(lines) == len(nodes)
    depths = sorted(len(line) - len(line.lstrip(" ")) for line in lines)
    assert depths == sorted(2 * (len(node) - 1) for node in nodes)
