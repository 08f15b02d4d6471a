"""``data.driver-minimum``: a release's driver minimum is not below what its CUDA toolkit needs.

The toolkit's minimum Linux driver comes from Table 3 of the CUDA Toolkit
release notes as recorded in ``releases/reference/cuda-drivers.yaml``
(looked up with :func:`lingjun.checks.core.compat.toolkit_min_driver`, the same
function the checker uses).  A minimum written as a branch only (``"575"``,
as the Alibaba pages state it) is compared at branch precision.  A minimum
above the toolkit's need is legitimate (25.06 and later ask for R575 on
CUDA 12.8) and reported as ``info``.  A release with variants is checked
once per CUDA toolkit its images use (a variant's own ``cuda``, else the
release's), at the field that states it.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core.compat import toolkit_min_driver
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.checks.core.versions import CudaVersion, DriverVersion, VersionFormatError
from lingjun.schema.models import DriverVendor, Severity


def compare_at_precision(minimum: DriverVersion, needed: DriverVersion) -> int:
    """-1, 0 or 1 as ``minimum`` is below, at or above ``needed``; a branch-only side compares branches."""
    if minimum.is_branch_only or needed.is_branch_only:
        a, b = minimum.branch, needed.branch
    else:
        a, b = minimum, needed  # type: ignore[assignment]
    return (a > b) - (a < b)


@gate_rule("data.driver-minimum", Severity.error,
           "The NVIDIA driver minimum is not below the minimum driver of the release's CUDA toolkit "
           "(releases/reference/cuda-drivers.yaml); a higher minimum is reported as info.", order=100, needs=("cuda-drivers",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare ``driver.minimum`` with the toolkit's minimum driver for every NVIDIA release with a ``cuda``."""
    reference = corpus.kb.cuda_drivers
    if reference is None:
        return
    table = reference.model_dump(mode="json")
    for located in corpus.images():
        doc, record, image = located.doc, located.record, located.image
        driver = record.driver
        if driver is None or driver.vendor is not DriverVendor.nvidia or image.cuda is None:
            continue
        own = image.variant is not None and image.variant.cuda is not None
        if not own and image.variant is not None and image.variant_id != record.variants[0].id:
            continue  # the release's own cuda: checked once, with the first variant
        cuda_loc = (*located.loc, "cuda") if own else ("cuda",)
        try:
            cuda = CudaVersion.parse(image.cuda)
            minimum = DriverVersion.parse(driver.minimum)
        except VersionFormatError:
            continue  # the schema reports malformed versions
        needed = toolkit_min_driver(cuda, table)
        if needed is None:
            yield Issue(doc.path, cuda_loc, f"no row for CUDA {image.cuda} in releases/reference/cuda-drivers.yaml; "
                        "the driver minimum cannot be checked", Severity.warning)
            continue
        order = compare_at_precision(minimum, needed)
        if order < 0:
            yield Issue(doc.path, ("driver", "minimum"),
                        f"driver minimum {driver.minimum} is below {needed}, the minimum driver of CUDA {image.cuda}"
                        + (f" ({image.ref})" if own else ""))
        elif order > 0:
            yield Issue(doc.path, ("driver", "minimum"),
                        f"driver minimum {driver.minimum} is above {needed}, the minimum driver of CUDA {image.cuda} "
                        + (f"({image.ref}) " if own else "")
                        + "(the image asks for a newer driver than its toolkit needs)", Severity.info)
