"""kustomize/loader.py on its own: kustomize's file loader (root restriction,
symlinks, directories, cycles, remote references) with kustomize v5.5's error texts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.kustomize.loader import Loader, LoaderError, is_remote


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "app" / "base").mkdir(parents=True)
    (tmp_path / "app" / "kustomization.yaml").write_text("resources: [base]\n")
    (tmp_path / "app" / "r.yaml").write_text("x")
    (tmp_path / "app" / "base" / "kustomization.yaml").write_text("")
    (tmp_path / "outside.yaml").write_text("y")
    return tmp_path


def test_reads_files_under_the_root(root):
    loader = Loader.at(str(root / "app"))
    text, real = loader.read("r.yaml")
    assert (text, real) == ("x", str((root / "app" / "r.yaml").resolve()))
    assert loader.read_bytes("r.yaml")[0] == b"x"
    assert loader.exists_file("r.yaml") and not loader.exists_file("base")


def test_a_file_outside_the_root_is_refused(root):
    loader = Loader.at(str(root / "app"))
    with pytest.raises(LoaderError) as caught:
        loader.read("../outside.yaml")
    assert caught.value.message == (f"security; file '{root.resolve()}/outside.yaml' is not in "
                                    f"or below '{(root / 'app').resolve()}'")


def test_a_symlink_pointing_outside_is_refused_too(root):
    os.symlink(root / "outside.yaml", root / "app" / "link.yaml")
    with pytest.raises(LoaderError) as caught:
        Loader.at(str(root / "app")).read("link.yaml")
    assert "is not in or below" in caught.value.message


def test_missing_file_and_directory_messages(root):
    loader = Loader.at(str(root / "app"))
    with pytest.raises(LoaderError) as caught:
        loader.read("nope/x.yaml")
    missing = root.resolve() / "app" / "nope"
    assert caught.value.message == (f"evalsymlink failure on '{missing}/x.yaml' : lstat "
                                    f"{missing}: no such file or directory")
    with pytest.raises(LoaderError) as caught:
        loader.read("base")
    assert caught.value.message.endswith("must resolve to a file")
    with pytest.raises(LoaderError) as caught:
        Loader.at(str(root / "app" / "r.yaml"))
    assert "file is not directory" in caught.value.message
    with pytest.raises(LoaderError) as caught:
        Loader.at(str(root / "none"))
    assert caught.value.message.startswith("must build at directory: not a valid directory: "
                                           "evalsymlink failure on")


def test_bases_may_live_anywhere_but_not_in_a_cycle(root):
    app = Loader.at(str(root / "app"))
    base = app.new("base")
    assert base.root == str((root / "app" / "base").resolve())
    with pytest.raises(LoaderError) as caught:
        base.new("..")
    assert caught.value.message.startswith("cycle detected: candidate root")
    with pytest.raises(LoaderError):
        app.new(".")
    with pytest.raises(LoaderError):  # a directory above a visited root (measured)
        app.new("..")
    (root / "sibling").mkdir()
    assert app.new("../sibling").root == str((root / "sibling").resolve())


def test_kustomization_file_names(root):
    app = Loader.at(str(root / "app"))
    assert app.kustomization_file().endswith("kustomization.yaml")
    (root / "app" / "Kustomization").write_text("")
    with pytest.raises(LoaderError) as caught:
        app.kustomization_file()
    assert caught.value.message.startswith("Found multiple kustomization files under: ")
    empty = root / "empty"
    empty.mkdir()
    with pytest.raises(LoaderError) as caught:
        Loader.at(str(empty)).kustomization_file()
    assert "unable to find one of 'kustomization.yaml', 'kustomization.yml' or " \
           "'Kustomization'" in caught.value.message


@pytest.mark.parametrize("path, remote", [
    ("../base", False), ("deploy.yaml", False), ("https://example.com/a.yaml", True),
    ("github.com/acme/repo//base?ref=v1", True), ("git@github.com:acme/repo.git", True),
    ("ssh://git@host/repo", True), ("git::https://host/repo", True),
    ("base/x.git/", True), ("dir?ref=main", True),
])
def test_remote_references(path, remote):
    assert is_remote(path) is remote


# --load-restrictor (measured with kubectl 1.32 kustomize --load-restrictor ...)

def _restrictor_tree(tmp_path, resources):
    (tmp_path / "a" / "d").mkdir(parents=True)
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    (tmp_path / "a" / "kustomization.yaml").write_text(
        "resources:\n" + "".join(f"- {r}\n" for r in resources))
    return str(tmp_path / "a")


def test_load_restrictions_none_reads_files_outside_the_root(tmp_path):
    from cfgpatch.kube.kustomize.build import build
    root = _restrictor_tree(tmp_path, ["../shared/cm.yaml"])
    built = build(root, load_restrictor="LoadRestrictionsNone")
    assert built.yaml() == "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"
    with pytest.raises(KubeError) as caught:
        build(root)
    assert "security; file '" + str(tmp_path / "shared" / "cm.yaml") + "' is not in or below" \
        in caught.value.message


@pytest.mark.parametrize("resource, reason", [
    ("missing.yaml", "open {a}/missing.yaml: no such file or directory"),
    ("d", "read {a}/d: is a directory"),
])
def test_load_restrictions_none_reports_the_read_as_kustomize_does(tmp_path, resource, reason):
    from cfgpatch.kube.kustomize.build import build
    root = _restrictor_tree(tmp_path, [resource])
    with pytest.raises(KubeError) as caught:
        build(root, load_restrictor="LoadRestrictionsNone")
    assert caught.value.message.startswith(
        f"accumulating resources: accumulation err='accumulating resources from "
        f"'{resource}': {reason.format(a=root)}': ")


def test_an_unknown_load_restrictor_is_kubectls_flag_error(tmp_path):
    from cfgpatch.kube.kustomize.build import build
    with pytest.raises(KubeError) as caught:
        build(_restrictor_tree(tmp_path, []), load_restrictor="bogus")
    assert caught.value.message == ("illegal flag value --load-restrictor bogus; legal values: "
                                    "[LoadRestrictionsRootOnly LoadRestrictionsNone]")
