"""The merge-schema table: coverage of every kind, agreement with the fact tables."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.engine.strategic import strategic_merge
from cfgpatch.kube.schema.node import Schema, builtin_schema, load_table, node_shapes
from cfgpatch.kube.schema.rules import ATOMIC_RULE, ListRule
from conftest import SHARED, require

ROOT = Path(__file__).resolve().parents[1]
FACTS = SHARED / "k8s"
KNOWN_KINDS = ROOT / "scripts" / "data" / "kubectl-gvks.tsv"
VERSIONS = ("1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33")


def gvk_rows() -> list[dict[str, str]]:
    """The rows of scripts/data/kubectl-gvks.tsv (scripts/probe_kube_gvks.py)."""
    lines = [line for line in KNOWN_KINDS.read_text().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def probe_rows(version: str = "1.32") -> list[list[str]]:
    """(apiVersion, kind, answer) of every kind kubectl ``version`` knows."""
    return [[row["api_version"], row["kind"], row[version]] for row in gvk_rows()
            if row[version] != "-"]


def known_kinds() -> list[tuple[str, str]]:
    return [(row[0], row[1]) for row in probe_rows()]


def fact_rows(name: str) -> list[dict]:
    require((FACTS / name).exists(), f"{FACTS / name} not present")
    lines = [line for line in (FACTS / name).read_text().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def walk(*steps: str, kind=("apps/v1", "Deployment")):
    node = builtin_schema().for_kind(*kind)
    meta = None
    for step in steps:
        node, meta = node.lookup_struct(step)
    return node, meta


def test_every_kind_kubectl_knows_is_in_the_table():
    schema = builtin_schema()
    kinds = known_kinds()
    assert len(kinds) > 660
    missing = [k for k in kinds if schema.for_kind(*k) is None]
    assert missing == []


def test_every_kind_answers_a_metadata_patch_as_kubectl_did():
    """kubectl's answer per kind was recorded by scripts/probe_kube_gvks.py; a kind known
    under any apiVersion (``*``) is asked under a few."""
    schema = builtin_schema()
    disagree = []
    for api_version, kind, answer in probe_rows():
        for version in ((api_version,) if api_version != "*" else
                        ("v1", "apps/v1", "example.com/v1", "", "x")):
            obj = {"apiVersion": version, "kind": kind,
                   "metadata": {"name": "x", "labels": {"a": "b"}}}
            try:
                out = strategic_merge(obj, {"metadata": {"labels": {"c": "d"}}},
                                      schema.for_kind(version, kind))
                ours = "ok" if out["metadata"]["labels"] == {"a": "b", "c": "d"} else repr(out)
            except KubeError as exc:
                ours = exc.message
            if ours != answer:
                disagree.append((version, kind, answer, ours))
    assert disagree == []


def test_kinds_of_older_api_versions_kubectl_132_knows():
    """kubectl 1.32's scheme still knows API versions the current API no longer has."""
    schema = builtin_schema()
    for api_version, kind in [("autoscaling/v2beta1", "HorizontalPodAutoscaler"),
                              ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
                              ("batch/v1beta1", "CronJob"),
                              ("policy/v1beta1", "PodDisruptionBudget"),
                              ("networking.k8s.io/v1alpha1", "ServiceCIDR"),
                              ("scheduling.k8s.io/v1alpha1", "PriorityClass"),
                              ("storagemigration.k8s.io/v1alpha1", "StorageVersionMigration"),
                              ("resource.k8s.io/v1alpha3", "ResourceClaim"),
                              ("meta.k8s.io/v1", "PartialObjectMetadata")]:
        node = schema.for_kind(api_version, kind)
        assert node is not None and node.name == kind.split(".")[-1], (api_version, kind)
    v2beta2, _ = schema.for_kind("autoscaling/v2beta2", "HorizontalPodAutoscaler") \
        .lookup_struct("spec")
    assert v2beta2.field("metrics")[0].elem.name == "MetricSpec"
    for api_version, kind in [("policy/v1beta1", "PodSecurityPolicy"),
                              ("flowcontrol.apiserver.k8s.io/v1alpha1", "FlowSchema"),
                              ("resource.k8s.io/v1alpha2", "ResourceClaim"),
                              ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
                              ("batch/v2alpha1", "CronJob")]:
        assert schema.for_kind(api_version, kind) is None, (api_version, kind)


def test_unversioned_kinds_are_known_under_any_api_version():
    schema = builtin_schema()
    for kind in ("Status", "APIGroup", "APIGroupList", "APIResourceList", "APIVersions"):
        for api_version in ("v1", "example.com/v9", "", "x"):
            assert schema.for_kind(api_version, kind) is not None, (api_version, kind)
    assert schema.for_kind("example.com/v9", "WatchEvent") is None
    assert schema.for_kind("example.com/v9", "Table") is None


def test_recorded_versions_know_more_or_fewer_kinds():
    """The recording is per kubectl version: what 1.27 knew that 1.32 does not, and back."""
    rows = {(r["api_version"], r["kind"]): r for r in gvk_rows()}
    assert rows[("policy/v1beta1", "PodSecurityPolicy")]["1.27"] == "ok"
    assert rows[("policy/v1beta1", "PodSecurityPolicy")]["1.32"] == "-"
    assert rows[("resource.k8s.io/v1beta2", "ResourceClaim")]["1.32"] == "-"
    assert rows[("resource.k8s.io/v1beta2", "ResourceClaim")]["1.33"] == "ok"
    for version in VERSIONS:
        assert rows[("autoscaling/v2beta2", "HorizontalPodAutoscaler")][version] == "ok"
        assert rows[("*", "Status")][version] != "-"


def test_kinds_kubectl_does_not_know_have_no_node():
    schema = builtin_schema()
    assert schema.for_kind("monitoring.coreos.com/v1", "Prometheus") is None
    assert schema.for_kind("v1", "Widget") is None
    assert schema.for_kind("resource.k8s.io/v1", "ResourceClaim") is None  # newer than 1.32
    assert schema.for_kind("extensions/v1beta1", "Deployment") is not None


def test_struct_tags_agree_with_the_fact_table():
    """Every tagged field of a type in the table carries the Go tag of list-fields.tsv."""
    schema = builtin_schema()
    types = schema.table["types"]
    checked = 0
    for row in fact_rows("list-fields.tsv"):
        spec = types.get(f"{row['go_package']}.{row['go_type']}")
        if spec is None or row["json_field"] not in spec["fields"]:
            continue  # a type or field kubectl 1.32 does not have
        value = spec["fields"][row["json_field"]]
        strategy, key = ("", "") if isinstance(value, str) else (value[1], (value + [""])[2])
        assert (strategy, key) == (row["patch_strategy"], row["patch_merge_key"]), row
        checked += 1
    assert checked > 500


def test_well_known_fields():
    pod, _ = walk("spec", "template", "spec")
    assert pod.name == "PodSpec"
    for field, strategies, key in [("containers", ("merge",), "name"),
                                   ("volumes", ("merge", "retainKeys"), "name"),
                                   ("imagePullSecrets", ("merge",), "name"),
                                   ("hostAliases", ("merge",), "ip"),
                                   ("tolerations", (), "")]:
        _, meta = pod.lookup_slice(field)
        assert (meta.strategies, meta.merge_key) == (strategies, key), field
    _, strategy = walk("spec", "strategy")
    assert strategy.retain_keys and strategy.strategy == ""
    account = builtin_schema().for_kind("v1", "ServiceAccount")
    assert account.lookup_slice("imagePullSecrets")[1].strategy == ""
    assert account.lookup_slice("secrets")[1].merge_key == "name"
    _, selector = walk("spec", "selector", kind=("policy/v1", "PodDisruptionBudget"))
    assert selector.strategy == "replace"
    service_spec, _ = walk("spec", kind=("v1", "Service"))
    assert service_spec.lookup_slice("ports")[1].merge_key == "port"


def test_lookup_errors_use_kubectl_text():
    spec, _ = walk("spec")
    with pytest.raises(KubeError) as caught:
        spec.lookup_struct("foo")
    assert caught.value.message == (
        'unable to find api field in struct DeploymentSpec for the json field "foo"')
    replicas, _ = spec.lookup_struct("replicas")
    assert "not struct, instead is: int32" in message_of(replicas.lookup_struct, "x")
    assert message_of(spec.lookup_slice, "template") == (
        "expected slice or array type, but got: struct")
    labels, _ = walk("metadata", "labels")
    assert "not struct, instead is: map" in message_of(labels.lookup_struct, "a")


def message_of(function, *args) -> str:
    with pytest.raises(KubeError) as caught:
        function(*args)
    return caught.value.message


def test_old_api_versions_are_exact_too():
    spec, _ = walk("spec", kind=("apps/v1beta1", "Deployment"))
    assert spec.name == "DeploymentSpec"
    assert "rollbackTo" in spec.field_names()  # only in the old versions
    assert "unable to find api field" in message_of(spec.lookup_struct, "somethingOld")


def test_pointer_fields_take_a_list_as_atomic():
    spec, _ = walk("spec")
    assert spec.is_pointer("replicas") and not spec.is_pointer("paused")
    assert spec.lookup_slice("replicas")[0].kind == "int32"
    assert spec.lookup_slice("selector")[0].name == "LabelSelector"
    assert message_of(spec.lookup_slice, "paused") == (
        "expected slice or array type, but got: struct")


def test_open_types_never_fail_a_lookup():
    table = {"kinds": {"v1": {"Old": "x/v1.Old"}},
             "types": {"x/v1.Old": {"name": "Old", "fields": {}, "open": True}}}
    node = Schema(table).for_kind("v1", "Old")
    child, meta = node.lookup_struct("somethingOld")
    assert child.kind == "open" and meta.strategies == ()
    assert child.lookup_slice("x")[0].kind == "open"
    assert node.has_field("anything") is None


def test_shapes_adapter():
    shapes = node_shapes(builtin_schema().for_kind("apps/v1", "Deployment"))
    pod = ("spec", "template", "spec")
    assert shapes.list_rule((*pod, "containers")) == ListRule("keyed", ("name",))
    assert shapes.list_rule((*pod, "tolerations")) == ATOMIC_RULE
    assert shapes.list_rule(("metadata", "finalizers")) == ListRule("set")
    assert shapes.list_rule((*pod, "containers", "[]", "env")) == ListRule("keyed", ("name",))
    assert shapes.list_rule(("spec", "nope")) is None
    assert shapes.retains_keys(("spec", "strategy"))
    assert shapes.retains_keys((*pod, "volumes", "[]"))
    assert not shapes.retains_keys(("spec", "selector"))
    assert shapes.field_known(("spec", "replicas")) is True
    assert shapes.field_known(("spec", "foo")) is False
    assert shapes.field_known(("metadata", "labels", "anything")) is True


def test_load_table_round_trip_and_errors():
    table = {"kinds": {"v1": {"Thing": "x/v1.Thing"}},
             "types": {"x/v1.Thing": {"name": "Thing", "fields": {
                 "items": ["[]x/v1.Item", "merge", "id"]}},
                 "x/v1.Item": {"name": "Item", "fields": {"id": "string"}}}}
    schema = load_table(json.dumps(table))
    elem, meta = schema.for_kind("v1", "Thing").lookup_slice("items")
    assert (elem.name, meta.merge_key) == ("Item", "id")
    assert isinstance(schema, Schema) and schema.kinds() == [("v1", "Thing")]
    for bad in ("{", "[]", '{"kinds": {}}'):
        with pytest.raises(KubeError):
            load_table(bad)


def test_generator_builds_a_table_from_an_openapi_document(tmp_path):
    doc = {"definitions": {
        "io.k8s.api.demo.v1.Thing": {
            "x-kubernetes-group-version-kind": [{"group": "demo", "version": "v1",
                                                 "kind": "Thing"}],
            "properties": {"items": {"type": "array", "items": {
                "$ref": "#/definitions/io.k8s.api.demo.v1.Item"},
                "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "id"}}},
        "io.k8s.api.demo.v1.Item": {"properties": {"id": {"type": "string"}}}}}
    source = tmp_path / "openapi.json"
    source.write_text(json.dumps(doc))
    out = tmp_path / "table.json"
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_kube_schema.py"),
                           "--openapi", str(source), "-o", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    schema = load_table(out.read_text())
    assert schema.for_kind("demo/v1", "Thing").lookup_slice("items")[1].merge_key == "id"


def test_generator_fills_unserved_versions_from_a_sibling(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from gen_kube_schema import Builder, go_expr
    finally:
        sys.path.pop(0)
    doc = {"kinds": {}, "types": {
        "apps/v1.Widget": {"name": "Widget", "fields": {"spec": "apps/v1.WidgetSpec"}},
        "apps/v1.WidgetSpec": {"name": "WidgetSpec", "fields": {"size": "int32"}}}}
    rows = [{"go_package": "apps/v1beta1", "go_type": "WidgetSpec", "json_field": "parts",
             "resolved_type": "[]apps/v1beta1.Part", "patch_strategy": "merge",
             "patch_merge_key": "name"}]
    kinds = [{"api_version": "apps/v1beta1", "kind": "Widget", "go_package": "apps/v1beta1",
              "go_type": "Widget"}]
    table = Builder(rows, kinds, [doc]).build([("apps/v1beta1", "Widget", "")])
    spec = table["types"]["apps/v1beta1.WidgetSpec"]
    assert spec["open"] and spec["fields"]["parts"] == ["[]apps/v1beta1.Part", "merge", "name"]
    assert table["types"]["apps/v1beta1.Widget"]["fields"]["spec"] == "apps/v1beta1.WidgetSpec"
    assert go_expr("core/v1.ResourceList=map[core/v1.ResourceName(string)]resource.Quantity") \
        == "map[string]resource.Quantity"
    assert go_expr("[]byte") == "[]uint8"


def _kubectl_132() -> Path | None:
    import os
    import shutil

    found = shutil.which("kubectl")
    if not found:
        return None
    candidate = Path(os.path.realpath(found)).parent / "kubectl.1.32"
    return candidate if candidate.exists() else None


def test_table_is_what_the_kubectl_binary_says(tmp_path):
    """Regenerating from kubectl 1.32's Go type data reproduces the shipped table."""
    binary = _kubectl_132()
    require(binary is not None and (FACTS / "list-fields.tsv").exists(),
            "kubectl.1.32 or ../shared/k8s not present")
    out = tmp_path / "builtin.json"
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_kube_schema.py"),
                           "--tsv-dir", str(FACTS), "--kubectl-kinds", str(KNOWN_KINDS),
                           "--kubectl-binary", str(binary), "-o", str(out), "-v"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "tag differs" not in proc.stderr and "open type" not in proc.stderr
    shipped = ROOT / "src" / "cfgpatch" / "kube" / "schema" / "data" / "builtin.json"
    assert json.loads(out.read_text()) == json.loads(shipped.read_text())


def test_the_table_loads_from_a_zipped_package(tmp_path):
    """The page imports cfgpatch from a zip archive: the data file is read through it."""
    import subprocess
    import sys
    import zipfile

    archive = tmp_path / "cfgpatch.zip"
    source = ROOT / "src"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in (source / "cfgpatch").rglob("*"):
            if path.suffix in (".py", ".json") and "static" not in path.parts:
                zipped.write(path, path.relative_to(source).as_posix())
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import cfgpatch.kube.schema.node as m; "
            "assert m.__file__.startswith(sys.argv[1]); print(len(m.builtin_schema().kinds()))")
    done = subprocess.run([sys.executable, "-c", code, str(archive)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(builtin_schema().kinds())


def test_live_kubectl_knows_the_recorded_kinds():
    """Ask every kubectl 1.27-1.33 again about every recorded group/version/kind (one
    ``kubectl patch --local`` per binary, as scripts/probe_kube_gvks.py does) and about
    kinds none knows: each answers as recorded."""
    import os
    import shutil

    found = shutil.which("kubectl")
    folder = Path(os.path.realpath(found)).parent if found else Path(".")
    require(all((folder / f"kubectl.{v}").exists() for v in VERSIONS),
            "kubectl.1.27 ... kubectl.1.33 next to the kubectl on PATH")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from probe_kube_gvks import probe
    finally:
        sys.path.pop(0)
    rows = gvk_rows()
    asked = [(r["api_version"] if r["api_version"] != "*" else "example.com/v9", r["kind"])
             for r in rows] + [("autoscaling/v2beta3", "HorizontalPodAutoscaler"),
                               ("example.com/v1", "Widget")]
    for version in VERSIONS:
        answers = probe(str(folder / f"kubectl.{version}"), asked)
        expected = {gvk: row[version] for gvk, row in zip(asked, rows, strict=False)
                    if row[version] != "-"}
        assert answers == expected, version
