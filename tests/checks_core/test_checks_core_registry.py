"""The one registry: duplicate ids refused, every public module of the rule and probe packages registers, order kept."""

import pkgutil
import sys
import types

import pytest

import lingjun.checks.probes as probes_package
import lingjun.checks.rules as rules_package
import lingjun.schema.gate.rules as gate_package
from lingjun.checks.core.registry import RegistrationError, Registry, module_names
from lingjun.checks.probes import PROBES, load_probes
from lingjun.checks.rules import RULES, load_rules
from lingjun.schema.gate.rules import GATE_RULES, load_rules as load_gate_rules


class _Spec:
    def __init__(self, order):
        self.order = order


@pytest.mark.parametrize(
    ("package", "registry", "load"),
    [(rules_package, RULES, load_rules), (gate_package, GATE_RULES, load_gate_rules), (probes_package, PROBES, load_probes)],
    ids=["checker-rules", "gate-rules", "probes"],
)
def test_every_public_module_registered(package, registry, load):
    load()
    public = {f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")}
    assert public and registry.modules() == public
    assert module_names(package) == {m.name for m in pkgutil.iter_modules(package.__path__)}


def test_registry_refuses_a_duplicate_id():
    registry = Registry("thing")
    registry.add("a", _Spec(1), "pkg.a")
    with pytest.raises(ValueError, match="thing 'a' registered twice"):
        registry.add("a", _Spec(2), "pkg.b")


def test_registry_iterates_in_declared_order_then_id():
    registry = Registry("thing")
    for id, order in [("c", 2), ("b", 1), ("a", 2)]:
        registry.add(id, _Spec(order), "pkg")
    assert list(registry) == ["b", "a", "c"]
    assert registry.pop("a").order == 2 and list(registry) == ["b", "c"]


def test_discover_refuses_a_module_that_registers_nothing(tmp_path, monkeypatch):
    package_dir = tmp_path / "regpkg_empty"
    package_dir.mkdir()
    (package_dir / "__init__.py").write_text("")
    (package_dir / "_helper.py").write_text("")  # underscore: not discovered
    (package_dir / "silent.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import regpkg_empty

    try:
        with pytest.raises(RegistrationError) as caught:
            Registry("thing", "@thing(...)").discover(regpkg_empty)
        assert str(caught.value) == (
            f"{package_dir / 'silent.py'} registers no thing: decorate its function with @thing(...), "
            "or start the module's name with '_' if it only holds helpers"
        )
        assert isinstance(caught.value, LookupError)
    finally:
        for name in [n for n in sys.modules if n.startswith("regpkg_empty")]:
            del sys.modules[name]


def test_discover_imports_modules_sorted_by_name(tmp_path, monkeypatch):
    package_dir = tmp_path / "regpkg_sorted"
    package_dir.mkdir()
    (package_dir / "__init__.py").write_text("")
    for name, order in [("zeta", 1), ("alpha", 2)]:
        (package_dir / f"{name}.py").write_text(
            f"from tests_registry_target import IMPORTED, REG, Spec\nIMPORTED.append({name!r})\nREG.add({name!r}, Spec({order}), __name__)\n")
    target = types.ModuleType("tests_registry_target")
    target.REG = Registry("thing")
    target.Spec = _Spec
    target.IMPORTED = imported = []
    monkeypatch.setitem(sys.modules, "tests_registry_target", target)
    monkeypatch.syspath_prepend(str(tmp_path))
    import regpkg_sorted

    try:
        assert list(target.REG.discover(regpkg_sorted)) == ["zeta", "alpha"]  # declared order
        assert imported == ["alpha", "zeta"]  # import order: by name
    finally:
        for name in [n for n in sys.modules if n.startswith("regpkg_sorted")]:
            del sys.modules[name]


#: the report order of the first rules, as the hand-kept import list had it; a new rule may go anywhere between them
REPORT_ORDER = [
    "release.identified", "driver.present", "driver.minimum", "driver.cuda-compatibility",
    "driver.forward-compat-consumer-gpu", "driver.compat-shadows-host", "driver.nvml-mismatch", "driver.device-nodes",
    "driver.branch-eol", "cuda.torch-build-vs-driver", "cuda.compute-capability", "cuda.toolkit-vs-record",
    "packages.missing", "packages.version-mismatch", "packages.image-build-replaced", "packages.extension-abi",
    "libraries.cudnn-shadowed", "libraries.nccl-shadowed", "libraries.nccl-cuda-majors", "python.interpreter",
    "env.nccl-socket-ifname", "env.nccl-socket-ifname-pod-size", "env.checkpoint-optimization",
    "config.deepspeed-prefetch-bucket-size", "known-issues.match",
]


def test_checker_rules_keep_their_report_order():
    registered = [spec.id for spec in load_rules()]
    assert [rule_id for rule_id in registered if rule_id in REPORT_ORDER] == REPORT_ORDER


def test_probes_keep_their_apply_order():
    assert [spec.id for spec in load_probes()] == [
        "os_release", "python_env", "distributions", "env_vars", "loader", "driver_proc", "devices", "nvml",
        "nvidia_smi", "libcuda", "cuda_toolkit", "cudnn", "nccl", "torch_build", "network", "manifest", "shm", "limits", "rdma", "gpu_topology",
    ]


@pytest.fixture()
def forgotten_checker_rule(monkeypatch, tmp_path):
    """A module ``env_forgot`` in lingjun.checks.rules that forgot its @rule decorator."""
    import lingjun.checks.core.registry as registry

    module = types.ModuleType("lingjun.checks.rules.env_forgot")
    module.__file__ = str(tmp_path / "env_forgot.py")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    real = registry.module_names
    monkeypatch.setattr(registry, "module_names",
                        lambda package: real(package) | ({"env_forgot"} if package is rules_package else set()))
    return module.__file__


def test_a_rule_module_without_its_decorator_is_one_line_naming_the_fix(forgotten_checker_rule, capsys):
    from lingjun.checks.cli import main as check_main
    from lingjun.generator.cli import main as kb_main

    expected = (f"{forgotten_checker_rule} registers no checker rule: decorate its function with "
                "@rule(id, area, title_en, title_zh), or start the module's name with '_' if it only holds helpers")
    assert check_main(["--list-rules"]) == 3
    assert capsys.readouterr().err.strip() == f"lingjun-check: {expected}"
    assert kb_main(["validate"]) == 1
    out, err = capsys.readouterr()
    assert err.strip() == f"lingjun-kb validate: {expected}" and "Traceback" not in out + err


def _package(tmp_path, monkeypatch, name, files):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for file, text in files.items():
        (folder / file).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    return folder


@pytest.mark.parametrize("file,text,message", [
    ("broken.py", "raise RuntimeError('boom')\n", "broken.py: cannot be imported: RuntimeError: boom"),
    ("missing.py", "import no_such_module_here\n", "missing.py: cannot be imported: ModuleNotFoundError: No module named 'no_such_module_here'"),
    ("syntax.py", "def (:\n", "syntax.py: cannot be imported: SyntaxError"),
    ("bad-name.py", "VALUE = 1\n", "bad-name.py: 'bad-name' is not a Python module name"),
])
def test_discover_names_the_file_of_a_broken_module(tmp_path, monkeypatch, file, text, message):
    name = f"regpkg_broken_{abs(hash(file)) % 10**6}"
    folder = _package(tmp_path, monkeypatch, name, {file: text})
    package = __import__(name)
    try:
        with pytest.raises(RegistrationError) as caught:
            Registry("thing", "@thing(...)").discover(package)
        assert str(caught.value).startswith(str(folder / file).rsplit("/", 1)[0]) and message in str(caught.value)
    finally:
        for module in [n for n in sys.modules if n.startswith(name)]:
            del sys.modules[module]


def test_a_duplicate_id_in_a_discovered_module_names_its_file(tmp_path, monkeypatch):
    registry = Registry("thing", "@thing(...)")
    sys.modules["regpkg_reg_target"] = types.SimpleNamespace(REGISTRY=registry)
    text = "import regpkg_reg_target as r\nr.REGISTRY.add('x', types_ns, __name__)\n".replace(
        "types_ns", "type('S', (), {'order': 1})()")
    folder = _package(tmp_path, monkeypatch, "regpkg_dup", {"a.py": text, "b.py": text})
    import regpkg_dup

    try:
        with pytest.raises(RegistrationError) as caught:
            registry.discover(regpkg_dup)
        assert str(caught.value) == f"{folder / 'b.py'}: cannot be imported: ValueError: thing 'x' registered twice"
    finally:
        for module in [n for n in sys.modules if n.startswith("regpkg_")]:
            del sys.modules[module]


def test_two_probes_may_not_share_a_record_name():
    from lingjun.checks.probes import register_probe

    load_probes()
    with pytest.raises(ValueError, match="probe name 'os' is already the NAME of probe module os_release"):
        register_probe("os", order=999)(types.FunctionType((lambda env, record: {}).__code__, {"__name__": "zz_dup"}, "probe"))


def test_a_rule_of_an_area_the_report_has_no_section_for_is_refused_naming_the_areas():
    """``@rule(..., "env", ...)`` (the id's prefix, not its area) would open an untitled section of its own."""
    from lingjun.checks.report.model import AREAS
    from lingjun.checks.rules import rule

    with pytest.raises(KeyError) as refused:
        rule("env.new-rule", "env", "x", "x")
    assert refused.value.args[0] == f"rule env.new-rule: area 'env' is not a report area (known: {', '.join(AREAS)})"
    assert "environment" in AREAS and "libraries" in AREAS
