"""Shared by the tests of ``deploy/``: the manifests, the Kubernetes versions they are validated against."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
#: the Kubernetes versions every manifest is validated against (README.md and docs/*/checker/fleet.md name them)
VERSIONS = tuple(f"1.{minor}" for minor in range(28, 38))
#: kinds without a schema in kubernetes-validate whose pod templates are validated instead
CRD_POD_TEMPLATES = {"PyTorchJob": lambda doc: [(f"pytorchReplicaSpecs.{role}.template", spec["template"])
                                                 for role, spec in doc["spec"]["pytorchReplicaSpecs"].items()]}


def manifest_files() -> list[Path]:
    """Every YAML file under ``deploy/`` (all folders), sorted."""
    return sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def manifests() -> Iterator[tuple[str, dict[str, Any]]]:
    """``(file:document-index, document)`` for every Kubernetes object (a mapping with apiVersion and kind) under ``deploy/``."""
    for path in manifest_files():
        for index, doc in enumerate(yaml.safe_load_all(path.read_text(encoding="utf-8"))):
            if isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc:
                yield f"{path.relative_to(REPO)}:{index}", doc


def load(name: str) -> dict[str, Any]:
    """The single document of ``deploy/kubernetes/<name>``."""
    (doc,) = list(yaml.safe_load_all((KUBERNETES / name).read_text(encoding="utf-8")))
    return doc


def pod_spec(doc: dict[str, Any]) -> dict[str, Any]:
    """The pod spec of a Job or DaemonSet."""
    return doc["spec"]["template"]["spec"]
