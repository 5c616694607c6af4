"""lint/selectors.py: kustomize's target selectors (regular expressions, label selectors)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.lint.selectors import (
    SelectorError,
    describe,
    label_selector_matches,
    matches,
    parse_label_selector,
)

DEPLOY = {"apiVersion": "apps/v1", "kind": "Deployment",
          "metadata": {"name": "prod-web", "namespace": "shop",
                       "labels": {"app": "web", "tier": "fe"},
                       "annotations": {"team": "a"}}}
SERVICE = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}}


def test_fields_are_anchored_regular_expressions():
    assert matches({"kind": "Deploy.*"}, DEPLOY)
    assert not matches({"kind": "ploy"}, DEPLOY)
    assert not matches({"kind": "Deploymen"}, DEPLOY)
    assert matches({"name": "prod-.*", "namespace": "shop"}, DEPLOY)
    assert matches({"kind": "Deployment|Service"}, SERVICE)


def test_group_and_version_of_the_core_group():
    assert matches({"group": "", "version": "v1", "kind": "Service"}, SERVICE)
    assert not matches({"group": "apps", "kind": "Service"}, SERVICE)
    assert matches({"group": "apps", "version": "v1"}, DEPLOY)


def test_a_name_the_resource_had_before_still_matches():
    assert not matches({"name": "web"}, DEPLOY)
    assert matches({"name": "web"}, DEPLOY, previous_names=("web",))


def test_label_and_annotation_selectors():
    assert matches({"labelSelector": "app=web,tier in (fe, be)"}, DEPLOY)
    assert matches({"labelSelector": "app==web,!canary,tier"}, DEPLOY)
    assert not matches({"labelSelector": "app!=web"}, DEPLOY)
    assert not matches({"labelSelector": "tier notin (fe)"}, DEPLOY)
    assert matches({"annotationSelector": "team=a"}, DEPLOY)
    assert not matches({"labelSelector": "app=web"}, SERVICE)


def test_bad_selectors_are_errors():
    with pytest.raises(SelectorError):
        matches({"name": "web("}, DEPLOY)
    with pytest.raises(SelectorError):
        parse_label_selector("app=web,=x")
    with pytest.raises(SelectorError):
        parse_label_selector("!app=web")


def test_describe():
    assert describe({"name": "web", "kind": "Deployment"}) == "kind Deployment, name web"
    assert describe({}) == "an empty selector"


_WORD = st.text(alphabet="abc", min_size=1, max_size=3)


@given(st.dictionaries(_WORD, _WORD, max_size=4), _WORD, _WORD)
def test_equality_and_inequality_are_complements(labels, key, value):
    yes = label_selector_matches(f"{key}={value}", labels)
    no = label_selector_matches(f"{key}!={value}", labels)
    assert yes != no
    assert label_selector_matches(key, labels) != label_selector_matches(f"!{key}", labels)
    assert label_selector_matches(f"{key} in ({value})", labels) == yes
