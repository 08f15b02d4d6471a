"""`lingjun-kb bundle --configmap`: the zipapp in a ConfigMap that Kubernetes accepts (under 1 MiB as the API
server counts), that validates, that runs when mounted, and that is never written over a file it did not write."""

from __future__ import annotations

import base64
import copy
import functools
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from _manifests import REPO, VERSIONS
from lingjun.generator import configmap as cm
from lingjun.generator.cli import main
from lingjun.generator.zipapp import bundle_text, with_bytecode, zip_entries, zipapp_bytes

#: `lingjun-kb bundle` also rewrites the checkout's checks/data/bundle.json: these tests run on the xdist worker
#: of the tests that compare that file (tests/checks_core/test_checks_core_zipapp.py), after them
pytestmark = pytest.mark.xdist_group("checkout-bundle")


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, str, str]:
    """``(manifest path, stdout, stderr)`` of one real `lingjun-kb bundle --configmap -o FILE --namespace ml` run."""
    out = tmp_path_factory.mktemp("cm") / "lingjun-check-configmap.yaml"
    result = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "bundle", "--configmap", "-o", str(out),
                             "--namespace", "ml"], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    return out, result.stdout, result.stderr


def _doc(path: Path) -> dict:
    """The one document of the manifest at ``path`` (a fresh copy: the tests may not share changes)."""
    (doc,) = copy.deepcopy(_documents(path.read_text(encoding="utf-8")))
    return doc


@functools.lru_cache(maxsize=4)
def _documents(text: str) -> list:
    """The YAML documents of ``text``, parsed once per text: a manifest takes 0.5 s to parse, and most tests
    read the same one."""
    return list(yaml.safe_load_all(text))


@pytest.fixture(scope="module")
def entries() -> list:
    """``zip_entries`` of the checkout's releases: the files of the zipapp `lingjun-kb bundle` builds (made once)."""
    text, _ = bundle_text(REPO / "releases")
    return zip_entries(text)


def test_manifest_is_a_configmap_holding_the_zipapp(written, entries, tmp_path):
    path, out, _ = written
    doc = _doc(path)
    assert (doc["apiVersion"], doc["kind"]) == ("v1", "ConfigMap")
    assert doc["metadata"]["name"] == "lingjun-check" and doc["metadata"]["namespace"] == "ml"
    assert set(doc["binaryData"]) == {"lingjun-check.pyz"} and "data" not in doc
    pyz = base64.b64decode(doc["binaryData"]["lingjun-check.pyz"], validate=True)
    assert doc["metadata"]["annotations"]["lingjun.alibabacloud.com/pyz-sha256"] == hashlib.sha256(pyz).hexdigest()
    # the zipapp of `lingjun-kb bundle`, from the same entries, without the bytecode
    assert pyz == zipapp_bytes(entries)
    assert f"ConfigMap lingjun-check holding {len(pyz)} bytes of lingjun-check.pyz" in out
    # mounted as a file, it runs
    target = tmp_path / "lingjun-check.pyz"
    target.write_bytes(pyz)
    run = subprocess.run([sys.executable, str(target), "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("lingjun-check "), run.stderr


def test_configmap_stays_under_the_api_servers_limit(written):
    path, _, _ = written
    doc = _doc(path)
    payload = cm.payload_bytes(doc)
    assert payload == len(base64.b64decode(doc["binaryData"]["lingjun-check.pyz"]))
    assert payload < cm.CONFIGMAP_LIMIT == 1048576
    # the budget of issue 32: with the error catalogs the payload stays at or under 80 % of the limit
    assert payload <= 0.8 * cm.CONFIGMAP_LIMIT, payload
    # the serialised forms are larger (base64 is 4/3 of the bytes); they are what the annotation of a
    # client-side apply would have to hold, hence `kubectl create` / `apply --server-side`
    serialised = len(json.dumps(doc, separators=(",", ":")).encode())
    assert serialised > payload * 4 // 3
    assert serialised > cm.ANNOTATION_LIMIT == 262144
    assert path.stat().st_size > serialised


@pytest.mark.parametrize("version", VERSIONS)
def test_configmap_validates(written, version):
    assert kubernetes_validate.validate(_doc(written[0]), version, strict=True) == version


def test_the_bytecode_zipapp_would_not_fit(entries):
    """Why the ConfigMap carries the zipapp without bytecode: with it, the API server would refuse it."""
    assert len(zipapp_bytes(entries)) < cm.CONFIGMAP_LIMIT
    with pytest.raises(cm.ConfigMapTooLarge) as caught:
        cm.configmap_object(zipapp_bytes(with_bytecode(entries)))
    assert caught.value.size > cm.CONFIGMAP_LIMIT


def test_payload_counts_data_and_decoded_binary_data():
    doc = {"data": {"a": "é" * 3, "b": "xy"}, "binaryData": {"c": base64.b64encode(b"\0" * 10).decode()}}
    assert cm.payload_bytes(doc) == 6 + 2 + 10
    assert cm.payload_bytes({}) == 0
    with pytest.raises(cm.ConfigMapTooLarge):
        cm.configmap_object(b"\0" * (cm.CONFIGMAP_LIMIT + 1))
    assert cm.payload_bytes(cm.configmap_object(b"\0" * cm.CONFIGMAP_LIMIT)) == cm.CONFIGMAP_LIMIT


def test_manifest_starts_with_how_to_create_it():
    text = cm.configmap_yaml(cm.configmap_object(b"PK"))
    first = text.splitlines()[0]
    assert first.startswith("# ") and "kubectl create -f" in first and "--server-side" in first and "262144" in first
    assert yaml.safe_load(text)["binaryData"] == {"lingjun-check.pyz": "UEs="}


def test_stdout_mode_prints_only_the_manifest(tmp_path):
    result = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "bundle", "--configmap", "-o", "-",
                             "--name", "checker.v2"], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(cm.HEADER)
    (doc,) = _documents(result.stdout)
    assert doc["metadata"]["name"] == "checker.v2"
    assert "namespace" not in doc["metadata"]
    assert "wrote standard output" in result.stderr and not (tmp_path / "-").exists()


@pytest.mark.parametrize("flag, value, words", [
    ("--name", "Lingjun_Check", "a Kubernetes object name"),
    ("--name", "a" * 254, "at most 253 characters"),
    ("--namespace", "ml.team", "a Kubernetes namespace"),
    ("--namespace", "ml-", "a Kubernetes namespace"),
])
def test_bad_names_are_usage_errors_before_any_work(flag, value, words, tmp_path, capsys):
    out = tmp_path / "cm.yaml"
    assert main(["bundle", "--configmap", "-o", str(out), f"{flag}={value}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"lingjun-kb bundle: {flag} ") and words in captured.err
    assert not out.exists()


def test_name_and_namespace_need_configmap(tmp_path, capsys):
    out = tmp_path / "x.pyz"
    for flag in ("--name=checker", "--namespace=ml"):
        assert main(["bundle", "-o", str(out), flag]) == 2
        assert capsys.readouterr().err == ("lingjun-kb bundle: --name and --namespace name the ConfigMap: "
                                           "use them with --configmap\n")
    assert not out.exists()


def test_never_replaces_a_file_it_did_not_write(tmp_path, capsys):
    target = tmp_path / "deploy.yaml"
    target.write_text("apiVersion: v1\nkind: ConfigMap\n", encoding="utf-8")
    assert main(["bundle", "--configmap", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == (f"lingjun-kb bundle: --output {target}: exists and is not a ConfigMap manifest written by "
                   "`lingjun-kb bundle --configmap`; only a new file or a ConfigMap manifest written by "
                   "`lingjun-kb bundle --configmap` is replaced: remove it or choose another name\n")
    assert target.read_text(encoding="utf-8") == "apiVersion: v1\nkind: ConfigMap\n"
    # a zipapp written before is not a manifest either
    pyz = tmp_path / "lingjun-check.pyz"
    pyz.write_bytes(b"#!/usr/bin/env python3\nPK")
    assert main(["bundle", "--configmap", "-o", str(pyz)]) == 2
    assert pyz.read_bytes() == b"#!/usr/bin/env python3\nPK"


def test_replaces_its_own_manifest(written):
    path, _, _ = written
    assert cm.is_previous_configmap(str(path))
    result = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "bundle", "--configmap", "-o", str(path),
                             "--name", "again"], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    assert _doc(path)["metadata"]["name"] == "again"


@pytest.mark.parametrize("kind", ["folder", "symbolic link to a file", "FIFO"])
def test_refuses_hostile_targets(kind, hostile_node, capsys):
    from hostile_paths import HOSTILE_OUTPUT_KINDS, node_state

    path = hostile_node(kind)
    before = node_state(path)
    assert main(["bundle", "--configmap", "-o", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lingjun-kb bundle: --output {path}: ") and HOSTILE_OUTPUT_KINDS[kind] in err
    assert node_state(path) == before


_DOCS_WITH_FIGURES = ("README.md", "docs/en/checker/fleet.md", "docs/zh/checker/fleet.md")


def test_the_share_of_the_limit_the_docs_quote_is_the_current_one(written):
    """The docs quote the ConfigMap's size as `bench/configmap_size.py` prints it; a figure more than a point of the
    limit away from what `bundle --configmap` builds now is stale (run the bench again and write what it prints)."""
    import re

    payload = cm.payload_bytes(_doc(written[0]))
    for doc in _DOCS_WITH_FIGURES:
        text = (REPO / doc).read_text(encoding="utf-8")
        (found,) = re.findall(r"uses (?:about )?(\d+(?:\.\d+)?)% of (?:that|the limit) \((\d{3}) KB|占上限的 (\d+(?:\.\d+)?)%（(\d{3}) KB", text)
        share, size = (found[0], found[1]) if found[0] else (found[2], found[3])
        assert abs(float(share) - 100 * payload / cm.CONFIGMAP_LIMIT) <= 1.0, (doc, share, payload)
        assert abs(int(size) * 1000 - payload) <= 10_000, (doc, size, payload)


def test_every_figure_from_a_bench_script_says_when_it_was_measured():
    """A paragraph that quotes what a bench/ script printed names the day it was measured (code blocks only list
    the commands)."""
    import re

    for doc in _DOCS_WITH_FIGURES:
        text = re.sub(r"```.*?```", "", (REPO / doc).read_text(encoding="utf-8"), flags=re.S)
        for paragraph in re.split(r"\n\s*\n|\n(?=\|)", text):
            if "bench/" in paragraph and re.search(r"\d (?:KB|MiB|ms|s|µs)\b|\d×|\d%| \d+(?:\.\d+)? 倍", paragraph):
                assert re.search(r"20\d\d-\d\d-\d\d", paragraph), (doc, paragraph[:200])
