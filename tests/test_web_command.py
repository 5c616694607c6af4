"""Tests for cfgpatch.web.command: the kubectl command line and its shell quoting."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.web.command import kubectl_patch, resource_word, shell_quote

words = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(words)
def test_quoted_word_splits_back_to_itself(word):
    assert shlex.split(shell_quote(word)) == [word]


@pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX shell")
def test_a_real_shell_gets_the_exact_words_back():
    tricky = ["it's", "a b", "$(rm -rf /)", "`x`", "\\n", '"q"', "*", "~", "!x", "é", ""]
    script = 'for a in "$@"; do printf "%s\\0" "$a"; done'
    line = " ".join(shell_quote(word) for word in tricky)
    out = subprocess.run(
        ["sh", "-c", f"set -- {line}; {script}"], capture_output=True, check=True
    ).stdout.decode()
    assert out.split("\0")[:-1] == tricky


@settings(max_examples=100, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
    max_leaves=10,
))
def test_patch_survives_the_shell(patch):
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}
    argv = shlex.split(kubectl_patch(obj, patch, "merge"))
    assert argv[:5] == ["kubectl", "patch", "deployment", "web", "--type=merge"]
    assert argv[5] == "-p"
    assert json.loads(argv[6]) == patch


def test_command_words():
    obj = {"apiVersion": "v1", "kind": "Service",
           "metadata": {"name": "dns", "namespace": "kube-system"}}
    assert kubectl_patch(obj, {"spec": {"ports": []}}, "strategic") == (
        "kubectl patch service dns -n kube-system --type=strategic -p '{\"spec\":{\"ports\":[]}}'"
    )
    assert kubectl_patch(obj, [], "json", dry_run=True) == (
        "kubectl patch service dns -n kube-system --type=json --dry-run=server -o yaml -p '[]'"
    )


def test_resource_word_for_custom_and_unknown_objects():
    prom = {"apiVersion": "monitoring.coreos.com/v1", "kind": "Prometheus"}
    assert resource_word(prom) == "prometheus.monitoring.coreos.com"
    assert resource_word({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress"}) == "ingress"
    assert resource_word({"metadata": {}}) == "KIND"
    assert resource_word([1]) == "KIND"
    assert kubectl_patch({}, {}, "merge").startswith("kubectl patch KIND NAME ")
