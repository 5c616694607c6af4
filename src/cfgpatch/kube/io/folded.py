"""A folded scalar (``>``) of a resource, as kustomize's output holds it.

kustomize prints a resource after one more trip through YAML: kyaml writes the
resource node with go-yaml v3's emitter (the folded style kept) and reads that text
back (``RNode.MarshalJSON``).  go-yaml v3's writer of folded scalars decides whether a
line break needs an extra empty line by looking at the start of the whole value, not
at the line that follows the break (libyaml looks at the line), so whenever the value
starts with a character that is not blank, every line break after a line that does not
start with a blank is written with an empty line before it.  Read back, that empty line
is folded away before an ordinary line, but kept before a more-indented one: the value
gains a line break there (``"three\\n  indented"`` becomes ``"three\\n\\n  indented"``).
(go-yaml v3 does not wrap long lines unless told a width, and kyaml does not tell it.)

:func:`round_trip` gives the value after that trip, measured against kubectl 1.27-1.33
(tree ``folded-scalars``).  A value the emitter cannot write as a block scalar (a
trailing space, a space before a line break, a character it does not print: a control
character, a carriage return, one beyond U+FFFF) is written double-quoted, which reads
back unchanged.
"""

from __future__ import annotations

#: go-yaml's line breaks (it writes ``\\n`` itself, others as they are).
_BREAKS = "\n\x85\u2028\u2029"


def round_trip(value: str) -> str:
    """``value``, a folded scalar of a resource, after kyaml writes it and reads it back
    (module docstring)."""
    if "\n" not in value or not _block_allowed(value):
        return value
    import yaml

    body = _body(value)
    # what follows the scalar starts on a line of its own: a break only if none ended it
    text = "k: >" + _hints(value) + body + ("" if body[-1] in _BREAKS else "\n")
    read = yaml.load(text, Loader=yaml.SafeLoader)
    return read["k"] if isinstance(read, dict) and isinstance(read.get("k"), str) else value


def _block_allowed(value: str) -> bool:
    """Whether go-yaml's emitter keeps the block style for ``value``."""
    if value.endswith(" "):
        return False
    previous = ""
    for ch in value:
        if ch in _BREAKS and previous == " ":
            return False  # a space before a line break
        if ch != "\t" and not _printable(ch):
            return False
        previous = ch
    return True


def _printable(ch: str) -> bool:
    code = ord(ch)
    return ch == "\n" or 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or \
        (0xE000 <= code <= 0xFFFD and code != 0xFEFF)


def _hints(value: str) -> str:
    """The block scalar's header after ``>`` as go-yaml writes it (indentation given as
    2 when the value starts with a space or a break; the chomping indicator)."""
    hint = "2" if value[0] == " " or value[0] in _BREAKS else ""
    if value[-1] not in _BREAKS:
        return hint + "-"
    if len(value) == 1 or value[-2] in _BREAKS:
        return hint + "+"
    return hint


def _body(value: str) -> str:
    """The lines go-yaml v3's folded writer makes of ``value`` (content at 2 columns)."""
    start = 0
    while start < len(value) and value[start] in _BREAKS:
        start += 1
    extra = start < len(value) and value[start] not in " \t"  # the whole value's start
    out = ["\n"]  # the end of the header line
    breaks, leading_spaces = True, True
    for ch in value:
        if ch in _BREAKS:
            if not breaks and not leading_spaces and ch == "\n" and extra:
                out.append("\n")
            out.append(ch)
            breaks = True
        else:
            if breaks:
                out.append("  ")
                leading_spaces = ch in " \t"
            out.append(ch)
            breaks = False
    return "".join(out)
