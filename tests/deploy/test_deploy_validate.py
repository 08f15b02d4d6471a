"""Every manifest under deploy/ validates offline against the Kubernetes OpenAPI schemas (kubernetes-validate, strict)."""

from __future__ import annotations

import copy
import re

import kubernetes_validate
import pytest

from _manifests import CRD_POD_TEMPLATES, REPO, VERSIONS, load, manifests

DOCS = list(manifests())


def test_the_manifests_are_found():
    names = {name.split(":")[0] for name, _ in DOCS}
    assert {"deploy/kubernetes/lingjun-check-job.yaml", "deploy/kubernetes/lingjun-check-daemonset.yaml",
            "deploy/kubernetes/pytorchjob-preflight.yaml"} <= names


def _as_pod_template(name: str, template: dict) -> dict:
    return {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": re.sub(r"[^a-z0-9-]", "-", name.lower())},
            "template": template}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name, doc", DOCS, ids=[name for name, _ in DOCS])
def test_manifest_validates_strictly(name, doc, version):
    if doc["kind"] in CRD_POD_TEMPLATES:
        # no schema is bundled for a custom resource: its pod templates are what Kubernetes validates
        with pytest.raises(kubernetes_validate.SchemaNotFoundError):
            kubernetes_validate.validate(doc, version, strict=True)
        templates = CRD_POD_TEMPLATES[doc["kind"]](doc)
        assert templates
        for where, template in templates:
            assert kubernetes_validate.validate(_as_pod_template(where, template), version, strict=True) == version
    else:
        assert kubernetes_validate.validate(doc, version, strict=True) == version


@pytest.mark.parametrize("version", [VERSIONS[0], VERSIONS[-1]])
def test_the_validator_rejects_a_misspelt_field(version):
    """The strict schemas catch what a reader would miss: a typo in a field name, a wrong type."""
    job = copy.deepcopy(load("lingjun-check-job.yaml"))
    job["spec"]["template"]["spec"]["tolerations"][0]["efect"] = "NoSchedule"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(job, version, strict=True)
    job = copy.deepcopy(load("lingjun-check-job.yaml"))
    job["spec"]["parallelism"] = "four"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(job, version, strict=True)


def test_readme_and_site_name_the_validated_versions():
    phrase = f"Kubernetes {VERSIONS[0]}–{VERSIONS[-1]}"
    for path in ("README.md", "docs/en/checker/fleet.md", "docs/zh/checker/fleet.md"):
        text = (REPO / path).read_text(encoding="utf-8")
        assert phrase in text, path
        # no other range of versions is claimed
        assert set(re.findall(r"Kubernetes 1\.\d+–1\.\d+", text)) == {phrase}, path


def test_per_index_backoff_is_unknown_before_kubernetes_1_28():
    """Why 1.25 is not among the versions: backoffLimitPerIndex arrived in 1.28 (alpha), beta in 1.29, GA in 1.33."""
    job = load("lingjun-check-job.yaml")
    with pytest.raises(kubernetes_validate.ValidationError, match="backoffLimitPerIndex"):
        kubernetes_validate.validate(job, "1.25", strict=True)
