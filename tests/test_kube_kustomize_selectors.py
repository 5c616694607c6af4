"""kustomize/selectors.py on its own: patch targets, regular expressions, label and
annotation selectors (the facts are kustomize v5.5's; the corpus trees selectors,
multi-kind-selector and nomatch-patches check them end to end)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.kustomize.resources import Gvk, ResId, Resource, Source
from cfgpatch.kube.kustomize.selectors import (
    Selector,
    go_regexp,
    matches,
    parse_label_selector,
    select,
)


def resource(kind: str, name: str, api: str = "apps/v1", namespace: str = "",
             labels: dict | None = None, annotations: dict | None = None) -> Resource:
    meta: dict = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    if labels is not None:
        meta["labels"] = labels
    if annotations is not None:
        meta["annotations"] = annotations
    return Resource({"apiVersion": api, "kind": kind, "metadata": meta}, Source("x.yaml"))


WEB = resource("Deployment", "web", labels={"tier": "front", "env": "prod"})
WEB_FRONT = resource("Deployment", "web-frontend", labels={"tier": "front"})
DB = resource("StatefulSet", "db", labels={"tier": "back"}, annotations={"backup": "daily"})
SVC = resource("Service", "web", api="v1", namespace="shop")
ALL = [WEB, WEB_FRONT, DB, SVC]


def names(selector: Selector) -> list[str]:
    return [r.describe() for r in select(ALL, selector)]


def test_names_are_anchored_regular_expressions():
    assert names(Selector(name="web")) == ["Deployment/web", "Service/shop/web"]
    assert names(Selector(name="web-.*")) == ["Deployment/web-frontend"]
    assert names(Selector(name="we")) == []


def test_kind_alternatives_select_both_kinds_in_build_order():
    assert names(Selector(kind="Deployment|StatefulSet")) == \
        ["Deployment/web", "Deployment/web-frontend", "StatefulSet/db"]


def test_group_and_version():
    assert names(Selector(group="apps", kind="StatefulSet")) == ["StatefulSet/db"]
    assert names(Selector(group="", version="v1")) == \
        [r.describe() for r in ALL]  # "" selects any group
    assert names(Selector(version="v1", kind="Service")) == ["Service/shop/web"]
    assert names(Selector(group="batch")) == []


def test_namespace_default_for_resources_without_one():
    assert names(Selector(namespace="default", kind="Deployment")) == \
        ["Deployment/web", "Deployment/web-frontend"]
    assert names(Selector(namespace="shop")) == ["Service/shop/web"]


def test_original_name_still_selects_after_a_rename():
    renamed = resource("Deployment", "web")
    renamed.store_previous_id()
    renamed.set_name("prod-web")
    assert matches(renamed, Selector(name="web"))
    assert matches(renamed, Selector(name="prod-web"))
    assert not matches(renamed, Selector(name="prod"))


def test_label_selectors():
    assert names(Selector(label_selector="tier=front")) == \
        ["Deployment/web", "Deployment/web-frontend"]
    assert names(Selector(label_selector="tier=front,env=prod")) == ["Deployment/web"]
    assert names(Selector(label_selector="tier in (back, x)")) == ["StatefulSet/db"]
    assert names(Selector(label_selector="tier notin (front)")) == \
        ["StatefulSet/db", "Service/shop/web"]
    assert names(Selector(label_selector="!tier")) == ["Service/shop/web"]
    assert names(Selector(label_selector="env")) == ["Deployment/web"]
    assert names(Selector(label_selector="tier!=front")) == \
        ["StatefulSet/db", "Service/shop/web"]


def test_annotation_selector_and_both_selectors_together():
    assert names(Selector(annotation_selector="backup=daily")) == ["StatefulSet/db"]
    assert names(Selector(kind="StatefulSet", label_selector="tier=front")) == []


def test_label_selector_parse():
    parsed = parse_label_selector("a=b, c in (x,y), !d, e, f==g")
    assert [(r.key, r.operator, r.values) for r in parsed] == [
        ("a", "=", ("b",)), ("c", "in", ("x", "y")), ("d", "!exists", ()),
        ("e", "exists", ()), ("f", "=", ("g",))]


@pytest.mark.parametrize("text, message", [
    ("a=b,", "found '', expected: identifier after ','"),
    ("a b", "unable to parse requirement: found 'b', expected: '=', '!=', '==', 'in', notin'"),
    ("a in x", "unable to parse requirement: found 'x' expected: '('"),
    ("a in (x y)", "unable to parse requirement: found 'y', expected: ',' or ')'"),
    ("=b", "found '=', expected: !, identifier, or 'end of string'"),
    ("a=b c", "found 'c', expected: ',' or 'end of string'"),
])
def test_malformed_label_selectors_are_errors_in_kustomize_s_words(text, message):
    """As recorded with kubectl kustomize (tree label-selector-errors)."""
    with pytest.raises(KubeError) as caught:
        parse_label_selector(text)
    assert caught.value.message == message


def test_go_regexp_translations_and_refusals():
    assert go_regexp("web").match("web")
    assert not go_regexp("web").match("web2")
    assert go_regexp("a|b").match("b")
    assert go_regexp(r"[[:alpha:]]+").match("abc")
    with pytest.raises(KubeError):
        go_regexp("(?=x)")
    with pytest.raises(KubeError):
        go_regexp(r"(a)\1")


def test_selector_round_trip_and_description():
    raw = {"kind": "Deployment", "name": "web", "labelSelector": "tier=front"}
    selector = Selector.from_dict(raw)
    assert selector.to_dict() == raw
    assert "Deployment" in selector.describe()


def test_resid_spelling():
    assert str(ResId(Gvk("apps", "v1", "Deployment"), "web")) == "Deployment.v1.apps/web.[noNs]"
    assert str(ResId(Gvk("", "v1", "ConfigMap"), "c", "ns")) == "ConfigMap.v1.[noGrp]/c.ns"
