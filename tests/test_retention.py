"""cfgpatch.retention: which policy applies, and where old versions may be cut."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.retention import first_kept, policy_for, prune_point
from cfgpatch.store.base import RetentionPolicy, VersionInfo
from cfgpatch.store.deltas import SNAPSHOT_EVERY, block_start


def test_the_longest_prefix_wins():
    policies = [RetentionPolicy("", keep_last=100), RetentionPolicy("team-", keep_last=5),
                RetentionPolicy("team-a-", keep_seconds=60)]
    assert policy_for("team-a-x", policies).prefix == "team-a-"
    assert policy_for("team-b", policies).prefix == "team-"
    assert policy_for("other", policies).prefix == ""
    assert policy_for("other", policies[1:]) is None


def _infos(times: list[str]) -> list[VersionInfo]:
    return [VersionInfo("d", n, at) for n, at in enumerate(times, 1)]


def test_a_version_is_kept_by_either_rule():
    now = datetime(2026, 1, 2, tzinfo=UTC)
    infos = _infos(["2026-01-01T00:00:00.000000Z"] * 50 + ["2026-01-01T23:59:30.000000Z"] * 50)
    assert first_kept(100, RetentionPolicy("", keep_last=10)) == 91
    assert first_kept(100, RetentionPolicy("", keep_seconds=60), infos, now) == 51
    assert first_kept(100, RetentionPolicy("", keep_last=60, keep_seconds=60), infos, now) == 41
    assert first_kept(100, RetentionPolicy("", keep_seconds=1), infos, now) == 100  # the head
    assert prune_point(100, RetentionPolicy("", keep_last=10)) == block_start(91)


@given(st.integers(1, 5000), st.integers(1, 5000))
def test_the_cut_keeps_at_least_what_the_policy_asks_and_the_head(head, keep):
    cut = prune_point(head, RetentionPolicy("", keep_last=keep))
    assert cut == block_start(cut) and cut <= block_start(head)
    assert head - cut + 1 >= min(keep, head)
    assert head - cut + 1 < max(keep, 1) + SNAPSHOT_EVERY
