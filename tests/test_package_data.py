"""cfgpatch.package_data: a package's data files read as text."""

import sys
import types

import pytest

from cfgpatch.package_data import read_text


@pytest.fixture
def module(tmp_path):
    (tmp_path / "data").mkdir()
    made = types.ModuleType("cfgpatch_test_data_module")
    made.__file__ = str(tmp_path / "mod.py")
    sys.modules[made.__name__] = made
    yield made, tmp_path / "data"
    del sys.modules[made.__name__]


def test_the_text_is_the_file_as_utf8_with_universal_newlines(module):
    made, data = module
    (data / "a.txt").write_bytes("é line\r\nnext\rlast\n".encode())
    assert read_text(made.__name__, "a.txt") == "é line\nnext\nlast\n"
    with open(data / "a.txt", encoding="utf-8") as f:  # what a text-mode read gives
        assert read_text(made.__name__, "a.txt") == f.read()


def test_a_file_that_is_not_utf8_is_refused(module):
    made, data = module
    (data / "b.txt").write_bytes(b"\xff\xfe")
    with pytest.raises(UnicodeDecodeError):
        read_text(made.__name__, "b.txt")
