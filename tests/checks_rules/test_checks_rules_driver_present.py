import checks_rules_kit as kit
from lingjun.checks.facts import Facts


def test_no_driver_is_skipped_or_error_with_require_gpu():
    assert kit.severities(kit.run("driver.present", kit.context(Facts()))) == ["skipped"]
    assert kit.severities(kit.run("driver.present", kit.context(Facts(), require_gpu=True))) == ["error"]


def test_driver_visible_is_ok():
    f = kit.run("driver.present", kit.context(kit.gpu_facts("575.57.08")))
    assert kit.severities(f) == ["ok"] and f[0].observed == "575.57.08"


def test_ppu_record_is_skipped():
    rec = kit.fixture_record("training-xpu-pytorch:25.05")
    assert kit.severities(kit.run("driver.present", kit.context(Facts(), rec=rec))) == ["skipped"]


def _gpu_image_without_gpus() -> Facts:
    """A live container with a CUDA toolkit, a CUDA torch and NVIDIA_VISIBLE_DEVICES, and no driver or device nodes."""
    facts = Facts()
    facts.cuda.toolkit_version = "12.8.1"
    facts.torch = kit.torch_build("2.7.0+cu128", "12.8")
    facts.env["NVIDIA_VISIBLE_DEVICES"] = "all"
    return facts


def test_gpu_image_started_without_gpus_is_a_warning_and_an_error_with_require_gpu():
    (f,) = kit.run("driver.present", kit.context(_gpu_image_without_gpus()))
    assert f.severity.value == "warning"
    assert f.message.en.startswith("This container is meant for GPUs (CUDA toolkit 12.8.1, torch 2.7.0+cu128 built for CUDA 12.8, "
                                   "NVIDIA_VISIBLE_DEVICES=all) but has no NVIDIA driver and no /dev/nvidia* device nodes")
    for words in ("docker run --gpus all", "nvidia.com/gpu", "alibabacloud.com/compute-class: gpu"):
        assert words in f.remedy.en
    assert "https://www.alibabacloud.com/help/en/cs/user-guide/pod-gpu-model-and-driver-version" in f.links
    kit.assert_bilingual([f])
    (required,) = kit.run("driver.present", kit.context(_gpu_image_without_gpus(), require_gpu=True))
    assert required.severity.value == "error" and "(a GPU is required)" in required.message.en


def test_gpu_image_signs_from_the_release_record():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    (f,) = kit.run("driver.present", kit.context(Facts(), rec=rec))
    assert f.severity.value == "warning" and f"the release record's CUDA {rec['cuda']}" in f.message.en


def test_device_nodes_not_shown_are_not_called_absent():
    facts = _gpu_image_without_gpus()
    facts.origin = "snapshot"
    facts.coverage.not_available = ["device-nodes", "nvml", "nvidia-smi", "libcuda"]  # the driver section was observed
    (f,) = kit.run("driver.present", kit.context(facts))
    assert f.severity.value == "warning" and "but has no NVIDIA driver:" in f.message.en and "/dev/nvidia" not in f.message.en


def test_ppu_record_on_a_node_with_nvidia_gpus_is_an_error():
    """A PPU image named for input that shows NVIDIA GPUs and their driver: the accelerators do not match."""
    rec = kit.fixture_record("training-xpu-pytorch:25.05")
    (f,) = kit.run("driver.present", kit.context(kit.gpu_facts("550.127.08"), rec=rec))
    assert f.severity.value == "error"
    assert "is a PPU image, but this node shows NVIDIA hardware (" in f.message.en
    assert "NVIDIA driver 550.127.08): the image's accelerator does not match this node's." in f.message.en
    assert f.expected == "PPU devices"
    kit.assert_bilingual([f])


def test_ppu_record_without_nvidia_signs_says_why_it_is_skipped():
    rec = kit.fixture_record("training-xpu-pytorch:25.05")
    (f,) = kit.run("driver.present", kit.context(Facts(), rec=rec))
    assert (f.severity.value, f.message.en) == (
        "skipped", "PPU image, and no NVIDIA GPU or driver on this node: NVIDIA driver checks do not apply.")
