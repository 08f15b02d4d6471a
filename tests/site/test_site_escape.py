"""Markdown/HTML escaping of record text."""

from __future__ import annotations

import json

import markdown
import pytest

from lingjun.generator.site.escape import (
    UnsafeUrlError,
    code_block,
    json_for_script,
    md_cell,
    md_prose_block,
    md_prose_inline,
    md_text,
    md_url,
)


def to_html(text: str) -> str:
    return markdown.markdown(text, extensions=["tables", "attr_list", "md_in_html"])


def test_script_tag_is_text():
    html = to_html(str(md_text("<script>alert(1)</script>")))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_javascript_link_is_not_a_link():
    html = to_html(str(md_prose_inline("see [x](javascript:alert(1))")))
    assert "<a" not in html
    assert "href" not in html
    # the characters are all still there for the reader
    assert "&#91;x&#93;(javascript&#58;alert(1))" in html


def test_pipe_does_not_split_a_table_cell():
    table = "| a | b |\n|---|---|\n| " + str(md_cell("x | y")) + " | z |\n"
    html = to_html(table)
    assert html.count("<td>") == 2
    assert "x &#124; y" in html


def test_unbalanced_backtick_and_emphasis_stay_literal():
    html = to_html(str(md_text("a `b and *c* _d_")))
    assert "<code>" not in html and "<em>" not in html
    assert "&#96;" in html and "&#42;c&#42;" in html


def test_line_start_markers_do_not_make_blocks():
    html = to_html(str(md_prose_block("- not a list\n\n1. not ordered\n\n# not a heading")))
    # a bullet paragraph becomes our own list on purpose; the others stay paragraphs
    assert "<ol>" not in html and "<h1>" not in html


def test_code_span_and_url_in_prose():
    out = str(md_prose_inline("set `NCCL_SOCKET_IFNAME=eth0` see https://example.com/a_b."))
    html = to_html(out)
    assert "<code>NCCL&#95;SOCKET&#95;IFNAME&#61;eth0</code>" in html
    assert '<a href="https://example.com/a_b">' in html
    assert html.rstrip().endswith(".</p>")


def test_code_span_content_is_escaped():
    html = to_html(str(md_prose_inline("`<script>alert(1)</script>`")))
    assert "<script>" not in html
    assert "<code>&lt;script&gt;" in html


def test_md_url_refuses_other_schemes():
    with pytest.raises(UnsafeUrlError):
        md_url("javascript:alert(1)")
    with pytest.raises(UnsafeUrlError):
        md_url("/relative")
    assert str(md_url("https://x.org/a b(c)")) == "https://x.org/a%20b%28c%29"


def test_code_block_fence_outlasts_content():
    block = str(code_block(["echo ```x```"]))
    assert block.startswith("```` bash\n") and block.endswith("\n````")


def test_json_for_script_cannot_close_the_element():
    out = str(json_for_script({"a": "</script><script>alert(1)</script>"}))
    assert "</script>" not in out and "\\u003c/script\\u003e" in out


def test_none_and_empty_cells():
    assert str(md_text(None)) == ""
    assert str(md_cell("")) == "—"


@pytest.mark.parametrize("text", ["---", "- - -", "-- --", "----------", "***", "* * *", "___", "_ _ _",
                                  "Heading\n===", "Heading\n---", "Heading\n\n---", "+ item", "- item\n- ---"])
def test_no_line_start_kind_makes_a_block(text):
    """Thematic breaks, setext underlines and list markers stay text in every filter."""
    for out in (md_text(text), md_prose_inline(text), md_prose_block(text), md_cell(text),
                md_prose_block(text, indent=4)):
        html = to_html(str(out))
        for tag in ("<hr", "<h1", "<h2", "<ol", "<blockquote"):
            assert tag not in html, (text, html)
    # in a template's list item too
    for out in (md_text(text), md_prose_inline(text)):
        assert "<hr" not in to_html("- " + str(out)), text


def test_leading_hyphen_is_shown():
    assert to_html(str(md_text("---"))) == "<p>&#45;--</p>"
    assert to_html(str(md_prose_block("-5 degrees"))) == "<p>&#45;5 degrees</p>"


def test_json_for_script_escapes_line_separators_and_comments():
    out = str(json_for_script({"a": "x\u2028y\u2029<!--z&"}))
    assert "\u2028" not in out and "\u2029" not in out and "<" not in out and "&" not in out
    assert out == '{"a":"x\\u2028y\\u2029\\u003c!--z\\u0026"}'
    assert json.loads(out) == {"a": "x\u2028y\u2029<!--z&"}
