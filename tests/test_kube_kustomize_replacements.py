"""kustomize's ``replacements`` (kustomize/replacements.py, fieldpath.py).

The trees ``replacements-*`` (tests/data/kustomize/trees) hold kubectl's answers; these
tests pin the rules one by one on small values, and what is refused as not modelled.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from cfgpatch.errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from cfgpatch.kube.kustomize import fieldpath
from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.replacements import Replacement, apply, source_value
from cfgpatch.kube.kustomize.resmap import ResMap
from cfgpatch.kube.kustomize.resources import Resource, Source, read_resources
from cfgpatch.kube.kustomize.styles import Quoted
from cfgpatch.kube.kustomize.trace import Trace
from kustomize_corpus import TREES


def _resource(value: dict) -> Resource:
    return Resource(value, Source("r.yaml", 0))


def _cm(name: str, **data) -> Resource:
    return _resource({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name},
                      "data": data})


def _run(resources: list[Resource], source: dict, *targets: dict) -> None:
    resmap = ResMap()
    resmap.append_all(resources)
    apply(resmap, Replacement({"source": source, "targets": list(targets)}, "k.yaml", 3, 0))


# ------------------------------------------------------------------ field paths


def test_path_splits_on_dots_outside_brackets():
    segments = fieldpath.parse("metadata.annotations.[a.b/c]", "k.yaml")
    assert [(s.kind, s.text) for s in segments] == [
        ("key", "metadata"), ("key", "annotations"), ("key", "a.b/c")]
    match = fieldpath.parse("spec.containers.[name=app].image", "k.yaml")[2]
    assert (match.kind, match.field, match.value) == ("match", "name", "app")


@pytest.mark.parametrize("path", ["data.x[a.b]", "data."])
def test_unmeasured_paths_are_refused(path):
    with pytest.raises(KubeError) as info:
        fieldpath.parse(path, "k.yaml:4")
    assert info.value.code == KUSTOMIZE_UNMODELLED and "k.yaml:4" in info.value.message


def test_lookup_reads_indexes_and_list_selectors():
    value = {"l": [{"name": "x", "v": 1}, {"name": "y", "v": 2}]}
    assert fieldpath.lookup(value, fieldpath.parse("l.[name=y].v", "")) == 2
    assert fieldpath.lookup(value, fieldpath.parse("l.0.name", "")) == "x"
    assert fieldpath.lookup(value, fieldpath.parse("l.[v=2].name", "")) == "y"
    assert fieldpath.lookup(value, fieldpath.parse("l.[name=z].v", "")) is fieldpath.MISSING


def test_lookup_says_where_the_value_is():
    value = {"l": [{"name": "x", "v": 1}, {"name": "y", "v": 2}]}
    place: list = []
    assert fieldpath.lookup(value, fieldpath.parse("l.[name=y].v", ""), place) == 2
    assert place == ["l", 1, "v"]


def test_a_source_copies_its_node_text_until_something_writes_the_field(tmp_path):
    (tmp_path / "r.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata: {n: 1.50, h: 0x10}\n")
    resources = read_resources((tmp_path / "r.yaml").read_text(), "r.yaml")
    source = {"kind": "ConfigMap", "name": "s", "fieldPath": "data.n"}
    copied = source_value(resources, source, "k.yaml")
    assert copied == "1.50" and copied.decoded == 1.5
    assert copy.deepcopy(copied).decoded == 1.5
    resources[0].value["data"]["n"] = 2.5  # another node now
    assert source_value(resources, source, "k.yaml") == 2.5


def test_wildcard_skips_elements_without_the_field_unless_none_has_it():
    value = {"c": [{"name": "a"}, {"name": "b", "env": [{"name": "X", "value": "1"}]}]}
    places = fieldpath.slots(value, fieldpath.parse("c.*.env.[name=X].value", ""), False)
    assert len(places) == 1
    with pytest.raises(fieldpath.PathError) as info:
        fieldpath.slots(value, fieldpath.parse("c.*.missing", ""), False)
    assert info.value.absent


def test_create_appends_at_the_end_of_a_list_only():
    value = {"l": [1]}
    fieldpath.slots(value, fieldpath.parse("l.1", ""), True)
    assert value == {"l": [1, None]}
    with pytest.raises(fieldpath.PathError) as info:
        fieldpath.slots(value, fieldpath.parse("l.5", ""), True)
    assert info.value.message == "index 5 specified but only 2 elements found"


def test_create_makes_lists_for_list_selectors():
    value: dict = {}
    fieldpath.slots(value, fieldpath.parse("env.[name=Q].value", ""), True)
    assert value == {"env": [{"name": "Q", "value": None}]}


# ------------------------------------------------------------------ source


def test_source_selection_is_exact_and_counts_matches():
    resources = [_cm("a", k="1"), _cm("b", k="2")]
    assert source_value(resources, {"kind": "ConfigMap", "name": "b", "fieldPath": "data.k"},
                        "") == "2"
    with pytest.raises(KubeError) as info:
        source_value(resources, {"kind": "ConfigMap", "name": ".*", "fieldPath": "data.k"}, "")
    assert info.value.message == "nothing selected by ConfigMap.[noVer].[noGrp]/.*.[noNs]:data.k"
    with pytest.raises(KubeError) as info:
        source_value(resources, {"kind": "ConfigMap"}, "")
    assert info.value.message == ("multiple matches for selector "
                                  "ConfigMap.[noVer].[noGrp]/[noName].[noNs]")


def test_source_default_field_path_is_the_name():
    assert source_value([_cm("a")], {"kind": "ConfigMap"}, "") == "a"


@pytest.mark.parametrize("index, expected", [(0, "db"), (1, "5432")])
def test_source_delimiter_picks_a_part(index, expected):
    source = {"kind": "ConfigMap", "fieldPath": "data.h",
              "options": {"delimiter": ":", "index": index}}
    assert source_value([_cm("a", h="db:5432")], source, "") == expected


@pytest.mark.parametrize("index", [2, -1])
def test_source_index_out_of_range_is_kustomizes_error(index):
    source = {"kind": "ConfigMap", "fieldPath": "data.h",
              "options": {"delimiter": ":", "index": index}}
    with pytest.raises(KubeError) as info:
        source_value([_cm("a", h="db:5432")], source, "")
    assert info.value.message == f"options.index {index} is out of bounds for value db:5432"


# ------------------------------------------------------------------ targets


def _target(path: str, **options) -> dict:
    return {"select": {"kind": "ConfigMap", "name": "t"}, "fieldPaths": [path],
            "options": options}


def test_a_scalar_target_keeps_its_type_and_style():
    target = _cm("t", plain="x", quoted=Quoted("x"), number=1)
    src = _cm("s", n=42, p=Quoted("8080"))
    _run([src, target], {"kind": "ConfigMap", "name": "s", "fieldPath": "data.n"},
         _target("data.plain"), _target("data.quoted"))
    _run([src, target], {"kind": "ConfigMap", "name": "s", "fieldPath": "data.p"},
         _target("data.number"))
    data = target.value["data"]
    assert data["plain"] == "42" and type(data["plain"]) is str
    assert isinstance(data["quoted"], Quoted) and data["number"] == 8080


def test_a_target_type_refuses_text_of_another_type():
    target, src = _cm("t", number=1), _cm("s", w="hello")
    with pytest.raises(KubeError) as info:
        _run([src, target], {"kind": "ConfigMap", "name": "s", "fieldPath": "data.w"},
             _target("data.number"))
    assert info.value.message == ("map[string]interface {}(nil): yaml: cannot decode !!str "
                                  "`hello` as a !!int")


def test_created_fields_are_plain_and_maps_replace_maps():
    target, src = _cm("t", m={"a": 1}), _cm("s", p=Quoted("8080"), obj={"b": 2})
    _run([src, target], {"kind": "ConfigMap", "name": "s", "fieldPath": "data.p"},
         _target("data.created", create=True))
    _run([src, target], {"kind": "ConfigMap", "name": "s", "fieldPath": "data.obj"},
         _target("data.m"))
    assert target.value["data"]["created"] == 8080 and target.value["data"]["m"] == {"b": 2}
    assert target.retyped == ["data.created"]


@pytest.mark.parametrize("index, expected", [(1, "a,X,c"), (9, "a,b,c,X"), (-1, "X,a,b,c")])
def test_target_delimiter_replaces_appends_or_prepends(index, expected):
    target, src = _cm("t", v="a,b,c"), _cm("s", x="X")
    _run([src, target], {"kind": "ConfigMap", "name": "s", "fieldPath": "data.x"},
         _target("data.v", delimiter=",", index=index))
    assert target.value["data"]["v"] == expected


def test_rejects_remove_targets():
    a, b, src = _cm("a", v="1"), _cm("b", v="1"), _cm("s")
    _run([src, a, b], {"kind": "ConfigMap", "name": "s"},
         {"select": {"kind": "ConfigMap"}, "reject": [{"name": "a"}, {"name": "s"}],
          "fieldPaths": ["data.v"]})
    assert a.value["data"]["v"] == "1" and b.value["data"]["v"] == "s"


def test_missing_target_field_is_kustomizes_error():
    with pytest.raises(KubeError) as info:
        _run([_cm("s"), _cm("t")], {"kind": "ConfigMap", "name": "s"}, _target("data.nope"))
    assert info.value.message == 'unable to find field "data.nope" in replacement target'
    assert info.value.code == KUSTOMIZE_ERROR


# ------------------------------------------------------------------ builds


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  v: \"1\"\n"
REPLACE = ("replacements:\n- source: {kind: ConfigMap, name: a, fieldPath: data.v}\n"
           "  targets:\n  - select: {kind: ConfigMap, name: b}\n"
           "    fieldPaths: [data.n]\n    options: {create: true}\n")


def test_a_patch_after_a_plain_created_scalar_is_refused(tmp_path):
    _tree(tmp_path, {"base/kustomization.yaml": "resources: [r.yaml]\n" + REPLACE,
                     "base/r.yaml": CM.format(name="a") + "---\n" + CM.format(name="b"),
                     "kustomization.yaml": "resources: [base]\npatches:\n- patch: |\n"
                     "    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: b}\n"
                     "    data: {w: x}\n"})
    assert build(str(tmp_path / "base")).resources[1].value["data"]["n"] == 1
    with pytest.raises(BuildError) as info:
        build(str(tmp_path))
    assert info.value.code == KUSTOMIZE_UNMODELLED
    assert "kustomization.yaml:3" in info.value.message and "data.n" in info.value.message


def test_replacement_files_hold_one_or_a_list(tmp_path):
    one = REPLACE.split("\n", 1)[1].replace("- source", "  source", 1)
    one = "\n".join(line[2:] for line in one.splitlines()) + "\n"
    _tree(tmp_path, {"kustomization.yaml": "resources: [r.yaml]\nreplacements:\n"
                     "- path: one.yaml\n- path: list.yaml\n",
                     "one.yaml": one, "list.yaml": REPLACE.split("\n", 1)[1],
                     "r.yaml": CM.format(name="a") + "---\n" + CM.format(name="b")})
    trace = Trace()
    result = build(str(tmp_path), trace)
    assert result.resources[1].value["data"]["n"] == 1
    steps = [s for s in trace.steps if s.field == "replacements"]
    assert [s.targets for s in steps] == [["ConfigMap/b"], []]
    assert steps[0].kustomization.endswith("one.yaml")


def test_explain_names_the_source_and_every_field_set():
    from cfgpatch.kube.explain.build import explain

    result = build(str(TREES / "replacements-options"), Trace())
    explanation = explain(result, str(TREES / "replacements-options"))
    text = explanation.describe()
    assert "replacement 1: replacements[0] at kustomization.yaml:5" in text
    assert "  source: ConfigMap/endpoints data.primary = postgres.db.svc" in text
    assert "    /metadata/annotations/hosts: first,second,third -> first,postgres.db.svc,third" \
        in text
    first = explanation.to_dict()["replacements"][0]
    assert first["source"]["value"] == "postgres.db.svc"
    assert {"path": "/spec/template/spec/containers/0/args/0", "before": "--db=unset",
            "after": "--db=postgres.db.svc"} in first["targets"][0]["changes"]


@pytest.mark.parametrize("value, message", [
    ("x", "cannot unmarshal string into Go struct field Kustomization.replacements of type "
          "types.ReplacementField"),
    ({"targets": [{"fieldPaths": "a.b"}]},
     "cannot unmarshal string into Go struct field TargetSelector.replacements.targets."
     "fieldPaths of type []string"),
    ({"source": {"options": {"index": 1.5}}},
     "cannot unmarshal number 1.5 into Go struct field FieldOptions.replacements.source."
     "options.index of type int"),
    ({"targets": [{"reject": {}}]},
     "cannot unmarshal object into Go struct field TargetSelector.replacements.targets."
     "reject of type []*types.Selector"),
    ({"source": {"kinds": "x"}}, 'unknown field "kinds"'),
])
def test_replacement_fields_are_decoded_as_go_decodes_them(value, message):
    from cfgpatch.kube.kustomize.gotypes import GoDecodeError, decode

    with pytest.raises(GoDecodeError) as info:
        decode({"replacements": [value]})
    assert info.value.message == f"json: {message}"


def test_replacements_giving_two_resources_one_id_are_refused(tmp_path):
    """kubectl kustomize panics there (measured): refused rather than imitated."""
    _tree(tmp_path, {"kustomization.yaml": "resources: [r.yaml]\nreplacements:\n"
                     "- source: {kind: ConfigMap, name: a}\n  targets:\n"
                     "  - select: {name: b}\n    fieldPaths: [metadata.name]\n",
                     "r.yaml": CM.format(name="a") + "---\n" + CM.format(name="b")})
    with pytest.raises(BuildError) as info:
        build(str(tmp_path))
    assert info.value.code == KUSTOMIZE_UNMODELLED
    assert "kustomization.yaml:2" in info.value.message
