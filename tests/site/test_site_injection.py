"""Record text never becomes markup in the built site (issue 8, "Script injection in the site").

A copy of the fixture knowledge base gets every payload of
``tests/fixtures/hostile-site/payloads.yaml`` in every text field (family
and known-issue titles, component names, prose, usage notes, source titles
and URLs, ...; see ``site_kit.make_injection_kb``) and is built into a site.
Every HTML page of both languages, the search indexes, the JSON embedded in
pages and the XML files are then parsed (``html.parser``, ``json``,
``xml.etree``) and compared with a build of the clean fixture: the hostile
build may not hold an element or attribute kind, a script, a link scheme or
a block that the clean one does not, and the hostile text must be there, as
text.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from lingjun.generator.site import cli_build
from lingjun.generator.site.build import build_site, load_validated, ValidationFailed
from lingjun.generator.site.nav import nav_title
from lingjun.generator.site.render import make_environment

from site_kit import FIXTURE_KB, REPO, injection_texts, load_payloads, make_injection_kb
from made_once import made_ahead

SITE_URL = "https://docs.example.org/kb/"
#: attributes holding a URL, whose scheme is checked
URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcset", "background"}
BAD_SCHEMES = ("javascript:", "vbscript:", "data:")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Inventory(HTMLParser):
    """What one HTML document holds: element/attribute kinds, scripts, URLs, headings, title, text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pairs: set[tuple[str, str]] = set()
        self.scripts: list[tuple[str, str, str]] = []
        self.urls: list[tuple[str, str, str]] = []
        self.handlers: list[tuple[str, str]] = []
        self.headings: list[str] = []
        self.article_tags: list[str] = []
        self.title = ""
        self.text: list[str] = []
        self._open: list[str] = []
        self._script: list | None = None
        self._heading: list[str] | None = None
        self._article = 0

    def handle_starttag(self, tag, attrs):
        self.pairs.add((tag, ""))
        for name, value in attrs:
            self.pairs.add((tag, name))
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name in URL_ATTRS and value is not None:
                self.urls.append((tag, name, value))
        if self._article:
            self.article_tags.append(tag)
        if tag == "article":
            self._article += 1
        if tag == "script":
            attributes = dict(attrs)
            self._script = [attributes.get("src") or "", attributes.get("type") or "", ""]
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = []
        if tag not in VOID:
            self._open.append(tag)

    def handle_endtag(self, tag):
        if tag == "article":
            self._article -= 1
        if tag == "script" and self._script is not None:
            self.scripts.append(tuple(self._script))
            self._script = None
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._heading is not None:
            self.headings.append(" ".join("".join(self._heading).split()))
            self._heading = None
        if tag in self._open:
            while self._open and self._open.pop() != tag:
                pass

    def handle_data(self, data):
        if self._script is not None:
            self._script[2] += data
            return
        if self._open and self._open[-1] == "title":
            self.title += data
        if self._heading is not None:
            self._heading.append(data)
        self.text.append(data)


def inventory(text: str) -> Inventory:
    parser = Inventory()
    parser.feed(text)
    parser.close()
    return parser


def _pages(site: Path) -> dict[str, Inventory]:
    return {p.relative_to(site).as_posix(): inventory(p.read_text(encoding="utf-8")) for p in sorted(site.rglob("*.html"))}


def _build(root: Path, releases: Path) -> Path:
    build_site(releases, root / "site", build_dir=root / "build", config_dir=REPO, site_url=SITE_URL)
    return root / "site"


@made_ahead("injection", "sites", seconds=8)
def _injection_folder(root: Path, tmp_path_factory) -> None:
    _build(root / "clean", FIXTURE_KB)
    _build(root / "hostile", make_injection_kb(root / "kb"))


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """``(clean site, hostile site, hostile records)``, both built with :data:`SITE_URL` (once per run: read only)."""
    root = _injection_folder(tmp_path_factory)
    return root / "clean" / "site", root / "hostile" / "site", root / "kb"


@pytest.fixture(scope="module")
def pages(sites):
    clean, hostile, _ = sites
    return _pages(clean), _pages(hostile)


def test_the_hostile_records_pass_the_gate_and_reach_every_text_field(sites):
    """The attack is real: validate accepts it, and the fields named in the issue hold it."""
    _, _, records = sites
    kb = load_validated(records)
    prose, prose_zh, short, url = injection_texts()
    family = kb.families["training-nv-pytorch"]
    assert family.title.en == prose and family.title.zh == prose_zh
    assert kb.components["peft"].name == short
    release = kb.release("training-nv-pytorch:25.07")
    assert release.summary.en == prose and release.usage_notes[0].text.en == prose
    assert release.sources[0].url == url
    issue = next(iter(kb.known_issues.values()))
    assert issue.title.en == prose and issue.workaround.en == prose and issue.upstream[0].url == url


def test_no_page_holds_an_element_or_attribute_kind_the_clean_site_lacks(pages):
    clean, hostile = pages
    assert clean.keys() == hostile.keys() and len(hostile) > 60
    allowed = set().union(*(inv.pairs for inv in clean.values()))
    extra = {name: sorted(inv.pairs - allowed) for name, inv in hostile.items() if inv.pairs - allowed}
    assert extra == {}


def test_no_event_handler_script_or_unsafe_link(pages):
    clean, hostile = pages
    for name, inv in hostile.items():
        assert inv.handlers == [], name
        # the same scripts as the clean page: no script element or inline code came from a record
        assert [(src, kind) for src, kind, _ in inv.scripts] == [(s, k) for s, k, _ in clean[name].scripts], name
        for src, kind, code in inv.scripts:
            if kind != "application/json":
                assert "alert(" not in code, (name, src)
        for tag, attr, value in inv.urls:
            squeezed = "".join(ch for ch in value if ch > " ").lower()
            assert not squeezed.startswith(BAD_SCHEMES), (name, tag, attr, value)


def test_no_thematic_break_heading_or_quote_from_prose(pages):
    clean, hostile = pages
    for name, inv in hostile.items():
        for tag in ("hr", "blockquote", "img", "iframe", "object", "embed", "form", "details"):
            assert inv.article_tags.count(tag) == clean[name].article_tags.count(tag), (name, tag)
        assert not [h for h in inv.headings if h in ("Heading", "quoted", "one")], name
        assert len(inv.headings) == len(clean[name].headings), name


def test_hostile_text_is_shown_as_text_in_navigation_titles_and_headings(pages):
    """Every page of the Releases section lists the hostile family title in its navigation, as text; the <title> shows it as text.

    (navigation.prune: on the other pages the Releases section is one link, its title.)
    """
    _, hostile = pages
    first = load_payloads()["payloads"][0]["text"]  # Fam</title><script>alert(101)</script>
    in_releases = [name for name in hostile if name.removeprefix("zh/").startswith(("families/", "releases/"))]
    assert len(in_releases) >= 12
    for name in in_releases:
        inv = hostile[name]
        text = "".join(inv.text)
        assert first in text, name
        if not name.startswith("zh/"):
            assert "中文 " + first not in text, name
        elif name != "zh/404.html":
            assert "中文 " + first in text, name
    for lang, prefix in (("en", ""), ("zh", "zh/")):
        family = hostile[prefix + "families/training-nv-pytorch/index.html"]
        expected = ("中文 " if lang == "zh" else "") + first
        assert family.title.startswith(expected), family.title
        assert family.headings[0].startswith(expected)
        peft = hostile[prefix + "components/peft/index.html"]
        assert peft.title.startswith(first) and peft.headings[0].startswith(first)


def test_every_paragraph_kind_of_the_corpus_is_shown_as_text(pages):
    _, hostile = pages
    text = " ".join("".join(hostile["releases/training-nv-pytorch/25.07/index.html"].text).split())
    for payload in load_payloads()["payloads"]:
        shown = " ".join(payload["text"].split())
        if payload["kind"] == "admonition":  # the indented line is a separate line of the paragraph
            shown = shown.replace(" body", "")
        assert shown in text, payload["kind"]


def test_json_in_pages_round_trips_the_hostile_text(sites):
    _, hostile, _ = sites
    short = injection_texts()[2]
    for prefix in ("", "zh/"):
        inv = inventory((hostile / prefix / "compare/index.html").read_text(encoding="utf-8"))
        data = [code for _, kind, code in inv.scripts if kind == "application/json" and "alert(101)" in code]
        assert len(data) == 1
        assert "<" not in data[0] and "\u2028" not in data[0]
        assert json.loads(data[0])["names"]["peft"] == short


def test_search_index_entries_hold_no_markup_from_records(sites):
    clean, hostile, _ = sites
    for prefix in ("", "zh/"):
        def fragments(site):
            docs = json.loads((site / prefix / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
            return [inventory(doc["title"]) for doc in docs] + [inventory(doc["text"]) for doc in docs]

        allowed = set().union(*(inv.pairs for inv in fragments(clean)))
        found = fragments(hostile)
        assert any("alert(101)" in "".join(inv.text) for inv in found)
        assert set().union(*(inv.pairs for inv in found)) <= allowed
        assert all(not inv.scripts and not inv.handlers for inv in found)


def test_xml_files_are_well_formed_and_point_at_the_site(sites):
    _, hostile, _ = sites
    for prefix in ("", "zh/"):
        for name in ("sitemap.xml", "feed.xml"):
            root = ET.parse(hostile / prefix / name).getroot()
            links = [el.get("href") for el in root.iter() if el.get("href")] + \
                    [el.text for el in root.iter() if el.tag.endswith("loc")]
            assert links and all(link.startswith(SITE_URL) for link in links), name


def test_titles_become_html_text_for_mkdocs(fixture_kb):
    assert nav_title('Fam</title><script>alert(1)</script>"\'') == \
        "Fam&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#x27;"
    assert nav_title("a\n\n  b &") == "a b &amp;"
    title = make_environment().from_string("{{ ('x</title>', '25.07\u2028') | join_title }}").render()
    assert title == '"x&lt;/title&gt; 25.07"'  # one line of YAML: the separator is a blank
    from lingjun.generator.site.model import build_site_model

    nav = json.dumps(build_site_model(fixture_kb).sitemap.mkdocs_nav("en"))
    assert "Training image for NVIDIA GPUs (PyTorch)" in nav


@pytest.mark.parametrize("value", [
    'https://x.example/"><script>alert(1)</script>',
    "https://x.example/'onmouseover='alert(1)",
    "https://x.example/<b>",
    "https://x.example/a b",
    "https://x.example/\x1b[31m",
    "https://x.example/\u202eevil",
    "https://x.example/\u2028",
    "https://x.example/a\\b",
    "https://x.example/`x`",
    "https://user:secret@x.example/",
    "https://@x.example/",
    "https://x.example:99999/",
    "https://x.example/?",
    "https://x.example/#",
    "javascript:alert(1)//https://x.example/",
    "https:///kb/",
])
def test_site_url_refusals_are_one_line_exit_2(value, tmp_path, capsys, monkeypatch):
    status = cli_build(SimpleNamespace(releases=str(FIXTURE_KB), site_dir=str(tmp_path / "site"), site_url=value))
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("lingjun-kb build: --site-url: ") and err.count("\n") == 1, err
    assert "\x1b" not in err and "\u202e" not in err and "\u2028" not in err
    assert not (tmp_path / "site").exists()
    monkeypatch.setenv("LINGJUN_KB_SITE_URL", value)
    status = cli_build(SimpleNamespace(releases=str(FIXTURE_KB), site_dir=str(tmp_path / "site"), site_url=None))
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("lingjun-kb build: LINGJUN_KB_SITE_URL: ") and err.count("\n") == 1, err


def test_a_javascript_source_url_is_refused_by_the_gate(tmp_path):
    records = tmp_path / "kb"
    shutil.copytree(FIXTURE_KB, records)
    path = records / "training-nv-pytorch" / "25.07.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        'url: "https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-25-07"', 'url: "javascript:alert(1)"'),
        encoding="utf-8")
    with pytest.raises(ValidationFailed) as caught:
        load_validated(records)
    assert any("javascript:alert(1)" in str(p) for p in caught.value.problems)
