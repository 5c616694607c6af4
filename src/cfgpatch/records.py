"""Record classes as :func:`dataclasses.dataclass` makes them, without its import.

Importing :mod:`dataclasses` brings :mod:`inspect` and with it ``ast``, ``dis``,
``tokenize``, ``token``, ``linecache`` and ``importlib.machinery``, and decorating a class
costs it about half a millisecond: together a sixth of a small ``cfgpatch kube build``
process.  The modules on that path use these names instead:

* ``@dataclass``, ``@dataclass(frozen=True)``, ``@dataclass(eq=False)``: an ``__init__``
  with the fields in order (defaults and ``field(default_factory=...)`` as dataclasses
  has them, ``__post_init__`` called), ``__repr__`` (unless the class writes one),
  ``__eq__`` comparing the fields as a tuple between instances of the same class,
  ``__hash__`` as dataclasses sets it (the fields' hash when frozen, ``None`` when
  compared and not frozen), and a frozen class refuses ``setattr`` with
  :class:`FrozenInstanceError`.  ``ClassVar`` annotations are not fields; fields of
  a decorated base class come first.
* ``field(default=..., default_factory=..., repr=..., compare=...)``.
* ``fields(record)``: the fields in order (each with ``.name``).
* ``replace(record, **changes)``: a new record with those fields changed (a real
  dataclass instance is handed to :func:`dataclasses.replace`).
* ``namedtuple(typename, field_names, defaults=...)``: the class
  :func:`collections.namedtuple` makes (fields, defaults, ``_make``, ``_replace``,
  ``_asdict``, ``__repr__``, pickling), its ``__new__`` made from a template as
  ``__init__`` is, not by ``eval`` (a fifth of a millisecond per class).

Type checkers read the real :mod:`dataclasses` names (``TYPE_CHECKING``), so a record is
checked as a dataclass is.  Standard library only.
"""

from __future__ import annotations

import sys
from collections import _tuplegetter  # type: ignore[attr-defined]
from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import namedtuple
    from collections.abc import Callable, Iterable
    from dataclasses import dataclass, field, fields, replace
    from typing import Any

__all__ = ["FrozenInstanceError", "dataclass", "field", "fields", "is_record", "namedtuple",
           "replace"]

_MISSING: Any = type("_MISSING", (), {"__repr__": lambda self: "MISSING"})()
_FIELDS = "__record_fields__"


class FrozenInstanceError(AttributeError):
    """A field of a frozen record was assigned or deleted."""


class Field:
    """One field of a record: its name, default or default factory, and whether it is
    printed and compared."""

    __slots__ = ("name", "default", "default_factory", "repr", "compare")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING,
                 repr: bool = True, compare: bool = True) -> None:  # noqa: A002
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default, self.default_factory = default, default_factory
        self.repr, self.compare = repr, compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r})"


def _field(*, default: Any = _MISSING, default_factory: Any = _MISSING, repr: bool = True,  # noqa: A002
           compare: bool = True) -> Any:
    return Field(default, default_factory, repr, compare)


def _dataclass(cls: type | None = None, /, *, frozen: bool = False,
               eq: bool = True) -> Any:
    def wrap(cls: type) -> type:
        return _process(cls, frozen, eq)

    return wrap if cls is None else wrap(cls)


def _is_class_var(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _own_fields(cls: type) -> dict[str, Field]:
    found: dict[str, Field] = {}
    own = cls.__dict__
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_class_var(annotation):
            continue
        value = own.get(name, _MISSING)
        if isinstance(value, Field):  # the class attribute is the default, as dataclasses
            made = value
            if made.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        else:
            made = Field(value)
        made.name = name
        found[name] = made
    return found


def _process(cls: type, frozen: bool, eq: bool) -> type:
    all_fields: dict[str, Field] = {}
    for base in cls.__mro__[-2:0:-1]:  # (the bases, object left out, farthest first)
        inherited = base.__dict__.get(_FIELDS)
        if inherited:
            all_fields.update(inherited)
    all_fields.update(_own_fields(cls))
    own = cls.__dict__  # (a live view: it sees what is set below)
    setattr(cls, _FIELDS, all_fields)
    items = list(all_fields.values())
    names = list(all_fields)
    init = _init(items, names, frozen, hasattr(cls, "__post_init__"))
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    values = _getter([f.name for f in items if f.compare])
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq_of(values)  # type: ignore[assignment]
    class_hash = own.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING
                         or (class_hash is None and "__eq__" in own))
    if eq and not explicit_hash:
        cls.__hash__ = _hash_of(values) if frozen else None  # type: ignore[assignment]
    if "__repr__" not in own:
        cls.__repr__ = _repr_of([f.name for f in items if f.repr])  # type: ignore[assignment]
    if frozen:
        cls.__setattr__ = _frozen_setattr  # type: ignore[assignment]
        cls.__delattr__ = _frozen_delattr  # type: ignore[assignment]
    cls.__match_args__ = tuple(names)  # type: ignore[misc,attr-defined]
    return cls


#: Compiled ``__init__`` templates by (fields, which have a factory, frozen,
#: __post_init__): a class gets a template's code with its field names put in
#: (compiling is the costly part of making a record class; eq and hash compile nothing).
#: The shapes cfgpatch's own classes use come compiled with :mod:`cfgpatch.record_inits`
#: (generated by ``scripts/gen_record_inits.py`` from :func:`template_source`).
_TEMPLATES: dict[tuple[int, tuple[int, ...], bool, bool], Any] = {}
_FunctionType: Any = type(_is_class_var)


def template_source(count: int, factories: tuple[int, ...], frozen: bool,
                    post_init: bool) -> str:
    """The source of the ``__init__`` template of one shape (fields ``_r0_``, ``_r1_``...)."""
    body = []
    for i in range(count):
        if i in factories:
            body.append(f"    if _r{i}_ is _M_:\n        _r{i}_ = _F_[{i}]()")
        body.append(f"    _S_(self, '_r{i}_', _r{i}_)" if frozen else f"    self._r{i}_ = _r{i}_")
    if post_init:
        body.append("    self.__post_init__()")
    params = "".join(f", _r{i}_" for i in range(count))
    return f"def __init__(self{params}):\n" + ("\n".join(body) or "    pass") + "\n"


def _template(count: int, factories: tuple[int, ...], frozen: bool, post_init: bool) -> Any:
    key = (count, factories, frozen, post_init)
    code = _TEMPLATES.get(key)
    if code is None:
        from .record_inits import INITS

        made = INITS.get(key)
        if made is None:
            namespace: dict[str, Any] = {}
            exec(template_source(*key), namespace)  # noqa: S102
            made = namespace["__init__"]
        code = _TEMPLATES[key] = made.__code__
    return code


#: Compiled ``__new__`` templates of named tuples, by number of fields.
_NEW_TEMPLATES: dict[int, Any] = {}


def new_source(count: int) -> str:
    """The source of a named tuple's ``__new__`` template (fields ``_r0_``, ``_r1_``...)."""
    params = "".join(f", _r{i}_" for i in range(count))
    items = "".join(f"_r{i}_, " for i in range(count))
    return f"def __new__(_cls{params}):\n    return _T_(_cls, ({items.rstrip(' ')}))\n"


def _new_template(count: int) -> Any:
    code = _NEW_TEMPLATES.get(count)
    if code is None:
        from .record_inits import NEWS

        made = NEWS.get(count)
        if made is None:
            namespace: dict[str, Any] = {}
            exec(new_source(count), namespace)  # noqa: S102
            made = namespace["__new__"]
        code = _NEW_TEMPLATES[count] = made.__code__
    return code


#: The template's parameter names, ``_r0_``, ``_r1_``... (grown as needed).
_PLACEHOLDERS: list[str] = []


def _renamed(code: Any, name: str, fields: list[str]) -> Any:
    """``code`` with the template's ``_r0_``, ``_r1_``... called by the field names."""
    while len(_PLACEHOLDERS) < len(fields):
        _PLACEHOLDERS.append(f"_r{len(_PLACEHOLDERS)}_")
    get = dict(zip(_PLACEHOLDERS, fields)).get  # (every constant of a code object hashes)
    return code.replace(
        co_name=name, co_qualname=name,
        co_varnames=tuple(map(get, code.co_varnames, code.co_varnames)),
        co_names=tuple(map(get, code.co_names, code.co_names)),
        co_consts=tuple(map(get, code.co_consts, code.co_consts)))


def _init(items: list[Field], names: list[str], frozen: bool, post_init: bool) -> Any:
    """``__init__`` for these fields (defaults and factories as dataclasses has them)."""
    factories = tuple(f.default_factory if f.default_factory is not _MISSING else None
                      for f in items)
    code = _template(len(items), tuple(i for i, f in enumerate(factories) if f is not None),
                     frozen, post_init)
    code = _renamed(code, "__init__", names)
    defaults: list[Any] = []
    for item in items:
        if item.default_factory is not _MISSING:
            defaults.append(_MISSING)
        elif item.default is not _MISSING:
            defaults.append(item.default)
        elif defaults:
            raise TypeError(f"non-default argument {item.name!r} follows default argument")
    return _FunctionType(code, {"_M_": _MISSING, "_F_": factories,
                                "_S_": object.__setattr__}, "__init__", tuple(defaults) or None)


def _getter(names: list[str]) -> Callable[[Any], tuple]:
    """The compared fields of a record as a tuple (``operator.attrgetter``, in C)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        single = attrgetter(names[0])
        return lambda record: (single(record),)
    return lambda record: ()


def _eq_of(values: Callable[[Any], tuple]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash_of(values: Callable[[Any], tuple]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _repr_of(names: list[str]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    if name in getattr(type(self), _FIELDS):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)  # (cached_property and the like)


def _frozen_delattr(self: Any, name: str) -> None:
    if name in getattr(type(self), _FIELDS):
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _fields(record: Any) -> tuple[Field, ...]:
    found = getattr(record, _FIELDS, None)
    if found is None:
        import dataclasses

        return dataclasses.fields(record)  # type: ignore[return-value]
    return tuple(found.values())


def _replace(record: Any, /, **changes: Any) -> Any:
    found = getattr(type(record), _FIELDS, None)
    if found is None:
        import dataclasses

        return dataclasses.replace(record, **changes)
    for name in found:
        if name not in changes:
            changes[name] = getattr(record, name)
    return record.__class__(**changes)


def _namedtuple(typename: str, field_names: str | Iterable[str], *,
                defaults: Iterable[Any] | None = None, module: str | None = None) -> type:
    fields = tuple(field_names.replace(",", " ").split() if isinstance(field_names, str)
                   else field_names)
    for name in fields:
        if not name.isidentifier() or name.startswith("_") or fields.count(name) > 1:
            raise ValueError(f"not a field name for {typename}: {name!r}")
    held = tuple(defaults) if defaults is not None else ()
    if len(held) > len(fields):
        raise TypeError("Got more default values than field names")
    new = _FunctionType(_renamed(_new_template(len(fields)), "__new__", list(fields)),
                        {"_T_": tuple.__new__}, "__new__", held or None)
    listed = repr(fields).replace("'", "")[1:-1]  # (as collections writes it: "a," for one)
    new.__doc__ = f"Create new instance of {typename}({listed})"
    namespace: dict[str, Any] = {
        "__doc__": f"{typename}({listed})", "__slots__": (), "_fields": fields,
        "_field_defaults": dict(zip(fields[len(fields) - len(held):], held)),
        "__new__": new, "_make": classmethod(_tuple_make), "_replace": _tuple_replace,
        "__repr__": _tuple_repr, "_asdict": _tuple_asdict,
        "__getnewargs__": _tuple_newargs, "__match_args__": fields}
    for index, name in enumerate(fields):
        namespace[name] = _tuplegetter(index, f"Alias for field number {index}")
    made = type(typename, (tuple,), namespace)
    made.__module__ = module or sys._getframe(1).f_globals.get("__name__", "__main__")
    return made


def _tuple_make(cls: Any, iterable: Iterable[Any]) -> Any:
    made = tuple.__new__(cls, iterable)
    if len(made) != len(cls._fields):
        raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
    return made


def _tuple_replace(self: Any, /, **changes: Any) -> Any:
    made = self._make(map(changes.pop, self._fields, self))
    if changes:
        raise ValueError(f"Got unexpected field names: {list(changes)!r}")
    return made


def _tuple_repr(self: Any) -> str:
    inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
    return f"{self.__class__.__name__}({inner})"


def _tuple_asdict(self: Any) -> dict[str, Any]:
    return dict(zip(self._fields, self))


def _tuple_newargs(self: Any) -> tuple:
    return tuple(self)


def is_record(value: Any) -> bool:
    """Whether ``value`` (a class or an instance) was made by this module's
    :func:`dataclass`."""
    return _FIELDS in getattr(value if isinstance(value, type) else type(value), "__dict__", {})


if not TYPE_CHECKING:
    dataclass, field, fields, replace = _dataclass, _field, _fields, _replace
    namedtuple = _namedtuple
