import checks_rules_kit as kit

H20 = (("NVIDIA H20", "nvidia", "9.0"),)
RTX = (("NVIDIA GeForce RTX 4090", "geforce", "8.9"),)


def _run(driver, gpus=H20, ref="training-nv-pytorch:25.07", **cuda):
    facts = kit.gpu_facts(driver, gpus)
    for k, v in cuda.items():
        setattr(facts.cuda, k, v)
    return kit.run("driver.minimum", kit.context(facts, rec=kit.fixture_record(ref)))


def test_at_or_above_minimum_is_ok():
    assert kit.severities(_run("575.57.08")) == ["ok"]
    assert kit.severities(_run("580.65.06")) == ["ok"]


def test_below_stated_minimum_but_native_for_cuda_is_warning():
    f = _run("570.124.06")
    assert kit.severities(f) == ["warning"] and "575" in f[0].message.en


def test_below_minimum_within_minor_version_compat_is_warning():
    assert kit.severities(_run("560.35.03", RTX)) == ["warning"]


def test_far_below_minimum_is_error():
    f = _run("470.86", RTX)
    assert kit.severities(f) == ["error"]
    kit.assert_bilingual(f)


A100 = (("NVIDIA A100-SXM4-80GB", "nvidia", "8.0"),)


def test_forward_compat_admitted_branch_on_data_center_gpu_is_info():
    # 25.07 admits R470 (470.57 on) for data center GPUs; R470 drives Ampere (CUDA 11.0 introduced sm_80)
    f = _run("470.57.02", A100, compat_dir="/usr/local/cuda/compat")
    assert kit.severities(f) == ["info"] and "forward" in f[0].message.en


def test_a_driver_older_than_the_gpus_architecture_is_an_error_even_where_the_release_admits_the_branch():
    # R470 (CUDA 11.4) cannot drive Hopper (sm_90 came with CUDA 11.8): forward compatibility never applies
    f = _run("470.57.02", H20, compat_dir="/usr/local/cuda/compat")
    assert kit.severities(f) == ["error"]
    assert "R470 predates Hopper GPUs: sm_90 needs a driver for CUDA 11.8 or later" in f[0].message.en
    kit.assert_bilingual(f)


def test_ppu_record_skips_and_garbage_driver_is_info():
    assert kit.severities(kit.run("driver.minimum", kit.context(kit.gpu_facts("570.1"), rec=kit.fixture_record("training-xpu-pytorch:25.05")))) == ["skipped"]
    assert kit.severities(_run("not-a-version")) == ["info"]


def test_a_cut_off_release_reads_its_familys_forward_compatibility_as_which_does(tmp_path):
    """H20 on 535.183.01 with training-nv-pytorch 25.07, whose recorded driver text is cut off: 25.06 and 25.08 admit
    R535 from 535.86 on, and the record's own forward-compatible branches show cuda-compat, so the checker says
    forward compatibility (as `lingjun-kb which` and the finder do), naming where that comes from."""
    import json
    import subprocess
    import sys

    snap = {"schema": "lingjun-check/snapshot/1", "origin": "snapshot",
            "driver": {"kernel_module_version": "535.183.01"},
            "nvidia_smi": {"available": True, "driver_version": "535.183.01",
                           "gpus": [{"index": 0, "name": "NVIDIA H20", "compute_capability": "9.0"}]},
            "torch": {"version": "2.7.1+cu128", "cuda": "12.8"}}
    path = tmp_path / "h20.json"
    path.write_text(json.dumps(snap))
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(path), "--release", "training-nv-pytorch:25.07",
                           "--format", "json", "--lang", "en"], capture_output=True, text=True, timeout=120)
    found = {f["rule"]: f for f in json.loads(proc.stdout)["findings"]}
    assert found["driver.minimum"]["severity"] == "info"
    assert "its family's releases 25.06 and 25.08 admit R535 (535.86 or later)" in found["driver.minimum"]["message"]
    assert found["driver.cuda-compatibility"]["severity"] == "ok"
    assert "admitted by its family's neighbouring releases" in found["driver.cuda-compatibility"]["message"]
    # torch's CUDA 12.8 is the image's: the same cuda-compat serves it, so no "minor version compatibility" warning
    assert found["cuda.torch-build-vs-driver"]["severity"] == "ok"
    assert "through forward compatibility" in found["cuda.torch-build-vs-driver"]["message"]
    which = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "which", "--driver", "535.183.01", "--gpu", "H20",
                            "--format", "json"], capture_output=True, text=True, timeout=120)
    rows = {r["release"]: r for r in json.loads(which.stdout)["releases"]}
    assert rows["training-nv-pytorch:25.07"]["verdict"] == "forward-compat"
