"""The repository layout and the packaging metadata agree, and the in-container
checker stays within the standard library + ``packaging`` on Python 3.9."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAPPING = {"schema": "lingjun.schema", "generator": "lingjun.generator", "checks": "lingjun.checks"}


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_package_dir_maps_top_level_folders_under_lingjun():
    package_dir = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert package_dir == {name: folder for folder, name in MAPPING.items()}


def test_every_python_package_folder_is_listed():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = set()
    for folder, name in MAPPING.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    assert found - listed == set(), "add these packages to [tool.setuptools] packages"
    assert listed - found == set(), "these listed packages have no folder"


def test_no_top_level_module_named_like_our_folders_is_installed():
    packages = _pyproject()["tool"]["setuptools"]["packages"]
    assert all(p.startswith("lingjun.") for p in packages)


def _runtime_checker_files() -> list[Path]:
    """Every module under checks/: the folder holds exactly what ships in lingjun-check.pyz."""
    return sorted((ROOT / "checks").rglob("*.py"))


def _imported_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


STDLIB = set(sys.stdlib_module_names)


@pytest.mark.parametrize("path", _runtime_checker_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_checker_module_is_python39_and_stdlib_only(path: Path):
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path), feature_version=(3, 9))
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            assert (
                top in STDLIB or top == "packaging" or name.startswith("lingjun.checks")
            ), f"{path.name} imports {name}: the checker may use only the standard library and packaging"
            assert not name.startswith("lingjun.schema.gate"), f"{path.name} imports the gate"


@pytest.mark.parametrize("path", sorted((ROOT / "checks" / "core").rglob("*.py")), ids=lambda p: p.name)
def test_core_depends_on_nothing_else_of_the_project(path: Path):
    """checks/core is the bottom of the dependency chain: schema, the site and the checker use it, it uses none of them."""
    for name in _imported_names(path):
        if name.startswith("lingjun."):
            assert name.startswith("lingjun.checks.core"), f"{path.name} imports {name}"


@pytest.mark.parametrize("folder", ["schema"])
def test_schema_uses_only_the_core_of_the_checker(folder: str):
    """Dependencies point one way: generator -> schema (with the gate) -> checks/core."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        for name in _imported_names(path):
            assert not name.startswith("lingjun.generator"), f"{path} imports {name}"
            # the gate receives the checker's rule ids (Corpus.checker_rules); it never imports the checker's rules
            assert not name.startswith("lingjun.checks") or name.startswith("lingjun.checks.core"), f"{path} imports {name}"


def test_gate_lives_with_the_schema_not_in_the_checker():
    assert not (ROOT / "checks" / "gate").exists()
    assert (ROOT / "schema" / "gate" / "rules").is_dir()
