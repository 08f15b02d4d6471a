"""data.acs-pod-labels: what a remedy says about an ACS GPU pod's labels, read per language."""

from __future__ import annotations

import pytest

from lingjun.schema.gate.rules.acs_pod_labels import problems


@pytest.mark.parametrize("text, where, expected", [
    ("Create an ACS GPU pod (label alibabacloud.com/compute-class: gpu, with an nvidia.com/gpu limit).", "acs",
     "without alibabacloud.com/gpu-model-series"),
    ('创建 ACS GPU Pod（标签 alibabacloud.com/compute-class: "gpu"）。', "acs", "without alibabacloud.com/gpu-model-series"),
    ("Choose an ACS driver version (the driver version annotation of the pod).", "acs", "not an annotation"),
    ("为 ACS GPU Pod 选择驱动版本（驱动版本注解）。", "acs", "not an annotation"),
    ("Pick a driver version ACS supports.", "acs", "without naming the pod label alibabacloud.com/gpu-driver-version"),
])
def test_a_remedy_getting_acs_labels_wrong_is_reported(text, where, expected):
    (message,) = problems(text, where)
    assert expected in message


@pytest.mark.parametrize("text, where", [
    ("Pod labels alibabacloud.com/compute-class: gpu and alibabacloud.com/gpu-model-series: T4.", "acs"),
    ("Pod label alibabacloud.com/compute-class: gpu-hpn, with a nodeSelector on the GPU model.", "acs"),
    ("Pin the driver with the pod label alibabacloud.com/gpu-driver-version (ACS lists the driver versions).", "acs"),
    ("Upgrade the node's driver version to R570.", "kubernetes"),  # not about ACS
])
def test_a_remedy_naming_the_labels_acs_reads_passes(text, where):
    assert problems(text, where) == []
