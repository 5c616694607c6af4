"""``.cfgpatch.yaml``'s ``preview:`` section: per-path build options (kubectl kustomize's
flags), globs that give options to the entry points they match, and clear errors that name
the key or option, the file and the line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import InvalidInput
from cfgpatch.lint.options import DEFAULT_OPTIONS, RESTRICTORS, BuildOptions
from cfgpatch.preview.config import parse_flags, parse_preview_config, with_changes
from cfgpatch.preview.engine import Options, preview
from preview_support import gitops_files, new_repo

CONFIG = """preview:
  paths:
  - path: "overlays/**"
    options: [--load-restrictor=LoadRestrictionsNone, --enable-helm]
  - path: overlays/prod
    options: ["--helm-command helm3", --enable-helm=false]
  - apps/extra
"""


def test_globs_give_options_and_an_entry_points_own_come_last():
    config = parse_preview_config(CONFIG)
    assert [(p.path, p.is_glob) for p in config.paths] == [
        ("overlays/**", True), ("overlays/prod", False), ("apps/extra", False)]
    own = config.paths[1].options
    prod = config.build_options("overlays/prod", own, DEFAULT_OPTIONS)
    assert prod == BuildOptions("LoadRestrictionsNone", False, "helm3")
    staging = config.build_options("overlays/staging", (), BuildOptions(helm_command="h"))
    assert staging == BuildOptions("LoadRestrictionsNone", True, "h")  # the command line's
    assert config.build_options("base", (), DEFAULT_OPTIONS) == DEFAULT_OPTIONS


@pytest.mark.parametrize("text,message", [
    ("preview:\n  paths:\n  - {path: a, options: [--enable-kustomize]}\n",
     ".cfgpatch.yaml:3: preview.paths[0] (a): unknown option --enable-kustomize (known: "
     "--enable-helm, --helm-command, --load-restrictor)"),
    ("preview:\n  paths:\n  - path: a\n    options: [--load-restrictor, Loose]\n",
     ".cfgpatch.yaml:4: preview.paths[0] (a): --load-restrictor Loose: "
     "LoadRestrictionsRootOnly or LoadRestrictionsNone"),
    ("preview:\n  paths:\n  - {path: a, options: [--helm-command]}\n",
     ".cfgpatch.yaml:3: preview.paths[0] (a): option --helm-command needs a value"),
    ("preview:\n  paths:\n  - {path: a, options: [--enable-helm=yes]}\n",
     "--enable-helm=yes: true or false"),
    ("preview:\n  paths:\n  - {path: a, option: [--enable-helm]}\n",
     ".cfgpatch.yaml:3: unknown key option in preview.paths (known: path, options)"),
    ("preview:\n  pahts: [a]\n",
     ".cfgpatch.yaml:2: unknown key preview.pahts (known: paths, exclude, ignore)"),
    ("preview:\n  ignore:\n  - {kind: Secret, field: data}\n",
     ".cfgpatch.yaml:3: unknown key field in preview.ignore (known: kind, name, path)"),
])
def test_unknown_keys_and_options_name_the_key_the_file_and_the_line(text, message):
    with pytest.raises(InvalidInput) as caught:
        parse_preview_config(text)
    assert message in caught.value.message


def test_a_bad_config_is_an_error_of_the_preview_naming_the_file(tmp_path, capsys):
    from cfgpatch.cli import main

    root = tmp_path / "repo"
    files = gitops_files()
    base = new_repo(root, files)
    (root / ".cfgpatch.yaml").write_text("preview:\n  paths:\n  - {path: a, options: [-x]}\n")
    assert main(["kube", "preview", "-C", str(root), "--base", base]) == 2
    assert "error: .cfgpatch.yaml:3: preview.paths[0] (a): unknown option -x" in \
        capsys.readouterr().err


def test_load_restrictor_none_lets_an_entry_point_read_outside_its_folder(tmp_path):
    root = tmp_path / "repo"
    files = gitops_files()
    files["overlays/prod/kustomization.yaml"] += "- path: ../../shared/team.yaml\n"
    files["shared/team.yaml"] = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                                 "  name: web\n  labels: {team: a}\n")
    base = new_repo(root, files)
    (root / "shared/team.yaml").write_text(files["shared/team.yaml"].replace("team: a",
                                                                             "team: b"))
    unreached = preview(Options(str(root), base, None, ["overlays"]))
    assert unreached["skipped_entry_points"] == ["overlays/prod"]  # outside its folders
    refused = preview(Options(str(root), base, None, ["overlays"], all_entry_points=True))
    assert "security; file" in refused["entry_points"][0]["error"]["head"]
    files[".cfgpatch.yaml"] = ("preview:\n  paths:\n  - {path: overlays/*, options: "
                               "[--load-restrictor, LoadRestrictionsNone]}\n")
    root = tmp_path / "configured"
    base = new_repo(root, files)
    (root / "shared/team.yaml").write_text(files["shared/team.yaml"].replace("team: a",
                                                                             "team: b"))
    report = preview(Options(str(root), base, None, ["overlays"]))
    entry = report["entry_points"][0]
    assert "error" not in entry and entry["options"] == [
        "--load-restrictor", "LoadRestrictionsNone"]
    [deployment] = [o for o in report["objects"] if o["kind"] == "Deployment"]
    label = next(c for c in deployment["changes"] if c["path"] == "/metadata/labels/team")
    assert label["attribution"][0]["file"] == "shared/team.yaml"
    # a change outside the entry point's folders reaches it when it may read anywhere
    assert report["skipped_entry_points"] == []


@settings(deadline=None)
@given(st.builds(BuildOptions, st.sampled_from(RESTRICTORS), st.booleans(),
                 st.from_regex(r"[a-z/][a-z0-9/._-]{0,12}", fullmatch=True)))
def test_flags_read_back_as_the_same_options(options):
    flags = options.flags()
    if not options.enable_helm:  # flags() leaves the helm command out then
        options = BuildOptions(options.load_restrictor)
    assert with_changes(DEFAULT_OPTIONS, parse_flags(flags)) == options


def test_a_helm_command_given_on_the_command_line_wins_over_the_configuration():
    config = parse_preview_config(CONFIG)
    own = config.paths[1].options
    locked = config.build_options("overlays/prod", own, BuildOptions(helm_command="helm"),
                                  locked=True)
    assert locked.helm_command == "helm"
    assert config.build_options("overlays/prod", own, DEFAULT_OPTIONS).helm_command == "helm3"
