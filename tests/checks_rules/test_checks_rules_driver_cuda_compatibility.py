import checks_rules_kit as kit


def _ctx(driver, gpus, cuda="12.8", compat=False):
    facts = kit.gpu_facts(driver, gpus)
    if compat:
        facts.cuda.compat_dir = "/usr/local/cuda/compat"
    rec = kit.synthetic("ngc-pytorch", "25.02", "https://docs.nvidia.com/deeplearning/frameworks/pytorch-release-notes/", cuda=cuda,
                        driver={"vendor": "nvidia", "minimum": "570", "forward_compatibility": [{"branch": 535, "minimum": "535.86"}]})
    return kit.context(facts, rec=rec)


DC = (("NVIDIA H100 80GB HBM3", "nvidia", "9.0"),)
GF = (("NVIDIA GeForce RTX 3090", "geforce", "8.6"),)


def test_native_ok():
    assert kit.severities(kit.run("driver.cuda-compatibility", _ctx("570.26", DC))) == ["ok"]


def test_minor_version_compat_warns():
    f = kit.run("driver.cuda-compatibility", _ctx("550.54.15", GF))
    assert kit.severities(f) == ["warning"] and "PTX" in f[0].message.en


def test_forward_compat_needs_datacenter_admitted_branch_and_compat():
    assert kit.severities(kit.run("driver.cuda-compatibility", _ctx("535.86.10", DC, cuda="13.0", compat=True))) == ["ok"]
    f = kit.run("driver.cuda-compatibility", _ctx("535.86.10", GF, cuda="13.0", compat=True))
    assert kit.severities(f) == ["error"] and "data center GPU" in f[0].message.en
    f = kit.run("driver.cuda-compatibility", _ctx("535.86.10", DC, cuda="13.0", compat=False))
    assert kit.severities(f) == ["error"] and "cuda-compat" in f[0].message.en


def test_unsupported_names_the_branch_needed():
    f = kit.run("driver.cuda-compatibility", _ctx("470.86", GF, cuda="12.8"))
    assert kit.severities(f) == ["error"] and "R570" in f[0].message.en and "570.26" in f[0].message.en
    kit.assert_bilingual(f)


def test_compat_libcuda_in_use_on_data_center_gpu_is_forward_not_minor_version():
    # CUDA 12.8 on R535 qualifies for minor-version compatibility, but when the
    # loader resolves the image's cuda-compat libcuda on an admitted branch the
    # full feature set is available: forward compatibility, not a warning.
    ctx = _ctx("535.104.05", DC, compat=True)
    ctx.facts.libcuda.path = "/usr/local/cuda/compat/libcuda.so.1"
    ctx.facts.libcuda.is_forward_compat = True
    f = kit.run("driver.cuda-compatibility", ctx)
    assert kit.severities(f) == ["ok"] and "forward compatibility" in f[0].message.en


def test_compat_present_but_not_in_use_stays_minor_version():
    ctx = _ctx("535.104.05", DC, compat=True)
    ctx.facts.libcuda.path = ctx.facts.libcuda.real_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
    ctx.facts.libcuda.is_forward_compat = False  # the host's libcuda is the one loaded
    f = kit.run("driver.cuda-compatibility", ctx)
    assert kit.severities(f) == ["warning"] and "minor version compatibility" in f[0].message.en
    assert kit.severities(kit.run("driver.minimum", ctx)) == ["warning"]


def test_compat_present_and_loaded_libcuda_not_shown_reads_as_driver_minimum_does():
    """The record admits R535 (535.86 on) and the image carries cuda-compat; the input does not show which libcuda is
    loaded: both driver rules read forward compatibility (one decision, as the finder and which give it)."""
    ctx = _ctx("535.104.05", DC, compat=True)
    f = kit.run("driver.cuda-compatibility", ctx)
    assert kit.severities(f) == ["ok"] and "through forward compatibility" in f[0].message.en
    kit.assert_bilingual(f)
    m = kit.run("driver.minimum", ctx)
    assert kit.severities(m) == ["info"] and "forward compatibility" in m[0].message.en


def test_forward_compatibility_on_an_end_of_life_branch_says_the_branch_ended():
    """vllm-project/vllm#15607's paste: A800 on driver 470 with training-nv-pytorch 25.07 (R470 admitted for forward
    compatibility): "holds only while the branch is supported" is no longer a condition but a fact, with its date."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    paste = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "S3-vllm-15607-a800-drv470.txt"
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from-collect-env", str(paste), "--release",
                           "training-nv-pytorch:25.07", "--format", "json", "--lang", "en"],
                          capture_output=True, text=True, timeout=120)
    (f,) = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "driver.cuda-compatibility"]
    assert f["severity"] == "warning"
    assert "branch R470 is past its end of life (2024-07), so NVIDIA no longer supports this setup" in f["message"]
    assert "holds only while the branch is supported" not in f["message"]
