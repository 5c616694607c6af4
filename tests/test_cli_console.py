"""The ``cfgpatch`` process (cli/console.py): the quick exit is taken only when nothing
waits for the interpreter's own exit, the output is never lost, the exit code is kept."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from conftest import ROOT

#: A child that runs ``console.run`` with ``cli.main`` replaced by ``BODY``'s ``fake``;
#: the object in ``KEPT`` says "torn down" when the interpreter frees the module (which
#: the quick exit skips).
CHILD = """
import sys
import cfgpatch.cli as cli
from cfgpatch.cli import console

class Loud:
    def __del__(self):
        sys.stderr.write("torn down\\n")

KEPT = Loud()
{body}
cli.main = fake
console.run()
"""


def _child(body: str, **options) -> subprocess.CompletedProcess:
    code = CHILD.format(body=textwrap.dedent(body))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, **options)


def test_the_quick_exit_keeps_the_output_and_the_code():
    done = _child("""
        def fake():
            sys.stdout.write("x" * 100_000)  # more than a buffer: flushed before leaving
            sys.stderr.write("said\\n")
            return 3
    """)
    assert done.returncode == 3
    assert done.stdout == "x" * 100_000
    assert done.stderr == "said\n"  # no "torn down": the interpreter was not torn down


def test_an_exit_handler_gets_the_ordinary_exit():
    done = _child("""
        import atexit

        def fake():
            atexit.register(lambda: print("handler ran"))
            return 4
    """)
    assert done.returncode == 4
    assert done.stdout == "handler ran\n"
    assert "torn down" in done.stderr


def test_a_thread_still_running_is_waited_for():
    done = _child("""
        import threading, time

        def late():
            time.sleep(0.3)
            print("thread done", flush=True)

        def fake():
            threading.Thread(target=late).start()
            return 0
    """)
    assert done.returncode == 0
    assert done.stdout == "thread done\n"


def test_a_closed_pipe_ends_quietly_with_zero():
    code = CHILD.format(body=textwrap.dedent("""
        def fake():
            sys.stdout.write("line\\n" * 200_000)
            return 0
    """))
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=ROOT)
    child.stdout.read(10)
    child.stdout.close()
    assert child.wait(timeout=60) == 0
    assert b"Traceback" not in child.stderr.read()


def test_collections_are_rarer_except_for_serve():
    probe = "import gc\n\ndef fake():\n    print(gc.get_threshold()[0])\n    return 0\n"
    assert _child(probe).stdout == "20000\n"
    serve = CHILD.format(body=probe).replace("import sys\n", "import sys\nsys.argv[1:] = ['serve']\n",
                                             1)
    done = subprocess.run([sys.executable, "-c", serve], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    default = subprocess.run([sys.executable, "-c", "import gc; print(gc.get_threshold()[0])"],
                             capture_output=True, text=True, timeout=60).stdout
    assert done.stdout == default


def test_python_dash_m_and_the_script_use_it():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'cfgpatch = "cfgpatch.cli.console:run"' in pyproject
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "build", "no-such-folder"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("error: must build at directory")


def test_a_profiler_still_prints_its_table(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cProfile", "-m", "cfgpatch", "kube", "build",
                           "no-such-folder"], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.stderr.startswith("error: must build at directory")
    assert "function calls" in done.stdout  # (cProfile's own exit code is 0)
