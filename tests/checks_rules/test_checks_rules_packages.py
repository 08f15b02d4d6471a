"""packages.missing, packages.version-mismatch and packages.image-build-replaced on the 25.07 record of the fixture knowledge base."""

import checks_rules_kit as kit
from lingjun.checks.facts import Facts
from lingjun.checks.core.version_match import same_version


def _facts(torch="2.7.1.8+nv25.3", installer=None, extra=()):
    facts = Facts()
    facts.host.machine = "x86_64"
    facts.python.version = "3.12.7"
    facts.distributions = [kit.dist("torch", torch, installer=installer), kit.dist("deepspeed", "0.16.9+ali"),
                           kit.dist("transformers", "4.51.2+ali"), kit.dist("ray", "2.47.1"), *extra]
    return facts


def test_same_version_semantics():
    assert same_version("2.1", "2.1.0") and same_version("2.7.1.8+nv25.3", "2.7.1.8+nv25.3")
    assert same_version("2.8.0a0+5228986c39.nv25.06", "2.8.0a0+5228986c39.nv25.6")
    assert same_version("2.7.1.8+nv25.3", "2.7.1") is False and same_version("x y", "1.0") is None


def test_missing_and_version_mismatch():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    ctx = kit.context(_facts(extra=[kit.dist("vllm", "0.9.1")]), rec=rec)
    missing = kit.run("packages.missing", ctx)
    assert "warning" in kit.severities(missing) and "vLLM" not in missing[0].message.en
    mism = kit.run("packages.version-mismatch", ctx)
    assert [f.observed for f in mism if f.severity.value == "warning"] == ["0.9.1"]


def test_torch_replaced_in_25_07_is_error_quoting_the_note():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = _facts(torch="2.7.1", installer="pip", extra=[kit.dist("nvidia-nccl-cu12", "2.26.2")])
    f = [x for x in kit.run("packages.image-build-replaced", kit.context(facts, rec=rec)) if x.severity.value == "error"]
    assert len(f) == 1 and "2.7.1.8+nv25.3" in f[0].message.en and "nvidia-nccl-cu12" in f[0].message.en
    assert "reinstall" in f[0].message.en.lower()
    kit.assert_bilingual(f)
    intact = kit.run("packages.image-build-replaced", kit.context(_facts(), rec=rec))
    assert kit.severities(intact) == ["ok"]


def test_replaced_build_says_only_what_the_input_records():
    """A collect_env paste records no installer: no "installed by"; a CUDA wheel the catalog does not track is "not
    listed in the release's component list", never "the image does not carry"."""
    from lingjun.checks.inputs.collect_env_text import parse_collect_env

    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = parse_collect_env("PyTorch version: 2.7.1\n[pip3] torch==2.7.1\n[pip3] deepspeed==0.16.9+ali\n"
                              "[pip3] nvidia-nccl-cu12==2.26.2\n")
    facts.host.machine = "x86_64"
    (f,) = [x for x in kit.run("packages.image-build-replaced", kit.context(facts, rec=rec)) if x.severity.value == "error"]
    assert "installed by" not in f.message.en and "does not carry" not in f.message.en
    assert "CUDA wheels not listed in the release's component list are present: nvidia-nccl-cu12 2.26.2." in f.message.en
    # the INSTALLER file of a live run or snapshot is reported
    live = _facts(torch="2.7.1", installer="pip")
    (g,) = [x for x in kit.run("packages.image-build-replaced", kit.context(live, rec=rec)) if x.severity.value == "error"]
    assert g.message.en.startswith("PyTorch is 2.7.1 (installed by pip, in ")
