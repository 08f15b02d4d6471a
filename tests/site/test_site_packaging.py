"""A non-editable install carries the site's templates and theme, the checker bundle and the JSON Schemas.

Runs setuptools' ``build_py`` with the project's ``pyproject.toml`` into a
temporary folder: the same file selection a wheel gets (``bdist_wheel`` runs
``build_py``), without needing the ``wheel`` package or a network.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lingjun.generator.site.api import schema_dir, schema_files, write_api
from lingjun.schema.models import DOCUMENT_MODELS

from site_kit import REPO


@pytest.fixture(scope="module")
def installed_tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pkg")
    egg_base = root / "egg"
    egg_base.mkdir()
    result = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q",
         "egg_info", "-e", str(egg_base), "build_py", "-d", str(root / "lib")],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return root / "lib" / "lingjun"


def test_site_templates_and_theme_are_packaged(installed_tree):
    site = REPO / "generator" / "site"
    wanted = [p.relative_to(site) for folder in ("templates", "theme") for p in (site / folder).rglob("*") if p.is_file()]
    assert any(p.name == "main.html" for p in wanted) and any(p.suffix == ".j2" for p in wanted)
    missing = [str(p) for p in wanted if not (installed_tree / "generator" / "site" / p).is_file()]
    assert missing == []


def test_checker_bundle_and_json_schemas_are_packaged(installed_tree):
    assert (installed_tree / "checks" / "data" / "bundle.json").is_file()
    for kind in DOCUMENT_MODELS:
        assert (installed_tree / "schema" / f"{kind}.schema.json").is_file(), kind
    for name in ("report.schema.json", "snapshot.schema.json"):
        assert (installed_tree / "checks" / name).is_file(), name


def test_site_reads_the_schemas_from_the_package(installed_tree, fixture_kb, tmp_path):
    assert schema_dir() == (REPO / "schema")  # the editable install maps lingjun.schema there
    packaged = schema_files(installed_tree / "schema")
    assert set(packaged) == {f"{kind}.schema.json" for kind in DOCUMENT_MODELS}
    assert packaged == schema_files()
    written = write_api(fixture_kb, tmp_path / "out")
    assert (tmp_path / "out" / "api" / "v1" / "schema" / "release.schema.json") in written


def test_missing_schema_is_a_clear_error(tmp_path):
    (tmp_path / "release.schema.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match=r"missing: components\.schema\.json, container-cli-error-catalog\.schema\.json, cuda-drivers"):
        schema_files(tmp_path)
