"""Drafting details: unknown components, a list inside a contents-table cell, the VPC pattern, a broken record."""

from __future__ import annotations

import yaml

from importer_kit import RELEASES, seed
from lingjun.generator.cli import main
from lingjun.generator.importer import import_page

_PAGE = """# training-nv-pytorch 26.02

## Main Features

- Upgraded vLLM to 0.12.0.

## Bug Fix

(None at this time)

## Contents

| 应用场景 | 训练/推理 |
|---|---|
| 框架 | pytorch |
| Requirements | NVIDIA Driver release >= 580 |
| 核心组件 | Ubuntu 24.04<br>Python 3.12.7+gc<br>vllm 0.12.0<br>frobnicator-kit 9.1 |

## Assets

26.02 公网镜像

- egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:26.02-serverless

VPC镜像

- acs-registry-vpc.{region-id}.cr.aliyuncs.com/lingjun/{image:tag}
"""


def test_a_list_in_a_contents_cell_and_an_unknown_component(tmp_path, capsys, releases_copy):
    page = tmp_path / "page.md"
    page.write_text(_PAGE, encoding="utf-8")
    result = import_page(page, releases_copy)
    draft = result.draft
    assert [(c["id"], c["version"]) for c in draft["components"]] == [
        ("ubuntu", "24.04"), ("python", "3.12.7+gc"), ("vllm", "0.12.0"),
        ("todo.lingjun-kb-new.frobnicator-kit", "9.1")]
    assert any("'frobnicator-kit' is not in releases/components.yaml" in p for p in result.problems)
    assert draft["driver"]["minimum"] == "580" and draft["stated_none"] == ["bug_fixes"]
    assert draft["status"] == "current" and draft["version"] == "26.02"
    # the page's VPC pattern is not the family's: said, not silently dropped
    assert any("VPC address pattern acs-registry-vpc.{region-id}.cr.aliyuncs.com/lingjun/{image:tag} differs" in n
               for n in result.notes)
    # written, the unknown id fails validation (as every placeholder does)
    assert main(["import", str(page), "--releases", str(releases_copy)]) == 0
    target = releases_copy / "training-nv-pytorch" / "26.02.yaml"
    capsys.readouterr()
    assert main(["validate", "-q", str(target)]) == 1
    out = capsys.readouterr().out
    assert "todo.lingjun-kb-new.frobnicator-kit" in out and "data.component-catalog" in out


def test_a_broken_record_is_not_compared_and_not_touched(capsys, releases_copy):
    record = releases_copy / "training-xpu-pytorch" / "25.05.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("kind: release", "kind: nonsense"), encoding="utf-8")
    before = record.read_bytes()
    result = import_page(seed("training-xpu-pytorch-25.05.en.txt"), releases_copy)
    assert record.read_bytes() == before
    assert result.existing == record
    assert "does not load" in result.content and yaml.safe_load(result.content) is None
    assert any("does not load" in p for p in result.problems)
    assert main(["import", str(seed("training-xpu-pytorch-25.05.en.txt")), "--releases", str(releases_copy)]) == 1
    assert "exists but does not load" in capsys.readouterr().err
    assert record.read_bytes() == before


_COLUMNS = """# inference-nv-pytorch 26.05

## Contents

| | vllm镜像 | sglang镜像 |
|---|---|---|
| Tag | 26.05-vllm0.9.0-serverless | 26.05-sglang0.5.0-serverless |
| 应用场景 | 大模型推理 | 大模型推理 |
| Requirements | NVIDIA Driver release >= 570 | NVIDIA Driver release >= 570 |
| Ubuntu | 22.04 | 22.04 |
| Python | 3.10 | 3.12 |
| vllm | 0.9.0 | - |
| sglang | | 0.5.0 |

## Assets

- egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:26.05-vllm0.9.0-serverless
- egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:26.05-sglang0.5.0-serverless
"""


def test_image_columns_of_one_table_become_variants(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(_COLUMNS, encoding="utf-8")
    draft = import_page(page, RELEASES).draft
    assert [v["id"] for v in draft["variants"]] == ["vllm", "sglang"]
    vllm, sglang = draft["variants"]
    assert [(c["id"], c["version"]) for c in vllm["components"]] == [("ubuntu", "22.04"), ("python", "3.10"),
                                                                    ("vllm", "0.9.0")]
    assert [(c["id"], c["version"]) for c in sglang["components"]] == [("ubuntu", "22.04"), ("python", "3.12"),
                                                                      ("sglang", "0.5.0")]
    # the images' Pythons differ: each variant states its own, the release none
    assert (vllm["python"], sglang["python"]) == ("3.10", "3.12") and "python" not in draft
    assert sglang["image_tags"][0]["tag"] == "26.05-sglang0.5.0-serverless"
    assert vllm["use_case"]["zh"] == "大模型推理"
    assert draft["driver"]["minimum"] == "570"


_HTML = """<!DOCTYPE html>
<html><head><title>training-nv-pytorch 26.03 - 阿里云</title>
<link rel="canonical" href="https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-26-03">
<style>li { color: red }</style></head>
<body><nav><a href="/">首页</a></nav>
<h1>training-nv-pytorch 26.03</h1>
<p>本文介绍training-nv-pytorch 26.03版本发布记录。</p>
<h2>Main Features and Bug Fix Lists</h2><h3>Main Features</h3>
<ul><li><p>vLLM升级至0.13.0。</p></li></ul>
<h3>Bugs Fix</h3><p>（暂无）</p>
<h2>Contents</h2>
<table><tbody>
<tr><td><p>应用场景</p></td><td><p>训练/推理</p></td></tr>
<tr><td><p>Requirements</p></td><td><p>NVIDIA Driver release &gt;= 580</p></td></tr>
<tr><td><p>核心组件</p></td><td><ul><li><p>Ubuntu : 24.04</p></li><li><p>Python : 3.12.7+gc</p></li>
<li><p>vllm : 0.13.0</p></li></ul></td></tr>
</tbody></table>
<h2>Assets</h2>
<p>26.03 公网镜像</p>
<ul><li><p>egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:26.03-serverless</p></li></ul>
<h2>Quick Start</h2>
<ol><li><p>选择镜像</p><pre><code>docker pull egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:[tag]</code></pre></li></ol>
<h2>Known Issues</h2><p>（暂无）</p>
</body></html>
"""


def test_saved_html_with_a_list_inside_a_table_cell(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(_HTML, encoding="utf-8")
    result = import_page(page, RELEASES)
    draft = result.draft
    assert (result.family, result.release, result.language) == ("training-nv-pytorch", "26.03", "zh")
    assert [(c["id"], c["version"]) for c in draft["components"]] == [
        ("ubuntu", "24.04"), ("python", "3.12.7+gc"), ("vllm", "0.13.0")]
    assert draft["driver"]["stated_as"] == "NVIDIA Driver release >= 580"
    assert draft["stated_none"] == ["bug_fixes", "known_issues"]
    assert draft["highlights"][0]["text"]["zh"] == "TODO(lingjun-kb new)：请用自己的话改写，页面原文为：vLLM升级至0.13.0。"
    assert draft["quick_start"][0]["commands"] == [
        "docker pull egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:[tag]"]
    assert draft["sources"][0]["url"] == "https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-26-03"
    assert draft["sources"][0]["title"] == "training-nv-pytorch 26.03"


def test_a_page_file_name_cannot_break_out_of_the_draft_header_comment():
    from lingjun.generator.importer._writer import render_draft
    text = render_draft({"kind": "release"}, "page\nkind: evil\u2028.md")
    assert text.splitlines()[1].startswith("# Drafted by `lingjun-kb import` from page?kind: evil?.md.")
    assert [line for line in text.splitlines() if line.startswith("kind:")] == ["kind: release"]
