"""kube/io/folded.py: a folded scalar of a resource as kustomize prints it, after kyaml's
trip through go-yaml v3's writer (answers of kubectl 1.32, also in the recorded tree
``folded-scalars``)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.io.folded import round_trip

CASES = [
    # a line break before a more-indented line gains an empty line
    ("three\n  indented\n  more\nback again\n", "three\n\n  indented\n  more\nback again\n"),
    ("p\n\n  q\n\nr", "p\n\n\n  q\n\nr"),
    ("a\n  b\n\n", "a\n\n  b\n\n"),
    ("\nafter a blank\n  indented\n", "\nafter a blank\n\n  indented\n"),
    # between ordinary lines nothing changes
    ("one two\nthree\n", "one two\nthree\n"),
    ("just one line\n", "just one line\n"),
    # a value that starts with a blank: its ordinary line breaks fold into spaces
    ("  lead\na\nb\n", "  lead\na b\n"),
    ("  lead\nthen more\n", "  lead\nthen more\n"),
    # written double-quoted (a tab-led line is fine, but these are not): unchanged
    ("x \n  y\n", "x \n  y\n"),
    ("emoji \U0001F600\n  next\n", "emoji \U0001F600\n  next\n"),
    ("a\r\n  b\n", "a\r\n  b\n"),
    ("", ""),
]


@pytest.mark.parametrize("value, printed", CASES)
def test_kustomize_prints_the_value_after_go_yaml_s_round_trip(value, printed):
    assert round_trip(value) == printed


def test_a_tab_led_line_is_more_indented_too():
    assert round_trip("x\n\tindented by a tab\ny\n") == "x\n\n\tindented by a tab\ny\n"
