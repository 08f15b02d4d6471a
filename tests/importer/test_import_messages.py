"""What ``lingjun-kb import`` tells a person: arguments the page contradicts, the release to supersede, honest headers."""

from __future__ import annotations

import yaml

from importer_kit import PAGES, seed
from lingjun.generator.cli import main

XPU_EN = "training-xpu-pytorch-25.05.en.txt"


def test_a_release_argument_the_pages_tags_contradict_is_said_and_the_tags_are_kept(tmp_path, capsys, releases_copy):
    out = tmp_path / "draft.yaml"
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy), "--release", "25.12", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "not 25.12" in line]
    assert notes == ["note: the page names 25.05 (next to its family and in its image tags), not 25.12 (--release "
                     "25.12); its image tags were kept as printed: check --release, or the tags"]
    draft = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert draft["version"] == "25.12" and [t["tag"] for t in draft["image_tags"]] == ["25.05"]


def test_a_lang_argument_the_text_contradicts_is_said(tmp_path, capsys, releases_copy):
    out = tmp_path / "draft.yaml"
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy), "--release", "25.12", "--lang", "zh",
                 "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert ("note: the page's text reads as English, not Chinese (--lang zh); the draft's texts are filed under zh: "
            "check that --lang names the page's language") in err.splitlines()
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy), "--release", "25.12", "--lang", "en",
                 "-o", str(tmp_path / "again.yaml")]) == 0
    assert "reads as" not in capsys.readouterr().err


def test_the_newest_release_names_the_current_one_to_supersede(tmp_path, capsys, releases_copy):
    page = seed("training-nv-pytorch-25.07.en.txt")
    out = tmp_path / "draft.yaml"
    assert main(["import", str(page), "--releases", str(releases_copy), "--release", "25.11", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    current = releases_copy / "training-nv-pytorch" / "25.10.yaml"
    assert (f"to fix: set `status: superseded` in training-nv-pytorch:25.10 ({current}): training-nv-pytorch:25.11 is "
            "the family's newest release") in err.splitlines()
    # a release older than the current one names nothing to supersede
    assert main(["import", str(page), "--releases", str(releases_copy), "--release", "25.05",
                 "-o", str(tmp_path / "older.yaml")]) == 0
    assert "status: superseded" not in capsys.readouterr().err


def test_headers_are_whole_sentences_and_a_page_without_address_is_not_said_to_be_cited(capsys, releases_copy):
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy)]) == 0
    out = capsys.readouterr().out
    comments = [line[2:] for line in out.splitlines() if line.startswith("# ")]
    assert all(c.endswith((".", ").")) for c in comments), comments
    assert "cites it." not in out
    assert "# The page shows no address, so whether the record cites it is not known: check the record's sources." in out
    page = PAGES / "training-xpu-pytorch-2026-10-20.zh.md"  # a page with its address
    assert main(["import", str(page), "--releases", str(releases_copy)]) == 0
    drafted = capsys.readouterr().out
    assert all(line.endswith((".", ").")) for line in drafted.splitlines() if line.startswith("# ")), drafted


def test_draft_header_lines_are_whole_sentences(tmp_path, capsys, releases_copy):
    (releases_copy / "training-xpu-pytorch" / "25.05.yaml").unlink()
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy), "-o", "-"]) == 0
    out = capsys.readouterr().out
    header = [line for line in out.splitlines()[1:4]]
    assert header == ["# Drafted by `lingjun-kb import` from training-xpu-pytorch-25.05.en.txt.",
                      "# The page's sentences sit behind 'reword' placeholders: facts are taken from the pages, prose is not.",
                      "# Replace every TODO(lingjun-kb new) value, or delete its entry, until `lingjun-kb validate` passes."]


def test_an_existing_output_file_is_refused_in_one_plain_sentence(tmp_path, capsys, releases_copy):
    (releases_copy / "training-xpu-pytorch" / "25.05.yaml").unlink()
    target = tmp_path / "mine.yaml"
    target.write_bytes(b"precious\n")
    page = seed(XPU_EN)
    assert main(["import", str(page), "--releases", str(releases_copy), "-o", str(target)]) == 1
    assert capsys.readouterr().err == (f"lingjun-kb import: {page}: {target} exists; import never replaces a file: "
                                       "choose a new path\n")
    assert target.read_bytes() == b"precious\n"


def test_a_draft_written_outside_the_releases_tree_is_validated_with_root_and_told_where_it_belongs(tmp_path, capsys,
                                                                                                   releases_copy):
    out = tmp_path / "draft.yaml"
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy), "--release", "25.12", "-o", str(out)]) == 0
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.endswith(f"then run `lingjun-kb validate --root {releases_copy} {out}` (then move it to "
                         f"{releases_copy / 'training-xpu-pytorch' / '25.12.yaml'} to land it)")
    # the command it names reports no family-catalog error: the tree gives the draft its context
    capsys.readouterr()
    main(["validate", "--root", str(releases_copy), str(out)])
    assert "data.family-exists" not in capsys.readouterr().out


def test_a_draft_written_into_the_releases_tree_is_validated_alone(capsys, releases_copy):
    assert main(["import", str(seed(XPU_EN)), "--releases", str(releases_copy), "--release", "25.12"]) == 0
    home = releases_copy / "training-xpu-pytorch" / "25.12.yaml"
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"then run `lingjun-kb validate {home}`")
