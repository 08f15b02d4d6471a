"""Malformed and hostile YAML: each file gets one clear, positioned problem and the right exit status, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingjun.generator.cli import main

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"

# file -> (line, col, field, message fragment, rule, exit status)
EXPECTED = {
    "duplicate-key.yaml": (8, 1, "version", "duplicate key 'version' (first given on line 3)", "yaml.duplicate-key", 1),
    "python-object-apply-tag.yaml": (8, 9, "python", "YAML tag !!python/object/apply:os.system is not allowed", "yaml.tag", 1),
    "python-name-tag.yaml": (4, 9, "status", "YAML tag !!python/name:os.system is not allowed", "yaml.tag", 1),
    "custom-include-tag.yaml": (8, 13, "components", "YAML tag !include is not allowed", "yaml.tag", 1),
    "binary-tag.yaml": (8, 9, "python", "YAML tag !!binary is not allowed", "yaml.tag", 1),
    "set-tag.yaml": (8, 16, "architectures", "YAML tag !!set is not allowed", "yaml.tag", 1),
    "billion-laughs.yaml": (6, 4, "", "aliases expand the document to more than 200,000 nodes", "yaml.alias-bomb", 1),
    "recursive-alias.yaml": (8, 13, "", "an alias refers to a collection that contains it", "yaml.alias-bomb", 1),
    "utf8-bom.yaml": (1, 1, "", "file starts with a UTF-8 byte-order mark", "file.bom", 0),
    "utf16.yaml": (1, 1, "", "file is UTF-16-encoded; save it as UTF-8", "file.encoding", 1),
    "latin1-bytes.yaml": (8, 12, "", "byte 0xe9 is not UTF-8", "file.encoding", 1),
    "unquoted-release-version.yaml": (3, 10, "version", 'read by YAML as a number (25.1), not text; quote it: write "25.10"', "yaml.unquoted-string", 1),
    "unquoted-component-version.yaml": (10, 37, "components.1.version", 'quote it: write "2.10"', "yaml.unquoted-string", 1),
    "yaml11-boolean.yaml": (8, 9, "python", 'yes is read by YAML as a boolean (True), not text; quote it: write "yes"', "yaml.unquoted-string", 1),
    "yaml11-off-name.yaml": (10, 11, "components.0.name", 'off is read by YAML as a boolean (False)', "yaml.unquoted-string", 1),
    "underscore-integer.yaml": (9, 39, "components.0.version", '1_000 is read by YAML as an integer (1000)', "yaml.unquoted-string", 1),
    "octal-number.yaml": (9, 39, "components.0.version", '0755 is read by YAML as an integer (493)', "yaml.unquoted-string", 1),
    "infinity.yaml": (8, 9, "python", 'quote it: write ".inf"', "yaml.unquoted-string", 1),
    "timestamp-as-text.yaml": (9, 19, "sources.0.last_updated", 'is read by YAML as a date', "yaml.unquoted-string", 1),
    "empty.yaml": (1, 1, "", "file is empty", "file.empty", 1),
    "comments-only.yaml": (1, 1, "", "file is empty", "file.empty", 1),
    "top-level-list.yaml": (1, 1, "", "the top level is a list", "yaml.top-level", 1),
    "top-level-scalar.yaml": (1, 1, "", "the top level is a single value", "yaml.top-level", 1),
    "tab-indentation.yaml": (9, 1, "", "tab character used for indentation", "yaml.tab", 1),
    "unknown-field.yaml": (8, 1, "recorde", "unknown field `recorde`; did you mean `recorded`?", "schema.unknown-field", 1),
    "missing-field.yaml": (1, 1, "summary", "required field `summary` is missing", "schema.missing", 1),
    "bad-url.yaml": (7, 11, "sources.0.url", "not an http(s) URL: 'htp://example.com/x'", "schema.value", 1),
    "bad-date.yaml": (8, 11, "recorded", "'2025-02-30' is not a date; write YYYY-MM-DD", "schema.date", 1),
    "impossible-date.yaml": (8, 11, "recorded", "'2025-13-01' is not a valid date", "yaml.scalar", 1),
    "wrong-enum.yaml": (4, 9, "status", "'active' is not allowed here; expected 'current', 'superseded' or 'deprecated'", "schema.enum", 1),
    "several-documents.yaml": (8, 1, "", "several YAML documents (---) in one file", "yaml.multiple-documents", 1),
    "merge-key.yaml": (9, 3, "driver.<<", "merge keys (<<) are not allowed", "yaml.merge-key", 1),
    "syntax-error.yaml": (9, 1, "", "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence that starts at line 8, column 16)", "yaml.syntax", 1),
    # libyaml notices the missing colon two lines later (8:5); the problem is the key on line 6
    "missing-colon.yaml": (6, 1, "", "YAML syntax error: 'summary' has no ':' after it; write `summary:`", "yaml.syntax", 1),
    # libyaml stops at the end of the file; the problem is the quote opened on line 7
    "unclosed-quote.yaml": (7, 11, "", "YAML syntax error: the quoted text that starts here is never closed", "yaml.syntax", 1),
    "control-character.yaml": (8, 14, "", "control character 0x0007 is not allowed", "yaml.syntax", 1),
    "missing-kind.yaml": (1, 1, "kind", "required field `kind` is missing", "schema.missing", 1),
    "unknown-kind.yaml": (1, 7, "kind", "unknown kind 'releases'", "schema.enum", 1),
    "boolean-key.yaml": (8, 1, "on", "key 'on' is read as a boolean; quote it", "yaml.key", 1),
    "complex-key.yaml": (8, 3, "", "a mapping key must be a plain string", "yaml.key", 1),
    "deep-nesting.yaml": (8, 76, "", "nesting is deeper than 64 levels", "yaml.depth", 1),
    "empty-required-value.yaml": (3, 9, "version", "no value given", "schema.missing", 1),
    "bad-release-version.yaml": (3, 10, "version", 'is neither a month YY.MM ("25.07") nor a date YYYY-MM-DD', "schema.value", 1),
    "driver-not-a-version.yaml": (8, 35, "driver.minimum", "not an NVIDIA driver version: 'latest'", "schema.value", 1),
    # found by the second round of attacks (see the commit messages)
    "zero-width-text.yaml": (5, 15, "summary.en", "the text is blank (only spaces or invisible characters such as U+200B)", "schema.value", 1),
    "bidi-override.yaml": (5, 15, "summary.en", "the text holds U+202E, a bidirectional control character", "yaml.control-character", 1),
    "ansi-escape.yaml": (5, 15, "summary.en", "the text holds U+001B, a control character; remove it", "yaml.control-character", 1),
    "nul-in-url.yaml": (7, 11, "sources.0.url", "the text holds U+0000, a control character", "yaml.control-character", 1),
    "fullwidth-version.yaml": (3, 10, "version", "'２５.02' holds characters outside ASCII; write the digits 0-9", "schema.value", 1),
    "huge-integer.yaml": (8, 66, "driver.must_upgrade_branches.0", "9999999999999999999999 is too large for a number here", "yaml.scalar", 1),
    "url-credentials.yaml": (7, 11, "sources.0.url", "holds a user name or password; link the public page without them", "schema.value", 1),
    "url-bad-port.yaml": (7, 11, "sources.0.url", "not an http(s) URL: 'https://example.com:99999/x' (Port out of range", "schema.value", 1),
    "empty-specifier.yaml": (9, 22, "affects.components.vllm", "not a PEP 440 version specifier: '>=0.7,' (an empty specifier or an empty part", "schema.value", 1),
    "document-marker-only.yaml": (1, 1, "", "file is empty: no YAML document", "file.empty", 1),
    "utf16-no-bom.yaml": (1, 1, "", "file looks UTF-16-encoded (NUL bytes, no byte-order mark); save it as UTF-8", "file.encoding", 1),
    "null-status.yaml": (4, 9, "status", "no value given; expected 'current', 'superseded' or 'deprecated'", "schema.missing", 1),
    "boolean-branch.yaml": (12, 16, "driver.forward_compatibility.0.branch", "yes is read by YAML as a boolean (True): Input should be greater than or equal to 100", "schema.type", 1),
    "newline-in-key.yaml": (8, 1, "evil\nOK: 0 errors", "unknown field `evil\nOK: 0 errors`", "schema.unknown-field", 1),
    "datetime-release-date.yaml": (8, 11, "recorded", "'2025-02-01 10:00:00' is not a date; write YYYY-MM-DD", "schema.date", 1),
    "crlf-unquoted-version.yaml": (3, 10, "version", 'quote it: write "25.10"', "yaml.unquoted-string", 1),
    "cr-only-line-breaks.yaml": (3, 10, "version", 'quote it: write "25.10"', "yaml.unquoted-string", 1),
    "deep-flow-nesting.yaml": (8, 1008, "", "YAML syntax error: exceeded maximum nesting depth", "yaml.syntax", 1),
    "sexagesimal-version.yaml": (9, 39, "components.0.version", '1:30 is read by YAML as an integer (90), not text; quote it: write "1:30"', "yaml.unquoted-string", 1),
    "null-key.yaml": (8, 1, "~", "key '~' is read as null (no value); quote it", "yaml.key", 1),
    # the value comes through an alias: reported where `*s` is written (line 8), not at the anchor (line 5)
    "alias-expands-to-wrong-type.yaml": (8, 1, "python", "Input should be a valid string", "schema.type", 1),
}


def test_corpus_has_at_least_30_inputs_all_covered():
    files = sorted(p.name for p in HOSTILE.iterdir())
    assert len(files) >= 30
    assert set(files) == set(EXPECTED) | {"too-large.yaml"}


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["validate", "-q", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file_is_reported_precisely(name, capsys):
    line, col, field, fragment, rule, status = EXPECTED[name]
    path = HOSTILE / name
    code, out, err = _run(capsys, str(path), "--format", "json")
    assert code == status
    assert "Traceback" not in out + err
    problems = json.loads(out)
    hits = [p for p in problems if p["rule"] == rule and fragment in p["message"]]
    assert hits, problems
    assert (hits[0]["path"], hits[0]["line"], hits[0]["col"], hits[0]["field"]) == (str(path), line, col, field)


@pytest.mark.parametrize("name", ["unquoted-component-version.yaml", "duplicate-key.yaml", "missing-kind.yaml"])
def test_text_format_is_path_line_col_field_message(name, capsys):
    line, col, field, fragment, rule, _ = EXPECTED[name]
    path = HOSTILE / name
    code, out, _ = _run(capsys, str(path))
    prefix = f"{path}:{line}:{col}: " + (f"{field}: " if field else "")
    assert any(l.startswith(prefix) and fragment in l and l.endswith(f"[error {rule}]") for l in out.splitlines()), out
    assert code == 1


def test_file_over_the_size_limit(capsys):
    path = HOSTILE / "too-large.yaml"
    size = path.stat().st_size
    code, out, _ = _run(capsys, str(path), "--max-bytes", "500")
    assert code == 1
    assert f"{path}: file is {size:,} bytes, over the limit of 500 bytes [error file.size]" in out


def test_no_python_object_is_ever_constructed(tmp_path, capsys):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(f'kind: release\npython: !!python/object/apply:os.system ["touch {marker}"]\n', encoding="utf-8")
    code, out, _ = _run(capsys, str(path))
    assert code == 1 and not marker.exists()
    assert "yaml.tag" in out


def test_unreadable_file_is_a_problem_not_a_traceback(tmp_path, capsys):
    path = tmp_path / "folder.yaml"
    path.mkdir()
    (path / "inner.yaml").write_text("kind: [", encoding="utf-8")
    code, out, err = _run(capsys, str(path))
    assert code == 1 and "Traceback" not in out + err
    assert f"{path / 'inner.yaml'}:2:1: YAML syntax error" in out


def test_unexpected_exception_becomes_a_problem_naming_the_file(monkeypatch, capsys):
    import lingjun.schema.loader as loader

    def broken(*args, **kwargs):
        raise KeyError("surprise")

    monkeypatch.setattr(loader, "validate_document", broken)
    path = HOSTILE / "utf8-bom.yaml"
    code, out, err = _run(capsys, str(path))
    assert code == 1 and "Traceback" not in out + err
    assert f"{path}: internal error while loading this file: KeyError: 'surprise' [error internal]" in out
