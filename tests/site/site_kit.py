"""Paths and helpers of the site tests: the fixture knowledge base, the hostile copies of it, the site configuration.

A module of its own name (``conftest`` is a name every test folder's conftest shares, so ``from conftest import``
finds whichever folder's was imported first); the fixtures built from these live in ``conftest.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from lingjun.generator.site.build import load_validated
from made_once import made_ahead

FIXTURE_KB = Path(__file__).parent / "fixtures" / "kb"
REPO = Path(__file__).resolve().parents[2]

#: record text that must be shown as text, never interpreted
HOSTILE = "Has <script>alert(1)</script> and [x](javascript:alert(1)) and a | pipe and `tick"
HOSTILE_ZH = "含有 <script>alert(1)</script> 与 [x](javascript:alert(1)) 以及 | 竖线"


def make_hostile_kb(target: Path) -> Path:
    """Copy the fixture KB and put hostile text into a summary, a known issue and a component note."""
    shutil.copytree(FIXTURE_KB, target)
    record = target / "training-nv-pytorch" / "25.07.yaml"
    text = record.read_text(encoding="utf-8")
    text = text.replace(
        'summary: {en: "vLLM 0.9.2, TransformerEngine 2.3.0 and peft 0.16.0.", zh: "vLLM 0.9.2、TransformerEngine 2.3.0 与 peft 0.16.0。"}',
        f'summary: {{en: "{HOSTILE}", zh: "{HOSTILE_ZH}"}}',
    )
    text = text.replace(
        '  - {id: peft, name: peft, version: "0.16.0"}',
        f'  - {{id: peft, name: peft, version: "0.16.0", note: {{en: "{HOSTILE}", zh: "{HOSTILE_ZH}"}}}}',
    )
    record.write_text(text, encoding="utf-8")
    issue = target / "known-issues" / "vllm-moe-illegal-memory-access.yaml"
    text = issue.read_text(encoding="utf-8")
    text = text.replace(
        'description: {en: "MoE models served with vLLM can hit an illegal memory access on H20 GPUs.",',
        f'description: {{en: "{HOSTILE}",',
    )
    issue.write_text(text, encoding="utf-8")
    assert HOSTILE in (target / "training-nv-pytorch" / "25.07.yaml").read_text(encoding="utf-8")
    assert HOSTILE in issue.read_text(encoding="utf-8")
    return target


def copy_site_config(target: Path) -> Path:
    """``target`` made a folder with the site configuration (mkdocs.yml, docs/, theme), as a checkout holds it.

    A build run there (``lingjun-kb build`` in that working folder) renders into its ``.build/``, never into
    the checkout's, which other tests (and other xdist workers) may be building with or listing at that moment.
    """
    target.mkdir(parents=True)
    for name in ("mkdocs.yml", "mkdocs.zh.yml"):
        shutil.copy(REPO / name, target / name)
    shutil.copytree(REPO / "docs", target / "docs")
    shutil.copytree(REPO / "generator" / "site" / "theme", target / "generator" / "site" / "theme")
    return target


#: hostile record text for the site, one entry per kind (tests/fixtures/hostile-site/payloads.yaml)
PAYLOAD_FILE = REPO / "tests" / "fixtures" / "hostile-site" / "payloads.yaml"


def load_payloads() -> dict:
    """``{"payloads": [{kind, text, short?}, ...], "url": ...}`` from :data:`PAYLOAD_FILE`."""
    import yaml

    return yaml.safe_load(PAYLOAD_FILE.read_text(encoding="utf-8"))


def injection_texts() -> tuple[str, str, str, str]:
    """``(prose en, prose zh, short text, url)``: what :func:`make_injection_kb` writes into the records.

    The prose holds every payload as a paragraph; the short text (at most 300
    characters, the schema's limit) the payloads marked ``short``.
    """
    data = load_payloads()
    prose = "\n\n".join(p["text"] for p in data["payloads"])
    short = " ".join(p["text"] for p in data["payloads"] if p.get("short"))
    assert len(short) <= 300, len(short)
    return prose, "中文 " + prose, short, data["url"]


#: short-text fields (str values) that take the short payload, by key
_SHORT_KEYS = {"title", "name", "project", "stated_as", "last_updated", "value", "kept"}


def make_injection_kb(target: Path) -> Path:
    """Copy the fixture KB with hostile text in every text field it has.

    Every bilingual text (``{en, zh}``) becomes all payloads of
    :data:`PAYLOAD_FILE`; short texts (source and upstream titles, the
    catalog's component names, upstream projects, ...) the short payloads;
    every ``url`` of a source or an upstream reference the hostile URL;
    quick-start commands every payload line.  The result passes the data gate.
    """
    import yaml

    prose_en, prose_zh, short, url = injection_texts()

    def walk(node, key=None, parent_key=None):
        if isinstance(node, dict):
            if set(node) == {"en", "zh"}:
                return {"en": prose_en, "zh": prose_zh}
            out = {}
            for k, v in node.items():
                if k == "url" and parent_key in ("sources", "upstream", "references"):
                    out[k] = url
                elif k == "source" and key == "released":
                    out[k] = url  # the page the date comes from is one of the sources, all of which are hostile
                elif isinstance(v, str) and (k in _SHORT_KEYS or (k == "vendor" and "image_name" in node)) and not (
                        k == "name" and "layer" not in node and "image_name" not in node):
                    out[k] = short
                elif k == "commands" and isinstance(v, list):
                    out[k] = [line for line in prose_en.split("\n") if line.strip()]
                else:
                    out[k] = walk(v, k, key)
            return out
        if isinstance(node, list):
            return [walk(item, key, parent_key if key is None else key) for item in node]
        return node

    shutil.copytree(FIXTURE_KB, target)
    for path in sorted(target.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        path.write_text(yaml.safe_dump(walk(data), allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


#: overlay on the fixture KB with the shapes of issue 12 (variants, runtimes, new identifiers, unrecorded releases)
RELEASE_SHAPES_OVERLAY = Path(__file__).parent / "fixtures" / "kb-release-shapes"


def make_release_shapes_kb(target: Path) -> Path:
    """Copy the fixture KB and lay :data:`RELEASE_SHAPES_OVERLAY` over it (files replaced or added).

    training-xpu-pytorch 25.05 becomes ``superseded``: the overlay adds its 2026-10-20 successor.
    """
    shutil.copytree(FIXTURE_KB, target)
    for path in sorted(RELEASE_SHAPES_OVERLAY.rglob("*.yaml")):
        dest = target / path.relative_to(RELEASE_SHAPES_OVERLAY)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    old = target / "training-xpu-pytorch" / "25.05.yaml"
    text = old.read_text(encoding="utf-8")
    assert "\nstatus: current\n" in text
    old.write_text(text.replace("\nstatus: current\n", "\nstatus: superseded\n"), encoding="utf-8")
    return target


@made_ahead("release_shapes", "release_shapes_kb_dir", seconds=0.3)
def release_shapes_folder(folder: Path, tmp_path_factory) -> None:
    """``folder(tmp_path_factory) -> Path``: the folder whose ``kb/`` is :func:`make_release_shapes_kb`'s copy,
    made once per run (read only)."""
    make_release_shapes_kb(folder / "kb")


def load_release_shapes(folder: Path):
    """The issue-12 fixture KB (or any releases folder), validated by the data gate (:func:`load_validated`)."""
    return load_validated(folder)

