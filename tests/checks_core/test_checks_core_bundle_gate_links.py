"""`lingjun-kb bundle` is gated like the site, and the checker's report links open where a reader is.

* a placeholder draft from `lingjun-kb new` in releases/ makes `bundle` refuse: one line, exit 1,
  no zipapp and no change to checks/data/bundle.json;
* a bundle built without a site URL stores none, and the report links go to the record's official
  release page (in the report's language) and upstream documents, never to http://127.0.0.1:8000/;
* with a site URL the links go into that site.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.generator.cli import main
from lingjun.generator.zipapp import bundle_text

REPO = Path(__file__).resolve().parents[2]
SNAPSHOT = REPO / "tests" / "fixtures" / "reports" / "T02-production-stack-276-shm64m.json"
EMBEDDED = REPO / "checks" / "data" / "bundle.json"


@pytest.mark.xdist_group("checkout-bundle")  # compares the checkout's bundle.json: see test_checks_core_zipapp.py
def test_bundle_refuses_a_placeholder_draft_and_writes_nothing(tmp_path, capsys):
    releases = tmp_path / "releases"
    shutil.copytree(REPO / "releases", releases)
    assert main(["new", "training-nv-pytorch", "25.11", "--releases", str(releases)]) == 0
    capsys.readouterr()
    embedded = EMBEDDED.read_bytes()
    output = tmp_path / "lingjun-check.pyz"

    status = main(["bundle", "--releases", str(releases), "--output", str(output)])

    err = capsys.readouterr().err
    assert status == 1
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"lingjun-kb bundle: {releases} has ") and "error(s), first " in err
    assert "nothing written" in err and "TODO" not in err.split("first ")[0]
    assert not output.exists()
    assert EMBEDDED.read_bytes() == embedded


def test_bundle_text_is_none_for_a_draft_the_loader_alone_accepts(tmp_path):
    """The cross-record gate, not only the schema: a second `current` release is a gate error."""
    releases = tmp_path / "releases"
    shutil.copytree(REPO / "releases", releases)
    assert main(["new", "training-nv-pytorch", "25.11", "--releases", str(releases)]) == 0
    text, problems = bundle_text(releases, "https://kb.example.org/")
    assert text is None
    assert {p.rule for p in problems if p.is_error} >= {"data.single-current"}


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """``{"none": path, "site": path}``: the real records compiled without and with a site URL."""
    folder = tmp_path_factory.mktemp("bundles")
    out = {}
    for name, url in (("none", None), ("site", "https://kb.example.org/")):
        with pytest.MonkeyPatch.context() as mp:
            mp.delenv("LINGJUN_KB_SITE_URL", raising=False)
            text, problems = bundle_text(REPO / "releases", url)
        assert text is not None, [p.format() for p in problems if p.is_error]
        out[name] = folder / f"{name}.json"
        out[name].write_text(text, encoding="utf-8")
    return out


def _report(bundle: Path, lang: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from lingjun.checks.cli import main; sys.exit(main())",
         "--from", str(SNAPSHOT), "--data", str(bundle),
         "--release", "training-nv-pytorch:25.07", "--format", "json", "--lang", lang],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def _links(report: dict) -> set[str]:
    return {link for finding in report["findings"] for link in finding.get("links") or []}


def test_without_a_site_url_the_bundle_stores_none(bundles):
    raw = json.loads(bundles["none"].read_text(encoding="utf-8"))
    assert raw["site_url"] is None
    data = KnowledgeData.from_dict(raw)
    assert data.site_url is None
    assert data.rule_url("driver.minimum") is None and data.known_issue_url("x") is None


@pytest.mark.parametrize("lang, official", [
    ("en", "https://www.alibabacloud.com/help/en/cs/user-guide/training-nv-pytorch-25-07"),
    ("zh", "https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-25-07"),
])
def test_report_links_without_a_site_go_to_the_official_page_and_upstream(bundles, lang, official):
    report = _report(bundles["none"], lang)
    assert report["release"]["url"] == official
    links = _links(report)
    assert official in links
    assert not [link for link in links if "127.0.0.1" in link or "localhost" in link]
    assert all(link.startswith("https://") for link in links), links
    assert "https://kubernetes.io/docs/concepts/storage/volumes/#emptydir" in links  # the rule's upstream document


def test_report_links_with_a_site_go_into_it(bundles):
    report = _report(bundles["site"], "zh")
    assert report["release"]["url"] == "https://kb.example.org/zh/releases/training-nv-pytorch/25.07/"
    links = _links(report)
    assert "https://kb.example.org/zh/releases/training-nv-pytorch/25.07/" in links
    assert any(link.startswith("https://kb.example.org/zh/checker/rules/#container-") for link in links), links
    assert not [link for link in links if "127.0.0.1" in link]


def test_the_committed_bundle_has_no_local_address():
    raw = json.loads(EMBEDDED.read_text(encoding="utf-8"))
    text = EMBEDDED.read_text(encoding="utf-8")
    # no link to a local server (a bundle built with a preview's --site-url); the address itself may be prose
    # ("a host name that resolves to 127.0.0.1")
    assert "://127.0.0.1" not in text and "://localhost" not in text
    assert raw["site_url"] is None or raw["site_url"].startswith("https://")
