"""Gate rules over releases with variants and runtimes: each variant's and runtime's lists are checked, and a
problem names the field path inside the variant or runtime, at its own line and column."""

from __future__ import annotations

from pathlib import Path


from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.report import summary_rows
from lingjun.schema.gate.runner import run_gate
from lingjun.schema.loader import load_paths
from lingjun.schema.problems import Severity


def _gate(root: Path):
    result = load_paths([root])
    assert result.problems == [], [p.format() for p in result.problems]
    corpus = Corpus.from_documents(result.documents)
    return run_gate(corpus), corpus


def _found(root: Path, rule: str) -> list[tuple[str, int, int, str, str, Severity]]:
    problems, _ = _gate(root)
    return [(str(Path(p.path).relative_to(root)), p.line, p.col, p.field, p.message, p.severity)
            for p in problems if p.rule == rule]


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_variants_fixture_passes_every_rule(tree):
    problems, corpus = _gate(tree("variants"))
    assert [p.format() for p in problems] == []
    # two images, compared variant with variant: no downgrade although sglang lists an older vllm than vllm did
    assert [img.label for img in corpus.images() if img.record.version == "25.04"] == [
        "demo-nv:25.04#vllm", "demo-nv:25.04#sglang"]


def test_component_not_in_the_catalog_is_named_inside_its_variant(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", '{id: vllm, name: vLLM, version: "0.8.2"}', '{id: sglang, name: SGLang, version: "0.4.6"}')
    assert _found(root, "data.component-catalog") == [
        ("demo-nv/25.04.yaml", 24, 14, "variants.1.components.1.id",
         "component 'sglang' is not in the catalog; add it to releases/components.yaml", Severity.error)]


def test_component_not_in_the_catalog_is_named_inside_its_runtime(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", '{id: torch, name: torch, version: "2.6.0"}', '{id: llamafactory, name: LlamaFactory, version: "0.9.2"}')
    assert _found(root, "data.component-catalog") == [
        ("demo-nv/25.04.yaml", 32, 18, "variants.1.runtimes.0.components.0.id",
         "component 'llamafactory' is not in the catalog; add it to releases/components.yaml", Severity.error)]


def test_duplicate_component_counts_per_variant_and_per_runtime(tree):
    root = tree("variants")
    # the same id in two variants, or in an image and its runtime, is no duplicate
    assert _found(root, "data.duplicate-component") == []
    _edit(root, "demo-nv/25.04.yaml", '          - {id: torch, name: torch, version: "2.6.0"}\n',
          '          - {id: torch, name: torch, version: "2.6.0"}\n          - {id: torch, name: Torch, version: "2.6.1"}\n')
    assert _found(root, "data.duplicate-component") == [
        ("demo-nv/25.04.yaml", 33, 18, "variants.1.runtimes.0.components.1.id",
         "'torch' is already listed as variants.1.runtimes.0.components.0 for all architectures; keep one entry (a page "
         "that prints it twice is noted in source_conflicts)", Severity.error)]


def test_a_variant_list_must_state_its_state(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "    component_list: complete\n    components:\n      - {id: torch, name: torch, version: \"2.7.1\"}\n      - {id: vllm, name: vLLM, version: \"0.8.2\"}",
          "    components:\n      - {id: torch, name: torch, version: \"2.7.1\"}\n      - {id: vllm, name: vLLM, version: \"0.8.2\"}")
    found = _found(root, "data.component-list-state")
    assert [(f[0], f[3], f[4]) for f in found] == [
        ("demo-nv/25.04.yaml", "variants.1.component_list",
         "variant sglang lists 2 component(s) but does not state component_list; write `complete` when the page's "
         "whole list was read, else `partial`")]
    # the variant has no component_list line: the problem is placed at the variant itself
    assert found[0][1] == 17


def test_a_runtime_list_that_is_complete_but_empty_is_reported(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "        component_list: partial\n        components:\n          - {id: torch, name: torch, version: \"2.6.0\"}\n",
          "        component_list: complete\n")
    assert _found(root, "data.component-list-state") == [
        ("demo-nv/25.04.yaml", 30, 25, "variants.1.runtimes.0.component_list",
         "component_list is `complete` but runtime llamafactory/20250401 lists no component; write `not-published` "
         "when the page shows no component list, or add its entries", Severity.error)]


def test_tags_are_unique_across_the_variants_of_every_release(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", '{tag: 25.04-sglang, reference: "registry.example.com/demo/demo-nv:25.04-sglang"}',
          '{tag: 25.04-vllm, reference: "registry.example.com/demo/demo-nv:25.04-vllm"}')
    found = _found(root, "data.unique-image-tag")
    assert [(f[1], f[2], f[3], f[4]) for f in found] == [
        (20, 15, "variants.1.image_tags.0.tag", "tag '25.04-vllm' is already used by demo-nv:25.04#vllm variants.0.image_tags.0"),
        (20, 38, "variants.1.image_tags.0.reference", "reference 'registry.example.com/demo/demo-nv:25.04-vllm' is "
                                                      "already used by demo-nv:25.04#vllm variants.0.image_tags.0")]


def test_a_variant_tag_of_a_year_month_release_starts_with_it(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", '{tag: 25.04-sglang, reference: "registry.example.com/demo/demo-nv:25.04-sglang"}',
          '{tag: 25.03-sglang-x, reference: "registry.example.com/demo/demo-nv:25.03-sglang-x"}')
    found = _found(root, "data.image-tag-pattern")
    assert [(f[1], f[2], f[3], f[4]) for f in found] == [
        (20, 15, "variants.1.image_tags.0.tag",
         "tag '25.03-sglang-x' does not start with the release version '25.04' (it should be '25.04-sglang-x')"),
        (20, 42, "variants.1.image_tags.0.reference",
         "reference should be 'registry.example.com/demo/demo-nv:25.04-sglang-x' (family pattern "
         "'registry.example.com/demo/{image}:{tag}' with the corrected tag '25.04-sglang-x'), not "
         "'registry.example.com/demo/demo-nv:25.03-sglang-x'")]


def test_a_downgrade_is_judged_against_the_same_variant(tree):
    root = tree("variants")
    # sglang 25.04 lists vllm 0.8.2 like sglang 25.03: fine, although vllm 25.03 listed 0.8.5
    assert _found(root, "data.component-downgrade") == []
    _edit(root, "demo-nv/25.04.yaml", '{id: vllm, name: vLLM, version: "0.8.5"}', '{id: vllm, name: vLLM, version: "0.8.4"}')
    assert _found(root, "data.component-downgrade") == [
        ("demo-nv/25.04.yaml", 16, 41, "variants.0.components.1.version",
         "vllm goes down from 0.8.5 (demo-nv:25.03#vllm) to 0.8.4; if this is what the page publishes, add it to "
         "acknowledged_downgrades with the reason", Severity.warning)]


def test_a_downgrade_is_judged_architecture_by_architecture(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.03.yaml", '      - {id: vllm, name: vLLM, version: "0.8.2"}',
          '      - {id: vllm, name: vLLM, version: "0.8.2", architectures: [amd64]}\n'
          '      - {id: vllm, name: vLLM, version: "0.8.0", architectures: [aarch64]}')
    _edit(root, "demo-nv/25.04.yaml", '      - {id: vllm, name: vLLM, version: "0.8.2"}',
          '      - {id: vllm, name: vLLM, version: "0.8.1"}')
    # 0.8.1 everywhere: down from 0.8.2 on amd64, up from 0.8.0 on aarch64
    assert _found(root, "data.component-downgrade") == [
        ("demo-nv/25.04.yaml", 24, 41, "variants.1.components.1.version",
         "vllm goes down from 0.8.2 (demo-nv:25.03#sglang on amd64) to 0.8.1; if this is what the page publishes, add "
         "it to acknowledged_downgrades with the reason", Severity.warning)]


def test_a_variant_the_previous_release_lacks_is_compared_with_nothing(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "  - id: sglang\n", "  - id: sglang-new\n")
    _edit(root, "demo-nv/25.04.yaml", '{id: vllm, name: vLLM, version: "0.8.2"}', '{id: vllm, name: vLLM, version: "0.1.0", introduced: true}')
    assert _found(root, "data.component-downgrade") == []
    assert _found(root, "data.introduced") == []


def test_introduced_looks_at_the_same_variant_of_earlier_releases(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", '{id: vllm, name: vLLM, version: "0.8.2"}', '{id: vllm, name: vLLM, version: "0.8.2", introduced: true}')
    assert _found(root, "data.introduced") == [
        ("demo-nv/25.04.yaml", 24, 62, "variants.1.components.1.introduced",
         "vllm is marked new in demo-nv:25.04#sglang, but demo-nv:25.03#sglang lists it (0.8.2); remove `introduced`, "
         "or add a source_conflicts entry whose field is `variants.sglang.components.vllm` if the page says so anyway",
         Severity.warning)]


def test_presence_unknown_of_a_variant_is_explained_by_a_conflict_on_the_variant(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "    runtimes:\n", "    presence_unknown: [cuda]\n    runtimes:\n")
    assert _found(root, "data.presence-unknown") == [
        ("demo-nv/25.04.yaml", 25, 24, "variants.1.presence_unknown.0",
         "cuda is in presence_unknown but no source_conflicts entry on `variants.sglang.components.cuda` (without "
         "`kept`) says why; add one", Severity.error)]
    _edit(root, "demo-nv/25.04.yaml", "sources:\n", (
        "source_conflicts:\n"
        "  - id: cuda-not-listed\n"
        "    field: variants.sglang.components.cuda\n"
        "    description: {en: \"The list leaves CUDA out.\", zh: \"列表未列出 CUDA。\"}\n"
        "    values: [{value: \"12.8.0\", stated_in: other-release}, {value: \"(not listed)\", stated_in: component-list}]\n"
        "    reason: {en: \"Whether the image ships CUDA is unknown.\", zh: \"镜像是否包含 CUDA 不得而知。\"}\n"
        "sources:\n"))
    assert _found(root, "data.presence-unknown") == []


def test_version_agreement_inside_a_variant_and_a_runtime(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.03.yaml", '{id: python, name: Python, version: "3.12.7"}', '{id: python, name: Python, version: "3.11.9"}')
    _edit(root, "demo-nv/25.04.yaml", '          - {id: torch, name: torch, version: "2.6.0"}\n',
          '          - {id: torch, name: torch, version: "2.6.0"}\n          - {id: python, name: Python, version: "3.10.4"}\n')
    found = _found(root, "data.version-agreement")
    assert [(f[0], f[1], f[2], f[3], f[4]) for f in found] == [
        # the variant takes the release's python: reported at the variant's own entry
        ("demo-nv/25.03.yaml", 18, 45, "variants.0.components.2.version",
         "python 3.12 disagrees with the python component's version 3.11.9 (variants.0.components.2); correct one of "
         "them, or, if the page states both, add a source_conflicts entry whose field is `python` or `components.python`"),
        ("demo-nv/25.04.yaml", 29, 17, "variants.1.runtimes.0.python",
         "python 3.12 disagrees with the python component's version 3.10.4 (variants.1.runtimes.0.components.1); "
         "correct one of them, or, if the page states both, add a source_conflicts entry whose field is `python` or "
         "`components.python`")]


def test_runtime_ids_are_unique_within_a_variant(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "sources:\n", "sources:\n", )
    text = (root / "demo-nv/25.04.yaml").read_text(encoding="utf-8")
    runtime = text[text.index("      - id: llamafactory/20250401"):text.index("sources:\n")]
    (root / "demo-nv/25.04.yaml").write_text(text.replace(runtime, runtime * 2), encoding="utf-8")
    found = _found(root, "data.runtimes")
    assert [(f[1], f[2], f[3], f[4]) for f in found] == [
        (33, 13, "variants.1.runtimes.1.id",
         "runtime 'llamafactory/20250401' is already listed as variants.1.runtimes.0 of demo-nv:25.04#sglang; keep one entry"),
        (35, 15, "variants.1.runtimes.1.path",
         "path '/opt/runtimes/llamafactory' is already the path of variants.1.runtimes.0 of demo-nv:25.04#sglang; two "
         "runtimes cannot live in one folder")]


def test_summary_table_shows_each_image_of_a_release(tree):
    _, corpus = _gate(tree("variants"))
    rows = [row for row in summary_rows(corpus.kb) if row[0] == "demo-nv"]
    assert [row[1] for row in rows] == ["25.04", "25.03", "25.02", "25.01"]
    assert rows[0] == ["demo-nv", "25.04", "current", "12.8", "2.7.1", "R570", "2+2"]


def test_driver_minimum_is_checked_against_a_variants_own_cuda(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "    title: {en: \"SGLang image\", zh: \"SGLang 镜像\"}\n",
          "    title: {en: \"SGLang image\", zh: \"SGLang 镜像\"}\n    cuda: \"12.9\"\n")
    found = _found(root, "data.driver-minimum")
    assert [(f[0], f[1], f[2], f[3], f[4], f[5]) for f in found] == [
        ("demo-nv/25.04.yaml", 7, 35, "driver.minimum",
         "driver minimum 570 is below 575.51.03, the minimum driver of CUDA 12.9 (demo-nv:25.04#sglang)",
         Severity.error)]
    _edit(root, "demo-nv/25.04.yaml", '    cuda: "12.9"\n', '    cuda: "13.9"\n')
    found = _found(root, "data.driver-minimum")
    assert [(f[1], f[2], f[3], f[4]) for f in found] == [
        (19, 11, "variants.1.cuda",
         "no row for CUDA 13.9 in releases/reference/cuda-drivers.yaml; the driver minimum cannot be checked")]


def test_a_runtime_is_compared_with_the_same_framework_of_the_previous_release(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.03.yaml", "sources:\n", (
        "    runtimes:\n"
        "      - id: llamafactory/20250301\n"
        "        name: LlamaFactory\n"
        "        component_list: partial\n"
        "        components:\n"
        "          - {id: torch, name: torch, version: \"2.6.1\"}\n"
        "sources:\n"))
    assert _found(root, "data.component-downgrade") == [
        ("demo-nv/25.04.yaml", 32, 47, "variants.1.runtimes.0.components.0.version",
         "torch goes down from 2.6.1 (demo-nv:25.03#sglang runtime llamafactory/20250301) to 2.6.0; if this is what "
         "the page publishes, add it to acknowledged_downgrades with the reason", Severity.warning)]


def test_a_presence_unknown_id_of_a_variant_is_in_the_catalog(tree):
    root = tree("variants")
    _edit(root, "demo-nv/25.04.yaml", "    runtimes:\n", "    presence_unknown: [flash-attn]\n    runtimes:\n")
    assert _found(root, "data.component-refs") == [
        ("demo-nv/25.04.yaml", 25, 24, "variants.1.presence_unknown.0",
         "component 'flash-attn' is not in releases/components.yaml", Severity.error)]
