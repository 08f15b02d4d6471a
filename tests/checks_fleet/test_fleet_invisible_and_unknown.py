"""Invisible names are shown visibly in every format, and a fact no node shows is said in the text report."""

from __future__ import annotations

import io
import json

import pytest

from lingjun.checks.core.inert_text import escape_json_text, inert
from lingjun.checks.fleet._cli import main


def _report(name: str) -> dict:
    driver = "535.161.08" if name.strip("\u200b\ufeff") == "" else "570.124.06"  # the invisible names are outliers
    return {"schema": "lingjun-check/report/1", "node": {"name": name, "source": "option"}, "exit_code": 0,
            "summary": {"error": 0, "warning": 0, "info": 0, "ok": 1, "skipped": 0}, "findings": [],
            "release": {"ref": "training-nv-pytorch:25.07"}, "facts": {"driver_version": driver}}


def _run(names, fmt, capsys, lang="en"):
    stdin = "".join(json.dumps(_report(n)) + "\n" for n in names).encode()
    main(["-", "--format", fmt, "--lang", lang], stdin=io.BytesIO(stdin))
    return capsys.readouterr().out


@pytest.mark.parametrize("char", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u3164"])
def test_invisible_characters_are_escaped_everywhere(char):
    assert inert(f"a{char}b") == f"a\\u{ord(char):04x}b" if ord(char) >= 0x100 else f"a\\x{ord(char):02x}b"
    assert escape_json_text(json.dumps(f"a{char}b", ensure_ascii=False)) == f'"a\\u{ord(char):04x}b"'
    assert json.loads(escape_json_text(json.dumps(char, ensure_ascii=False))) == char


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_a_name_of_only_invisible_characters_is_visible(capsys, fmt):
    out = _run(["\u200b\u200b", "\ufeff", "node-2", "node-3", "node-4"], fmt, capsys)
    assert "\u200b" not in out and "\ufeff" not in out
    if fmt == "json":  # escaped in the JSON text (\\u200b), so a JSON reader gets the names as they were given
        assert [n["name"] for n in json.loads(out)["nodes"]][:2] == ["\u200b\u200b", "\ufeff"]
        assert '"\\u200b\\u200b"' in out
    else:
        assert "\\u200b\\u200b" in out and "\\ufeff" in out


@pytest.mark.parametrize("lang, heading, line", [
    ("en", "Facts not known on any node", "  RDMA devices: not known on any node"),
    ("zh", "所有节点都未知的事实", "  RDMA 设备数: 所有节点都未知"),
])
def test_a_fact_known_on_no_node_is_listed_in_the_text_report(capsys, lang, heading, line):
    out = _run(["a", "b"], "text", capsys, lang).splitlines()
    assert heading in out and line in out
    assert out.index(heading) < out.index(line)


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_names_that_differ_in_a_lone_surrogate_stay_different(capsys, fmt):
    """Bytes that were not UTF-8 reach a name as lone surrogates: written as '?' two nodes would read as one."""
    names = ["gpu-\udc80", "gpu-\udc81", "gpu-\ud800", "node-3", "node-4"]
    out = _run(names, fmt, capsys)
    out.encode("utf-8")  # strict: the report is valid UTF-8
    assert "gpu-?" not in out
    if fmt == "json":  # a JSON reader gets the names back exactly
        assert [n["name"] for n in json.loads(out)["nodes"]][:3] == names[:3]
    elif fmt == "html":  # the page lists every node
        assert all(f"gpu-\\u{c}" in out for c in ("dc80", "dc81", "d800"))


def test_inert_writes_each_lone_surrogate_as_its_escape():
    assert inert("a\udc80b\udfff") == "a\\udc80b\\udfff"
    assert json.loads(escape_json_text(json.dumps("\ud800", ensure_ascii=False))) == "\ud800"
