"""Every rule survives garbage facts and garbage release data without raising."""

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, GpuFacts, InterfaceFacts, LibraryFile, TorchBuildFacts
from lingjun.checks.rules import RULES, load_rules

load_rules()


def _garbage():
    facts = Facts()
    facts.host.machine = "weird"
    facts.python.version = "three"
    facts.driver.kernel_module_version = "R-abc"
    facts.driver.device_nodes = ["/dev/nvidia0"]
    facts.nvml.library_version = "x.y"
    facts.nvml.cuda_driver_version = -5
    facts.nvml.gpus = [GpuFacts(name=None, brand=None, compute_capability="nine")]
    facts.libcuda.file_version = "??"
    facts.libcuda.path = "/usr/local/cuda/compat/libcuda.so.1"
    facts.cuda.toolkit_version = "12.x"
    facts.torch = TorchBuildFacts(version="not a version", cuda="?", arch_list=["sm_x"], cudnn_version="abc")
    facts.cudnn.resolved = LibraryFile(path="/x", version="v")
    facts.nccl.resolved = LibraryFile(path="/y", version="w")
    facts.distributions = [kit.dist("torch", "?!"), kit.dist("deepspeed", None, requires=["torch ==== 1", "torch>=bad"])]
    facts.env = {"NCCL_SOCKET_IFNAME": "^", "CHECKPOINT_OPTIMIZATION": ""}
    facts.network = [InterfaceFacts(name="eth0")]
    return facts


def test_no_rule_raises_on_garbage(tmp_path):
    bad = tmp_path / "ds.json"
    bad.write_bytes(b"\xff\xfe")
    rec = kit.fixture_record("training-nv-pytorch:25.10")
    for ctx in (kit.context(_garbage(), rec=rec, deepspeed_config=str(bad)), kit.context(_garbage()), kit.context(Facts())):
        for rule_id in RULES:
            for f in kit.run(rule_id, ctx):
                assert "internal error" not in f.message.en, (rule_id, f.observed)
