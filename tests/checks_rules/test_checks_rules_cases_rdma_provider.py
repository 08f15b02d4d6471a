"""evidence.error-lines on libibverbs finding no provider for a uverbs device (rdma-libibverbs-driver-not-loaded): the
line with libibverbs' prefix and as a report quotes it without (horovod/horovod#1117, where the image lacked
ibverbs-providers) names the missing provider and the packages that bring it."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

SIGNATURE = "rdma-libibverbs-driver-not-loaded"


@pytest.mark.parametrize("line", [
    # https://github.com/nminoru/pib/issues/2
    "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs1",
    # https://github.com/horovod/horovod/issues/1117
    "Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0",
], ids=["with-prefix", "without-prefix"])
def test_a_uverbs_device_without_a_provider_names_the_missing_provider(tmp_path, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [SIGNATURE]
    from lingjun.checks.coverage import log_only_facts

    findings = [f for f in findings_for_log(tmp_path, [line], log_only_facts()) if f.severity is not Severity.ok]
    assert_bilingual(findings)
    (finding,) = findings
    assert "provider for the NIC in use is missing or mismatched" in finding.message.en
    assert "does not show the number of /dev/infiniband/uverbs* nodes" in finding.message.en  # a log alone
    assert finding.remedy is not None and "apt-get install ibverbs-providers" in finding.remedy.en


def test_a_provider_found_for_the_device_is_not_this_record(tmp_path):
    line = "found userspace driver mlx5 for /sys/class/infiniband_verbs/uverbs0"
    assert evidence_for_log(tmp_path, [line]).hits == []
