"""How ``cfgpatch kube`` commands print kubectl's errors: ``error: <kubectl's text>``
(or the bare text where kubectl prints it so), our hint and findings after it, and the
errors of a file of several objects gathered as kubectl's visitors gather them (Go
``utilerrors`` aggregates).  The exit code: 1, or 2 where kubectl itself crashes."""

from __future__ import annotations

import sys

from ..errors import KUBECTL_CRASH, KUBECTL_UNPREFIXED, CfgPatchError, KubeError


def as_kube_error(error: CfgPatchError) -> KubeError:
    if isinstance(error, KubeError):
        return error
    return KubeError(error.message, hint=error.hint)


def fail_all(failed: list[KubeError], unread: list[KubeError]) -> int:
    """kubectl patch's report of the errors of a file of several objects.

    kubectl gathers the errors of the objects it read (a patch that fails, a namespace
    other than ``-n``) one by one, and the errors of reading the file (a document that
    is no object, a list item without a type, the error that ends the reading) in one
    group that comes last (:func:`aggregate`, printed by :func:`report`).
    """
    return report(aggregate([*failed, aggregate(unread)]))


#: A Go ``utilerrors`` aggregate as kubectl builds them: a list of errors and aggregates.
Aggregate = list


def aggregate(errors: list) -> KubeError | Aggregate | None:
    """What a visitor returns for the errors it gathered: None, the one error, or the
    aggregate of several (``None`` entries are left out)."""
    errors = [error for error in errors if error is not None]
    if not errors:
        return None
    return errors[0] if len(errors) == 1 else errors


def _leaves(error: KubeError | Aggregate) -> list[KubeError]:
    if isinstance(error, KubeError):
        return [error]
    return [leaf for inner in error for leaf in _leaves(inner)]


def aggregate_message(error: KubeError | Aggregate) -> str:
    """An error's text as Go prints it: an aggregate's messages, nested ones included,
    without repeats, in brackets when there are several."""
    if isinstance(error, KubeError):
        return error.message
    messages = list(dict.fromkeys(leaf.message for leaf in _leaves(error)))
    return messages[0] if len(messages) == 1 else f"[{', '.join(messages)}]"


def report(error: KubeError | Aggregate | None) -> int:
    """kubectl's ``CheckErr``: one error as usual (``error: ...``); an aggregate one line
    per member, without ``error: `` (a nested aggregate as one line); then our hints."""
    if error is None:
        return 0
    if isinstance(error, KubeError):
        return fail(error)
    for member in error:
        sys.stderr.write(f"{aggregate_message(member)}\n")
    for leaf in _leaves(error):
        if leaf.hint:
            sys.stderr.write(f"cfgpatch: {leaf.hint}\n")
    return 1


def fail(error: KubeError) -> int:
    # kubectl's fatal(): a newline only where the message has none at its end
    end = "" if error.message.endswith("\n") else "\n"
    if error.code in (KUBECTL_CRASH, KUBECTL_UNPREFIXED):  # kubectl prints these without "error: "
        sys.stderr.write(f"{error.message}{end}")
    else:
        sys.stderr.write(f"error: {error.message}{end}")
    if error.hint:
        sys.stderr.write(f"cfgpatch: {error.hint}\n")
    for finding in getattr(error, "findings", None) or ():
        sys.stderr.write(f"cfgpatch: {finding.describe()}\n")
    return 2 if error.code == KUBECTL_CRASH else 1


def explain(changes: list, findings: list) -> None:
    out = sys.stderr
    out.write("cfgpatch: changes:\n" if changes else "cfgpatch: no change\n")
    for change in changes:
        out.write(f"  {change.describe()}\n")
    if findings:
        out.write("cfgpatch: findings:\n")
        for finding in findings:
            out.write(f"  {finding.describe()}\n")
