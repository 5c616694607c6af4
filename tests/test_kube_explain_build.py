"""``kube build --explain`` (explain/build.py): patch reports and blame, on the corpus.

The Done-when of issue 11: for the corpus, the explanation names every patch that
matched nothing and every list a patch replaced, with the elements it lost.
"""

from __future__ import annotations

import pytest

from cfgpatch.kube.explain.build import explain
from cfgpatch.kube.kustomize.build import build
from cfgpatch.kube.kustomize.trace import Trace
from kustomize_corpus import TREES, builds

OK_BUILDS = [b for b in builds() if b.exit_code == 0]


def explained(*parts: str):
    directory = TREES.joinpath(*parts)
    return explain(build(str(directory), Trace()), str(directory))


def test_patches_that_match_nothing_are_named():
    reports = explained("nomatch-patches").patches
    assert [r.matched_nothing for r in reports] == [True, True, True]
    assert [r.step.field for r in reports] == ["patches"] * 3


def test_a_selector_that_matched_more_kinds_is_named():
    first = explained("multi-kind-selector").patches[0]
    assert first.step.patch_kinds == ("Deployment",)
    assert first.extra_kinds == ["Service", "ConfigMap"]


def test_lists_replaced_on_custom_resources_name_what_they_lost():
    reports = explained("custom-resource-lists").patches
    lost = {(t.resource, path): names for r in reports for t in r.targets for path, names in t.lost}
    assert lost[("Certificate/ingress/storefront-tls", "/spec/dnsNames")] == [
        "shop.acme.example", "www.shop.acme.example", "api.shop.acme.example"]
    assert any(path == "/spec/tolerations" for _r, path in lost)


def test_patch_order_is_kustomizes():
    reports = explained("legacy-fields", "overlay").patches
    assert [r.step.field for r in reports] == [
        "patchesStrategicMerge", "patchesStrategicMerge", "patchesJson6902", "patchesJson6902"]


def test_prefixed_target_sees_original_and_base_names_but_not_its_own():
    reports = explained("prefix-references", "prod").patches
    assert [r.matched_nothing for r in reports] == [False, False, False, True]


def test_deleted_resources_are_reported():
    reports = explained("delete-resources", "overlay").patches
    assert any(t.deleted for r in reports for t in r.targets)


def test_blame_points_at_the_patch_line_that_set_a_field():
    explanation = explained("shop-overlays", "overlays", "prod")
    by_resource = {b.resource: dict((p, (f, line)) for p, f, line in b.fields)
                   for b in explanation.blame}
    deploy = by_resource["Deployment/shop-prod/shop-web-v2"]
    assert deploy["/spec/replicas"][0].endswith("overlays/prod/kustomization.yaml")
    result = build(str(TREES / "shop-overlays" / "overlays" / "prod"))
    web = [r for r in result.resources if r.describe() == "Deployment/shop-prod/shop-web-v2"][0]
    env = web.value["spec"]["template"]["spec"]["containers"][0]["env"]
    index = [e["name"] for e in env].index("FEATURE_CHECKOUT_V2")
    file, line = deploy[f"/spec/template/spec/containers/0/env/{index}/value"]
    assert file.endswith("kustomization.yaml")
    text = TREES.joinpath("shop-overlays", "overlays", "prod", "kustomization.yaml").read_text()
    assert 'value: "true"' in text.splitlines()[line - 1]
    assert deploy["/spec/revisionHistoryLimit"][0].endswith("base/deployment.yaml")


@pytest.mark.parametrize("case", OK_BUILDS, ids=[b.id for b in OK_BUILDS])
def test_every_output_field_is_blamed(case):
    result = build(str(case.directory), Trace())
    explanation = explain(result)
    assert len(explanation.blame) == len(result.resources)
    for blame in explanation.blame:
        assert blame.fields
        assert all(file for _p, file, _line in blame.fields)
    assert explanation.describe()
    assert len(explanation.to_dict()["blame"]) == len(result.resources)
