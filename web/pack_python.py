"""Pack the Python code the page runs into zip files for Pyodide.

Writes two archives into the given directory:

* ``cfgpatch.zip``: the core ``cfgpatch`` package from ``src/`` (standard library
  only), without the parts that need a server, a database driver or a terminal
  (``server/``, ``cli/``, ``store/sqlite.py``, ``store/postgres*.py``) and without
  the built site itself;
* ``yaml.zip``: the pure-Python part of PyYAML (the ``yaml`` package without its
  optional C accelerator), taken from the PyYAML installed next to this Python.

The archives are reproducible: entries are sorted and carry a fixed timestamp.
A ``python.json`` manifest records the PyYAML version and a digest of the packed
sources, so a test can tell whether the built site matches the source tree.

``--check`` writes nothing and exits 1 when ``OUT_DIR/python.json`` does not record
the current sources (``make web`` runs it on every call, to rebuild when a module
was deleted or renamed, which file times alone do not show).  The full build
(``build.mjs``) then adds bytecode to the archives (``precompile.mjs``).

Usage: python web/pack_python.py [--check] OUT_DIR
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "cfgpatch"
EXCLUDED = ("server/", "cli/", "web/static/", "store/sqlite.py", "store/postgres.py",
            "store/postgres_batch.py")
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def core_files() -> list[tuple[str, Path]]:
    """(archive name, file) for every core module, sorted by archive name."""
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not path.is_file() or "__pycache__" in rel or rel.startswith(EXCLUDED):
            continue
        if path.suffix in (".py", ".json", ".tsv"):
            out.append((f"cfgpatch/{rel}", path))
    return out


def yaml_files() -> tuple[str, list[tuple[str, Path]]]:
    """PyYAML's version and its pure-Python modules (no ``_yaml`` C extension)."""
    import yaml

    package = Path(yaml.__file__).resolve().parent
    files = [
        (f"yaml/{p.name}", p)
        for p in sorted(package.glob("*.py"))
        if p.name != "cyaml.py"  # needs the C extension; yaml/__init__ copes without it
    ]
    return yaml.__version__, files


def write_zip(target: Path, files: list[tuple[str, Path]]) -> str:
    """Write a reproducible zip and return the sha256 of its members."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            data = path.read_bytes()
            digest.update(name.encode() + b"\0" + data + b"\0")
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return digest.hexdigest()


def sources_digest() -> str:
    """Digest of the core sources as :func:`core_files` selects them."""
    digest = hashlib.sha256()
    for name, path in core_files():
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def is_current(out: Path) -> bool:
    """Whether ``out/python.json`` records the sources as they are now."""
    try:
        recorded = json.loads((out / "python.json").read_text())
    except (OSError, ValueError):
        return False
    return recorded.get("cfgpatch_sources") == sources_digest()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [arg for arg in argv if arg != "--check"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out = Path(args[0])
    if check:
        return 0 if is_current(out) else 1
    out.mkdir(parents=True, exist_ok=True)
    core_digest = write_zip(out / "cfgpatch.zip", core_files())
    yaml_version, files = yaml_files()
    write_zip(out / "yaml.zip", files)
    manifest = {"cfgpatch_sources": core_digest, "pyyaml": yaml_version}
    (out / "python.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"packed cfgpatch ({len(core_files())} files) and PyYAML {yaml_version} into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
