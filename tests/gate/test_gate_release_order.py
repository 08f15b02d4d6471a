"""The gate orders releases by date (a ``YY.MM`` month, a ``YYYY-MM-DD`` day, else the ``released`` date), never by
comparing identifiers as text or as packaging versions."""

from __future__ import annotations

from pathlib import Path

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.report import summary_rows
from lingjun.schema.gate.runner import run_gate
from lingjun.schema.loader import load_paths
from lingjun.schema.problems import Severity


def _gate(root: Path):
    result = load_paths([root])
    assert result.problems == [], [p.format() for p in result.problems]
    corpus = Corpus.from_documents(result.documents)
    return run_gate(corpus), corpus


def _found(problems, root: Path, rule: str):
    return [(str(Path(p.path).relative_to(root)), p.line, p.col, p.field, p.message, p.severity)
            for p in problems if p.rule == rule]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_dated_release_follows_the_months_before_it(tree):
    root = tree("dated")
    problems, corpus = _gate(root)
    assert [p.format() for p in problems] == []
    assert [r.version for _, r in corpus.by_family["demo-nv"]] == ["25.01", "25.02", "2025-02-20"]
    assert [row[1] for row in summary_rows(corpus.kb) if row[0] == "demo-nv"] == ["2025-02-20", "25.02", "25.01"]


def test_tags_of_a_dated_release_are_not_forced_to_a_prefix_but_references_are_checked(tree):
    root = tree("dated")
    path = root / "demo-nv" / "2025-02-20.yaml"
    _edit(path, 'reference: "registry.example.com/demo/demo-nv:25.01-legacy"', 'reference: "registry.example.com/demo/demo-nv:25.01"')
    problems, _ = _gate(root)
    # 25.01-legacy starts with a YY.MM, but the release is not a YY.MM release: the tag is not corrected
    assert _found(problems, root, "data.image-tag-pattern") == [
        ("demo-nv/2025-02-20.yaml", 8, 36, "image_tags.1.reference",
         "reference should be 'registry.example.com/demo/demo-nv:25.01-legacy' (family pattern "
         "'registry.example.com/demo/{image}:{tag}'), not 'registry.example.com/demo/demo-nv:25.01'", Severity.error)]


def test_downgrades_compare_a_dated_release_with_the_month_before_it(tree):
    root = tree("dated")
    _edit(root / "demo-nv" / "2025-02-20.yaml", '{id: vllm, name: vLLM, version: "0.8.2"}', '{id: vllm, name: vLLM, version: "0.8.0"}')
    problems, _ = _gate(root)
    assert [f[4] for f in _found(problems, root, "data.component-downgrade")] == [
        "vllm goes down from 0.8.2 (demo-nv:25.02) to 0.8.0; if this is what the page publishes, add it to "
        "acknowledged_downgrades with the reason"]


def test_a_known_issue_fixed_in_a_dated_release_is_ordered_by_date(tree):
    root = tree("dated")
    issue = root / "known-issues" / "demo-issue.yaml"
    _edit(issue, 'fixed_in: ["demo-nv:25.02"]', 'fixed_in: ["demo-nv:2025-02-20"]')
    _edit(issue, 'releases: ["demo-nv:25.01"]', 'releases: ["demo-nv:25.01", "demo-nv:25.02"]')
    problems, _ = _gate(root)
    assert _found(problems, root, "data.known-issue-affects") == []
    _edit(issue, 'releases: ["demo-nv:25.01", "demo-nv:25.02"]', 'releases: ["demo-nv:25.01", "demo-nv:25.03"]')
    problems, _ = _gate(root)
    assert [f[4] for f in _found(problems, root, "data.known-issue-affects")] == [
        "release demo-nv:25.03 is not recorded",
        # an unrecorded YY.MM is still placed by its name: March comes after 20 February
        "fixed in demo-nv:2025-02-20, but demo-nv:25.03 is listed as affected; a fix comes after every affected "
        "release of the family"]


def test_a_named_release_without_a_date_leaves_the_family_unordered(tree):
    root = tree("dated")
    named = root / "demo-nv" / "sglang0.5-250301.yaml"
    named.write_text((root / "demo-nv" / "2025-02-20.yaml").read_text(encoding="utf-8")
                     .replace('version: "2025-02-20"', 'version: "sglang0.5-250301"')
                     .replace("status: current", "status: superseded")
                     .replace("ppu2.2-pytorch2.7.1-20250220", "sglang0.5-250301")
                     .replace("25.01-legacy", "sglang0.5-250301-b"), encoding="utf-8")
    problems, _ = _gate(root)
    assert _found(problems, root, "data.release-order") == [
        ("demo-nv/sglang0.5-250301.yaml", 3, 10, "version",
         "release demo-nv:sglang0.5-250301 cannot be placed among the family's other releases: its identifier names "
         "no date; add released: {date, kind, source} (the date the evidence gives)", Severity.error)]
    # no family-wide conclusion is drawn from an unordered family
    assert _found(problems, root, "data.single-current") == []
    _edit(named, "status: superseded", "status: superseded\nreleased: {date: 2025-02-20, kind: page-published, source: \"https://example.com/demo-nv-2025-02-20\"}")
    problems, _ = _gate(root)
    assert _found(problems, root, "data.release-order") == [
        ("demo-nv/sglang0.5-250301.yaml", 3, 10, "version",
         "release demo-nv:sglang0.5-250301 falls on 2025-02-20 like demo-nv:2025-02-20; their order is then only "
         "that of their identifiers: give the released date that tells them apart", Severity.warning)]


def test_an_unrecorded_release_without_a_date_is_reported_in_the_family_catalog(tree):
    root = tree("dated")
    _edit(root / "families.yaml", '      - {url: "https://example.com/demo-nv", language: en}\n',
          '      - {url: "https://example.com/demo-nv", language: en}\n'
          '    unrecorded_releases:\n'
          '      - version: "sglang0.6-250401"\n'
          '        named_in: [{url: "https://example.com/demo-index", language: en}]\n'
          '      - version: "25.04"\n'
          '        named_in: [{url: "https://example.com/demo-index", language: en}]\n'
          '        image_tags: [25.02-serverless]\n')
    problems, _ = _gate(root)
    assert _found(problems, root, "data.release-order") == [
        ("families.yaml", 15, 18, "families.0.unrecorded_releases.0.version",
         "unrecorded release demo-nv:sglang0.6-250401 cannot be placed among the family's other releases: its "
         "identifier names no date; add release_date (the date the evidence gives)", Severity.error)]
    assert _found(problems, root, "data.unrecorded-release") == [
        ("families.yaml", 19, 22, "families.0.unrecorded_releases.1.image_tags.0",
         "tag '25.02-serverless' is published by the recorded image demo-nv:25.02; the entry names a recorded "
         "release under another identifier: remove it, or correct the tag", Severity.error)]


def test_a_current_record_older_than_an_unrecorded_release_is_a_warning(tree):
    root = tree("dated")
    _edit(root / "families.yaml", '      - {url: "https://example.com/demo-nv", language: en}\n',
          '      - {url: "https://example.com/demo-nv", language: en}\n'
          '    unrecorded_releases:\n'
          '      - version: "25.03"\n'
          '        named_in: [{url: "https://example.com/demo-index", language: en}]\n')
    problems, _ = _gate(root)
    assert _found(problems, root, "data.single-current") == [
        ("demo-nv/2025-02-20.yaml", 4, 9, "status",
         "demo-nv:2025-02-20 is `current` but the pages name the later demo-nv:25.03 (unrecorded_releases); mark it "
         "`superseded`", Severity.warning)]
    _edit(root / "demo-nv" / "2025-02-20.yaml", "status: current", "status: superseded")
    problems, _ = _gate(root)
    assert [f[4] for f in _found(problems, root, "data.single-current")] == [
        "family 'demo-nv' has no `current` release: its newest record 2025-02-20 is superseded (the pages name "
        "demo-nv:25.03 (unrecorded_releases))"]
