"""The Troubleshooting section (error signatures): the view model (generator/site/troubleshooting.py),
the rendered Markdown, and a full build of both languages with its search indexes.

The built KB is the fixture KB plus the real record ``releases/troubleshooting/nccl-shm-no-space.yaml``
(copied, so this test follows it) and the fixture signature of ``fixtures/kb-troubleshooting/``
(another printer, three causes, all four places, a missing rule, a missing known issue, hostile text);
the fixture known issue names that signature from its side (``signatures:``).
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.generator.site.build import build_site, load_validated
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages
from lingjun.generator.site.strings import STRINGS
from lingjun.generator.site.troubleshooting import PLACE_ORDER, clause_text, condition_lines, printer_page_path
from lingjun.schema.models import Condition, FactClause, Printer

from site_kit import FIXTURE_KB, REPO
from made_once import made_ahead
from test_site_html_tables import check_article_links

OVERLAY = Path(__file__).parent / "fixtures" / "kb-troubleshooting"
REAL_SIGNATURE = REPO / "releases" / "troubleshooting" / "nccl-shm-no-space.yaml"
NCCL_ID = "nccl-shm-no-space"
FIXTURE_ID = "nvidia-container-no-gpu_test.1"
ISSUE_ID = "vllm-moe-illegal-memory-access"
#: the example line of the real signature the brief names; a paste of it must find the entry
PASTED = "NCCL WARN Call to posix_fallocate failed : No space left on device"
SITE_URL = "https://kb.example.com/"


def make_troubleshooting_kb(target: Path) -> Path:
    shutil.copytree(FIXTURE_KB, target)
    (target / "troubleshooting").mkdir()
    shutil.copyfile(REAL_SIGNATURE, target / "troubleshooting" / REAL_SIGNATURE.name)
    for path in sorted(OVERLAY.rglob("*.yaml")):
        shutil.copyfile(path, target / path.relative_to(OVERLAY))
    issue = target / "known-issues" / f"{ISSUE_ID}.yaml"
    issue.write_text(issue.read_text(encoding="utf-8") + f"signatures: [{FIXTURE_ID}]\n", encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def ts_dir(tmp_path_factory):
    return make_troubleshooting_kb(tmp_path_factory.mktemp("ts") / "kb")


@pytest.fixture(scope="module")
def ts(ts_dir):
    kb = load_validated(ts_dir)
    return kb, build_site_model(kb)


@pytest.fixture(scope="module")
def ts_pages(ts):
    _, site = ts
    return {lang: {page.id: text for page, text in render_pages(site, lang)} for lang in ("en", "zh")}


@made_ahead("troubleshooting", "ts_site", seconds=3)
def _troubleshooting_folder(root: Path, tmp_path_factory) -> None:
    releases = make_troubleshooting_kb(root / "kb")
    build_site(releases, root / "site", build_dir=root / "build", config_dir=REPO, site_url=SITE_URL)


@pytest.fixture(scope="module")
def ts_site(tmp_path_factory):
    """The site of the troubleshooting KB, built with :data:`SITE_URL` once per run (shared by xdist's workers:
    read only)."""
    return _troubleshooting_folder(tmp_path_factory) / "site"


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: dict[str, str] = {}
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids[attrs["id"]] = tag
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])


def _parse(path: Path) -> _Ids:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _entry(html: str, anchor: str) -> str:
    """The HTML of one entry: from its heading to the next h2 or the end of the article."""
    start = html.index(f'id="{anchor}"')
    ends = [i for i in (html.find("<h2", start), html.find("</article>", start)) if i > 0]
    return html[start:min(ends) if ends else len(html)]


# ---------------------------------------------------------------- the view model


def test_fact_clauses_read_in_words_in_both_languages():
    shm = FactClause(fact="shm.size_bytes", op="lt", value=1073741824)
    assert clause_text(shm, "en") == "the size of /dev/shm is below 1 GiB"
    assert clause_text(shm, "zh") == "/dev/shm 的大小小于 1 GiB"
    assert clause_text(FactClause(fact="shm.size_bytes", op="ge", value=65 * 1024 * 1024), "en") == \
        "the size of /dev/shm is at least 65 MiB"
    assert clause_text(FactClause(fact="shm.size_bytes", op="lt", value=1000), "en") == \
        "the size of /dev/shm is below 1000 B"
    assert clause_text(FactClause(fact="limits.memlock_soft", op="ne", value=-1), "en") == \
        "the memlock limit (ulimit -l) is not unlimited"
    assert clause_text(FactClause(fact="driver.present", op="eq", value=False), "en") == \
        "no NVIDIA driver is visible in the container"
    assert clause_text(FactClause(fact="driver.present", op="ne", value=False), "zh") == "能看到 NVIDIA 驱动"
    assert clause_text(FactClause(fact="place", op="in", value=["docker", "acs"]), "en") == \
        "where the container runs (docker, kubernetes, acs) is one of docker, acs"
    assert clause_text(FactClause(fact="gpu.compute_capability_min", op="lt", value="8.0"), "zh") == \
        "GPU 的计算能力小于 8.0"
    assert condition_lines(None, "en") == []
    both = Condition(components={"vllm": "<0.9"}, env=[{"name": "NCCL_P2P_DISABLE", "equals": "1"}],
                     facts=[{"fact": "gpu.mig", "op": "eq", "value": True}])
    assert condition_lines(both, "en") == ["vllm <0.9 is installed", "NCCL_P2P_DISABLE is 1",
                                           "MIG devices are in use"]


def test_every_printer_has_a_name_and_a_page_path_the_checker_links_to():
    bundle = SimpleNamespace(site_url=SITE_URL)
    for printer in Printer:
        assert STRINGS[f"printer.{printer.value}"]["en"] and STRINGS[f"printer.{printer.value}"]["zh"]
        url = KnowledgeData.signature_url(bundle, "x", printer.value)
        assert url == SITE_URL + printer_page_path(printer)[:-len(".md")] + "/#x"


def test_view_model_groups_orders_and_relates(ts):
    kb, site = ts
    shooting = site.troubleshooting
    assert [g.printer for g in shooting.groups] == [Printer.nccl, Printer.nvidia_container]  # Printer order
    assert [g.path for g in shooting.groups] == ["troubleshooting/nccl.md", "troubleshooting/nvidia-container.md"]
    view = shooting.by_id[FIXTURE_ID]
    assert view.anchor == FIXTURE_ID and view.page_id == "troubleshooting:nvidia-container"
    assert [c.rank for c in view.causes] == [1, 2, 3]
    assert [c.cause.id for c in view.causes] == ["first", "second", "third"]
    first, second, third = view.causes
    assert [r.place for r in first.remedies] == list(PLACE_ORDER) == ["docker", "kubernetes", "acs", "image"]
    assert [r.place for r in second.remedies] == ["kubernetes"] and [r.place for r in third.remedies] == ["image"]
    assert first.conditions["en"] == ["no NVIDIA driver is visible in the container",
                                      "the memlock limit (ulimit -l) is not unlimited"]
    assert second.conditions["en"] == [
        "accl-n >=2.23 is installed", "a GPU whose name contains one of: H20", "NVIDIA_VISIBLE_DEVICES is not set",
        "the CPU architecture is one of: amd64", "where the container runs (docker, kubernetes, acs) is one of docker, kubernetes"]
    assert third.always and not first.always
    assert [(r.id, r.anchor) for r in first.rules] == [("driver.present", "driver-present")]
    # known issues both ways: the issue names the signature (the gate refuses a signature naming an unknown one)
    assert [i.id for i in view.known_issues] == [ISSUE_ID] and view.missing_issues == []
    assert [i.id for i in shooting.by_id[NCCL_ID].known_issues] == []
    assert [(cid, c is not None) for cid, c in view.components] == [("accl-n", True)]
    # releases listing accl-n, per family, newest first
    listing = {f.id: [r.version for r in records] for f, records in view.releases}
    expected = {}
    for family in site.families:
        found = [r.version for r in site.releases_by_family[family.id]
                 if any(e.id == "accl-n" for e in site.components_of(r))]
        if found:
            expected[family.id] = found
    assert listing == expected
    assert listing == {"training-nv-pytorch": ["25.07", "25.03", "25.02"]}  # 25.06 lists no ACCL-N
    for ref, views in shooting.by_release.items():
        assert all(any(r.ref == ref for _, rs in v.releases for r in rs) for v in views)
    record = kb.release("training-nv-pytorch:25.07")
    assert [v.id for v in site.view(record).signatures] == [NCCL_ID, FIXTURE_ID]


def test_rendered_markdown_escapes_record_text(ts_pages):
    for lang in ("en", "zh"):
        text = ts_pages[lang]["troubleshooting:nvidia-container"]
        outside_code = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
        assert "alert(2)" in text and "alert(2)" not in outside_code  # the example line is a code block
        assert "<script>" not in outside_code and "&lt;script&gt;alert(1)" in outside_code
        assert "<b>" not in text and "<i>x</i>" not in text
        assert f"{{ #{FIXTURE_ID} }}" in text  # the anchor exactly, "_" and "." not escaped


# ---------------------------------------------------------------- the built site


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pages_exist_and_anchors_equal_ids_at_the_checker_address(ts_site, ts, lang):
    kb, _ = ts
    bundle = SimpleNamespace(site_url=SITE_URL)
    prefix = "zh/" if lang == "zh" else ""
    index = _parse(ts_site / prefix / "troubleshooting" / "index.html")
    for sig in kb.signatures.values():
        url = KnowledgeData.signature_url(bundle, sig.id, sig.printed_by.value, lang)
        path, _, anchor = url[len(SITE_URL):].partition("#")
        page = ts_site / path / "index.html"
        assert page.is_file(), url
        parsed = _parse(page)
        assert anchor == sig.id and parsed.ids.get(sig.id) == "h2", (url, parsed.ids)
        # the index links the entry
        assert any(h.endswith(f"{sig.printed_by.value}/#{sig.id}") for h in index.hrefs), index.hrefs
    assert not (ts_site / prefix / "troubleshooting" / "cuda").exists()  # a printer without signatures has no page


@pytest.mark.parametrize("lang,words", [
    ("en", ("Zeroth cause ALPHA", "Second cause BRAVO", "Third cause CHARLIE")),
    ("zh", ("原因甲", "原因乙", "原因丙")),
])
def test_causes_in_order_with_remedies_per_place(ts_site, lang, words):
    prefix = "zh/" if lang == "zh" else ""
    html = (ts_site / prefix / "troubleshooting" / "nvidia-container" / "index.html").read_text(encoding="utf-8")
    entry = _entry(html, FIXTURE_ID)
    positions = [entry.index(w) for w in words]
    assert positions == sorted(positions)
    assert re.search(r"<ol>\s*<li>", entry)
    first = html_lib.unescape(entry[positions[0]:positions[1]])  # Markdown's "&#58;" is ":" in the browser
    places = [STRINGS[f"ts.place.{p}"][lang] for p in PLACE_ORDER]
    where = [first.index(f"<strong>{p}</strong>") for p in places]
    assert where == sorted(where)
    if lang == "en":
        assert "<strong>Docker</strong>: Docker remedy ONE: run with --gpus all" in first
        assert "<strong>Inside the image</strong>: Image remedy ONE: run nvidia-smi" in first
        assert "no NVIDIA driver is visible in the container; the memlock limit (ulimit -l) is not unlimited" in first
        assert "whenever the line appears (the facts cannot rule it out)" in html_lib.unescape(entry[positions[2]:])
    else:
        assert "<strong>ACS GPU Pod</strong>：ACS 处理一：选择 GPU 实例规格" in first
    nccl = html_lib.unescape(_entry((ts_site / prefix / "troubleshooting" / "nccl" / "index.html").read_text(encoding="utf-8"), NCCL_ID))
    assert ("the size of /dev/shm is below 1 GiB" if lang == "en" else "/dev/shm 的大小小于 1 GiB") in nccl


def test_links_to_rules_issues_components_and_releases_resolve(ts_site):
    checked, _ = check_article_links(ts_site)
    assert checked > 100
    page = ts_site / "troubleshooting" / "nvidia-container" / "index.html"
    html = page.read_text(encoding="utf-8")
    entry = _entry(html, FIXTURE_ID)
    rules = _parse(ts_site / "checker" / "rules" / "index.html")
    assert 'href="../../checker/rules/#driver-present"' in entry and "driver-present" in rules.ids
    assert f'href="../../known-issues/#{ISSUE_ID}"' in entry
    assert 'href="../../components/accl-n/"' in entry
    assert 'href="../../releases/training-nv-pytorch/25.07/"' in entry
    # the other direction: the known issue and the release link the entry
    issues = (ts_site / "known-issues" / "index.html").read_text(encoding="utf-8")
    assert f'href="../troubleshooting/nvidia-container/#{FIXTURE_ID}"' in _entry(issues, ISSUE_ID)
    release = (ts_site / "releases" / "training-nv-pytorch" / "25.07" / "index.html").read_text(encoding="utf-8")
    section = _entry(release, "troubleshooting")
    assert f'href="../../../troubleshooting/nccl/#{NCCL_ID}"' in section
    assert f'href="../../../troubleshooting/nvidia-container/#{FIXTURE_ID}"' in section
    # a release that lists none of the components has no such section
    xpu = _parse(ts_site / "releases" / "training-xpu-pytorch" / "25.05" / "index.html")
    assert "troubleshooting" not in xpu.ids


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_record_text_is_shown_as_text(ts_site, lang):
    prefix = "zh/" if lang == "zh" else ""
    html = (ts_site / prefix / "troubleshooting" / "nvidia-container" / "index.html").read_text(encoding="utf-8")
    entry = _entry(html, FIXTURE_ID)
    assert "<script>" not in entry and "<b>" not in entry and "<i>" not in entry
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in entry and "&lt;script&gt;alert(2)&lt;/script&gt;" in entry
    assert 'href="javascript' not in entry


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_search_index_holds_the_pasted_line_on_the_entry(ts_site, lang):
    index = ts_site / ("zh/" if lang == "zh" else "") / "search" / "search_index.json"
    docs = json.loads(index.read_text(encoding="utf-8"))["docs"]
    found = [d["location"] for d in docs if PASTED in d["text"].replace("\u200b", "")]
    assert f"troubleshooting/nccl/#{NCCL_ID}" in found, found
    # as code text, not cut by jieba (segments only Han runs) nor dropped by the parser
    entry = next(d for d in docs if d["location"] == f"troubleshooting/nccl/#{NCCL_ID}")
    assert f"<code>include/shm.h:28 {PASTED}" in entry["text"]
    # boosted, so a pasted line ranks this page above pages sharing only its common words (the browser test)
    assert entry.get("boost") == 3


def test_every_chinese_text_of_the_real_signatures_is_chinese():
    """The Chinese pages quote error lines as printed; every text the records write in Chinese is Chinese."""
    from lingjun.schema.fields import contains_cjk
    from lingjun.schema.loader import load_knowledge_base

    kb, _ = load_knowledge_base(REPO / "releases")
    assert len(kb.signatures) >= 40
    for sig in kb.signatures.values():
        texts = [sig.title, sig.explanation] + [c.title for c in sig.causes]
        texts += [r for c in sig.causes for r in (c.remedies.docker, c.remedies.kubernetes, c.remedies.acs, c.remedies.image) if r]
        for text in texts:
            assert contains_cjk(text.zh), (sig.id, text.zh)
