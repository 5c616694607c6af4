"""The work budget of one diff: how many alignment steps it may take.

A *step* is the unit every alignment method counts in, chosen so that a step
costs about the same time whatever the method (a fraction of a microsecond):

* the O(ND) search (:mod:`cfgpatch.lcs.myers`): one step per diagonal it
  extends at each cost ``d`` (``(D + 1)²`` steps for edit distance ``D``);
* the sparse method (:mod:`cfgpatch.lcs.sparse`): one step per pair of equal
  elements (``i``, ``j``) of the two middle parts, plus one per element;
* the bit-parallel method (:mod:`cfgpatch.lcs.bits`): per element of one side,
  a few steps plus one per 64 elements of the other side, twice (a row is
  computed once to find the answer and once more while walking it);
* the literal table for tiny middle parts (:data:`cfgpatch.lcs.SMALL`): one step
  per cell.

Prefixes, suffixes and runs of equal elements are compared at C speed and are
free.  :class:`WorkBudget` is passed down by :func:`cfgpatch.diffing.diff_ops`
(its ``work_limit`` keyword, and rebase's); a method whose cost is known in
advance is charged before it starts, the O(ND) search as it goes, so a refused
diff stops early.  Past the limit it raises
:class:`~cfgpatch.errors.LimitExceeded` (``limit exceeded``) naming the array.
"""

from __future__ import annotations

from ..errors import LimitExceeded


class WorkBudget:
    """``limit`` steps of alignment work, spent by :meth:`spend`.

    >>> budget = WorkBudget(10)
    >>> budget.spend(4); budget.left
    6
    >>> budget.spend(7)
    Traceback (most recent call last):
    ...
    cfgpatch.errors.LimitExceeded: limit exceeded
    """

    __slots__ = ("limit", "left", "where")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.left = limit
        #: The pointer (in ``a``) of the array being aligned, for the message.
        self.where = ""

    def spend(self, steps: int) -> None:
        """Take ``steps``; raise ``limit exceeded`` if fewer are left."""
        self.left -= steps
        if self.left < 0:
            self.left = 0
            raise LimitExceeded(
                f"aligning the array at {self.where or '(root)'} takes more than the "
                f"work limit of {self.limit} steps (work_limit)")
