"""The rules catalogue of ``cfgpatch lint``: every rule id, its default level and help.

Two kinds of rule share one namespace:

* the findings of ``cfgpatch kube patch`` (same codes, same meaning: see
  :data:`cfgpatch.kube.explain.catalogue.CATALOGUE`), raised on every patch lint applies;
* repository-level rules that only make sense across files: a patch that matches no
  resource, a selector matching other kinds, two patches setting one field, a custom
  resource's list replaced by kustomize, a kustomization that does not build.

Levels are SARIF's: ``error``, ``warning``, ``note`` (the engine's ``info`` is ``note``).
:func:`rule` looks a rule up; :data:`RULES` lists them in a stable order (the SARIF
``ruleIndex`` is the position in it).
"""

from __future__ import annotations

from ..records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ERROR = "error"
WARNING = "warning"
NOTE = "note"
LEVELS = (NOTE, WARNING, ERROR)  # lowest first
#: Spellings accepted for a level (``info`` is the engine's word for ``note``).
LEVEL_ALIASES = {"error": ERROR, "warning": WARNING, "warn": WARNING, "note": NOTE,
                 "info": NOTE}
DOC = "docs/lint.md"
#: The tool's home page in SARIF ``tool.driver.informationUri`` (the package's index page).
INFORMATION_URI = "https://pypi.org/project/cfgpatch/"


@dataclass(frozen=True)
class Rule:
    """One rule: ``id``, default ``level``, a one-line ``short`` text, ``full`` meaning,
    ``help`` (what to do about it) and where ``docs/lint.md`` describes it."""

    id: str
    level: str
    short: str
    full: str
    help: str
    origin: str  # "repository" (lint's own) or "patch" (the kube patch findings)

    @property
    def anchor(self) -> str:
        return f"{DOC}#{self.id}"

    @property
    def name(self) -> str:
        """CamelCase name (SARIF ``reportingDescriptor.name``)."""
        return "".join(part.capitalize() for part in self.id.split("-"))


#: Lint's own rules: id -> (level, short, full, help).
_REPOSITORY = {
    "build-failed": (
        ERROR, "The kustomization does not build",
        "kustomize refuses to build this kustomization; nothing under it can be checked.",
        "Run `kubectl kustomize` on the directory: the message is kustomize's own. Fix the "
        "reference, patch or field it names."),
    "build-incomplete": (
        NOTE, "The build needs what cannot be followed offline",
        "kustomize needs something lint cannot follow here: a remote base or file (git or "
        "https), a Helm chart to pull (`repo:`), a chart with no helm binary, or a plugin. "
        "The patches were checked against what is at hand; a patch whose target lies in the "
        "missing part is not reported as matching nothing. Not a failure of the build.",
        "Nothing to fix in the repository. To check everything, vendor the remote part, pull "
        "the chart into the chart home, or run lint where helm is installed (`--enable-helm`, "
        "`--helm-command`)."),
    "not-followed": (
        WARNING, "cfgpatch could not follow this kustomization",
        "A document under this kustomization is nested deeper than cfgpatch follows (a few "
        "hundred levels), so nothing under it was checked; kustomize itself may build it.",
        "Check it with `kubectl kustomize`, or flatten the document."),
    "patch-matches-nothing": (
        ERROR, "The patch matches no resource",
        "The patch's target selects no resource of the build, so the patch silently does "
        "nothing (typical after a rename or a namePrefix change).",
        "Check the target's kind, name, namespace and label selector against the resources "
        "the kustomization builds (names before namePrefix/nameSuffix of the same layer)."),
    "selector-matches-other-kinds": (
        WARNING, "The selector matches kinds the patch does not name",
        "The target selector names no kind (or a looser one) and matches resources of kinds "
        "the patch was not written for, so the patch lands on them too.",
        "Add `kind:` (and `group:`/`version:`) to the target, or narrow the label selector."),
    "field-set-twice": (
        WARNING, "Two patches of one kustomization set the same field",
        "Two patches of the same kustomization set the same field of the same resource; the "
        "later one wins and the earlier one's value is lost.",
        "Keep the field in one patch; if the override is intended, move it to an overlay."),
    "custom-resource-list-replaced": (
        WARNING, "A strategic patch on a custom resource replaces a list",
        "kustomize has no merge keys for a custom resource (unless the kustomization's "
        "`openapi:` document gives them; `crds:` does not), so a list in a strategic patch "
        "replaces the resource's list and the elements the patch does not restate are lost.",
        "Restate every element, use a JSON 6902 patch that adds or replaces one element "
        "(guarded by a `test`), or give kustomize the schema with `openapi:`."),
    "configuration-narrows-default": (
        WARNING, "A configurations field spec takes the place of a kustomize default",
        "A `configurations:` file names a field spec at the path of one of kustomize's "
        "defaults for a narrower type (`commonLabels: [{path: metadata/labels, kind: App}]`). "
        "kustomize sorts the specs by type and keeps the first of two that name one path, "
        "so the default is dropped and every other kind silently loses that transformer "
        "there (no common labels, no name prefix...).",
        "Remove the spec: the default already covers that kind. Writing the kind-less "
        "spec next to it does not help (the narrower one still sorts first and wins)."),
    "ssa-duplicate-key": (
        ERROR, "An associative list holds one key twice: server-side apply is refused",
        "Two items of a list keyed for server-side apply (containers by name, ports by "
        "containerPort and protocol, env by name, a CRD's x-kubernetes-list-type: map) "
        "have the same key. Client-side kubectl apply and Helm 3 accepted it; the API "
        "server refuses every server-side apply of the object (Helm 4, Flux, kubectl "
        "apply --server-side).",
        "Merge the two items into one, or give each its own key."),
    "ssa-missing-key": (
        WARNING, "An item of an associative list lacks a key field",
        "An item of a list keyed for server-side apply has no value for a key field; the "
        "server keys it by the field's default (\"\" or 0), so a second such item is "
        "refused as a duplicate, and setting the key later makes it a new item with new "
        "owners.",
        "Set the key field explicitly."),
    "replicas-with-hpa": (
        WARNING, "The workload sets replicas and an HPA of the same build scales it",
        "A Deployment (StatefulSet, ReplicaSet) declares spec.replicas and a "
        "HorizontalPodAutoscaler of the same build targets it. The HPA owns spec.replicas "
        "once it scales, so the next server-side apply of this manifest conflicts: Helm 4 "
        "fails the upgrade, Flux forces it back and the HPA scales again.",
        "Remove spec.replicas from the workload and let the HPA own it (its minReplicas "
        "sets the floor)."),
    "ssa-stuck-field": (
        WARNING, "A field this change drops would stay in the cluster after the move to "
                 "server-side apply",
        "For a unit applied server-side (a Flux Kustomization's target, or a folder "
        "lint.kustomize marks apply: server-side, flux or helm4), the field is in the "
        "build at the base ref and not in the working tree's. Assuming the live object "
        "was last written from the base build by the folder's history (lint.kustomize "
        "history: client-side, server-side, flux, helm3, helm4 or none; by default Helm 3 "
        "under helm4, client-side kubectl apply under flux and server-side), the tool's "
        "own migration (kubectl's csaupgrade, Flux's cleanup, Helm 4's merge of helm's "
        "Update entries) and its apply of the new build leave the field in place: the "
        "history's manager still owns it.",
        "After client-side kubectl apply: once, apply the new build with kubectl apply "
        "--server-side --field-manager=<the tool's manager>, or apply it once with "
        "client-side kubectl apply before the tool does. After another tool: apply the new "
        "build once with that tool before the move. Either way, kubectl patch or edit can "
        "remove the field. If the history assumed is wrong, set history: for the folder."),
    "patch-fails": (
        ERROR, "The patch cannot be applied",
        "A standalone patch (mapped in .cfgpatch.yaml) cannot be read or kubectl would refuse "
        "it; the message is kubectl's.",
        "Fix the patch or its mapping in .cfgpatch.yaml."),
    "flux-other-source": (
        NOTE, "A Flux Kustomization's source is not this repository",
        "The Flux Kustomization builds a folder of another source (a second GitRepository, "
        "an OCIRepository, a Bucket...). Where the folder of the same path is here, lint "
        "builds it as a partial build and marks each finding of it so (it may not be what "
        "the source holds); where it is not (or the path is the source's root), the "
        "Flux Kustomization is not linted.",
        "Nothing to fix. If the source is this repository (a mirror, or a second "
        "GitRepository of the same repository), name it in `lint.flux-sources`; "
        "`lint.flux-other-sources: skip` leaves other sources out."),
    "partial-build-failed": (
        WARNING, "The folder of the same path does not build as Flux would build it",
        "A Flux Kustomization of another source was built from the folder of the same path "
        "here, as kustomize-controller would build it, and the build fails. The folder here "
        "may not be what the source holds, so this is a warning, not a build failure.",
        "If the source is this repository, fix the folder (the message is kustomize's or "
        "the controller's) and name the source in `lint.flux-sources`."),
    "flux-substitution": (
        NOTE, "postBuild variables are not expanded offline",
        "kustomize-controller substitutes `${var}` in the built objects after the build, "
        "from `postBuild.substitute` and from ConfigMaps and Secrets in the cluster. Lint "
        "checks the objects with the variables unexpanded; patches are not affected (they "
        "run before the substitution).",
        "Nothing to fix; the values the variables take are not checked."),
}

#: What to do about each finding of the patch engine (its meaning is in CATALOGUE).
_PATCH_HELP = {
    "merge-list-replaced": "Restate every element you keep, or use a strategic merge patch "
                           "(built-in kinds) or JSON Patch to change one element.",
    "atomic-list-replaced": "Restate the whole list in the patch, or use JSON Patch `add` "
                            "with `/-` to append one element.",
    "null-deletes": "Omit the key to leave it unchanged; keep the null only to delete it.",
    "null-deletes-section": "Delete the keys inside the section one by one, or make sure the "
                            "whole section is meant to go.",
    "custom-resource": "Use `--type merge` or a JSON Patch for custom resources.",
    "fallback-view": "Read the computed result: these tools replace lists of custom "
                     "resources.",
    "server-side-apply-view": "Compare with the server-side apply merge if you use it.",
    "finalizers-empty-noop": "To remove finalizers use `$patch: replace`, "
                             "`$deleteFromPrimitiveList/finalizers`, a merge patch or a JSON "
                             "Patch `remove`.",
    "namespace-finalize": "Use the namespace's /finalize subresource to change "
                          "spec.finalizers.",
    "shared-merge-key": "Make the merge key unique (Service ports: give each a name) or use "
                        "JSON Patch on the exact element.",
    "merge-key-type": "Write the merge key with the same type as in the object "
                      "(a number is not a string).",
    "retain-keys-leftover": "Add `$retainKeys` listing the keys to keep, or null out the old "
                            "alternative.",
    "directive-as-data": "Remove the directive: it is stored as an ordinary field here.",
    "delete-matched-nothing": "Check the key values of the delete directive against the "
                              "object.",
    "add-replaces-map": "Add each key with its own path (`/metadata/annotations/<key>`).",
    "index-into-keyed-list": "Add the `test` operation shown before it, so the patch fails "
                             "instead of changing another element when the list changes "
                             "order.",
    "unescaped-slash": "Write `/` inside a key as `~1` (and `~` as `~0`), as shown.",
    "unknown-field": "Check the spelling and the indentation of the field.",
    "yaml-type-change": "Quote the value to keep it a string.",
    "kubectl-json-departure": "Write the operation the RFC 6902 way so every tool reads it "
                              "alike.",
    "kubectl-merge-departure": "Avoid nulls inside lists of a merge patch.",
    "kubectl-crash": "Rewrite the patch: kubectl cannot apply it.",
    "duplicates-order": "Remove the duplicates from the list.",
    "kustomize-differs": "Check which tool applies this patch and read its result.",
    "kubectl-nondeterministic": "Do not name a value both in the list and in its "
                                "`$deleteFromPrimitiveList`.",
}

_ENGINE_LEVEL = {"error": ERROR, "warning": WARNING, "info": NOTE}


def _patch_rules() -> list[Rule]:
    from ..kube.explain.catalogue import CATALOGUE

    out = []
    for code, (severity, meaning) in CATALOGUE.items():
        short = meaning.split(";")[0].split(". ")[0].rstrip(".")
        help_text = _PATCH_HELP.get(code, "See docs/kube.md for this finding.")
        out.append(Rule(code, _ENGINE_LEVEL[severity], short, meaning, help_text, "patch"))
    return out


def _repository_rules() -> list[Rule]:
    return [Rule(rule_id, level, short, full, help_text, "repository")
            for rule_id, (level, short, full, help_text) in _REPOSITORY.items()]


#: The table (every rule, by id, and each id's position), made when first asked for: the
#: patch rules come from the findings catalogue, which a clean run never reads.
_TABLE: tuple[tuple[Rule, ...], dict[str, Rule], dict[str, int]] | None = None


def _table() -> tuple[tuple[Rule, ...], dict[str, Rule], dict[str, int]]:
    global _TABLE  # noqa: PLW0603 - made once, on first use, as a whole
    if _TABLE is None:
        made = tuple(_repository_rules() + _patch_rules())
        _TABLE = (made, {r.id: r for r in made}, {r.id: i for i, r in enumerate(made)})
    return _TABLE


if TYPE_CHECKING:
    RULES: tuple[Rule, ...]
    INDEX: dict[str, int]


def __getattr__(name: str) -> Any:
    """``RULES`` (every rule, in a stable order) and ``INDEX`` (rule id -> position)."""
    if name == "RULES":
        return _table()[0]
    if name == "INDEX":
        return _table()[2]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rule(rule_id: str) -> Rule:
    """The rule ``rule_id`` (KeyError naming it if unknown)."""
    try:
        return _table()[1][rule_id]
    except KeyError:
        raise KeyError(f"unknown lint rule {rule_id!r}") from None


def is_rule(rule_id: str) -> bool:
    return rule_id in _table()[1]


def level_rank(level: str) -> int:
    """0 for note, 1 for warning, 2 for error."""
    return LEVELS.index(level)


def normalise_level(text: str) -> str | None:
    """The level a user wrote (``info`` is ``note``), or None if it is not one."""
    return LEVEL_ALIASES.get(text.strip().lower()) if isinstance(text, str) else None
