"""Never overwrite: an existing record or output file stays byte for byte; conflicts are reported, not written over."""

from __future__ import annotations

import os

import yaml

from importer_kit import RELEASE_PAGES, RELEASES, seed
from lingjun.generator.cli import main
from lingjun.generator.importer import import_page


def test_an_existing_record_is_never_touched_and_the_conflicts_are_printed(capsys, releases_copy):
    record = releases_copy / "training-xpu-pytorch" / "25.05.yaml"
    before = record.read_bytes()
    status = main(["import", str(seed("training-xpu-pytorch-25.05.en.txt")), "--releases", str(releases_copy)])
    out, err = capsys.readouterr()
    assert status == 0
    assert record.read_bytes() == before
    assert yaml.safe_load(out) == {"source_conflicts": []}
    assert "already has a record" in err and "it was not changed" in err


def test_output_to_an_existing_file_is_refused(tmp_path, capsys, releases_copy):
    (releases_copy / "training-xpu-pytorch" / "25.05.yaml").unlink()
    target = tmp_path / "mine.yaml"
    target.write_bytes(b"precious\n")
    status = main(["import", str(seed("training-xpu-pytorch-25.05.en.txt")), "--releases", str(releases_copy),
                   "-o", str(target)])
    err = capsys.readouterr().err
    assert status == 1 and target.read_bytes() == b"precious\n"
    assert err.count("\n") == 1 and "exists" in err


def test_output_to_a_link_or_a_folder_is_refused(tmp_path, capsys, releases_copy):
    (releases_copy / "training-xpu-pytorch" / "25.05.yaml").unlink()
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(victim)
    page = str(seed("training-xpu-pytorch-25.05.en.txt"))
    assert main(["import", page, "--releases", str(releases_copy), "-o", str(link)]) == 1
    assert victim.read_bytes() == b"keep\n" and os.path.islink(link)
    assert main(["import", page, "--releases", str(releases_copy), "-o", str(tmp_path)]) == 2
    assert main(["import", page, "--releases", str(releases_copy), "-o", ""]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3 and all(e.startswith(f"lingjun-kb import: {page}: output ") for e in errors)


def test_default_output_is_the_release_file_and_it_fails_validation_until_filled(capsys, releases_copy):
    (releases_copy / "training-xpu-pytorch" / "25.05.yaml").unlink()
    status = main(["import", str(seed("training-xpu-pytorch-25.05.en.txt")), "--releases", str(releases_copy)])
    err = capsys.readouterr().err
    target = releases_copy / "training-xpu-pytorch" / "25.05.yaml"
    assert status == 0 and target.is_file() and f"wrote {target}" in err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schema/release.schema.json\n")
    status = main(["validate", "-q", str(target)])
    out = capsys.readouterr().out
    assert status == 1 and "data.placeholder" in out
    # the only errors are the placeholders (the draft is otherwise a valid record)
    errors = [line for line in out.splitlines() if "[error " in line and line.startswith(str(target))]
    assert errors and all("data.placeholder" in line or "data.known-issue-refs" in line for line in errors), errors
    # a second run finds the draft and reports instead of writing
    before = target.read_bytes()
    assert main(["import", str(seed("training-xpu-pytorch-25.05.en.txt")), "--releases", str(releases_copy)]) == 0
    assert target.read_bytes() == before


def test_a_page_in_the_other_language_yields_only_conflicts_and_the_missing_source(tmp_path, releases_copy):
    """The zh 25.03 page against a record that cites only an English page (and says 575 where the page says 570)."""
    record = releases_copy / "training-nv-pytorch" / "25.03.yaml"
    text = record.read_text(encoding="utf-8")
    text = text.replace('  - url: "https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-25-03"\n    language: zh',
                        '  - url: "https://www.alibabacloud.com/help/en/cs/user-guide/training-nv-pytorch-25-03"\n'
                        '    language: en')
    text = text.replace('minimum: "570"\n  stated_as: "NVIDIA Driver release >= 570"',
                        'minimum: "575"\n  stated_as: "NVIDIA Driver release >= 575"')
    record.write_text(text, encoding="utf-8")
    before = record.read_bytes()
    result = import_page(seed("training-nv-pytorch-25.03.zh.txt"), releases_copy)
    assert record.read_bytes() == before
    found = yaml.safe_load(result.content)
    assert set(found) == {"source_conflicts", "sources"}
    (conflict,) = found["source_conflicts"]
    assert conflict["field"] == "driver.minimum"
    assert [v["value"] for v in conflict["values"]] == ["575", "570"]
    assert conflict["values"][1]["stated_in"] == "other-page"
    assert conflict["reason"]["en"].startswith("TODO(lingjun-kb new)")
    assert found["sources"] == [{"url": "https://todo.invalid/official-release-note-page", "language": "zh"}]
    # ready-made: each entry is a valid source_conflicts entry and source of the schema
    from lingjun.schema.models import SourceConflict, Source

    SourceConflict.model_validate(conflict)
    Source.model_validate(found["sources"][0])


def test_conflicts_with_o_go_to_a_new_file(tmp_path, capsys):
    page = next(p for p in RELEASE_PAGES if p.name == "inference-nv-pytorch-25.04.zh.md")
    out = tmp_path / "conflicts.yaml"
    assert main(["import", str(page), "--releases", str(RELEASES), "-o", str(out)]) == 0
    assert yaml.safe_load(out.read_text(encoding="utf-8")) == {"source_conflicts": []}
    assert f"written to {out}" in capsys.readouterr().err
