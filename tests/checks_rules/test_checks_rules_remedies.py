"""Package remedies a person can run (checks/rules/_remedies.py): no reinstall of a build no public index serves."""

import re

import checks_rules_kit as kit

FORBIDDEN = re.compile(r"Reinstall \w+ 2\.7\.1\.8|--no-binary :all:|rebuild vLLM against|reinstall FlashAttention 2\.7\.2",
                       re.IGNORECASE)
IMAGE = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless"


def _replaced_torch_25_07():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = kit.gpu_facts("575.57.08")
    facts.torch = kit.torch_build("2.7.1+cu126", "12.6")
    facts.distributions = [
        kit.dist("torch", "2.7.1+cu126", installer="pip"), kit.dist("flash-attn", "2.7.2"), kit.dist("vllm", "0.9.2"),
        kit.dist("transformers", "4.53.0", installer="pip"), kit.dist("transformer-engine", "2.3.0+5de3e14"),
    ]
    return kit.context(facts, rec=rec)


def _remedies(findings):
    return [f.remedy for f in findings if f.remedy is not None]


def test_image_builds_are_restored_by_a_fresh_container_named_in_full():
    ctx = _replaced_torch_25_07()
    for rule in ("packages.version-mismatch", "packages.image-build-replaced", "packages.extension-abi", "packages.missing"):
        findings = kit.run(rule, ctx)
        kit.assert_bilingual(findings)
        for remedy in _remedies(findings):
            assert not FORBIDDEN.search(remedy.en), (rule, remedy.en)
            assert IMAGE in remedy.en and IMAGE in remedy.zh, (rule, remedy.en)
    mismatch = [f for f in kit.run("packages.version-mismatch", ctx) if f.severity.value == "warning"]
    assert any("pip list --format=freeze > /tmp/image-constraints.txt" in f.remedy.en for f in mismatch)


def test_removed_deepspeed_has_no_way_back_but_a_fresh_container():
    ctx = _replaced_torch_25_07()
    (f,) = [f for f in kit.run("packages.missing", ctx) if f.severity.value == "warning"]
    assert "No public index serves DeepSpeed 0.16.9+ali" in f.remedy.en and IMAGE in f.remedy.en
    assert "pip install --no-deps 'deepspeed" not in f.remedy.en


def test_a_stock_torch_comes_back_from_its_published_cuda_index():
    rec = kit.synthetic("inference-nv-pytorch", "25.04", "https://example.org/p", cuda="12.4",
                        component_list="complete", components=[kit.comp("torch", "2.6.0+cu124")],
                        image_tags=[{"tag": "25.04-x", "reference": "registry.example/ns/inference-nv-pytorch:25.04-x"}])
    facts = kit.gpu_facts("570.124.06")
    facts.torch = kit.torch_build("2.7.0+cu126", "12.6")
    facts.distributions = [kit.dist("torch", "2.7.0+cu126")]
    (f,) = [f for f in kit.run("packages.version-mismatch", kit.context(facts, rec=rec)) if f.severity.value == "warning"]
    assert "pip install --no-deps torch==2.6.0 --index-url https://download.pytorch.org/whl/cu124" in f.remedy.en
    assert "image's build" not in f.message.en  # a public build is never called the image's own


def test_transformers_is_not_said_to_break_compiled_code():
    ctx = _replaced_torch_25_07()
    msgs = [f.message.en for f in kit.run("packages.image-build-replaced", ctx) if "Transformers" in f.message.en]
    assert msgs and all("compiled against it" not in m for m in msgs)


def test_an_extension_left_behind_by_torch_may_not_load_unless_the_input_shows_it():
    ctx = _replaced_torch_25_07()
    abi = [f for f in kit.run("packages.extension-abi", ctx) if f.severity.value == "error"]
    assert abi and all("may not load" in f.message.en for f in abi)
    ctx.facts.symptoms.errors = ["ImportError: flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"]
    abi = [f for f in kit.run("packages.extension-abi", ctx) if f.severity.value == "error"]
    assert any("the input shows the failure" in f.message.en for f in abi)


def _node(torch_version, cuda, *dists, gpus=(("NVIDIA H100 80GB HBM3", "nvidia", "9.0"),), driver="535.104.05"):
    facts = kit.gpu_facts(driver, gpus=gpus)
    facts.torch = kit.torch_build(torch_version, cuda)
    facts.distributions = [kit.dist("torch", torch_version), *dists]
    return kit.context(facts)


def test_torch_wheel_keeps_the_installed_release_when_it_was_published_for_a_fitting_cuda():
    from lingjun.checks.rules._remedies import torch_wheel

    ctx = _node("2.6.0+cu126", "12.6")
    assert torch_wheel(ctx, "2.6.0+cu126", (12, 4)) == ("2.6.0", "cu124")
    assert torch_wheel(ctx, "2.6.0+cu126", (11, 8)) == ("2.6.0", "cu118")
    # no 2.6.0 wheel needs CUDA 12.8: the newest listed release that has one (the fixture table: 2.9.1)
    assert torch_wheel(ctx, "2.6.0+cu126", (12, 9), at_least=(12, 8)) == ("2.9.1", "cu128")
    # without a driver bound, the oldest variant that is new enough (it asks least of the driver)
    assert torch_wheel(ctx, "2.7.1+cu126", None, at_least=(12, 8)) == ("2.7.1", "cu128")
    assert torch_wheel(ctx, "2.6.0+cu126", (11, 4)) is None  # no listed wheel runs on CUDA 11.4


def test_torch_wheel_remedy_never_replaces_a_vendor_or_xla_torch():
    from lingjun.checks.rules._remedies import torch_wheel_remedy

    assert torch_wheel_remedy(_node("2.9.0a0+50eac81", "13.0"), "2.9.0a0+50eac81", (12, 6)) is None  # NGC's build
    assert torch_wheel_remedy(_node("2.6.0+cu124", "12.4"), None, (12, 6)) is None  # version not shown
    xla = _node("2.6.0+cpu", None, kit.dist("torch-xla", "2.6.0"))
    assert torch_wheel_remedy(xla, "2.6.0+cpu", (12, 6)) is None
    text = torch_wheel_remedy(_node("2.6.0+cu126", "12.6"), "2.6.0+cu126", (12, 4))
    assert text.en == ("install the torch 2.6.0 build PyTorch publishes for CUDA 12.4: "
                       "pip install torch==2.6.0 --index-url https://download.pytorch.org/whl/cu124")
    assert "pip install torch==2.6.0 --index-url https://download.pytorch.org/whl/cu124" in text.zh


def test_an_architecture_torch_predates_gets_a_published_wheel_for_it():
    # pytorch/pytorch#110153: H100 (sm_90) with torch 2.0.1+cu117; CUDA 11.8 is the first to build sm_90
    ctx = _node("2.0.1+cu117", "11.7", driver="535.104.05")
    (f,) = [f for f in kit.run("cuda.compute-capability", ctx) if f.severity.value == "error"]
    assert "pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118" in f.remedy.en
    assert "CUDA 11.8" in f.remedy.en and "cu118" in f.remedy.zh


def test_an_architecture_the_image_predates_names_a_release_built_for_it():
    from lingjun.checks.rules._remedies import architecture_remedy, release_with_cuda

    ctx = kit.context(kit.gpu_facts("570.124.06"), rec=kit.fixture_record("training-nv-pytorch:25.04"))
    assert release_with_cuda(ctx, (12, 8)) is not None and release_with_cuda(ctx, (13, 9)) is None
    text = architecture_remedy(ctx, None, (12, 8), (12, 8))
    assert text.en.startswith(f"Use the release {release_with_cuda(ctx, (12, 8))}, built on CUDA 12.8 or newer")
    none = architecture_remedy(ctx, None, (13, 9), (12, 8))
    assert "CUDA 13.9 or newer" in none.en and "https://pytorch.org/get-started/locally/" in none.en
