"""libraries.cudnn-shadowed, libraries.nccl-shadowed, libraries.nccl-cuda-majors."""

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, LibraryFile, WheelFacts
from lingjun.checks.core.native_version import parse_cudnn, parse_nccl


def test_version_codes():
    assert parse_cudnn("8700") == (8, 7, 0) and parse_cudnn(91002) == (9, 10, 2) and parse_cudnn("junk") is None
    assert parse_nccl("21903") == (2, 19, 3) and parse_nccl("2.27.5.14") == (2, 27, 5)


def test_cudnn_older_error_newer_minor_info_equal_ok():
    facts = Facts()
    facts.torch = kit.torch_build("2.0.1+cu118", "11.8", cudnn_version="8700")
    for found, sev in (("8.2.4", "error"), ("8.9.2", "info"), ("8.7.0", "ok"), ("9.1.0", "error")):
        facts.cudnn.resolved = LibraryFile(path=f"/x/libcudnn.so.{found}", version=found, via="LD_LIBRARY_PATH")
        assert kit.severities(kit.run("libraries.cudnn-shadowed", kit.context(facts))) == [sev], found


def test_nccl_older_than_pin_error():
    facts = Facts()
    facts.distributions = [kit.dist("torch", "2.2.0", requires=["nvidia-nccl-cu12==2.19.3"])]
    facts.nccl.resolved = LibraryFile(path="/usr/lib/libnccl.so.2.18.3", version="2.18.3", via="LD_LIBRARY_PATH")
    f = kit.run("libraries.nccl-shadowed", kit.context(facts))
    assert kit.severities(f) == ["error"] and "ncclCommRegister" in f[0].message.en
    facts.nccl.resolved = LibraryFile(path="/usr/lib/libnccl.so.2.19.3", version="2.19.3")
    assert kit.severities(kit.run("libraries.nccl-shadowed", kit.context(facts))) == ["ok"]


def test_nccl_wheels_for_two_cuda_majors():
    facts = Facts()
    facts.nccl.wheels = [WheelFacts(name="nvidia-nccl-cu11", version="2.14.3", cuda_major=11)]
    facts.distributions = [kit.dist("nvidia-nccl-cu12", "2.27.3")]
    assert kit.severities(kit.run("libraries.nccl-cuda-majors", kit.context(facts))) == ["error"]
    facts.nccl.wheels = []
    assert kit.severities(kit.run("libraries.nccl-cuda-majors", kit.context(facts))) == ["ok"]
