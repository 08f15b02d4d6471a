"""Escaping record text for Markdown pages that Python-Markdown turns into HTML.

Text from the knowledge base is data, never markup.  Every value a template
prints passes through :func:`md_text` unless a filter below already produced
safe output (a :class:`markupsafe.Markup`).  The escaping works in both
contexts at once:

* HTML: ``&``, ``<`` and ``>`` become entities, so ``<script>`` is shown, not run;
* Markdown: every character that can start inline syntax (emphasis, code
  spans, links, images, tables, attribute lists, footnotes) becomes a numeric
  character reference.  Python-Markdown passes references through untouched
  and the browser shows the character, so ``[x](javascript:alert(1))`` stays
  text and a ``|`` cannot split a table cell.  Block syntax that depends on
  the start of a line (``- ``, ``1. ``, ``#``, ``>``, ``---``, ``===``,
  indentation, raw HTML blocks) is neutralised too: a paragraph of only
  ``---`` stays the text ``---``, never a ``<hr>`` or a heading.

Prose (:func:`md_prose_inline`, :func:`md_prose_block`) keeps two harmless
conveniences the data model allows: balanced single-backtick code spans are
shown in ``<code>`` (their content escaped the same way) and ``http(s)`` URLs
become links.  Nothing else in a record can produce markup.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import quote, urlsplit

from markupsafe import Markup

__all__ = [
    "md_text",
    "md_cell",
    "md_prose_inline",
    "md_prose_block",
    "md_url",
    "html_url",
    "html_attr",
    "html_id",
    "code_block",
    "json_for_script",
    "finalize",
    "UnsafeUrlError",
]


class UnsafeUrlError(ValueError):
    """Raised by :func:`md_url` for anything that is not an absolute http(s) URL."""


_ENTITIES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "\\": "&#92;",
    "`": "&#96;",
    "*": "&#42;",
    "_": "&#95;",
    "[": "&#91;",
    "]": "&#93;",
    "|": "&#124;",
    "{": "&#123;",
    "}": "&#125;",
    "#": "&#35;",
    "!": "&#33;",
    "~": "&#126;",
    "^": "&#94;",
    "=": "&#61;",
    ":": "&#58;",
    "$": "&#36;",
    '"': "&quot;",
}
_TABLE = str.maketrans(_ENTITIES)
# line starts that would open a list or, as a run of hyphens (``---``, ``-- -``), a thematic
# break or a setext heading underline, when the text is placed at a line start (``*``, ``_``,
# ``=``, ``#`` and ``>`` are escaped everywhere)
_LINE_START = re.compile(r"^(\s*)(-|\+(?=\s|$)|\d+[.)](?=\s|$))")
_WS = re.compile(r"[ \t\r\f\v]+")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_URL = re.compile(r"https?://[^\s<>\"'`|\[\]{}]+")


def _escape_run(text: str) -> str:
    return text.translate(_TABLE)


def _neutralise_line_start(text: str) -> str:
    match = _LINE_START.match(text)
    if not match:
        return text
    marker = match.group(2)
    if marker in "-+":
        escaped = "&#45;" if marker == "-" else "&#43;"
    else:
        escaped = marker[:-1] + ("&#46;" if marker.endswith(".") else "&#41;")
    return text[: match.start(2)] + escaped + text[match.end(2) :]


def md_text(value: Any) -> Markup:
    """Escape one value for any inline position (heading, list item, paragraph).

    Newlines become spaces and runs of blanks collapse, so the result is one
    line.  ``None`` gives an empty string.  Returns Markup so it is not
    escaped twice.
    """
    if value is None:
        return Markup("")
    if isinstance(value, Markup):
        return value
    text = _WS.sub(" ", str(value).replace("\n", " ")).strip()
    return Markup(_neutralise_line_start(_escape_run(text)))


def md_cell(value: Any) -> Markup:
    """Like :func:`md_text`, for a table cell; an empty value shows an em dash."""
    out = md_text(value)
    return out if out else Markup("—")


def _inline(text: str) -> str:
    """Escape one line of prose, keeping code spans and linking http(s) URLs."""
    out: list[str] = []
    pos = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_link_urls(text[pos : match.start()]))
        out.append("<code>" + _escape_run(match.group(1)) + "</code>")
        pos = match.end()
    out.append(_link_urls(text[pos:]))
    return "".join(out)


def _link_urls(text: str) -> str:
    out: list[str] = []
    pos = 0
    for match in _URL.finditer(text):
        url = match.group(0)
        # trailing punctuation belongs to the sentence, not to the URL
        trimmed = url.rstrip(".,;:!?)")
        if url.endswith(")") and trimmed.count("(") > trimmed.count(")"):
            trimmed += ")"
        end = match.start() + len(trimmed)
        out.append(_escape_run(text[pos : match.start()]))
        out.append(f'<a href="{html.escape(trimmed, quote=True)}">{_escape_run(trimmed)}</a>')
        pos = end
    out.append(_escape_run(text[pos:]))
    return "".join(out)


def _paragraphs(value: Any) -> list[list[str]]:
    """Split prose into paragraphs (blank-line separated) of stripped lines."""
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for raw in str(value).replace("\r\n", "\n").split("\n"):
        line = _WS.sub(" ", raw).strip()
        if not line:
            if current:
                paragraphs.append(current)
                current = []
            continue
        current.append(line)
    if current:
        paragraphs.append(current)
    return paragraphs


def md_prose_inline(value: Any) -> Markup:
    """Prose for one line (table cell, list item): paragraphs joined by ``<br>``."""
    if value is None:
        return Markup("")
    parts = [" ".join(_neutralise_line_start(_inline(line)) for line in para) for para in _paragraphs(value)]
    return Markup("<br><br>".join(parts))


_BULLET = re.compile(r"^[-*•]\s+")


def md_prose_block(value: Any, indent: int = 0) -> Markup:
    """Prose as Markdown blocks: paragraphs, and ``- `` lines as a bullet list.

    ``indent`` spaces are put before every line after the first, so the block
    can sit inside a list item or an admonition.
    """
    if value is None:
        return Markup("")
    pad = " " * indent
    blocks: list[str] = []
    for para in _paragraphs(value):
        if all(_BULLET.match(line) for line in para):
            blocks.append(("\n" + pad).join("- " + _neutralise_line_start(_inline(_BULLET.sub("", line))) for line in para))
        else:
            blocks.append(" ".join(_inline(line) for line in para))
            blocks[-1] = _neutralise_line_start(blocks[-1])
    return Markup(("\n\n" + pad).join(blocks))


_URL_SAFE = "/:?#[]@!$&'*+,;=%-._~"


def md_url(value: Any) -> Markup:
    """An http(s) URL made safe for a Markdown link destination or an HTML attribute.

    Characters that could end the destination (spaces, parentheses, quotes,
    angle brackets) are percent-encoded.

    Raises:
        UnsafeUrlError: when the value is not an absolute http(s) URL.
    """
    text = str(value).strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UnsafeUrlError(f"refusing to link to {text!r}: only absolute http(s) URLs are linked")
    return Markup(quote(text, safe=_URL_SAFE.replace("'", "")).replace("(", "%28").replace(")", "%29"))


def html_url(value: Any) -> Markup:
    """An http(s) URL for the ``href`` of a link in raw HTML: :func:`md_url`, then HTML-attribute-escaped
    (``&`` -> ``&amp;``, as Python-Markdown writes the href of a Markdown link).

    Raises:
        UnsafeUrlError: when the value is not an absolute http(s) URL.
    """
    return Markup(html.escape(str(md_url(value)), quote=True))


def html_attr(value: Any) -> Markup:
    """Escape a value for a double-quoted HTML attribute (and for Markdown around it)."""
    return Markup(_escape_run(str(value)))


_HTML_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def html_id(value: Any) -> Markup:
    """An element id for a heading's ``{ #id }`` or a link's ``#id``, printed exactly (an escape would change it).

    Only ids of letters, digits, ``.``, ``_`` and ``-`` (the schema's identifiers) are accepted: they need no
    escaping in HTML, in Markdown's attribute lists or in a URL fragment.

    Raises:
        ValueError: for anything else (the build stops rather than print it).
    """
    text = str(value)
    if not _HTML_ID.match(text):
        raise ValueError(f"refusing {text!r} as an element id: only letters, digits, '.', '_' and '-'")
    return Markup(text)


def code_block(lines: list[str] | str, lang: str = "bash", indent: int = 0) -> Markup:
    """A fenced code block whose fence is longer than any backtick run in the content.

    The content is shown verbatim (Markdown escapes it inside fences).
    """
    text = lines if isinstance(lines, str) else "\n".join(lines)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    pad = " " * indent
    body = ("\n" + pad).join(text.split("\n"))
    return Markup(f"{fence} {lang}\n{pad}{body}\n{pad}{fence}")


def json_for_script(data: Any) -> Markup:
    """JSON for a ``<script type="application/json">`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u`` escapes so the data can never
    close the element (``</script>``) or open a comment (``<!--``); so are
    U+2028 and U+2029, which end a line in older JavaScript.  Keys are sorted
    so the output is stable.
    """
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    text = (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    return Markup(text)


def finalize(value: Any) -> Any:
    """Jinja2 ``finalize`` hook: escape every printed value that is not already Markup."""
    if isinstance(value, Markup):
        return value
    if value is None:
        return ""
    return md_text(value)
