"""The ``/finder/`` page: its template variables (the precomputed verdicts, the GPU list, the no-script table) and texts.

The verdicts come from :func:`lingjun.generator.site.finder.finder_data`
(the checker's decision at build time); the page's script
(``assets/lingjun/finder.js``) only looks them up.  Links in the data are
relative to the finder page (``finder/`` in both languages' sites), so the
script can use them as they are.
"""

from __future__ import annotations

from typing import Any, Mapping

from lingjun.generator.site.checker_rules import rule_anchor
from lingjun.generator.site.finder import GPU_CLASSES, finder_data
from lingjun.generator.site.nav import PageSpec, url_depth
from lingjun.generator.site.recommend import WORDS

__all__ = ["FINDER_TEXT", "finder_context", "static_table"]

#: the rule whose page section explains the driver verdicts
DRIVER_RULE = "driver.minimum"

#: the page's own texts, ``key -> {"en", "zh"}``
FINDER_TEXT: dict[str, dict[str, str]] = {
    "intro": {
        "en": "Type the driver version of your nodes and pick their GPU: every release of every family gets a verdict, "
              "worked out at build time by the same logic the checker (lingjun-check) runs. "
              "The address keeps your choice, so a result can be shared.",
        "zh": "输入节点的驱动版本并选择 GPU 型号：每个系列的每个版本都会给出结论，结论在构建时由检查工具（lingjun-check）的同一套逻辑算出。"
              "页面地址会保存所选内容，可直接分享结果。",
    },
    "driver": {"en": "Driver version or branch", "zh": "驱动版本或分支"},
    "gpu": {"en": "GPU model", "zh": "GPU 型号"},
    "product": {"en": "Product", "zh": "产品"},
    "arch": {"en": "CPU architecture", "zh": "CPU 架构"},
    "any": {"en": "Any", "zh": "不限"},
    "need": {"en": "Type a driver version (535.183.01, or a branch such as R535) and pick a GPU model.",
             "zh": "请输入驱动版本（如 535.183.01，或 R535 这样的分支）并选择 GPU 型号。"},
    "bad_driver": {"en": "Not a driver version: write it as 535.183.01, or a branch as R535.",
                   "zh": "不是有效的驱动版本：请写成 535.183.01，或写分支 R535。"},
    "bad_gpu": {"en": "Not a GPU model of the list; pick one from the suggestions.",
                "zh": "不在列表中的 GPU 型号，请从候选项中选择。"},
    "summary": {"en": "Driver {driver}, GPU {gpu} (compute capability {cc}, {kind}).",
                "zh": "驱动 {driver}，GPU {gpu}（计算能力 {cc}，{kind}）。"},
    "kind.dc": {"en": "data center GPU", "zh": "数据中心 GPU"},
    "kind.other": {"en": "not a data center GPU", "zh": "非数据中心 GPU"},
    "col.release": {"en": "Release", "zh": "版本"},
    "col.verdict": {"en": "Verdict", "zh": "结论"},
    "col.reason": {"en": "Reason", "zh": "原因"},
    "rule_link": {"en": "driver rule", "zh": "驱动规则"},
    "product_not_stated": {"en": "The release's tags do not state products.", "zh": "该版本的镜像标签未注明适用产品。"},
    "arch_not_stated": {"en": "The release does not state CPU architectures.", "zh": "该版本未注明 CPU 架构。"},
    "hidden": {"en": "{n} releases left out by the product or CPU architecture chosen.",
               "zh": "按所选产品或 CPU 架构，隐去了 {n} 个版本。"},
    "show_all": {"en": "Show all releases", "zh": "显示全部版本"},
    "all_families": {"en": "Also PPU images and base images (NGC PyTorch)", "zh": "同时显示 PPU 镜像与基础镜像（NGC PyTorch）"},
    "answer": {"en": "Answer", "zh": "结论"},
    "table_title": {"en": "Every release", "zh": "全部版本"},
    "verdict.native": {"en": "native", "zh": "原生支持"},
    "verdict.forward-compat": {"en": "forward-compat", "zh": "向前兼容"},
    "verdict.minor-compat": {"en": "minor-compat", "zh": "次版本兼容"},
    "verdict.unsupported": {"en": "unsupported", "zh": "不支持"},
    "verdict.not-stated": {"en": "not stated", "zh": "未说明"},
    "static.title": {"en": "Per-branch table", "zh": "按驱动分支查看"},
    "static.intro": {
        "en": "Verdicts for an up-to-date driver of each branch (a driver below a minimum the data names inside a branch "
              "can differ: the finder above and lingjun-kb which take the exact version). Branches on which no release "
              "runs are left out.",
        "zh": "下表为各分支较新驱动的结论（分支内低于数据所列某个最低版本的驱动，结论可能不同：上方查询与 lingjun-kb which "
              "会按确切版本判断）。没有任何版本可运行的分支不列出。",
    },
    "static.dc": {"en": "Data center GPUs (H20, H100, A100, L20, T4 ...)", "zh": "数据中心 GPU（H20、H100、A100、L20、T4 等）"},
    "static.other": {"en": "Other GPUs (GeForce, RTX workstation ...)", "zh": "其他 GPU（GeForce、RTX 工作站等）"},
    "static.ppu": {"en": "PPU images: NVIDIA driver branches do not apply, so they are not rows of this table; "
                         "each needs the PPU driver its page states:",
                   "zh": "PPU 镜像：NVIDIA 驱动分支不适用，因此不列入本表；各镜像需要其页面所述的 PPU 驱动："},
    "static.left_out": {"en": "Left out (no release runs on them):", "zh": "未列出（没有版本可运行）："},
    "noscript": {"en": "The finder above needs JavaScript, which is off in this browser. Verdicts for each driver branch "
                       "are in the table below, which works without it:",
                 "zh": "上方的查询需要 JavaScript，当前浏览器未启用。各驱动分支的结论见下方表格（无需 JavaScript）："},
}

_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}


def _data(site: Any) -> dict[str, Any]:
    """:func:`finder_data` of the site's knowledge base, computed once per model (both languages share it)."""
    cached = _CACHE.get(id(site))
    if cached is None or cached[0] is not site:
        _CACHE.clear()
        cached = _CACHE[id(site)] = (site, finder_data(site.kb))
    return cached[1]


def static_table(data: Mapping[str, Any], cls: str) -> dict[str, Any]:
    """The no-script table of one GPU class: ``{"branches": [...], "left_out": [...], "rows": [(release, [verdict, ...])]}``.

    A cell is the verdict of an up-to-date driver of the branch (the branch's last interval).
    A branch is kept when some release gets ``native``, ``forward-compat`` or ``minor-compat`` on it.
    PPU images are not rows (NVIDIA driver branches do not apply to them): ``"ppu"`` lists them for a note.
    """
    runs = ("native", "forward-compat", "minor-compat")
    rows = [(r, [r["cells"][cls][str(b)][-1][1] for b in data["branches"]]) for r in data["releases"] if not r.get("ppu")]
    keep = [i for i, _ in enumerate(data["branches"]) if any(cells[i] in runs for _, cells in rows)]
    return {"branches": [data["branches"][i] for i in keep],
            "left_out": [b for i, b in enumerate(data["branches"]) if i not in keep],
            "rows": [(r, [cells[i] for i in keep]) for r, cells in rows],
            "ppu": [r for r in data["releases"] if r.get("ppu")]}


def finder_context(site: Any, page: PageSpec) -> dict[str, Any]:
    """Template variables of the finder page: ``finder`` (the data, with ``href`` of each release and the driver
    rule relative to this page), ``finder_for(lang)`` (what the page's script reads in that language: the data with
    its reasons in that language only, and the texts), ``ft`` (:data:`FINDER_TEXT`), ``tables`` (per GPU class,
    :func:`static_table`) and ``products``/``arches`` (the filter choices the records carry; empty when none does)."""
    data = dict(_data(site))
    up = "../" * url_depth(page.path)
    releases = [dict(r, href=f"{up}releases/{r['family']}/{r['version']}/") for r in data["releases"]]
    data["releases"] = releases
    data["rule_href"] = f"{up}checker/rules/#{rule_anchor(DRIVER_RULE)}"
    products = sorted({p for r in releases for p in r["products"] + r["not_for"]})
    arches = sorted({a for r in releases for a in r["architectures"]})

    def for_language(lang: str) -> dict[str, Any]:
        """The script's data in one language: ``reasons`` as plain strings, the texts as ``key -> text``."""
        column = 0 if lang == "en" else 1
        colon, sep = (": ", ", ") if lang == "en" else ("：", "、")
        # a variant is named by its title in the page's language (its id only when it has none)
        releases_lang = [dict(r, images=[dict(image, line=((image.get("title") or {}).get(lang) or f"#{image['variant']}")
                                              + colon + sep.join(image["tags"]))
                                         for image in r.get("images") or []])
                         for r in data["releases"]]
        words = {f"rec.{key}": pair[column] for key, pair in WORDS.items()}  # the answer's sentences, as which prints them
        return {"data": dict(data, releases=releases_lang, reasons=[pair[column] for pair in data["reasons"]], unknown_branch=data["unknown_branch"][column]),
                "text": {**{key: text[lang] for key, text in FINDER_TEXT.items()}, **words}}

    return {"finder": data, "finder_for": for_language, "ft": FINDER_TEXT,
            "tables": {cls: static_table(data, cls) for cls in GPU_CLASSES}, "products": products, "arches": arches}
