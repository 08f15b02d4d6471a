"""A --data bundle with a value of another type is unreadable release data (one line naming the field, exit 3).

Kind-level: every field the declared shape lists is given, in every record that has it, each JSON type
it does not allow; loading must refuse the bundle naming that field.  Every other field of the embedded
bundle (not read by the checker, so not in the shape) is given wrong types too; the check must then run
without an internal error.  The site URL is held to the site's URL rules.
"""

from __future__ import annotations

import json
import re

import pytest

from lingjun.checks.knowledge._bundle_shape import BUNDLE_SHAPE, MapOf, Opt, Required, shape_paths, shape_problem
from lingjun.checks.knowledge.bundle import BundleError, KnowledgeData

from checks_redteam_kit import REPO, json_copy, run_json

BUNDLE = json.loads((REPO / "checks" / "data" / "bundle.json").read_text(encoding="utf-8"))
SNAPSHOT = REPO / "tests" / "fixtures" / "cases" / "C01.json"
RELEASE = "training-nv-pytorch:25.10"
#: one value of each JSON type
VALUES = {"string": "x", "integer": 7, "true/false": True, "null": None, "list": [1], "object": {"a": 1}, "number": 1.5}


def _allowed(shape) -> set:
    """The JSON type names ``shape`` accepts."""
    allowed = set()
    if isinstance(shape, Required):
        shape = shape.inner
    if isinstance(shape, Opt):
        allowed.add("null")
        shape = shape.inner
    if shape is str:
        allowed.add("string")
    elif shape is int:
        allowed.add("integer")
    elif shape is bool:
        allowed.add("true/false")
    elif isinstance(shape, list):
        allowed.add("list")
    elif isinstance(shape, (dict, MapOf)):
        allowed.add("object")
    return allowed


def _holders(node, parts):
    """``(container, key)`` for every place in ``node`` the path ``parts`` (``[]`` for list items, ``*`` any key) names."""
    if not parts:
        return
    head, rest = parts[0], parts[1:]
    if head == "[]":
        if isinstance(node, list):
            for item in node:
                yield from _holders(item, rest)
        return
    if not isinstance(node, dict):
        return
    keys = list(node) if head == "*" else [head] if head in node else []
    for key in keys:
        if rest:
            yield from _holders(node[key], rest)
        else:
            yield node, key


def _parts(path: str) -> list:
    return [p for p in re.split(r"\.|(\[\])", path) if p]


def _seeded() -> dict:
    """The embedded bundle plus one of each record part that it leaves empty (so every listed field occurs)."""
    data = json_copy(BUNDLE)
    issue = data["known_issues"][0]
    issue["condition"]["env"] = [{"name": "NCCL_DEBUG", "equals": "INFO", "not_equals": None, "unset": None}]
    issue["condition"]["architectures"] = ["x86_64"]
    issue["condition"]["components"] = {"vllm": ">=0.1"}
    issue["condition"]["facts"] = [{"fact": "shm.size_bytes", "op": "lt", "value": 1073741824}]
    cause = next(c for sig in data["signatures"] for c in sig["causes"] if c.get("condition"))
    cause["condition"]["env"] = [{"name": "NCCL_DEBUG", "equals": "INFO", "not_equals": None, "unset": None}]
    issue["affects"]["components"] = {"vllm": ">=0.1"}
    issue["upstream"] = [{"kind": "issue", "project": "p", "number": 1, "title": "t", "url": "https://example.com/"}]
    for record in data["releases"]:
        if record.get("gpu_support"):
            record["gpu_support"]["compute_capabilities"] = ["9.0"]
            break
    else:
        data["releases"][0]["gpu_support"] = {"models": ["H20"], "architectures": ["hopper"], "compute_capabilities": ["9.0"],
                                              "list_state": "partial"}
    # a release with variants and runtimes (inference-nv-pytorch 25.04 and training-xpu-pytorch 2026-10-20 have them)
    first = next(r for r in data["releases"] if r["image_tags"] and len(r["components"]) > 1 and not r["variants"])
    entries = json_copy(first["components"][:2]) + [{"id": "vllm", "name": "vLLM", "version": "0.8.5", "architectures": ["amd64"],
                                                           "introduced": False}]
    runtime = {"id": "llama-factory/20261015", "name": "LlamaFactory", "path": "/opt/runtimes/llama-factory-ppu", "python": "3.12",
               "component_list": "complete", "components": json_copy(entries)}
    first["runtimes"] = [json_copy(runtime)]
    first["variants"] = [{"id": "vllm", "title": {"en": "vLLM", "zh": "vLLM"}, "image_tags": json_copy(first["image_tags"]),
                          "architectures": ["amd64"], "cuda": "12.4", "ppu_sdk": "1.7.0", "python": "3.10",
                          "component_list": "complete", "components": entries, "presence_unknown": ["nccl"],
                          "runtimes": [runtime]}]
    first["presence_unknown"] = ["nccl"]
    return data


SEEDED = _seeded()
SPEC_PATHS = [(path, shape) for path, shape in shape_paths()]
#: the fields with a type of their own to refuse (a fact clause's value may be a number, a word, true/false or a list)
TYPED_PATHS = [(path, shape) for path, shape in SPEC_PATHS if shape is not object]


def test_the_embedded_bundle_and_the_seeded_one_fit_the_shape():
    assert shape_problem(BUNDLE) is None
    assert shape_problem(SEEDED) is None


def test_every_listed_field_occurs_in_the_seeded_bundle():
    missing = [path for path, _ in SPEC_PATHS if not list(_holders(SEEDED, _parts(path)))]
    assert missing == []


@pytest.mark.parametrize("path, shape", TYPED_PATHS, ids=[p for p, _ in TYPED_PATHS])
def test_every_listed_field_of_another_type_is_refused_naming_it(path, shape):
    wrong = [kind for kind in VALUES if kind not in _allowed(shape)]
    assert wrong
    pattern = re.escape(path).replace(r"\[\]", r"\[[0-9]+\]").replace(r"\*", r"[^.\[]+")
    # the wrong values go into one copy of the seeded bundle and the field's own values back after each kind
    # (loading does not change the data it is given: the copy is compared with the seeded bundle at the end)
    data = json_copy(SEEDED)
    holders = list(_holders(data, _parts(path)))
    originals = [holder[key] for holder, key in holders]
    for kind in wrong:
        for holder, key in holders:
            holder[key] = json_copy(VALUES[kind])
        with pytest.raises(BundleError) as caught:
            KnowledgeData.from_dict(data, "b.json")
        for (holder, key), original in zip(holders, originals):
            holder[key] = original
        message = str(caught.value)
        if path == "format":  # checked first, with its own message
            assert message == "b.json: not a lingjun-kb bundle of format lingjun-kb/bundle/2"
            continue
        # the first bad value is this field, or (a map of it given a list/object) something inside it
        assert re.match(rf"b\.json: unusable release data: {pattern}(\.[^:]+)?: expected ", message), (kind, message)
        assert "\n" not in message
    assert data == SEEDED


def _leaf_patterns(node, path=""):
    """Every distinct path pattern (``[]`` for items) of the bundle."""
    seen = {}

    def walk(value, where):
        seen.setdefault(where, None)
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}.{key}" if where else key)
        elif isinstance(value, list):
            for item in value:
                walk(item, f"{where}[]")

    walk(node, path)
    return [p for p in seen if p]


LISTED = {path for path, _ in SPEC_PATHS}
UNLISTED = [p for p in _leaf_patterns(BUNDLE) if p not in LISTED]


def test_fields_not_in_the_shape_are_not_read_by_rules(monkeypatch, capsys, tmp_path):
    """A field the shape does not list may hold anything: the check runs (with a release) without an internal error."""
    target = tmp_path / "bundle.json"
    assert len(UNLISTED) > 20
    data = json_copy(BUNDLE)  # each path's wrong values go in, and its own values back after the check
    for path in UNLISTED:
        holders = list(_holders(data, _parts(path)))
        originals = [holder[key] for holder, key in holders]
        # an integer where the bundle has text, lists or objects; an object where it has numbers or true/false
        kind = "object" if any(isinstance(h[k], (int, float)) for h, k in holders) else "integer"
        for holder, key in holders:
            holder[key] = json_copy(VALUES[kind])
        refused = shape_problem(data) is not None
        text = None if refused else json.dumps(data)
        for (holder, key), original in zip(holders, originals):
            holder[key] = original
        if refused:
            continue  # inside a listed field (e.g. an item of a listed list): refused like the rest
        target.write_text(text, encoding="utf-8")
        code, report, err = run_json(monkeypatch, capsys, "--data", str(target), "--from", str(SNAPSHOT),
                                     "--release", RELEASE)
        assert code in (0, 1, 2), (path, kind, err)
        broken = [f["message"] for f in report["findings"] if "internal error" in f["message"]]
        assert not broken, (path, kind, broken)
    assert data == BUNDLE


def test_a_wrong_type_from_the_red_team_file_is_one_line_and_exit_3(monkeypatch, capsys, tmp_path):
    data = json_copy(BUNDLE)
    data["known_issues"][0]["affects"]["families"] = 1
    target = tmp_path / "bundle.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    code, report, err = run_json(monkeypatch, capsys, "--data", str(target), "--from", str(SNAPSHOT), "--release", RELEASE)
    assert (code, report) == (3, None)
    assert err == f"lingjun-check: {target}: unusable release data: known_issues[0].affects.families: expected a list, got integer\n"


@pytest.mark.parametrize("url, reason", [
    ("ftp://example.com/", "not an absolute http:// or https:// URL"),
    ("javascript:alert(1)", "not an absolute http:// or https:// URL"),
    ("https://", "not an absolute http:// or https:// URL"),
    ("https://a b/", "it holds U+0020"),
    ('https://example.com/"><script>', "it holds U+0022"),
    ("https://example.com/\u202e", "it holds U+202E"),
    ("https://user:pw@example.com/", "it holds a user name or password"),
    ("https://example.com/?q=1", "it has a query or fragment"),
    ("https://example.com:99999/", "not a URL (Port out of range 0-65535)"),
    (7, "expected a string, got int"),
])
def test_a_site_url_that_is_not_a_site_url_is_refused(url, reason):
    data = json_copy(BUNDLE)
    data["site_url"] = url
    with pytest.raises(BundleError) as caught:
        KnowledgeData.from_dict(data, "b.json")
    message = str(caught.value)
    if isinstance(url, str):
        assert message.startswith("b.json: unusable release data: site_url: ") and message.endswith(f"is not a site URL: {reason}")
    else:
        assert message == "b.json: unusable release data: site_url: expected a string, got integer"


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/", "https://example.com/lingjun/", "https://example.com", "https://[::1]:8443/kb/"])
def test_a_plain_site_url_is_kept(url):
    data = json_copy(BUNDLE)
    data["site_url"] = url
    assert KnowledgeData.from_dict(data, "b.json").site_url == (url if url.endswith("/") else url + "/")


@pytest.mark.parametrize("path", ["format", "releases[0].family", "releases[0].version", "components[0].id", "known_issues[0].id"])
def test_a_missing_required_key_is_refused(path):
    data = json_copy(BUNDLE)
    *parents, last = _parts(path.replace("[0]", ".0"))
    node = data
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    del node[last]
    with pytest.raises(BundleError, match=re.escape(path) + ": missing|not a lingjun-kb bundle"):
        KnowledgeData.from_dict(data, "b.json")


@pytest.mark.parametrize("minimum", ["abc", "", "-5", "575..", "575\x1b[2J"])
def test_an_nvidia_driver_minimum_that_is_not_a_driver_version_is_refused(minimum):
    """Read as no minimum, it would silence driver.minimum for that release; a PPU minimum (1.1.0) is kept."""
    data = json_copy(BUNDLE)
    index, record = next((i, r) for i, r in enumerate(data["releases"])
                         if (r.get("driver") or {}).get("vendor") == "nvidia" and r["driver"].get("minimum"))
    record["driver"]["minimum"] = minimum
    with pytest.raises(BundleError) as caught:
        KnowledgeData.from_dict(data, "b.json")
    assert str(caught.value) == (f"b.json: unusable release data: releases[{index}].driver.minimum: {minimum!r} is not an "
                                 "NVIDIA driver version")
    assert any((r.get("driver") or {}).get("vendor") == "ppu" and r["driver"].get("minimum") == "1.1.0"
               for r in BUNDLE["releases"])
    KnowledgeData.from_dict(json_copy(BUNDLE), "b.json")  # the embedded data, PPU minimums included, loads
