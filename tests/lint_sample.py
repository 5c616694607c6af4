"""A small fixed lint report for the format tests: three findings in two files.

The texts hold the characters GitHub's workflow commands escape (``%``, ``:``, ``,``) in
a path, and a message with a newline, so each format's escaping is exercised.
"""

from __future__ import annotations

from cfgpatch.lint.finding import Location, make
from cfgpatch.lint.report import Report

KUSTOMIZATION = "apps/web,prod/kustomization.yaml"
PATCH = "apps/web,prod/patch:100%.yaml"

TEXTS = {
    KUSTOMIZATION: (
        "resources:\n"
        "  - ../base\n"
        "patches:\n"
        "  - target: {kind: Deployment, name: webapp}\n"
        "    path: patch:100%.yaml\n"
    ),
    PATCH: (
        "spec:\n"
        "\ttemplate: null\n"
        "  replicas: 3\n"
    ),
}


def sample_report() -> Report:
    """patch-matches-nothing (error, with a related place), null-deletes-section
    (warning, a tab in the quoted line, a newline in the message), field-set-twice
    changed to a note."""
    missing = make(
        "patch-matches-nothing",
        "the patch's target (kind Deployment, name webapp) selects no resource",
        Location(KUSTOMIZATION, 4, 5, 4, 45),
        (Location(KUSTOMIZATION, 4, 13, 4, 45, "the target selector"),),
        selector="kind=Deployment,name=webapp")
    section = make(
        "null-deletes-section",
        "spec.template: null deletes the whole section\n(50% of the object)",
        Location(PATCH, 2, 2, 2, 16))
    twice = make("field-set-twice", "Deployment web: spec.replicas is set twice",
                 Location(PATCH, 3, 3))
    twice = type(twice)(twice.rule, "note", twice.message, twice.location)
    targets = [{"kind": "kustomization", "path": KUSTOMIZATION, "patches": 2},
               {"kind": "standalone", "path": PATCH, "patches": 1}]
    return Report([missing, section, twice], targets, TEXTS)
