"""Retention: which old versions of a document may go.

A policy (:class:`~cfgpatch.store.base.RetentionPolicy`) applies to the names
that start with its prefix (the longest matching prefix wins).  A version is
kept when it is among the last ``keep_last`` versions or younger than
``keep_seconds``; the head is always kept, deleted or not.  Versions go in whole
blocks of :data:`~cfgpatch.store.deltas.SNAPSHOT_EVERY` (the first kept
version must be kept whole), so up to ``SNAPSHOT_EVERY - 1`` more versions than
the policy asks for may stay.  Version numbers never change: after pruning, the
history starts above 1, and reading a pruned version is ``unknown version``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .store.base import RetentionPolicy, VersionInfo
from .store.deltas import block_start


def policy_for(name: str, policies: list[RetentionPolicy]) -> RetentionPolicy | None:
    """The policy of the longest prefix of ``name`` (``None``: keep everything).

    >>> policy_for("team-a-cfg", [RetentionPolicy("", 5), RetentionPolicy("team-a-", 2)])
    RetentionPolicy(prefix='team-a-', keep_last=2, keep_seconds=None)
    """
    best = None
    for policy in policies:
        if name.startswith(policy.prefix) and (best is None
                                               or len(policy.prefix) > len(best.prefix)):
            best = policy
    return best


def first_kept(head: int, policy: RetentionPolicy, infos: list[VersionInfo] | None = None,
               now: datetime | None = None) -> int:
    """The oldest version the policy keeps (``infos``, oldest first, are needed only
    for ``keep_seconds``; a version without a time is kept)."""
    keep = head
    if policy.keep_last is not None:
        keep = min(keep, head - policy.keep_last + 1)
    if policy.keep_seconds is not None and infos:
        cutoff = (now or datetime.now(UTC)) - timedelta(seconds=policy.keep_seconds)
        stamp = cutoff.isoformat(timespec="microseconds").replace("+00:00", "Z")
        young = [i.version for i in infos if i.created_at is None or i.created_at >= stamp]
        if young:
            keep = min(keep, young[0])
    return max(keep, 1)


def prune_point(head: int, policy: RetentionPolicy, infos: list[VersionInfo] | None = None,
                now: datetime | None = None) -> int:
    """The block start below which every version may go (1: nothing goes).

    >>> prune_point(100, RetentionPolicy("", keep_last=10))
    65
    """
    return block_start(first_kept(head, policy, infos, now))
