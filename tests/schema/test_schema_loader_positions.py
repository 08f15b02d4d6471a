"""Positions come from the loaded document, not from a second read of its file."""

from __future__ import annotations

import shutil
from pathlib import Path

from lingjun.schema.loader import load_paths, locate

REPO = Path(__file__).resolve().parents[2]
RECORD = REPO / "tests" / "fixtures" / "kb" / "training-nv-pytorch" / "25.07.yaml"


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_positions_survive_the_file_changing_after_loading(tmp_path):
    path = tmp_path / "training-nv-pytorch" / "25.07.yaml"
    path.parent.mkdir()
    shutil.copyfile(RECORD, path)
    text = path.read_text(encoding="utf-8")
    result = load_paths([path])
    assert [d.path for d in result.documents] == [path]
    document = result.documents[0]
    expected_line = _line_of(text, 'tag: "25.07-serverless"')

    before = document.locate(("image_tags", 0, "tag"))
    # the file is rewritten with ten lines on top, then removed: a re-read would see other lines or nothing
    path.write_text("# moved\n" * 10 + text, encoding="utf-8")
    assert document.locate(("image_tags", 0, "tag")) == before
    assert locate(path, ("image_tags", 0, "tag")) == before
    path.unlink()
    assert locate(path, ("image_tags", 0, "tag")) == before
    assert before[0] == expected_line and before[2] == "image_tags.0.tag"


def test_a_file_never_loaded_is_composed_for_the_call(tmp_path):
    path = tmp_path / "25.07.yaml"
    shutil.copyfile(RECORD, path)
    text = path.read_text(encoding="utf-8")
    line, col, shown = locate(path, ("image_tags", 0, "tag"))
    assert (line, shown) == (_line_of(text, 'tag: "25.07-serverless"'), "image_tags.0.tag")
    assert locate(tmp_path / "absent.yaml", ("image_tags", 0, "tag")) == (None, None, "image_tags.0.tag")
