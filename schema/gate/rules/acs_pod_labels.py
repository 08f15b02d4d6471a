"""``data.acs-pod-labels``: a remedy that tells how to set up an ACS GPU pod names the fields ACS reads.

ACS (Alibaba Cloud Container Compute Service) takes a GPU pod's class, GPU model and driver from pod **labels**
(https://www.alibabacloud.com/help/en/cs/user-guide/pod-gpu-model-and-driver-version):

* ``alibabacloud.com/compute-class: gpu`` needs ``alibabacloud.com/gpu-model-series`` (the GPU model) beside it;
  ``gpu-hpn`` pods are placed by a ``nodeSelector`` on that label instead, so only the ``gpu`` class is checked;
* the driver is pinned by the label ``alibabacloud.com/gpu-driver-version``: a remedy that calls it an annotation,
  or that tells the reader to choose an ACS driver version without naming the label, cannot be followed.

Every remedy text of every cause of every error signature is read, in both languages.
"""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

__all__ = ["check"]

MODEL_LABEL = "alibabacloud.com/gpu-model-series"
DRIVER_LABEL = "alibabacloud.com/gpu-driver-version"
_GPU_CLASS = re.compile(r"alibabacloud\.com/compute-class:\s*[\"']?gpu(?![\w-])")
_ANNOTATION = re.compile(r"annotation|注解")
_DRIVER_VERSION = re.compile(r"driver[ -]version|驱动版本")
_ACS = re.compile(r"\bACS\b")


def problems(text: str, where: str) -> list[str]:
    """What ``text`` (one language of one remedy; ``where`` the remedy's kind: ``acs``, ``kubernetes`` ...) gets wrong
    about ACS's pod labels, as messages (empty: nothing)."""
    found = []
    if _GPU_CLASS.search(text) and MODEL_LABEL not in text:
        found.append(f"names alibabacloud.com/compute-class: gpu without {MODEL_LABEL}, which an ACS GPU pod also needs")
    acs = where == "acs" or _ACS.search(text) is not None
    if acs and _DRIVER_VERSION.search(text):
        if _ANNOTATION.search(text):
            found.append(f"ACS pins the driver with the pod label {DRIVER_LABEL}, not an annotation")
        elif DRIVER_LABEL not in text:
            found.append(f"tells to choose an ACS driver version without naming the pod label {DRIVER_LABEL}")
    return found


@gate_rule("data.acs-pod-labels", Severity.error,
           "Remedies for ACS GPU pods name the labels ACS reads (compute-class gpu with gpu-model-series; "
           "the driver by the gpu-driver-version label).",
           order=256)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report each remedy text of an error signature that gets ACS's GPU pod labels wrong (one issue per problem)."""
    for doc, signature in corpus.signatures():
        for c_index, cause in enumerate(signature.causes):
            for where in ("docker", "kubernetes", "acs", "image"):
                text = getattr(cause.remedies, where)
                if text is None:
                    continue
                for lang in ("en", "zh"):
                    for message in problems(getattr(text, lang), where):
                        yield Issue(doc.path, ("causes", c_index, "remedies", where, lang), message)
