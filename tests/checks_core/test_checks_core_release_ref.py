"""A release named as users copy it: family:YY.MM, an image tag, a full or VPC registry reference; unknown names."""

from __future__ import annotations

import json

import pytest

from checks_core_helpers import run_cli
from lingjun.checks.cli import load_data
from lingjun.checks.facts import Facts, ManifestFacts
from lingjun.checks.knowledge.identify import UnknownReleaseError, find_release, identify

DATA = load_data(None)


@pytest.mark.parametrize(
    "value, ref",
    [
        ("training-nv-pytorch:25.07", "training-nv-pytorch:25.07"),
        ("training-nv-pytorch:25.07-serverless", "training-nv-pytorch:25.07"),
        (" training-nv-pytorch:25.07-serverless\n", "training-nv-pytorch:25.07"),
        ("egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless", "training-nv-pytorch:25.07"),
        ("acs-registry-vpc.cn-beijing.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless", "training-nv-pytorch:25.07"),
        ("acs-registry-vpc.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.03", "training-nv-pytorch:25.03"),
        ("egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-xpu-pytorch:25.05", "training-xpu-pytorch:25.05"),
        ("nvcr.io/nvidia/pytorch:25.01-py3", "ngc-pytorch:25.01"),
        ("pytorch:25.01-py3", "ngc-pytorch:25.01"),
    ],
)
def test_release_named_by_tag_or_reference(value, ref):
    found = find_release(DATA, value)
    assert found is not None and found[0] == ref and f"{found[1].family}:{found[1].version}" == ref


@pytest.mark.parametrize(
    "value",
    [
        "training-nv-pytorch:25.07-server",  # a prefix of the tag
        "training-nv-pytorch:25.07-serverless-extra",
        "training-nv-pytorch:25.0",
        # 25.07 is published only as 25.07-serverless: no guessing from the release version
        "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07",
        "acs-registry-vpc..cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless",
        "acs-registry-vpc.cn beijing.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless",
        "evil.example/egslingjun/training-nv-pytorch:25.07-serverless",
        "training-nv-pytorch:25.01-py3",  # another family's tag
        "bogus",
        "",
    ],
)
def test_no_prefix_guessing(value):
    assert find_release(DATA, value) is None


def test_release_option_accepts_a_copied_reference():
    result = run_cli("--release", "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless",
                     "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    release = json.loads(result.stdout)["release"]
    assert (release["ref"], release["how"], release["known"]) == ("training-nv-pytorch:25.07", "option", True)
    with pytest.raises(UnknownReleaseError):
        identify(Facts(), DATA, "training-nv-pytorch:25.07-server")


def test_env_by_image_tag():
    facts = Facts()
    facts.env["LINGJUN_RELEASE"] = "training-nv-pytorch:25.06-serverless"
    match = identify(facts, DATA)
    assert (match.ref, match.how, match.rejected) == ("training-nv-pytorch:25.06", "env", [])


def test_unknown_env_falls_back_to_the_manifest_and_is_remembered():
    facts = Facts()
    facts.env["LINGJUN_RELEASE"] = "bogus"
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release="training-nv-pytorch:25.07")
    match = identify(facts, DATA)
    assert (match.ref, match.how, match.rejected) == ("training-nv-pytorch:25.07", "manifest", [("env", "bogus")])
    facts.manifest.release = "training-nv-pytorch:99.99"
    match = identify(facts, DATA)
    assert match.how in ("fingerprint", "none") and match.rejected == [("env", "bogus"), ("manifest", "training-nv-pytorch:99.99")]


def test_unknown_env_is_a_warning_naming_the_value_and_the_known_releases():
    result = run_cli("--format", "json", env={"LINGJUN_RELEASE": "bogus"})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    found = [f for f in report["findings"] if f["rule"] == "release.identified"]
    assert found[0]["severity"] == "warning" and found[0]["observed"] == "bogus"
    assert "'bogus'" in found[0]["message"] and "training-nv-pytorch:25.07" in found[0]["message"]
    assert report["release"]["how"] in ("fingerprint", "none") and report["release"]["ref"] != "bogus"
    assert run_cli("--strict", env={"LINGJUN_RELEASE": "bogus"}).returncode == 2
    zh = run_cli("--lang", "zh", env={"LINGJUN_RELEASE": "bogus"})
    assert "环境变量 LINGJUN_RELEASE给出的 'bogus' 不是内置发布数据中的版本" in zh.stdout


def test_help_says_how_releases_are_named_and_what_unknown_ones_do():
    text = " ".join(run_cli("--help").stdout.split())
    assert "training-nv-pytorch:25.07-serverless" in text and "acs-registry-vpc" in text
    assert ("An unknown or ambiguous --release is a usage error (exit 3) that names the close spellings (\"did you mean ...?\"); "
            "a release the official pages name but the data does not record yet is reported as such and checked as an "
            "unidentified one; an unknown LINGJUN_RELEASE or manifest value is a release.identified warning") in text
