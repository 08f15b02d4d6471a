"""Issue 12 on the site: variants, framework runtimes, dated and named release identifiers, releases the
pages name without a record, and the catalog's own sources (fixture: ``site_kit.make_release_shapes_kb``)."""

from __future__ import annotations

import json
import re

import pytest

from lingjun.generator.site.api import family_catalog, feed_entries, image_index, unrecorded_index, write_api
from lingjun.generator.site.diff import ChangeKind, compare_releases
from lingjun.schema.models import ListState, ReleaseStatus

from site_kit import REPO


def _section(page: str, anchor: str) -> str:
    """The text of the heading with ``{ #anchor }`` up to the next heading of the same or a higher level."""
    found = re.search(r"^(#+) .*\{ #" + re.escape(anchor) + r" \}$", page, re.M)
    assert found, anchor
    level = len(found.group(1))
    rest = page[found.end():]
    end = re.search(r"^#{1,%d} " % level, rest, re.M)
    return rest[:end.start()] if end else rest


# ---------------------------------------------------------------- ordering


def test_a_dated_release_sorts_after_year_month_ones_everywhere(release_shapes):
    kb, site = release_shapes
    assert [r.version for r in kb.releases_of("training-xpu-pytorch")] == ["2026-10-20", "25.05"]
    rows = site.family_rows["training-xpu-pytorch"]
    assert [(r.version, r.record is not None) for r in rows] == [
        ("2026-10-20", True), ("25.09", False), ("25.06", False), ("25.05", True), ("25.04", False)]
    placement = site.sitemap.placements["release:training-xpu-pytorch:25.05"]
    assert placement.next == "release:training-xpu-pytorch:2026-10-20" and placement.previous is None
    refs = [r["ref"] for r in site.compare_data["releases"] if r["family"] == "training-xpu-pytorch"]
    assert refs[0] == "training-xpu-pytorch:2026-10-20" and refs[-1] == "training-xpu-pytorch:25.05"


def test_feed_orders_by_entry_date_not_by_text_and_dates_undated_releases_by_their_recording(release_shapes):
    kb, _ = release_shapes
    import datetime as dt

    from lingjun.schema.models import ReleaseDate, ReleaseDateKind

    def on(day, kind=ReleaseDateKind.page_updated):
        return ReleaseDate(date=day, kind=kind, source="https://help.aliyun.com/zh/document_detail/3172892.html")

    stamp = dt.date(2026, 11, 30)
    dated = kb.release("training-xpu-pytorch:2026-10-20").model_copy(
        update={"recorded": stamp, "released": on(dt.date(2026, 10, 20), ReleaseDateKind.image_tag)})
    # a YY.MM release whose page stamp is later than a dated release of another family comes first: by date
    older = kb.release("training-nv-pytorch:25.07").model_copy(update={"released": on(dt.date(2026, 10, 21))})
    named = kb.release("inference-xpu-pytorch-opt:sglang0.5.4.post3-250105").model_copy(update={"recorded": stamp})
    kb2 = type(kb)(families=kb.families, releases=[older, named, dated])
    # no date in its evidence: in the feed, dated by its recording (2026-11-30), never by a guessed release date
    assert [r.ref for r in feed_entries(kb2)] == ["inference-xpu-pytorch-opt:sglang0.5.4.post3-250105",
                                                  "training-nv-pytorch:25.07", "training-xpu-pytorch:2026-10-20"]
    import xml.etree.ElementTree as ET

    from lingjun.generator.site.api import atom_feed

    atom = "{http://www.w3.org/2005/Atom}"
    for lang, label in (("en", "the day this knowledge base recorded it"), ("zh", "本知识库记录它的日期")):
        entries = ET.fromstring(atom_feed(kb2, lang)).findall(f"{atom}entry")
        undated = entries[0]
        assert undated.find(f"{atom}published") is None and undated.find(f"{atom}updated").text == "2026-11-30T00:00:00Z"
        category = undated.find(f"{atom}category")
        assert category.get("term") == "recorded" and category.get("label").startswith(label)
        assert entries[2].find(f"{atom}published").text == "2026-10-20T00:00:00Z"


# ---------------------------------------------------------------- release pages


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_release_with_variants_has_a_section_per_variant(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["release:inference-nv-pytorch:25.04"]
    title = {"en": ("vLLM image", "SGLang image"), "zh": ("vLLM 镜像", "SGLang 镜像")}[lang]
    vllm, sglang = _section(page, "variant-vllm"), _section(page, "variant-sglang")
    assert f"### {title[0]} {{ #variant-vllm }}" in page and f"### {title[1]} {{ #variant-sglang }}" in page
    assert page.index("#variant-vllm }") < page.index("#variant-sglang }")
    assert {"en": "Large-model inference", "zh": "大模型推理"}[lang] in vllm
    tag = "25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
    assert f"<strong><code>{tag}</code></strong>" in vllm and tag not in sglang
    assert f"egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:{tag}" in vllm
    assert f"acs-registry-vpc.{{region-id}}.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:{tag}" in vllm
    assert "<td><code>0.8.5</code></td>" in vllm and "0.4.6.post1" not in vllm
    assert "<td><code>0.4.6.post1</code></td>" in sglang and "<td><code>4.51.1</code></td>" in sglang
    assert "{ #variant-vllm-layer-library }" in vllm and "{ #layer-library }" not in page
    # the at-a-glance table names the variants, and no single-image sections are left empty
    assert '<a href="#variant-vllm">' in page and "{ #image-tags }" not in page
    assert {"en": "Component list not available", "zh": "!!! note \"组件列表不可用\""}[lang] not in page


def test_release_without_variants_looks_as_before(release_shapes_pages):
    for lang in ("en", "zh"):
        page = release_shapes_pages[lang]["release:training-nv-pytorch:25.07"]
        assert "{ #components }" in page and "{ #image-tags }" in page and "{ #images }" not in page
        assert "{ #runtimes }" not in page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_runtimes_follow_the_shared_components(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["release:training-xpu-pytorch:2026-10-20"]
    shared = {"en": "Shared by every runtime.", "zh": "所有运行时环境共用。"}[lang]
    assert shared in _section(page, "components")
    assert page.index("{ #components }") < page.index("{ #runtimes }") < page.index("{ #image-tags }")
    table = _section(page, "runtimes")
    assert re.search(r'<td><a href="#runtime-llama-factory-20261015">LlamaFactory</a></td>\s*'
                     r'<td><code>llama-factory/20261015</code></td>\s*'
                     r'<td><a href="https://github.com/hiyouga/LlamaFactory">[^<]+</a></td>\s*'
                     r'<td><code>/opt/runtimes/llama-factory-ppu</code></td>\s*'
                     r'<td>' + {"en": "Maintained", "zh": "维护中"}[lang] + '</td>', table)
    cosmos = _section(page, "runtime-cosmos-framework-20261015")
    assert "<td><code>1.2.2</code></td>" in cosmos and "2.10.0" not in cosmos
    no_list = {"en": "lists no components of this runtime", "zh": "未列出该运行时环境的组件"}[lang]
    assert no_list in _section(page, "runtime-llama-factory-20261015")
    unseen = {"en": "the page as recorded here does not show them", "zh": "本站记录的页面内容中没有显示这些组件"}[lang]
    assert unseen in _section(page, "runtime-diffsynth-20261015") and no_list not in _section(page, "runtime-diffsynth-20261015")


def test_named_identifier_release_renders(release_shapes_pages):
    page = release_shapes_pages["en"]["release:inference-xpu-pytorch-opt:sglang0.5.4.post3-250105"]
    assert page.startswith('---\ntitle: "inference-xpu-pytorch-opt sglang0.5.4.post3-250105"')
    assert "<code>2.8.2+ppu1.7.0.post1</code>" in page and "<td>1.7.0.post1</td>" in page


# ---------------------------------------------------------------- honest status, family pages


def test_a_release_is_not_current_when_the_pages_name_a_newer_one(release_shapes):
    _, site = release_shapes
    view = site.views["inference-nv-pytorch:25.04"]
    assert view.record.status is ReleaseStatus.current  # as recorded ...
    assert view.shown_status is ReleaseStatus.superseded  # ... but 25.10 and 26.03 are named
    assert (view.successor.version, view.newest_named.version) == ("25.10", "26.03")
    old = site.views["training-xpu-pytorch:25.05"]
    assert old.successor.version == "25.06" and old.successor.record is None
    assert old.newest_named.record is not None and old.newest_named.version == "2026-10-20"
    newest = site.views["training-xpu-pytorch:2026-10-20"]
    assert newest.shown_status is ReleaseStatus.current and newest.successor is None
    assert [row.version for row in newest.between] == ["25.09", "25.06"]


def test_release_header_names_the_successor(release_shapes_pages):
    en = release_shapes_pages["en"]["release:training-xpu-pytorch:25.05"].split("## ")[0]
    assert '<span class="lj-status lj-status-superseded">Superseded</span>' in en
    assert re.search(r'Next release the pages name: <a href="\.\./\.\./\.\./families/training-xpu-pytorch/&#35;release-25-06">25\.06</a>'
                     r' \(published, not yet recorded\)', en)
    assert '<a href="../2026-10-20/">2026-10-20</a>' in en
    zh = release_shapes_pages["zh"]["release:inference-nv-pytorch:25.04"].split("## ")[0]
    assert "已被取代" in zh and "当前版本" not in zh and "（已发布，尚未收录）" in zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_family_page_lists_unrecorded_releases_with_where_they_are_named(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["family:training-xpu-pytorch"]
    label = {"en": "published, not yet recorded", "zh": "已发布，尚未收录"}[lang]
    rows = re.findall(r'<tr(?: id="([^"]+)")?>\s*<td>(?:<a [^>]*>)?([^<]+)', page)
    assert [v for _, v in rows] == ["2026-10-20", "25.09", "25.06", "25.05", "25.04"]
    assert [i for i, _ in rows] == ["", "release-25-09", "release-25-06", "", "release-25-04"]
    row = page.split('<tr id="release-25-09">')[1].split("</tr>")[0]
    title = {"en": "PPU image release history", "zh": "《PPU image release history》"}[lang]  # the page's own title
    assert label in row and f'<a href="https://help.aliyun.com/en/document_detail/2878031.html">{title}</a>' in row
    assert {"en": "Listed under Historical Images.", "zh": "列于历史镜像之下。"}[lang] in row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_family_without_records_gets_a_page_of_its_named_releases(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["family:inference-xpu-pytorch"]
    assert {"en": "No release of this family is recorded yet.", "zh": "该系列尚无版本记录。"}[lang] in page
    assert re.findall(r'<tr id="(release-[^"]+)">', page) == ["release-25-09", "release-25-08"]
    assert "lj-status-current" not in page and "lj-status-superseded" not in page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_names_the_official_index_and_newer_unrecorded_releases(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["home"]
    assert "(https://help.aliyun.com/en/cs/user-guide/acs-ai-container-image-version-release-record/)" in page
    row = next(line for line in page.splitlines() if "(families/inference-nv-pytorch/index.md)" in line)
    assert "[25.04](releases/inference-nv-pytorch/25.04.md)" in row and '&#35;release-26-03">26.03</a>' in row


# ---------------------------------------------------------------- like with like


def _newer(kb):
    """25.04 as a next release would publish it: vLLM moved on, SGLang dropped, a new image added."""
    old = kb.release("inference-nv-pytorch:25.04")
    vllm, sglang = old.variants
    moved = [e.model_copy(update={"version": "0.9.0"}) if e.id == "vllm" else e for e in vllm.components]
    other = sglang.model_copy(update={"id": "sglang-pd"})
    new = old.model_copy(update={"version": "25.05", "variants": [vllm.model_copy(update={"components": moved}), other]})
    return old, new


def test_a_diff_compares_a_variant_with_the_same_variant(release_shapes):
    kb, _ = release_shapes
    old, new = _newer(kb)
    cmp = compare_releases(old, new)
    assert [d.variant for d in cmp.pairs] == ["vllm"]
    rows = {c.component: (c.kind, c.old, c.new) for c in cmp.pairs[0].changes}
    assert rows["vllm"] == (ChangeKind.upgraded, "0.8.5", "0.9.0")
    assert rows["transformers"] == (ChangeKind.unchanged, "4.51.3", "4.51.3")  # never the SGLang image's 4.51.1
    assert "sglang" not in rows
    assert [(o.variant, o.runtime) for o in cmp.only_old] == [("sglang", None)]
    assert [(o.variant, o.runtime) for o in cmp.only_new] == [("sglang-pd", None)]
    assert cmp.counts["removed"] == cmp.counts["added"] == 0


def test_a_runtime_is_compared_with_the_runtime_of_the_same_name(release_shapes):
    kb, _ = release_shapes
    old = kb.release("training-xpu-pytorch:2026-10-20")
    cosmos = old.runtimes[0]
    bumped = cosmos.model_copy(update={"components": [cosmos.components[0].model_copy(update={"version": "1.3.0"})]})
    new = old.model_copy(update={"version": "2026-11-20", "runtimes": [bumped, old.runtimes[1]]})
    cmp = compare_releases(old, new)
    assert [(d.variant, d.runtime, d.comparable) for d in cmp.pairs] == [
        (None, None, True), (None, "cosmos framework", True), (None, "LlamaFactory", False)]
    assert [(c.component, c.kind) for c in cmp.pairs[1].changes] == [("cosmos-framework", ChangeKind.upgraded)]
    assert [o.runtime for o in cmp.only_old] == ["DiffSynth Studio"] and not cmp.only_new
    assert cmp.pairs[1].old_state is ListState.partial


def test_a_release_without_variants_is_not_compared_with_one_image_of_a_release_with_them(release_shapes):
    kb, _ = release_shapes
    cmp = compare_releases(kb.release("training-nv-pytorch:25.07"), kb.release("inference-nv-pytorch:25.04"))
    assert cmp.pairs == [] and not cmp.comparable
    assert [o.variant for o in cmp.only_new] == ["vllm", "sglang"] and [o.variant for o in cmp.only_old] == [None]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_changes_of_a_release_with_runtimes_name_what_only_one_side_has(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["release:training-xpu-pytorch:2026-10-20"]
    changes = _section(page, "changes")
    only = {"en": "Only in 2026-10-20, so not compared", "zh": "仅 2026-10-20 含有，因此未比较"}[lang]
    assert only in changes and "cosmos framework" in changes and "LlamaFactory" in changes
    assert {"en": "- shared components", "zh": "- 共用组件"}[lang] in changes
    listing = release_shapes_pages[lang]["changes"]
    assert "{ #training-xpu-pytorch-2026-10-20 }" in listing


def test_compare_data_offers_each_variant_and_runtime(release_shapes):
    _, site = release_shapes
    entries = {r["ref"]: r for r in site.compare_data["releases"]}
    vllm = entries["inference-nv-pytorch:25.04#vllm"]
    assert (vllm["release"], vllm["variant"], vllm["label"]) == ("inference-nv-pytorch:25.04", "vllm", "inference-nv-pytorch 25.04 · vllm")
    assert site.compare_data["versions"]["inference-nv-pytorch:25.04#sglang"]["sglang"] == "0.4.6.post1"
    runtime = entries["training-xpu-pytorch:2026-10-20~cosmos-framework/20261015"]
    assert runtime["runtime"] == "cosmos framework" and runtime["list"] == "partial" and runtime["previous"] is None
    assert site.compare_data["versions"][runtime["ref"]] == {"cosmos-framework": "1.2.2", "python": "3.12.3", "torch": "2.10.0", "triton": "3.6.0+gitc6a4cb0f"}  # own + shared
    assert "inference-nv-pytorch:25.04" not in entries  # a release with variants is offered image by image


# ---------------------------------------------------------------- API


def test_api_indexes_images_unrecorded_releases_and_the_catalog(release_shapes, tmp_path):
    import jsonschema

    kb, _ = release_shapes
    written = write_api(kb, tmp_path)
    data = json.loads((tmp_path / "api/v1/releases.json").read_text(encoding="utf-8"))
    assert data["images"] == image_index(kb) and data["unrecorded"] == unrecorded_index(kb)
    vllm = next(i for i in data["images"] if i["ref"] == "inference-nv-pytorch:25.04#vllm")
    assert vllm["image_tags"] == [{
        "tag": "25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless",
        "reference": "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless",
        "vpc_reference": "acs-registry-vpc.{region-id}.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"}]
    opt = next(i for i in data["images"] if i["release"] == "inference-xpu-pytorch-opt:sglang0.5.4.post3-250105")
    assert opt["variant"] is None and opt["image_tags"][0]["vpc_reference"] is None
    runtimes = next(i for i in data["images"] if i["release"] == "training-xpu-pytorch:2026-10-20")["runtimes"]
    assert runtimes == ["cosmos-framework/20261015", "llama-factory/20261015", "diffsynth/20261015"]
    named = [(u["family"], u["version"]) for u in data["unrecorded"]]
    assert ("inference-xpu-pytorch", "25.08") in named and ("inference-nv-pytorch", "26.03") in named
    assert data["unrecorded"][0]["named_in"][0]["url"] == "https://help.aliyun.com/en/document_detail/2878031.html"
    assert data["sources"][0]["url"].endswith("/acs-ai-container-image-version-release-record/")
    release_schema = json.loads((REPO / "schema/release.schema.json").read_text(encoding="utf-8"))
    for record in data["releases"]:
        jsonschema.validate(record, release_schema)
    one = json.loads((tmp_path / "api/v1/releases/training-xpu-pytorch/2026-10-20.json").read_text(encoding="utf-8"))
    assert one["runtimes"][1]["path"] == "/opt/runtimes/llama-factory-ppu"
    families = json.loads((tmp_path / "api/v1/families.json").read_text(encoding="utf-8"))
    assert families == family_catalog(kb) and (tmp_path / "api/v1/families.json") in written
    jsonschema.validate(families, json.loads((REPO / "schema/families.schema.json").read_text(encoding="utf-8")))


def test_against_an_image_with_runtimes_a_missing_component_is_not_removed(release_shapes):
    """25.05 (one complete list) against 2026-10-20 (its own list holds what the runtimes share): vLLM and
    DeepSpeed are not in the shared list, which does not make them removed: they may be in a runtime."""
    from lingjun.generator.site.diff import NotRecorded

    _, site = release_shapes
    view = site.views["training-xpu-pytorch:2026-10-20"]
    shared = view.comparison.pairs[0]
    rows = {c.component: (c.kind, c.not_recorded_reason) for c in shared.changes}
    assert rows["vllm"] == rows["deepspeed"] == (ChangeKind.not_recorded_new, NotRecorded.runtimes)
    assert rows["torch"][0] is ChangeKind.upgraded and rows["triton"] == (ChangeKind.added, None)
    assert shared.counts["removed"] == 0
    entry = next(r for r in site.compare_data["releases"] if r["ref"] == "training-xpu-pytorch:2026-10-20")
    assert entry["shared"] is True
    assert next(r for r in site.compare_data["releases"] if r["ref"] == "training-xpu-pytorch:25.05")["shared"] is False


# ---------------------------------------------------------------- the compare page's script


@pytest.fixture(scope="module")
def compare12(release_shapes, release_shapes_pages, tmp_path_factory):
    """Run compare.js under node on the issue-12 fixture's compare data (see test_site_honest_rows)."""
    import shutil
    import subprocess

    from test_site_honest_rows import COMPARE_JS, RUNNER, _labels

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    _, site = release_shapes
    folder = tmp_path_factory.mktemp("compare12")
    data, labels = folder / "data.json", folder / "labels.json"
    data.write_text(json.dumps(site.compare_data), encoding="utf-8")
    labels.write_text(json.dumps(_labels(release_shapes_pages["en"]["compare"])), encoding="utf-8")

    def run(search: str) -> dict:
        done = subprocess.run([node, str(RUNNER), str(COMPARE_JS), str(data), str(labels), search],
                              capture_output=True, text=True, timeout=60, check=True)
        return json.loads(done.stdout)

    return run


def test_compare_js_addresses_a_variant_and_a_runtime(compare12):
    result = compare12("?old=inference-nv-pytorch:25.04%23sglang&new=inference-nv-pytorch:25.04%23vllm")
    assert result["error"] is None and result["message"] is None
    assert ["SGLang", "removed", "0.4.6.post1", "—"] not in result["rows"]  # partial lists: never removed
    assert ["XGrammar", "upgraded", "0.1.17", "0.1.18"] in result["rows"]
    plain = compare12("?old=training-xpu-pytorch:25.05&new=inference-nv-pytorch:25.04")  # a release names its first image
    assert plain["urls"] == ["/compare/?old=training-xpu-pytorch%3A25.05&new=inference-nv-pytorch%3A25.04%23vllm"]
    runtime = compare12("?old=training-xpu-pytorch:2026-10-20~cosmos-framework/20261015"
                        "&new=training-xpu-pytorch:2026-10-20~cosmos-framework/20261015")
    assert runtime["error"] is None and runtime["message"] != "The address names a release this site does not have; pick one from the lists."


def test_compare_js_does_not_remove_what_may_be_in_a_runtime(compare12):
    result = compare12("?old=training-xpu-pytorch:25.05&new=training-xpu-pytorch:2026-10-20")
    assert result["error"] is None
    assert not [r for r in result["rows"] if r[1] == "removed"]
    note = next(n for n in result["notes"] if n.startswith("Not compared: 2026-10-20 lists components per framework runtime"))
    assert "DeepSpeed" in note and "vLLM" in note


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_component_timeline_names_the_variant_of_each_version(release_shapes_pages, lang):
    page = release_shapes_pages[lang]["component:transformers"]
    titles = {"en": (" (vLLM image)", " (SGLang image)"), "zh": ("（vLLM 镜像）", "（SGLang 镜像）")}[lang]
    assert (f"<td><code>4.51.3</code><small>{titles[0]}</small><br><code>4.51.1</code><small>{titles[1]}</small></td>"
            in page)
    matrix = release_shapes_pages[lang]["matrix"]
    row = matrix.split('<a href="../releases/inference-nv-pytorch/25.04/">25.04</a>')[1].split("</tr>")[0]
    assert "<td>0.8.5</td>" in row and "<td>2.6.0+cu124</td>" in row and "<small>&#42;</small>" not in row
