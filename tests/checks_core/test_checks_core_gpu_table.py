"""The checker's GPU knowledge is the bundle's GPU table (releases/reference/gpus.yaml), and nothing else.

Every row can be named by the name NVML prints for it; its compute capability and its class (data center or
not) come from the row; without the table a model name alone classifies nothing (no second list).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingjun.checks.core.compat import GPU_CONSUMER, GPU_DATACENTER, GPU_UNKNOWN, GPU_WORKSTATION, gpu_class
from lingjun.checks.core.gpu_models import compute_capability_from_name, model_from_name
from lingjun.checks.knowledge.bundle import KnowledgeData

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def table():
    return KnowledgeData.from_file(REPO / "checks" / "data" / "bundle.json").gpus


def test_the_bundle_carries_the_reference_table(table):
    import yaml

    rows = yaml.safe_load((REPO / "releases" / "reference" / "gpus.yaml").read_text(encoding="utf-8"))["gpus"]
    assert [(r["name"], r["compute_capability"], r["data_center"]) for r in table] == \
        [(r["name"], r["compute_capability"], r["data_center"]) for r in rows]


def test_every_row_is_named_by_its_nvml_name(table):
    for row in table:
        assert model_from_name("NVIDIA " + row["name"], table) is row, row["name"]
        assert compute_capability_from_name("NVIDIA " + row["name"], table) == row["compute_capability"]
        cls = gpu_class("NVIDIA " + row["name"], None, table)
        if row["data_center"]:
            assert cls == GPU_DATACENTER, row["name"]
        else:
            assert cls in (GPU_CONSUMER, GPU_WORKSTATION), row["name"]


@pytest.mark.parametrize("printed, model", [
    ("NVIDIA H200", "H200"), ("NVIDIA H20", "H20"), ("NVIDIA GH200 480GB", "GH200"), ("NVIDIA L40S", "L40S"),
    ("NVIDIA GeForce RTX 2080 Ti", "GeForce RTX 2080"), ("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
                                                           "RTX PRO 6000 Blackwell"),
    ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000 Blackwell Server Edition"),
])
def test_the_longest_contained_name_wins(table, printed, model):
    assert model_from_name(printed, table)["name"] == model


def test_without_the_table_a_model_name_alone_classifies_nothing():
    assert gpu_class("NVIDIA H20", None) == GPU_UNKNOWN
    assert gpu_class("NVIDIA H20", "nvidia") == GPU_DATACENTER  # NVML's brand still decides
    assert gpu_class("NVIDIA GeForce RTX 4090", None) == GPU_CONSUMER  # the product line is in the name
    assert compute_capability_from_name("NVIDIA H20", []) is None


def test_odd_rows_and_names_never_raise(table):
    odd = [None, {"name": 3}, {"name": ""}, {"name": "H20"}, {"name": "A100", "compute_capability": 8}]
    assert model_from_name("NVIDIA H20", odd) == {"name": "H20"}
    assert compute_capability_from_name("NVIDIA H20", odd) is None
    assert compute_capability_from_name("NVIDIA A100", odd) is None
    assert model_from_name("x" * 201, table) is None
    assert json.dumps(table)  # plain JSON data
