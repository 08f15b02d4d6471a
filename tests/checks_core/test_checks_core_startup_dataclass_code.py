"""lingjun.checks._startup, its second trick: the zipapp's precompiled @dataclass methods and the deferred inspect import."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pytest

from lingjun.checks._startup import MEMBER, dump, load

#: run in a child interpreter: import every checker module (optionally with the archive's code installed)
#: and print, per dataclass, what its generated methods compile to and which texts were not precompiled
_DESCRIBE = r"""
import dataclasses, importlib, json, marshal, sys, zipfile
pyz, use = sys.argv[1], sys.argv[2] == "1"
sys.path.insert(0, pyz)
from lingjun.checks._startup import MEMBER, install_dataclass_code
blob = zipfile.ZipFile(pyz).read(MEMBER)
installed = install_dataclass_code(blob) if use else False
misses = []
if installed:
    precompiled = dataclasses.exec
    def counting(source, *args, **kwargs):
        if type(source) is str and source not in dict(marshal.loads(blob[4:])):
            misses.append(source)
        return precompiled(source, *args, **kwargs)
    dataclasses.exec = counting
names = [n[:-3].replace("/", ".").removesuffix(".__init__") for n in zipfile.ZipFile(pyz).namelist()
         if n.startswith("lingjun/checks/") and n.endswith(".py") and not n.endswith("__main__.py")]
out = {}
for name in sorted(names):
    module = importlib.import_module(name)
    for attr, cls in sorted(vars(module).items()):
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == name:
            methods = {}
            for method in ("__init__", "__repr__", "__eq__"):
                fn = getattr(cls.__dict__.get(method), "__wrapped__", cls.__dict__.get(method))
                code = getattr(fn, "__code__", None)
                if code is not None:
                    methods[method] = [marshal.dumps(code.co_code).hex(), repr(code.co_consts), code.co_names,
                                       code.co_varnames, code.co_filename, code.co_freevars]
            out[f"{name}.{attr}"] = {"methods": methods, "doc": cls.__doc__, "fields": [f.name for f in dataclasses.fields(cls)]}
print(json.dumps({"installed": installed, "misses": misses, "classes": out, "inspect": "inspect" in sys.modules}))
"""


@pytest.fixture(scope="module")
def pyz(checker_pyz):
    return checker_pyz


def _describe(pyz, use: bool) -> dict:
    result = subprocess.run([sys.executable, "-I", "-S", "-c", _DESCRIBE, str(pyz), "1" if use else "0"],
                            capture_output=True, text=True, timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_precompiled_methods_are_the_code_dataclasses_would_compile(pyz):
    plain, cached = _describe(pyz, False), _describe(pyz, True)
    assert cached["installed"] is True and plain["installed"] is False
    assert cached["misses"] == []  # every text the checker's classes produce was precompiled
    assert "lingjun.checks.facts.Facts" in cached["classes"] and "lingjun.checks.report.findings.Finding" in cached["classes"]
    assert len(cached["classes"]) >= 30
    assert cached["classes"] == plain["classes"]  # same code, docstrings and fields either way
    assert cached["classes"]["lingjun.checks.facts.HostFacts"]["fields"] == [
        "os_id", "os_version_id", "os_pretty_name", "kernel_release", "machine", "hostname"]


def test_archive_member_is_this_interpreters_code(pyz):
    with zipfile.ZipFile(pyz) as archive:
        blob = archive.read(MEMBER)
    codes = load(blob)
    assert len(codes) >= 30 and all(text.startswith("def __create_fn__(") for text in codes)
    text = next(iter(codes))
    assert codes[text].co_filename == "<string>"
    assert load(b"\x00\x00\x00\x00" + blob[4:]) is None  # another interpreter's magic number
    assert load(blob[:40]) is None and load(b"") is None and load(None) is None


def test_dump_and_load_round_trip():
    text = "def __create_fn__(x):\n def f(self):\n  return x\n return f"
    codes = load(dump([text, text]))
    assert list(codes) == [text]
    namespace: dict = {}
    exec(codes[text], {}, namespace)
    assert namespace["__create_fn__"](41)(None) == 41


def test_run_of_the_zipapp_leaves_inspect_unimported_where_dataclasses_does_not_need_it(pyz):
    probe = (
        "import runpy, sys; sys.argv = [sys.argv[0], '--format', 'json']\n"
        "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\nexcept SystemExit as exc:\n    code = exc.code\n"
        "sys.stderr.write(repr((code, 'inspect' in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-I", "-c", probe.replace("sys.argv[0]", repr(str(pyz)))],
                            capture_output=True, text=True, timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["exit_code"] == 0
    # Python 3.12+ dataclasses read annotations through inspect for every class
    assert result.stderr == repr((0, sys.version_info >= (3, 12)))


def test_deferred_inspect_is_imported_on_first_use():
    script = (
        "import sys\n"
        "from lingjun.checks._startup import install_dataclass_code\n"
        "assert install_dataclass_code(None) is False\n"
        "import dataclasses\n"
        "@dataclasses.dataclass\n"
        "class Point:\n    x: int\n    y: 'list[str]'\n"
        "import inspect\n"
        "print(Point.__doc__, type(sys.modules['inspect']).__name__, inspect.signature(Point), dataclasses.inspect is inspect)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Point(x: int, y: 'list[str]') module (x: int, y: 'list[str]') -> None True"


def test_install_does_not_touch_an_interpreter_that_already_imported_dataclasses():
    script = (
        "import dataclasses, inspect, sys\n"
        "from lingjun.checks._startup import install_dataclass_code\n"
        "print(install_dataclass_code(None), sys.modules['inspect'] is inspect, 'exec' in vars(dataclasses))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True", "False"]
