#!/usr/bin/env python3
"""Read the Kubernetes API struct types compiled into a kubectl binary.

``kubectl patch`` looks up ``patchStrategy`` / ``patchMergeKey`` through Go
reflection on the API structs compiled into the binary, so the binary itself is
the exact source of what a given kubectl knows: every field's JSON name, Go type
(including whether it is a pointer) and struct tags.  This reads Go's runtime
type descriptors (``.typelink`` + ``abi.Type`` / ``abi.StructType`` layouts of Go
1.21+ on amd64, static non-PIE executables as kubectl is shipped) with the
standard library only.

    python scripts/go_types.py kubectl.1.32 apps/v1.DeploymentSpec
"""

from __future__ import annotations

import mmap
import struct
import sys
from dataclasses import dataclass, field

KIND_NAMES = {1: "bool", 2: "int", 3: "int8", 4: "int16", 5: "int32", 6: "int64", 7: "uint",
              8: "uint8", 9: "uint16", 10: "uint32", 11: "uint64", 12: "uintptr",
              13: "float32", 14: "float64", 15: "complex64", 16: "complex128", 17: "array",
              18: "chan", 19: "func", 20: "interface", 21: "map", 22: "ptr", 23: "slice",
              24: "string", 25: "struct", 26: "unsafeptr"}
ARRAY, MAP, PTR, SLICE, STRUCT = 17, 21, 22, 23, 25
#: bytes of each kind's descriptor before its uncommon-type record
_SIZES = {ARRAY: 72, 18: 64, 19: 56, 20: 72, MAP: 88, PTR: 56, SLICE: 56, STRUCT: 80}
PACKAGES = {"k8s.io/apimachinery/pkg/apis/meta/v1": "meta/v1",
            "k8s.io/apimachinery/pkg/api/resource": "resource",
            "k8s.io/apimachinery/pkg/util/intstr": "intstr",
            "k8s.io/apimachinery/pkg/runtime": "runtime"}


@dataclass
class GoField:
    name: str
    tag: str
    type: int
    embedded: bool


@dataclass
class GoType:
    addr: int
    kind: int
    name: str  # "v1.DeploymentSpec", "" for unnamed types
    pkg_path: str
    elem: int = 0
    key: int = 0
    fields: list[GoField] = field(default_factory=list)


class Binary:
    """The Go type descriptors of an ELF executable."""

    def __init__(self, path: str) -> None:
        with open(path, "rb") as handle:
            self.data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self.sections = self._sections()
        self.types_base = self.sections[".rodata"][0]
        self.cache: dict[int, GoType] = {}

    def _sections(self) -> dict[str, tuple[int, int, int]]:
        shoff, = struct.unpack_from("<Q", self.data, 0x28)
        entsize, count, strndx = struct.unpack_from("<HHH", self.data, 0x3A)
        raw = [struct.unpack_from("<IIQQQQ", self.data, shoff + i * entsize)
               for i in range(count)]
        names_at = raw[strndx][4]
        out = {}
        for name, _typ, _flags, addr, offset, size in raw:
            end = self.data.find(b"\0", names_at + name)
            out[self.data[names_at + name:end].decode()] = (addr, offset, size)
        return out

    def _offset(self, addr: int) -> int:
        for start, offset, size in self.sections.values():
            if start and start <= addr < start + size:
                return offset + addr - start
        raise ValueError(f"address {addr:#x} is in no section")

    def _u(self, fmt: str, addr: int) -> int:
        return struct.unpack_from(fmt, self.data, self._offset(addr))[0]

    def _varint(self, addr: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = self.data[self._offset(addr)]
            addr += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value, addr

    def _bytes(self, addr: int, length: int) -> str:
        start = self._offset(addr)
        return bytes(self.data[start:start + length]).decode(errors="replace")

    def name(self, addr: int) -> tuple[str, str]:
        """An ``abi.Name``: (name, tag)."""
        flags = self.data[self._offset(addr)]
        length, at = self._varint(addr + 1)
        text = self._bytes(at, length)
        tag = ""
        if flags & 2:
            tag_length, tag_at = self._varint(at + length)
            tag = self._bytes(tag_at, tag_length)
        return text, tag

    def typelinks(self) -> list[int]:
        _, offset, size = self.sections[".typelink"]
        count = size // 4
        return [self.types_base + o for o in struct.unpack_from(f"<{count}i", self.data, offset)]

    def type(self, addr: int) -> GoType:
        found = self.cache.get(addr)
        if found is not None:
            return found
        kind = self.data[self._offset(addr + 23)] & 0x1F
        tflag = self.data[self._offset(addr + 20)]
        text = self.name(self.types_base + self._u("<i", addr + 40))[0]
        text = text[1:] if tflag & 2 else text
        named = bool(tflag & 4)
        pkg = ""
        if tflag & 1:
            pkg_off = self._u("<i", addr + _SIZES.get(kind, 48))
            pkg = self.name(self.types_base + pkg_off)[0] if pkg_off else ""
        out = GoType(addr, kind, text if named else "", pkg)
        self.cache[addr] = out
        if kind in (PTR, SLICE, ARRAY):
            out.elem = self._u("<Q", addr + 48)
        elif kind == MAP:
            out.key, out.elem = self._u("<Q", addr + 48), self._u("<Q", addr + 56)
        elif kind == STRUCT:
            start, count = self._u("<Q", addr + 56), self._u("<Q", addr + 64)
            for i in range(count):
                field_at = start + i * 24
                name_at = self._u("<Q", field_at)
                fname, tag = self.name(name_at)
                embedded = bool(self.data[self._offset(name_at)] & 8)
                out.fields.append(GoField(fname, tag, self._u("<Q", field_at + 8), embedded))
        return out

    def structs(self) -> dict[tuple[str, str], GoType]:
        """Every named struct reachable from the type links: (package path, name) -> type."""
        seen: set[int] = set()
        stack = self.typelinks()
        out: dict[tuple[str, str], GoType] = {}
        while stack:
            addr = stack.pop()
            if not addr or addr in seen:
                continue
            seen.add(addr)
            kind_type = self.type(addr)
            stack.extend(a for a in (kind_type.elem, kind_type.key) if a)
            stack.extend(f.type for f in kind_type.fields)
            if kind_type.kind == STRUCT and kind_type.name and kind_type.pkg_path:
                out[(kind_type.pkg_path, kind_type.name.rsplit(".", 1)[-1])] = kind_type
        return out


def short_package(path: str) -> str:
    """``k8s.io/api/apps/v1`` -> ``apps/v1``; meta/v1 and friends by name."""
    if path in PACKAGES:
        return PACKAGES[path]
    if path.startswith("k8s.io/api/"):
        return path[len("k8s.io/api/"):]
    return path


def tag_value(tag: str, key: str) -> str | None:
    """The value of ``key:"..."`` in a Go struct tag."""
    marker = f'{key}:"'
    at = tag.find(marker)
    if at < 0 or (at > 0 and tag[at - 1] != " "):
        return None
    end = tag.find('"', at + len(marker))
    return tag[at + len(marker):end]


class TableBuilder:
    """Go struct types -> table types (see cfgpatch.kube.schema.node), following Go's JSON
    field rules: ``json:"-"`` and unexported fields skipped, untagged embedded
    structs (``json:",inline"``) flattened, the shallowest name winning."""

    def __init__(self, binary: Binary) -> None:
        self.binary = binary
        self.by_key = {f"{short_package(pkg)}.{name}": t
                       for (pkg, name), t in binary.structs().items()}
        self.types: dict[str, dict] = {}
        self._anonymous = 0

    def struct_key(self, go_type: GoType) -> str:
        if go_type.name and go_type.pkg_path:
            return f"{short_package(go_type.pkg_path)}.{go_type.name.rsplit('.', 1)[-1]}"
        self._anonymous += 1
        return f"anonymous.Struct{go_type.addr:x}"

    def expr(self, addr: int, pending: list) -> str:
        go_type = self.binary.type(addr)
        if go_type.kind == PTR:
            return "*" + self.expr(go_type.elem, pending)
        if go_type.kind in (SLICE, ARRAY):
            return "[]" + self.expr(go_type.elem, pending).lstrip("*")
        if go_type.kind == MAP:
            return "map[string]" + self.expr(go_type.elem, pending).lstrip("*")
        if go_type.kind == STRUCT:
            key = self.struct_key(go_type)
            pending.append((key, go_type))
            return key
        return KIND_NAMES.get(go_type.kind, "interface")

    def json_fields(self, go_type: GoType) -> list[tuple[str, GoField]]:
        out: list[tuple[str, GoField]] = []
        taken: set[str] = set()
        level = [go_type]
        while level:
            nested: list[GoType] = []
            found: list[tuple[str, GoField]] = []
            for struct_type in level:
                for go_field in struct_type.fields:
                    json_tag = tag_value(go_field.tag, "json")
                    if json_tag == "-":
                        continue
                    name = (json_tag or "").split(",")[0]
                    target = self.binary.type(go_field.type)
                    if target.kind == PTR:
                        target = self.binary.type(target.elem)
                    if go_field.embedded and not name and target.kind == STRUCT:
                        nested.append(target)
                        continue
                    if not go_field.name[:1].isupper():
                        continue
                    found.append((name or go_field.name, go_field))
            for name, go_field in found:
                if name not in taken:
                    taken.add(name)
                    out.append((name, go_field))
            level = nested
        return out

    def add(self, key: str) -> None:
        pending = [(key, self.by_key[key])]
        while pending:
            type_key, go_type = pending.pop()
            if type_key in self.types:
                continue
            fields: dict = {}
            self.types[type_key] = {"name": go_type.name.rsplit(".", 1)[-1] or "struct",
                                    "fields": fields}
            for name, go_field in self.json_fields(go_type):
                expr = self.expr(go_field.type, pending)
                strategy = tag_value(go_field.tag, "patchStrategy") or ""
                merge_key = tag_value(go_field.tag, "patchMergeKey") or ""
                if merge_key:
                    fields[name] = [expr, strategy, merge_key]
                elif strategy:
                    fields[name] = [expr, strategy]
                else:
                    fields[name] = expr


def main(argv: list[str]) -> int:
    builder = TableBuilder(Binary(argv[0]))
    for key in argv[1:]:
        builder.add(key)
        print(key, builder.types[key])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
