"""The error catalogs' pages (generator/site/error_catalogs.py): every Xid, CUDA/NVML error code and NCCL warning
of ``releases/errors/`` on the Troubleshooting pages ``troubleshooting/xid/``, ``cuda-errors/`` and
``nccl-warnings/``, in both languages, at the anchors lingjun-check links to; the index's links to them; the search
data (``troubleshooting/catalogs.json``) and known-errors.js, run under node, reading pasted lines as the checker
reads them.

Two sites: the shared build of the real records (``real_site_dir``) and a small one of the fixture KB with the
hostile catalogs of ``fixtures/kb-error-catalogs/`` (markup, pipes, backticks, attribute lists in names,
messages, formats and file names), which must be shown as printed.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lingjun.checks.knowledge.catalog_lines import LITERALS, message_literals, recognise
from lingjun.checks.knowledge.error_catalogs import ErrorCatalogs, nccl_anchor
from lingjun.generator.bundle import compile_bundle, compile_error_catalogs
from lingjun.generator.site.build import build_site, load_validated
from lingjun.generator.site.error_catalogs import CATALOG_PAGES, error_catalogs
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages
from lingjun.generator.site.strings import STRINGS
from lingjun.schema.error_catalogs import CUDA_APIS, NcclWarningCatalog

from made_once import made_ahead
from site_kit import FIXTURE_KB, REPO
from test_site_html_tables import check_article_links

OVERLAY = Path(__file__).parent / "fixtures" / "kb-error-catalogs"
#: a real signature the fixture's CUDA entry links to
SIGNATURE = REPO / "releases" / "troubleshooting" / "nccl-shm-no-space.yaml"
KNOWN_ERRORS_JS = REPO / "generator" / "site" / "theme" / "assets" / "lingjun" / "known-errors.js"
RUNNER = Path(__file__).parent / "js" / "run_known_errors.js"
PAGES = {page.key: page for page in CATALOG_PAGES}
LANGS = (("en", ""), ("zh", "zh/"))
#: what catalogs.json holds besides the catalogs: its format, the box's words, the checker's literals and expressions
SEARCH_META = {"format", "labels", "literals", "forms", "leading_number", "tail"}
#: the built pages stay a size a browser fetches without trouble (measured: about 150, 180 and 245 KB)
PAGE_BUDGET = 400_000
#: catalogs.json, fetched by the search box only for a line that shows what a catalog holds (measured: about 100 KB)
SEARCH_DATA_BUDGET = 160_000


def make_catalog_kb(target: Path) -> Path:
    """The fixture KB with the hostile catalogs and the real signature the CUDA catalog names."""
    shutil.copytree(FIXTURE_KB, target)
    shutil.copytree(OVERLAY / "errors", target / "errors")
    (target / "troubleshooting").mkdir()
    shutil.copyfile(SIGNATURE, target / "troubleshooting" / SIGNATURE.name)
    return target


@made_ahead("error-catalogs", "catalog_site", seconds=4)
def _catalog_folder(root: Path, tmp_path_factory) -> None:
    build_site(make_catalog_kb(root / "kb"), root / "site", build_dir=root / "build", config_dir=REPO)


@pytest.fixture(scope="module")
def catalog_site(tmp_path_factory) -> Path:
    """The built site of the fixture KB with the hostile catalogs (made once per run, read only)."""
    return _catalog_folder(tmp_path_factory) / "site"


@pytest.fixture(scope="module")
def catalog_kb(catalog_site):
    """``(knowledge base, site model)`` of the records :func:`catalog_site` was built from."""
    kb = load_validated(catalog_site.parent / "kb")
    return kb, build_site_model(kb)


class _Page(HTMLParser):
    """A built page: every element id (with how often it occurs), the text of each element with an id, the
    elements inside ``<article>`` and their attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: dict[str, int] = {}
        self.article: list[tuple[str, dict]] = []
        self.texts: dict[str, str] = {}
        self._open: list[tuple[str, str, list[str]]] = []  # (tag, id, text parts) of the open elements with an id
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self._depth += 1
        if self._depth:
            self.article.append((tag, attrs))
        if attrs.get("id"):
            self.ids[attrs["id"]] = self.ids.get(attrs["id"], 0) + 1
            if tag not in ("input", "img", "br", "meta", "link"):
                self._open.append((tag, attrs["id"], []))

    def handle_endtag(self, tag):
        if tag == "article":
            self._depth -= 1
        if self._open and self._open[-1][0] == tag:
            _, element_id, parts = self._open.pop()
            self.texts[element_id] = "".join(parts)
            if self._open:
                self._open[-1][2].append(self.texts[element_id])

    def handle_data(self, data):
        if self._open:
            self._open[-1][2].append(data)


def _page(site: Path, prefix: str, key: str) -> _Page:
    parser = _Page()
    parser.feed((site / prefix / PAGES[key].url / "index.html").read_text(encoding="utf-8"))
    return parser


def _checker_anchors(kb) -> dict[str, set[str]]:
    """Every anchor lingjun-check may link to, per catalog, from the catalogs as the checker reads them."""
    cats = ErrorCatalogs.from_dict(compile_error_catalogs(kb))
    return {
        "xid": {f"xid-{n}" for n in cats.xids},
        "cuda": {info.anchor for info in cats.cuda.values()},
        "nccl": {info.anchor for info in cats.nccl} | {f"nccl-{s}" for s in cats.subsystems},
        "container-cli": {info.anchor for info in cats.cli} | {f"cli-{s}" for s in cats.cli_subsystems},
    }


#: (catalog key, the KnowledgeBase attribute holding it), in page order
_CATALOG_ATTRS = (("xid", "xids"), ("cuda", "cuda_errors"), ("nccl", "nccl_warnings"), ("container-cli", "container_cli"))


def _held(kb) -> list[str]:
    return [key for key, attr in _CATALOG_ATTRS if getattr(kb, attr) is not None]


# --------------------------------------------------------------------------
# the real records
# --------------------------------------------------------------------------


def test_each_catalog_of_the_records_has_its_page_in_the_troubleshooting_section(real):
    kb, site = real
    held = _held(kb)
    assert "xid" in held  # releases/errors/xid.yaml
    for key, page in PAGES.items():
        assert (page.id in site.sitemap.pages) == (key in held), key
    section = next(item for item in site.sitemap.nav if getattr(item, "id", None) == "nav:troubleshooting")
    children = [c for c in section.children if isinstance(c, str)]
    # the index, then the catalogs' pages, then one page per printer
    assert children[0] == "troubleshooting"
    assert children[1:1 + len(held)] == [PAGES[key].id for key in held]
    for key in held:
        assert site.sitemap.pages[PAGES[key].id].title == {"en": STRINGS[f"catalog.{key}"]["en"],
                                                          "zh": STRINGS[f"catalog.{key}"]["zh"]}


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_every_entry_of_the_real_catalogs_has_its_anchor_once_in_both_languages(real, real_site_dir, lang, prefix):
    kb, site = real
    wanted = _checker_anchors(kb)
    for key in _held(kb):
        page = _page(real_site_dir, prefix, key)
        missing = wanted[key] - set(page.ids)
        assert not missing, (key, lang, sorted(missing)[:10])
        twice = {a: n for a, n in page.ids.items() if a in wanted[key] and n != 1}
        assert not twice, (key, lang, twice)
    xid = _page(real_site_dir, prefix, "xid")
    assert len([a for a in xid.ids if re.fullmatch(r"xid-\d+", a)]) == len(kb.xids.entries)
    assert "Xid 79" in xid.texts["xid-79"] and kb.xids.entries[0].name in xid.texts[f"xid-{kb.xids.entries[0].xid}"]


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_each_page_states_its_catalogs_edition_and_sources(real, real_site_dir, lang, prefix):
    kb, _ = real
    for key, attr in _CATALOG_ATTRS:
        catalog = getattr(kb, attr)
        if catalog is None:
            continue
        html = (real_site_dir / prefix / PAGES[key].url / "index.html").read_text(encoding="utf-8")
        assert STRINGS["catalog.edition"][lang] in html
        text = _text_of(html)
        assert catalog.edition in text, key
        for source in catalog.sources:
            assert f'href="{source.url}"' in html, (key, source.url)


def _text_of(html: str) -> str:
    parts: list[str] = []
    parser = HTMLParser(convert_charrefs=True)
    parser.handle_data = parts.append  # type: ignore[method-assign]
    parser.feed(html)
    return "".join(parts)


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_the_pages_and_the_search_data_keep_their_size(real, real_site_dir, lang, prefix):
    kb, _ = real
    for key in _held(kb):
        size = (real_site_dir / prefix / PAGES[key].url / "index.html").stat().st_size
        assert size < PAGE_BUDGET, (key, lang, size)
    assert (real_site_dir / prefix / "troubleshooting" / "catalogs.json").stat().st_size < SEARCH_DATA_BUDGET


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_the_index_links_the_catalog_pages_with_their_entry_counts(real, real_site_dir, lang, prefix):
    kb, site = real
    html = (real_site_dir / prefix / "troubleshooting" / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article"):html.index("</article>")]
    assert 'id="catalogs"' in article
    for view in site.error_catalogs.present:
        title = STRINGS[view.page.title_key][lang]
        link = re.search(r'<a href="(%s)">%s</a> · %s%s(\d+)' % (
            re.escape(view.page.url[len("troubleshooting/"):]), re.escape(title),
            re.escape(STRINGS["catalog.count"][lang]), re.escape(STRINGS["colon"][lang])), article)
        assert link, (lang, title)
        assert int(link.group(2)) == view.count
    assert site.error_catalogs.xid.count == len(kb.xids.entries)


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_the_search_data_holds_an_entry_per_catalog_entry(real, real_site_dir, lang, prefix):
    kb, site = real
    data = json.loads((real_site_dir / prefix / "troubleshooting" / "catalogs.json").read_text(encoding="utf-8"))
    assert data["format"] == 1
    assert set(data) - SEARCH_META == set(_held(kb))
    # the checker's literals: its forms' and, as the bundle stores them, every runtime and driver message
    assert data["literals"] == sorted(set(LITERALS) | set(message_literals(compile_bundle(kb)["catalog_messages"])))
    assert ": no CUDA-capable device is detected" in data["literals"] and "xid" in data["forms"] and "nccl" in data["forms"]
    assert data["tail"]["min_words"] == 5 and data["tail"]["openers"][0] == ":"
    assert data["labels"]["xid"] == STRINGS["catalog.search.xid"][lang]
    assert [row[0] for row in data["xid"]["rows"]] == [e.xid for e in kb.xids.entries]
    assert data["xid"]["url"] == "troubleshooting/xid/"
    if kb.cuda_errors is not None:
        rows = {(row[0], row[1]): (row[2], row[3], row[4] if len(row) > 4 else [], row[5] if len(row) > 5 else [])
                for row in data["cuda"]["rows"]}
        want = {(api, e.code): (e.name, e.message or "", list(getattr(e, "older_messages", None) or []),
                                list(getattr(e, "older_names", None) or []))
                for api in CUDA_APIS for e in getattr(kb.cuda_errors, api)}
        assert rows == want and len(data["cuda"]["rows"]) == len(want)
    if kb.nccl_warnings is not None:
        nccl = data["nccl"]
        anchors = ["nccl-" + row[0] for row in nccl["rows"]]
        assert len(anchors) == len(set(anchors))
        assert set(anchors) == {nccl_anchor(m.file, m.format) for m in kb.nccl_warnings.messages}
        for anchor, (_, file_at, fmt) in zip(anchors, nccl["rows"]):
            assert nccl_anchor(nccl["files"][file_at][0], fmt) == anchor
        subsystems = {sub.id: sub for sub in kb.nccl_warnings.subsystems}
        for sub_id, title, files in nccl["subsystems"]:
            assert title == getattr(subsystems[sub_id].title, lang) and files == subsystems[sub_id].files
        for path, at in nccl["files"]:
            assert nccl["subsystems"][at][0] == kb.nccl_warnings.subsystem_of(path)


def test_a_missing_catalog_has_no_page_and_no_search_rows(real):
    kb, _ = real
    only_xid = dataclasses.replace(kb, cuda_errors=None, nccl_warnings=None, container_cli=None)
    site = build_site_model(only_xid)
    assert PAGES["xid"].id in site.sitemap.pages
    assert all(PAGES[key].id not in site.sitemap.pages for key in ("cuda", "nccl", "container-cli"))
    assert set(site.error_catalogs.search_data("en")) == SEARCH_META | {"xid"}
    index = dict((page.id, text) for page, text in render_pages(site, "en"))["troubleshooting"]
    assert "(xid.md)" in index and "cuda-errors.md" not in index and "nccl-warnings.md" not in index
    none = build_site_model(dataclasses.replace(kb, xids=None, cuda_errors=None, nccl_warnings=None, container_cli=None))
    assert not none.error_catalogs.present
    assert not any(page.id.startswith("troubleshooting-catalog:") for page in none.sitemap.pages.values())
    index = dict((page.id, text) for page, text in render_pages(none, "zh"))["troubleshooting"]
    assert "{ #catalogs }" not in index and STRINGS["catalog.index.heading"]["zh"] not in index


def test_nccl_messages_of_one_file_and_format_are_one_entry_with_each_run(real):
    """The gate refuses a repeated file and format (data.error-catalog-refs); the page would still show one entry
    (one anchor) with both ranges of lines and versions."""
    kb, _ = real
    message = {"file": "transport/net_ib.cc", "format": "NET/IB : Got async event : %s"}
    catalog = NcclWarningCatalog.model_validate({
        "kind": "nccl-warning-catalog", "edition": "two runs", "versions": ["2.21.5", "2.28.9"],
        "sources": [{"url": "https://github.com/NVIDIA/nccl", "title": "NVIDIA/nccl"}],
        "subsystems": [{"id": "ib", "files": ["transport/*"], "title": {"en": "IB", "zh": "IB"},
                        "points_to": {"en": "x", "zh": "x"}, "remedy": {"en": "y", "zh": "y"}}],
        "messages": [{**message, "lines": [300, 310], "versions": ["2.27.7", "2.28.9"]},
                     {**message, "lines": [100, 100], "versions": ["2.21.5", "2.22.3"]}]})
    pages = error_catalogs(dataclasses.replace(kb, nccl_warnings=catalog))
    (section,) = pages.nccl.sections
    (entry,) = section.messages
    assert entry.anchor == nccl_anchor(message["file"], message["format"])
    assert [(r.lines_text, r.versions) for r in entry.runs] == [("100", ("2.21.5", "2.22.3")),
                                                                ("300–310", ("2.27.7", "2.28.9"))]
    assert len(pages.search_data("en")["nccl"]["rows"]) == 1
    text = dict((p.id, t) for p, t in render_pages(build_site_model(dataclasses.replace(kb, nccl_warnings=catalog)),
                                                   "en"))[PAGES["nccl"].id]
    assert text.count(f'<li id="{entry.anchor}">') == 1
    assert "line 100 · NCCL 2.21.5 to 2.22.3; lines 300–310 · NCCL 2.27.7 to 2.28.9" in text


# --------------------------------------------------------------------------
# the hostile catalogs
# --------------------------------------------------------------------------

HOSTILE_XID = "<script>alert(79)</script> | *fallen* `off` {#xid-x} [x](javascript:alert(1))"
HOSTILE_CUDA = "<script>alert('cuda')</script> | `tick` *star* {#cuda-x} %s [x](javascript:alert(1))"
HOSTILE_NCCL = "<script>alert('nccl')</script> | `tick` **bold** {#nccl-x} %s [x](javascript:alert(1))"
HOSTILE_FILE = "misc/a|b<i>`x`.cc"
#: ids the attribute lists of the hostile text would make, were they read as Markdown
STRAY_IDS = {"x", "bad", "nope", "xid-x", "cuda-x", "nccl-x", "old-x", "since-x", "remedy-x"}


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_hostile_catalog_text_is_shown_as_printed_and_never_as_markup(catalog_kb, catalog_site, lang, prefix):
    kb, _ = catalog_kb
    for key in ("xid", "cuda", "nccl"):
        page = _page(catalog_site, prefix, key)
        tags = {tag for tag, _ in page.article}
        assert not tags & {"script", "img", "iframe"}, (key, tags)
        assert not [attrs for tag, attrs in page.article if tag == "a" and "javascript" in (attrs.get("href") or "")]
        assert not [attrs for _, attrs in page.article if any(k.startswith("on") for k in attrs)]
        assert not STRAY_IDS & set(page.ids), (key, STRAY_IDS & set(page.ids))
        assert _checker_anchors(kb)[key] <= set(page.ids), key
    xid = _page(catalog_site, prefix, "xid")
    assert HOSTILE_XID in xid.texts["xid-79"]
    assert "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS" in xid.texts["xid-79"]
    cuda = _page(catalog_site, prefix, "cuda")
    assert HOSTILE_CUDA in cuda.texts["cuda-runtime-900"]
    for shown in ("<b>older</b> | `text` {#old-x}", "CUDA <i>12.4</i> | {#since-x}", "<script>alert('remedy')</script> | "):
        assert shown in cuda.texts["cuda-runtime-900"], shown
    nccl = _page(catalog_site, prefix, "nccl")
    hostile = nccl_anchor(HOSTILE_FILE, HOSTILE_NCCL)
    assert nccl.texts[hostile].startswith(HOSTILE_NCCL) and HOSTILE_FILE in nccl.texts[hostile]
    # white space runs and the trailing line break of a format read as one blank, as a log shows them
    assert nccl.texts[nccl_anchor("init.cc", "Invalid   config %d\n")].startswith("Invalid config %d")
    # the hostile edition and subsystem title, as text
    html = (catalog_site / prefix / PAGES["xid"].url / "index.html").read_text(encoding="utf-8")
    assert "Fixture <b>edition</b> | `tick` {#x}" in _text_of(html) and "<b>edition</b>" not in html
    assert "<script>alert('sub')</script> | " in nccl.texts["nccl-misc"]


def test_hostile_catalog_markdown_holds_no_markup(catalog_kb):
    _, site = catalog_kb
    for lang in ("en", "zh"):
        for page, text in render_pages(site, lang):
            if page.id.startswith("troubleshooting-catalog:") or page.id == "troubleshooting":
                assert "<script" not in text and "<img" not in text and "](javascript" not in text, (lang, page.id)
                assert "{#x}" not in text and "{#bad}" not in text, (lang, page.id)


def test_a_subsystem_without_messages_has_its_section(catalog_site):
    for _, prefix in LANGS:
        page = _page(catalog_site, prefix, "nccl")
        assert "nccl-empty" in page.ids
    html = (catalog_site / PAGES["nccl"].url / "index.html").read_text(encoding="utf-8")
    assert STRINGS["catalog.nccl.no_messages"]["en"] in html


def test_cuda_entries_link_their_signature_and_show_an_unknown_one_as_text(catalog_kb, catalog_site):
    kb, _ = catalog_kb
    html = (catalog_site / PAGES["cuda"].url / "index.html").read_text(encoding="utf-8")
    entry = _Page()
    entry.feed("<article>" + html[html.index('<div class="lj-catalog-entry" id="cuda-runtime-2"'):
                                  html.index('<div class="lj-catalog-entry" id="cuda-runtime-214"')] + "</article>")
    hrefs = [attrs.get("href") for tag, attrs in entry.article if tag == "a"]
    assert hrefs == ["#cuda-runtime-2", "#cuda-class-memory", "../nccl/#nccl-shm-no-space"], hrefs
    assert 'id="cuda-class-memory"' in html
    # a signature the knowledge base does not hold (the gate refuses it) is named, never linked
    signatures = dict(kb.signatures)
    del signatures["nccl-shm-no-space"]
    site = build_site_model(dataclasses.replace(kb, signatures=signatures))
    text = dict((p.id, t) for p, t in render_pages(site, "zh"))[PAGES["cuda"].id]
    entry = text[text.index('id="cuda-runtime-2"'):text.index('id="cuda-runtime-214"')]
    assert "<code>nccl-shm-no-space</code>（本站未收录）" in entry
    assert re.findall(r'href="([^"]*)"', entry) == ["#cuda-runtime-2", "#cuda-class-memory"]


def test_catalog_site_links_resolve(catalog_site):
    checked, _ = check_article_links(catalog_site)
    assert checked


# --------------------------------------------------------------------------
# known-errors.js, under node
# --------------------------------------------------------------------------


def _run_box(site_lang_root: Path, lang: str, lines: list[str], tmp_path: Path) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    listing = tmp_path / f"lines-{lang}.json"
    listing.write_text(json.dumps(lines), encoding="utf-8")
    done = subprocess.run([node, str(RUNNER), str(KNOWN_ERRORS_JS), str(site_lang_root), lang, str(listing)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


#: the brief's lines: (pasted line, the catalog entry its box names)
PASTED = [
    ("[Tue Dec  2 10:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.",
     "troubleshooting/xid/#xid-79"),
    ("RuntimeError: CUDA error: uncorrectable ECC error encountered", "troubleshooting/cuda-errors/#cuda-runtime-214"),
    ("node-1:15016:15201 [1] misc/argcheck.cc:30 NCCL WARN Cuda failure 'out of memory'",
     "troubleshooting/cuda-errors/#cuda-runtime-2"),
    ("Cuda failure 'out of memory'", "troubleshooting/cuda-errors/#cuda-runtime-2"),
    ("torch.cuda.init failed: cudaErrorSystemNotReady", "troubleshooting/cuda-errors/#cuda-runtime-802"),
    ("jax: cuInit(0) failed: CUDA_ERROR_NO_DEVICE", "troubleshooting/cuda-errors/#cuda-driver-100"),
    ("pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "troubleshooting/cuda-errors/#nvml-9"),
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`",
     "troubleshooting/cuda-errors/#cublas-1"),
    ("RuntimeError: cuDNN error: CUDNN_STATUS_MAPPING_ERROR", "troubleshooting/cuda-errors/#cudnn-4006"),
    ("node-1:15016:15201 [1] transport/net_ib.cc:1160 NCCL WARN NET/IB : Got async event : port error",
     "troubleshooting/nccl-warnings/#nccl-ib"),
]


@pytest.mark.parametrize("lang,prefix", LANGS)
def test_the_search_box_names_the_catalog_entry_of_a_pasted_line(real, real_site_dir, tmp_path, lang, prefix):
    kb, _ = real
    wanted = [(line, url) for line, url in PASTED
              if ("cuda-errors" not in url or kb.cuda_errors) and ("nccl-warnings" not in url or kb.nccl_warnings)]
    out = _run_box(real_site_dir / prefix, lang, [line for line, _ in wanted] + ["no error here at all"], tmp_path)
    for (line, url), result in zip(wanted, out["results"]):
        catalog = [(href, title) for href, title, cls in result["links"] if cls == "lj-known-errors__catalog"]
        assert ("./" + url) in [href for href, _ in catalog], (line, result)
        assert result["label"] in (("Known error line:", "Possible known error lines:") if lang == "en"
                                   else ("已知错误行：", "可能的已知错误行："))
    xid = next(r for r in out["results"] if "Xid" in r["line"])
    name = next(e.name for e in kb.xids.entries if e.xid == 79)
    assert [t for h, t, _ in xid["links"] if h.endswith("#xid-79")] == [
        STRINGS["catalog.search.xid"][lang].replace("{xid}", "79").replace("{name}", name)]
    assert out["results"][-1]["hidden"] and not out["results"][-1]["links"]
    assert out["fetched"] == ["./troubleshooting/patterns.json", "./troubleshooting/catalogs.json"]


def test_a_line_that_shows_no_catalog_fetches_no_catalog_data(real_site_dir, tmp_path):
    """Under five words, naming neither CUDA nor NCCL, NVML, an Xid, PTX or a GPU: not a CUDA message alone either."""
    out = _run_box(real_site_dir, "en", ["posix_fallocate failed: no space", "plain words"], tmp_path)
    assert out["fetched"] == ["./troubleshooting/patterns.json"]


def test_a_cuda_message_another_program_quotes_fetches_the_catalogs_and_names_its_entry(real_site_dir, tmp_path):
    """TensorFlow's ``Status: MESSAGE``, llama.cpp's ``failed to initialize CUDA: MESSAGE``: the box names the code as
    lingjun-check --log does (catalog_lines' tail reading)."""
    lines = ["W gpu_device.cc:2211] CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image "
             "is invalid", "ggml_cuda_init: failed to initialize CUDA: unknown error",
             "nvidia-smi: Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error"]
    out = _run_box(real_site_dir, "en", lines, tmp_path)
    assert out["fetched"] == ["./troubleshooting/patterns.json", "./troubleshooting/catalogs.json"]
    catalog = [[href for href, _, cls in r["links"] if cls == "lj-known-errors__catalog"] for r in out["results"]]
    assert catalog == [["./troubleshooting/cuda-errors/#cuda-runtime-200"], ["./troubleshooting/cuda-errors/#cuda-runtime-999"], []]


def _checker_literals(cats: ErrorCatalogs) -> frozenset:
    """What sends a line to the catalogs in lingjun-check: the forms' literals and every runtime and driver message."""
    messages = [m for api in ("runtime", "driver") for m, _ in cats.cuda_messages(api)]
    return frozenset(LITERALS) | frozenset(message_literals(messages))


def _expected(line: str, cats: ErrorCatalogs) -> list[str]:
    """The catalog entries lingjun-check reads ``line`` as (catalog_lines.recognise), as the box links them: the
    entry's anchor; an NCCL message no format prints, its subsystem's section; an Xid the catalog lacks or an NCCL
    file no subsystem owns, the page."""
    out = []
    if not any(literal in line for literal in _checker_literals(cats)):  # the checker reads no other line against them
        return out
    for m in recognise(line, cats):
        if m.catalog == "xid":
            out.append("./troubleshooting/xid/" + (f"#xid-{m.info.xid}" if m.info else ""))
        elif m.catalog == "nccl":
            anchor = m.info.anchor if m.info else f"nccl-{m.subsystem}" if m.subsystem else ""
            out.append("./troubleshooting/nccl-warnings/" + (f"#{anchor}" if anchor else ""))
        elif m.catalog == "container-cli":
            out.append("./troubleshooting/nvidia-container-cli/#" + (m.info or m.context).anchor)
        elif m.info is not None:
            out.append("./troubleshooting/cuda-errors/#" + m.info.anchor)
    return out


_CONVERSION = re.compile(r"%%|%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcspm])"
                         r"|\{#?[A-Za-z_]\w{0,60}\}")
_VALUE = {"d": "12", "i": "-3", "u": "12", "x": "1f", "X": "1F", "p": "0x7f00", "o": "7", "e": "1.5", "E": "1.5",
          "f": "1.5", "g": "1.5", "G": "1.5", "c": "z"}


def _printed(fmt: str) -> str:
    """What NCCL prints for ``fmt`` with sample values (its first line)."""
    return _CONVERSION.sub(lambda m: "%" if m.group(0) == "%%" else _VALUE.get(m.group(1) or "s", "eth0 is down"),
                           fmt.split("\n")[0])


def _catalog_lines(kb) -> list[str]:
    """A pasted line per catalog entry, in the forms programs print them (and a few the catalogs do not hold)."""
    lines = [f"[ 1.5] NVRM: Xid (PCI:0000:3b:00): {e.xid}, pid=1, name=python" for e in kb.xids.entries]
    lines.append("NVRM: Xid (PCI:0000:3b:00): 99999, pid=1")
    forms = {"runtime": "RuntimeError: CUDA error: {}", "driver": "CUDA driver error: {}",
             "nvml": "Failed to initialize NVML: {}"}
    for api in CUDA_APIS:
        for e in getattr(kb.cuda_errors, api) if kb.cuda_errors else []:
            lines.append(f"failed with {e.name} here")
            for name in getattr(e, "older_names", None) or []:  # cuDNN 8's names, in torch's and Caffe's forms
                lines += [f"RuntimeError: cuDNN error: {name}", f"Check failed: status == CUDNN_STATUS_SUCCESS "
                          f"(7 vs. 0)  {name}"]
            if api in ("cublas", "cudnn"):  # torch's checks print the status's name
                lines.append(f"RuntimeError: CUDA error: {e.name} when calling `cublasCreate(handle)`"
                             if api == "cublas" else f"RuntimeError: cuDNN error: {e.name}")
            if e.message:
                lines.append(forms[api].format(e.message))
                if api in ("runtime", "driver"):  # quoted by other programs' wrappers (read by the message alone)
                    lines += [f"ggml_cuda_init: failed to initialize CUDA: {e.message}",
                              f"CUDA runtime implicit initialization on GPU:0 failed. Status: {e.message}",
                              f"Status: {e.message}", f"a tool: {e.message[:1].upper()}{e.message[1:]} (at line 3)",
                              f"worker:{e.message}x"]
    for m in kb.nccl_warnings.messages if kb.nccl_warnings else []:
        lines.append(f"node-1:15016:15201 [0] {m.file}:{m.lines[0]} NCCL WARN {_printed(m.format)}")
        lines.append(f"NCCL WARN {_printed(m.format)}")
    for m in kb.container_cli.messages if kb.container_cli else []:
        text = _printed(m.format) + (": no such file or directory" if m.appends else "")
        lines.append(f"stderr: nvidia-container-cli: {text}: unknown.")
        lines.append(f"nvidia-container-cli: mount error: {text}")
        lines.append(f"nvidia-container-cli: detection error: error adding GPU device: 0: {text}\\n\\\"\"")
    for api in ("runtime", "driver", "nvml"):
        for e in getattr(kb.cuda_errors, api) if kb.cuda_errors else []:
            for older in getattr(e, "older_messages", None) or []:
                lines.append(forms[api].format(older))
    # the other printed forms the checker reads (catalog_lines), and lines the catalogs do not hold
    lines += ["Cuda failure 2 'out of memory'", "NCCL WARN Cuda failure 2 'out of memory'", "CUDA error (35 vs. 0)",
              "CUDA error checking is enabled", "CUDA error: 2[cudaMalloc(&p, n)]", "Cuda failure: 222 the provided PTX",
              "cudaGetDeviceCount() returned Error 802: system not yet initialized",
              "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 804: forward "
              "compatibility was attempted on non supported HW",
              "pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "nvidia-smi: Failed to initialize NVML: "
              "Driver/library version mismatch", "NVML error: Unknown Error",
              "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCCachingAllocator.cpp:1",
              "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=50 error=100 : no CUDA-capable device "
              "is detected", "CUDA failed with error out of memory", "cudaMalloc returned 2 (0x2)",
              "cudaDeviceSynchronize returned (0x2c0)", "kernel: [  12.5] NVRM: GPU at PCI:0000:3b:00: Xid=79",
              "[0] transport/net_ib/connect.cc:372 (ncclIbConnect) NCCL WARN NET/IB : No device found.",
              "init.cc:999 NCCL WARN something no format prints", "nowhere/else.cc:1 NCCL WARN what",
              "connect.cc:1 NCCL WARN what", "CUDA driver error: out of memory",
              "nvidia-container-cli: ldcache error: a message no release prints: unknown",
              "nvidia-container-cli.real: container error: cgroup subsystem devices not found",
              "Usage: nvidia-container-cli [OPTION...]", "nvidia-container-cli: version 1.17.0",
              "CUBLAS_STATUS_SUCCESS", "cuDNN error: CUDNN_STATUS_NO_SUCH_STATUS",
              "failed to run cuBLAS routine cublasSgemm_v2: CUBLAS_STATUS_EXECUTION_FAILED"]
    return lines


def _box_agrees_with_the_checker(kb, site_root: Path, tmp_path: Path) -> int:
    cats = ErrorCatalogs.from_dict(compile_error_catalogs(kb))
    lines = _catalog_lines(kb)
    out = _run_box(site_root, "en", lines, tmp_path)
    differ = []
    for line, result in zip(lines, out["results"]):
        got = [href for href, _, cls in result["links"] if cls == "lj-known-errors__catalog"]
        if got != _expected(line, cats):
            differ.append((line, got, _expected(line, cats)))
    assert not differ, (len(differ), differ[:5])
    return len(lines)


def test_the_search_box_reads_every_catalog_entry_as_the_checker_does(real, real_site_dir, tmp_path):
    """Every Xid, every CUDA and NVML code by name and by message, every NCCL format as printed (with and without
    its file): the box names what lingjun-check --log names (the checker's catalog_lines.recognise)."""
    kb, _ = real
    assert _box_agrees_with_the_checker(kb, real_site_dir, tmp_path) > len(kb.xids.entries)


def test_the_search_box_reads_the_hostile_catalogs_as_the_checker_does(catalog_kb, catalog_site, tmp_path):
    kb, _ = catalog_kb
    _box_agrees_with_the_checker(kb, catalog_site, tmp_path)
    out = _run_box(catalog_site, "en", [f"{HOSTILE_FILE}:1 NCCL WARN {_printed(HOSTILE_NCCL)}",
                                        f"CUDA error: {HOSTILE_CUDA}"], tmp_path)
    nccl, cuda = out["results"]
    assert nccl["links"] == [[f"./troubleshooting/nccl-warnings/#{nccl_anchor(HOSTILE_FILE, HOSTILE_NCCL)}",
                              f"NCCL warning (Other <script>alert('sub')</script> | parts): {HOSTILE_NCCL}",
                              "lj-known-errors__catalog"]]
    assert cuda["links"] == [["./troubleshooting/cuda-errors/#cuda-runtime-900",
                              f"cudaErrorHostileText: {HOSTILE_CUDA}", "lj-known-errors__catalog"]]
