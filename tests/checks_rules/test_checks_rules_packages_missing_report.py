"""packages.missing reads as a report line: the count and each name once, observed is what was found; report areas."""

import checks_rules_kit as kit
from lingjun.checks.facts import Facts
from lingjun.checks.report.render_text import render_text
from lingjun.checks.report.model import AREA_TITLES
from lingjun.checks.rules._packages import record_packages
from lingjun.checks.runner import load_rules


def _ctx(*dists):
    facts = Facts()
    facts.host.machine = "x86_64"
    facts.distributions = [kit.dist("ray", "2.47.1"), *dists]
    return kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))


def test_many_missing_names_each_package_once_and_observed_is_what_was_found():
    ctx = _ctx()
    wanted = [(p.catalog.label, p.published) for p in record_packages(ctx) if p.id != "ray"]
    assert len(wanted) > 10
    f = [x for x in kit.run("packages.missing", ctx) if x.severity.value == "warning"][0]
    assert f.message.en.startswith(f"{len(wanted)} packages of the release are not installed for this interpreter: ")
    for name, version in wanted:
        assert f.message.en.count(f"{name} {version}") == 1, name
        assert f"{name} {version}" in f.message.zh
        assert name not in (f.observed or "") and name not in (f.expected or "")
    assert f.observed == f"{len(wanted)} not installed" and f.expected is None
    # the text report shows eight and counts the rest; the JSON report keeps the full list
    line = next(l for l in render_text([f], ctx.release).splitlines() if "packages.missing" in l)
    assert f"… and {len(wanted) - 8} more" in line and len(line) < 400
    assert line.count(wanted[0][0]) == 1 and wanted[9][0] + " " not in line
    zh = next(l for l in render_text([f], ctx.release, lang="zh").splitlines() if "packages.missing" in l)
    assert f"等共 {len(wanted)} 个" in zh and "未安装" in zh and "not installed" not in zh
    assert f.to_json("en")["message"] == f.message.en


def test_one_missing_package_expects_its_version():
    ctx = _ctx(*[kit.dist(n, v) for n, v in ()])
    present = [kit.dist(p.names[0], p.published) for p in record_packages(ctx) if p.id not in ("torch", "ray")]
    f = [x for x in kit.run("packages.missing", _ctx(*present)) if x.severity.value == "warning"][0]
    assert f.message.en == "1 package of the release is not installed for this interpreter: PyTorch 2.7.1.8+nv25.3."
    assert (f.observed, f.expected) == ("not installed", "PyTorch 2.7.1.8+nv25.3")


def test_every_rule_area_has_one_heading_and_packages_sit_with_libraries():
    specs = load_rules()
    areas = {s.area for s in specs}
    assert areas <= set(AREA_TITLES)
    for lang in ("en", "zh"):
        titles = [AREA_TITLES[a].get(lang) for a in AREA_TITLES]
        assert len(titles) == len(set(titles)), lang
    by_id = {s.id: s.area for s in specs}
    package_areas = {a for r, a in by_id.items() if r.startswith(("packages.", "libraries."))}
    assert len(package_areas) == 1
    title = AREA_TITLES[package_areas.pop()].en
    assert "ackages" in title and "ibraries" in title
    assert "ackage" not in AREA_TITLES[by_id["python.interpreter"]].en


def _case_findings(case_id, rule_id):
    from test_checks_rules_cases import _context

    return [f for f in kit.all_findings(_context(case_id)) if f.rule == rule_id and f.severity.value in ("error", "warning")]


def test_observed_is_what_was_found_across_rules():
    """observed carries the facts found, never the condition or the wanted value; expected is a value, not prose."""
    issue = _case_findings("C29", "known-issues.match")[0]  # vllm 0.7.2 on H20 (vllm#13693)
    assert issue.observed == "vllm 0.7.2; GPU NVIDIA H20" and "<" not in issue.observed and " vs " not in issue.observed
    ifname = _case_findings("C25", "env.nccl-socket-ifname")[0]
    assert (ifname.observed, ifname.expected) == ("eth2", "one of lo, eth0")
    assert ifname.shown_expected("zh") == "lo, eth0 之一"
    majors = _case_findings("C15", "libraries.nccl-cuda-majors")[0]
    assert majors.expected in (None, "nvidia-nccl-cu12 only", "nvidia-nccl-cu13 only")
    assert "torch.version.cuda" not in (majors.expected or "")
    missing = _case_findings("C23", "packages.missing")[0]
    assert (missing.observed, missing.expected, missing.shown_observed("zh")) == ("not installed", "PyTorch 2.5.0a0+e000cf0", "未安装")
