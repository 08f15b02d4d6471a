"""deploy/node-problem-detector: the custom plugin monitor configuration has the shape NPD validates, and its wrapper
runs the checker with arguments the command line accepts (through the real zipapp)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from checks_prometheus_kit import FIXTURES, REPO
from lingjun.checks.cli import build_parser
from lingjun.checks.report.render_npd import NPD_MAX_BYTES, fit_bytes

DEPLOY = REPO / "deploy" / "node-problem-detector"
CONFIG = json.loads((DEPLOY / "lingjun-check-monitor.json").read_text(encoding="utf-8"))
WRAPPER = DEPLOY / "lingjun-check-npd.sh"
PY39 = Path("/root/.pyenv/versions/3.9.18/bin/python")

_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")


def seconds(text: str) -> float:
    """A Go ``time.ParseDuration`` string ("300s", "1m30s") in seconds, for the positive forms NPD configs use."""
    parts = _DURATION.findall(text)
    assert parts and "".join(a + b for a, b in parts) == text, f"not a Go duration: {text!r}"
    return sum(float(number) * _UNITS[unit] for number, unit in parts)


def test_config_has_the_shape_npd_validates():
    assert CONFIG["plugin"] == "custom"
    global_config = CONFIG["pluginConfig"]
    assert set(global_config) <= {"invoke_interval", "timeout", "max_output_length", "concurrency",
                                  "enable_message_change_based_condition_update", "skip_initial_status"}
    assert global_config["max_output_length"] == NPD_MAX_BYTES
    interval, timeout = seconds(global_config["invoke_interval"]), seconds(global_config["timeout"])
    assert 0 < timeout <= interval
    assert CONFIG["source"]
    defaults = {c["type"]: c for c in CONFIG["conditions"]}
    assert "LingjunCheckProblem" in defaults
    for condition in CONFIG["conditions"]:
        assert set(condition) == {"type", "reason", "message"} and re.fullmatch(r"[A-Z][A-Za-z]+", condition["reason"])
    assert CONFIG["rules"]
    for rule in CONFIG["rules"]:
        assert rule["type"] in ("temporary", "permanent")
        if rule["type"] == "permanent":
            assert rule["condition"] in defaults  # NPD refuses a permanent rule without its default condition
        assert re.fullmatch(r"[A-Z][A-Za-z]+", rule["reason"]) and rule["reason"] != defaults[rule["condition"]]["reason"]
        assert seconds(rule.get("timeout", global_config["timeout"])) <= timeout  # NPD refuses a rule timeout above the global one


#: the NPD release the Dockerfile builds on: the newest release tag of kubernetes/node-problem-detector (v1.36.0,
#: 2026-07-11; v1.37.0-alpha.1 is a pre-release), promoted to registry.k8s.io by kubernetes/k8s.io#9707
NPD_RELEASE = "v1.36.0"
NPD_IMAGE = f"registry.k8s.io/node-problem-detector/node-problem-detector:{NPD_RELEASE}"
#: the JSON fields NPD v1.36.0's custom plugin monitor reads (pkg/custompluginmonitor/types/config.go and types.go,
#: pkg/types/types.go's Condition; the same since v0.8.20). Go's json.Unmarshal drops a field it does not know
#: without a word, so a misspelt key would silently be a default: every key must be one of these
NPD_CONFIG_FIELDS = {"plugin", "pluginConfig", "source", "conditions", "rules", "metricsReporting"}
NPD_GLOBAL_FIELDS = {"invoke_interval", "timeout", "max_output_length", "concurrency",
                     "enable_message_change_based_condition_update", "skip_initial_status"}
NPD_RULE_FIELDS = {"type", "condition", "reason", "path", "args", "timeout"}
NPD_CONDITION_FIELDS = {"type", "status", "transition", "reason", "message"}


def test_config_uses_only_the_fields_of_the_npd_release_it_targets():
    assert set(CONFIG) <= NPD_CONFIG_FIELDS and {"plugin", "source", "conditions", "rules"} <= set(CONFIG)
    assert set(CONFIG["pluginConfig"]) <= NPD_GLOBAL_FIELDS
    assert all(set(rule) <= NPD_RULE_FIELDS for rule in CONFIG["rules"])
    assert all(set(condition) <= NPD_CONDITION_FIELDS for condition in CONFIG["conditions"])
    # types the Go structs take: strings for durations, an int, bools, a list of strings
    assert isinstance(CONFIG["pluginConfig"]["max_output_length"], int) and isinstance(CONFIG["metricsReporting"], bool)
    assert all(isinstance(a, str) for rule in CONFIG["rules"] for a in rule["args"])


def test_the_image_is_the_npd_release_the_config_was_checked_against():
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert f"ARG NPD_IMAGE={NPD_IMAGE}\n" in text
    assert f"node-problem-detector/blob/{NPD_RELEASE}/Dockerfile" in text  # the stock image it describes
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    assert f"--build-arg NPD_IMAGE={NPD_IMAGE} " in readme
    # no older release is named as the one to build on
    assert set(re.findall(r"node-problem-detector:(v[\d.]+)", text + readme)) == {NPD_RELEASE}


def test_rule_runs_the_wrapper_with_options_the_checker_accepts():
    (rule,) = CONFIG["rules"]
    assert rule["path"] == "/bin/sh" and os.path.exists(rule["path"])  # NPD stats the path; sh needs no executable bit
    script, *options = rule["args"]
    assert Path(script).name == WRAPPER.name
    assert "--format" not in options and "-o" not in options and "--output" not in options  # the wrapper's own
    args = build_parser().parse_args([*options, "--format", "npd"])  # raises SystemExit on an option it does not know
    assert args.root == "/host" and args.format == "npd"
    assert args.require_gpu  # a GPU node that lost its driver is a problem, not a skipped check
    # every probe shares one deadline of --timeout seconds: the rule's time limit leaves room for start-up and rules
    rule_timeout = seconds(rule.get("timeout", CONFIG["pluginConfig"]["timeout"]))
    assert args.timeout * 2 <= rule_timeout
    wrapper = WRAPPER.read_text(encoding="utf-8")
    assert 'exec "$python" "$pyz" --format npd "$@"' in wrapper
    assert "/opt/lingjun-check/lingjun-check.pyz" in wrapper and script.startswith("/opt/lingjun-check/")


@pytest.fixture(scope="module")
def pyz(checker_pyz):
    return checker_pyz


def _wrapper(*args: str, python: str = sys.executable, pyz_path: object = None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "LINGJUN_CHECK_PYTHON": python, "LANG": "C.UTF-8"}
    if pyz_path is not None:
        env["LINGJUN_CHECK_PYZ"] = str(pyz_path)
    return subprocess.run(["/bin/sh", str(WRAPPER), *args], capture_output=True, text=True, timeout=120, env=env, cwd="/")


def _line(result: subprocess.CompletedProcess) -> str:
    out = result.stdout
    assert out.endswith("\n") and out.count("\n") == 1, (out, result.stderr)
    assert len(out.rstrip("\n").encode("utf-8")) <= NPD_MAX_BYTES
    return out.rstrip("\n")


def _options(root: str) -> list[str]:
    (rule,) = CONFIG["rules"]
    options = list(rule["args"][1:])
    options[options.index("--root") + 1] = root
    return options


def test_wrapper_reports_a_problem_on_a_host_root_with_errors(pyz):
    # the configured options, the host root replaced by a fake one whose image build was replaced (an error)
    result = _wrapper(*_options(str(FIXTURES / "fakeroots" / "proprietary-x86")), pyz_path=pyz)
    assert result.returncode == 1, result.stderr
    assert _line(result).startswith("ERROR packages.image-build-replaced: ")


def test_wrapper_reports_ok_on_a_clean_host_root(pyz):
    # a host with the NVIDIA driver's device nodes and nothing wrong (only the version is unreadable without NVML)
    result = _wrapper(*_options(str(FIXTURES / "fakeroots" / "mig-smi")), pyz_path=pyz)
    assert result.returncode == 0, result.stderr
    assert _line(result).startswith("OK lingjun-check: 0 errors, ")


def test_wrapper_reports_a_problem_on_a_gpu_node_without_its_driver(pyz):
    # the configured --require-gpu: a host root with no NVIDIA driver at all is a problem, not an OK with GPU checks skipped
    result = _wrapper(*_options(str(FIXTURES / "fakeroots" / "rdma-erdma")), pyz_path=pyz)
    assert result.returncode == 1, result.stderr
    assert _line(result).startswith("ERROR driver.present: ")


@pytest.mark.skipif(not PY39.exists(), reason="no Python 3.9 interpreter on this machine")
def test_wrapper_runs_the_zipapp_on_python39(pyz):
    result = _wrapper(*_options(str(FIXTURES / "fakeroots" / "proprietary-x86")), python=str(PY39), pyz_path=pyz)
    assert result.returncode == 1, result.stderr
    assert _line(result).startswith("ERROR packages.image-build-replaced: ")


def test_wrapper_is_unknown_without_a_host_root(pyz, tmp_path):
    result = _wrapper(*_options(str(tmp_path / "not-mounted")), pyz_path=pyz)
    assert result.returncode == 2
    assert _line(result) == fit_bytes(f"UNKNOWN lingjun-check: --root {tmp_path}/not-mounted: not a directory")
    assert "not a directory" in result.stderr


def test_wrapper_is_unknown_without_python_or_zipapp(pyz, tmp_path):
    result = _wrapper("--root", "/", python="/nonexistent/python3", pyz_path=pyz)
    assert result.returncode == 2
    assert _line(result) == "UNKNOWN lingjun-check: no /nonexistent/python3 in the NPD container"
    result = _wrapper("--root", "/", pyz_path=tmp_path / "missing.pyz")
    assert result.returncode == 2
    assert _line(result).startswith("UNKNOWN lingjun-check: cannot read ")


def test_wrapper_is_posix_sh():
    assert WRAPPER.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    assert subprocess.run(["/bin/sh", "-n", str(WRAPPER)], capture_output=True).returncode == 0
    assert not re.search(r"\[\[|\bfunction\b|\$\{[^}]*//|<<<", WRAPPER.read_text(encoding="utf-8"))  # no bash-only syntax


DOCKERFILE = DEPLOY / "Dockerfile"


def _debian12_python3() -> "str | None":
    """/usr/bin/python3 when it is Debian 12's python3 package, the interpreter the Dockerfile adds to NPD's image."""
    try:
        release = Path("/etc/debian_version").read_text().strip()
        owner = subprocess.run(["dpkg", "-S", "/usr/bin/python3"], capture_output=True, text=True).stdout
    except (OSError, FileNotFoundError):
        return None
    return "/usr/bin/python3" if release.startswith("12.") and owner.startswith("python3") else None


def test_dockerfile_adds_python_to_the_npd_image_and_carries_the_plugin():
    lines = [line for line in DOCKERFILE.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    arg, base, install, copy = lines
    assert arg.startswith("ARG NPD_IMAGE=registry.k8s.io/node-problem-detector/node-problem-detector:v")
    assert base == "FROM ${NPD_IMAGE}"
    assert install == "RUN clean-install python3"  # debian-base's installer; bookworm's python3 is 3.11
    words = copy.split()
    assert words[0] == "COPY" and words[-1] == "/opt/lingjun-check/"
    # everything the monitor names is put where it names it
    (rule,) = CONFIG["rules"]
    assert rule["args"][0] == "/opt/lingjun-check/" + WRAPPER.name
    assert {Path(w).name for w in words[1:-1]} == {"lingjun-check.pyz", WRAPPER.name, "lingjun-check-monitor.json"}
    assert "dist/lingjun-check.pyz" in words  # what `lingjun-kb bundle` writes
    for source in words[1:-1]:
        assert source == "dist/lingjun-check.pyz" or (REPO / source).is_file(), source


@pytest.mark.skipif(_debian12_python3() is None, reason="needs Debian 12's python3 package (the NPD image's base) at /usr/bin/python3")
def test_wrapper_runs_on_the_python3_the_npd_image_gets(pyz):
    # no LINGJUN_CHECK_PYTHON: the wrapper finds python3 on the image's PATH, as it will in the built image
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "LINGJUN_CHECK_PYZ": str(pyz)}
    result = subprocess.run(["/bin/sh", str(WRAPPER), *_options(str(FIXTURES / "fakeroots" / "proprietary-x86"))],
                            capture_output=True, text=True, timeout=120, env=env, cwd="/")
    assert result.returncode == 1, result.stderr
    assert _line(result).startswith("ERROR packages.image-build-replaced: ")
