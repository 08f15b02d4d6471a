"""packages.extension-abi: compiled torch extensions that no longer match the installed torch."""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import OBSERVED, input_name, state
from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.core.requirement_name import leading_name, normalise
from lingjun.checks.rules._finding import component_url, make
from lingjun.checks.rules._packages import PackageView, record_packages
from lingjun.checks.rules._remedies import constraints_install, fresh_container, restore_remedy, torch_is_image_build
from lingjun.checks.rules._words import Words
from lingjun.checks.core.version_match import parse_version, same_version

RULE = "packages.extension-abi"
AREA = "libraries"

_TE_CORE = re.compile(r"^transformer-engine-cu\d+$")
_norm = normalise

WORDS = Words({
    "shows-failure": ("the input shows the failure: \"{shown}\"", "输入中已出现该错误：“{shown}”"),
    "may-not-load": ("its compiled parts may not load (\"undefined symbol\")", "其编译部分可能无法加载（“undefined symbol”）"),
    "left-behind": (
        "{name} {version} is the release's build for torch {published}, but torch is now {torch}: {verdict}.",
        "{name} {version} 是该发布针对 torch {published} 的构建，而现在 torch 是 {torch}：{verdict}。"),
    "replaced": (
        "{name} was replaced ({published} -> {version}) while torch is still the image's own build "
        "{torch}: public wheels are built against released torch versions, so its compiled parts may not "
        "load on this build (\"undefined symbol\").",
        "{name} 已被替换（{published} -> {version}），而 torch 仍是镜像自带的构建 {torch}："
        "公开的 wheel 是针对正式发布的 torch 构建的，其编译部分在这个构建上可能无法加载（“undefined symbol”）。"),
    "other-version": ("Go back to the image's {name} {published}: {fresh}.{other}", "请换回镜像自带的 {name} {published}：{fresh}。{other}"),
    "shipped-by": (" For {name} {installed}, use a release whose image ships it, built for that image's torch: {releases}.",
                   "如需 {name} {installed}，请改用自带该版本（并针对其 torch 构建）的发布：{releases}。"),
    "shipped-by-none": (" No release of this family in lingjun-check's data ships {name} {installed}.",
                        "lingjun-check 的数据中，该系列没有自带 {name} {installed} 的发布。"),
    "pin": ("{dist} {version} requires {requirement}, but {target} {target_version} is installed{tail}",
            "{dist} {version} 要求 {requirement}，而当前安装的 {target} 为 {target_version}{tail}"),
    "pin-exact-tail": (": it was built for (or pinned to) that build, and its compiled parts may not load.",
                       "：它是针对（或固定于）该构建的，其编译部分可能无法加载。"),
    "pin-tail": (".", "。"),
    "pin-image-torch": (
        "The image's torch {shown} is its own build, and no public {dist} release pins a torch it meets: "
        "use the image's own {dist} ({fresh}), or a release whose image ships the {dist} you need.",
        "镜像自带的 torch {shown} 是其自有构建，没有任何公开的 {dist} 版本所固定的 torch 与之匹配：请使用镜像自带的 "
        "{dist}（{fresh}），或改用自带所需 {dist} 版本的发布。"),
    "pin-keep": (
        "Keep {target} {target_version} and install a {dist} release that accepts it: {keep} "
        "(pip refuses versions that would replace {target}).",
        "保留 {target} {target_version}，安装接受它的 {dist} 版本：{keep}（pip 会拒绝需要替换 {target} 的版本）。"),
    "before-torch": (
        "{name} {version} was installed ({at}) before the current torch {torch} "
        "({torch_at}): it was built for an earlier torch, "
        "and its compiled parts may not load (\"undefined symbol\").",
        "{name} {version} 的安装时间（{at}）早于当前 torch {torch}"
        "（{torch_at}）：它是针对之前的 torch 编译的，C++ 符号可能无法解析（“undefined symbol”）。"),
    "built-after": ("built after torch {torch}", "在 torch {torch} 之后编译"),
    "older-fresh": (
        "Go back to the release's torch and {name}: {fresh}; add packages there without replacing torch: {extra}.",
        "请换回该发布自带的 torch 与 {name}：{fresh}；之后安装其他包时不要替换 torch：{extra}。"),
    "older-build": (
        "Build {name} {version} against the installed torch from its source distribution: {cmd} "
        "(it needs nvcc and takes a while), or go back to the torch it was built for.",
        "针对当前 torch 从源码包重新编译 {name} {version}：{cmd}（需要 nvcc，耗时较长），或换回它构建时对应的 torch。"),
    "version-unknown": ("(version unknown)", "（版本未知）"),
    "te-meta": (
        "transformer-engine {version} from PyPI is only a meta package: neither its core library (transformer-engine-cu12/cu13) "
        "nor its PyTorch extension (transformer_engine_torch) is installed, so importing it fails with "
        "\"Found empty transformer-engine meta package installed\".",
        "来自 PyPI 的 transformer-engine {version} 只是一个元包：既没有安装核心库（transformer-engine-cu12/cu13），"
        "也没有安装 PyTorch 扩展（transformer_engine_torch），导入时会报 “Found empty transformer-engine meta package installed”。"),
    "te-meta-remedy": (
        "Use the image's Python, which carries a working Transformer Engine, or install it with its extension: "
        "pip install --no-build-isolation 'transformer-engine[pytorch]'.",
        "请使用镜像自带的 Python（其中的 Transformer Engine 可用），或连同扩展一起安装："
        "pip install --no-build-isolation 'transformer-engine[pytorch]'。"),
    "te-observed": ("transformer-engine {version}", "transformer-engine {version}"),
    "ok": ("Compiled torch extensions match the installed torch.", "编译的 torch 扩展与已安装的 torch 匹配。"),
    "ok-partial": ("The compiled torch extensions {name} lists match the installed torch; it does not list every package.",
                   "{name}中列出的编译 torch 扩展与已安装的 torch 匹配；它并未列出全部包。"),
})


def _may_name(line: str, targets: set[str]) -> bool:
    """Cheap pre-check: whether ``line`` can be a requirement on one of ``targets`` (False means it is not one)."""
    return leading_name(line) in targets


def _marker_env(facts: Facts) -> dict[str, str]:
    version = facts.python.version or ""
    env = {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "extra": ""}
    if version:
        env["python_full_version"] = version
        env["python_version"] = ".".join(version.split(".")[:2])
    if facts.host.machine:
        env["platform_machine"] = facts.host.machine
    return env


def _pin_target(line: str) -> str:
    """Normalised name a ``Requires-Dist`` line is about ("" when unreadable)."""
    from packaging.requirements import InvalidRequirement, Requirement  # deferred: packaging's requirements parser is not imported on every check

    try:
        return _norm(Requirement(line).name)
    except InvalidRequirement:
        return ""


def _abi_targets(ctx: CheckContext) -> set[str]:
    """Normalised distribution names whose exact build matters: torch and the catalog's torch extensions and vendor builds."""
    names = {"torch"}
    for comp in ctx.data.catalog:
        if comp.torch_extension or comp.vendor_build:
            names.update(_norm(n) for n in comp.pypi)
    return names


def _unsatisfied_pins(facts: Facts, targets: set[str]) -> Iterator[tuple[str, str, str, str]]:
    """(distribution, its requirement, its version, installed target version) for every unsatisfied
    ``Requires-Dist`` on one of ``targets`` whose target is installed."""
    env = _marker_env(facts)
    installed_versions = {_norm(d.name): d.version for d in facts.distributions if d.version}
    if "torch" not in installed_versions and facts.torch is not None and facts.torch.version:
        installed_versions["torch"] = facts.torch.version
    # many distributions repeat the same line ("torch>=2.0"): each distinct line is parsed and judged once
    verdicts: dict[str, Optional[tuple[str, str]]] = {}
    for dist in facts.distributions:
        for line in dist.requires:
            if not _may_name(line, targets):
                continue  # packaging would read another name (or none): not a pin on a target
            if line not in verdicts:
                verdicts[line] = _unsatisfied(line, targets, installed_versions, env)
            verdict = verdicts[line]
            if verdict is not None and verdict[0] != _norm(dist.name):
                yield dist.name, verdict[1], dist.version or "?", installed_versions[verdict[0]]


def _unsatisfied(line: str, targets: set[str], installed_versions: dict[str, str], env: dict[str, str]) -> Optional[tuple[str, str]]:
    """(normalised target, requirement as written by packaging) when ``line`` pins an installed target
    that does not satisfy it; None when it is satisfied, unreadable, conditional on an extra or not on a target."""
    from packaging.markers import InvalidMarker, UndefinedComparison, UndefinedEnvironmentName  # deferred: packaging's requirements parser is not imported on every check
    from packaging.requirements import InvalidRequirement, Requirement  # deferred: packaging's requirements parser is not imported on every check

    try:
        req = Requirement(line)
    except InvalidRequirement:
        return None
    target = _norm(req.name)
    if target not in targets or not str(req.specifier):
        return None
    installed = parse_version(installed_versions.get(target))
    if installed is None:
        return None
    if req.marker is not None:
        if "extra" in str(req.marker):
            return None
        try:
            if not req.marker.evaluate(env):
                return None
        except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
            return None
    return None if req.specifier.contains(installed, prereleases=True) else (target, str(req))


#: distributions of a torch-extension component that hold nothing compiled against torch: Transformer Engine's meta
#: package ``transformer_engine`` is a pure-Python wheel (``py3-none-any``, no source distribution on PyPI:
#: https://pypi.org/project/transformer-engine/#files) and its core ``transformer_engine_cu12`` links CUDA, not torch;
#: only ``transformer_engine_torch`` is built against torch
_NOT_BUILT_AGAINST_TORCH = re.compile(r"^transformer-engine(-cu\d+)?$")

#: how pip installs a component's framework build where its bare name does not: Transformer Engine needs the framework
#: as an extra, built against the installed torch (https://docs.nvidia.com/deeplearning/transformer-engine/user-guide/installation.html):
#: normalised name -> (requirement, pip options, the names the constraints file must leave free, as a grep -E pattern)
_INSTALL_SPEC = {
    "transformer-engine": ("'transformer_engine[pytorch]'", "--no-build-isolation ",
                           "transformer[-_]engine([-_](torch|cu[0-9]+))?"),
}


def _built_before_torch(ctx: CheckContext) -> list[tuple[str, str, str]]:
    """Catalog torch extensions whose dist-info is older than torch's: (name, version, installed_at)."""
    torch = ctx.facts.distribution("torch")
    if torch is None or not torch.installed_at:
        return []
    out = []
    for comp in ctx.data.catalog:
        if not comp.torch_extension:
            continue
        for name in comp.pypi:
            dist = ctx.facts.distribution(name)
            if dist is not None and _NOT_BUILT_AGAINST_TORCH.match(_norm(dist.name)):
                continue  # nothing in it is compiled against torch
            if dist is not None and dist.installed_at and dist.installed_at < torch.installed_at:
                out.append((dist.name, dist.version or "?", dist.installed_at))
    return out


def _te_meta_only(facts: Facts, image_version: Optional[str]) -> Optional[str]:
    """Version of a bare ``transformer-engine`` PyPI meta package installed without its core and framework packages.

    Only a distribution installed by an installer (pip, uv...) counts; the image's own build (its version equals the
    release record's ``image_version``) never does.  "" when the meta package carries no version.
    """
    te = facts.distribution("transformer-engine")
    if te is None or not te.installer:
        return None
    if image_version and same_version(image_version, te.version or ""):
        return None
    names = {_norm(d.name) for d in facts.distributions}
    if any(_TE_CORE.match(n) for n in names) or "transformer-engine-torch" in names:
        return None
    version = parse_version(te.version)
    from_source = bool(te.direct_url) or (version is not None and version.local is not None)
    return None if from_source else (te.version or "")


def _undefined_symbol(facts: Facts) -> Optional[str]:
    """An "undefined symbol" error line the input quotes (evidence that an extension failed to load), else None."""
    return next((e[:160] for e in facts.symptoms.errors if "undefined symbol" in e.lower()), None)


def _other_version(ctx: CheckContext, pkg: PackageView) -> Text:
    """Back to the image's build, and where another version of ``pkg`` comes built for the image's torch: a release
    of the same family that ships it (from the knowledge base), never a public wheel over the image's torch."""
    fresh = fresh_container(ctx)
    family = ctx.record.family if ctx.record is not None else None
    installed = pkg.installed.version or ""
    with_it = [r.ref for r in ctx.data.records
               if r.family == family and any(c.id == pkg.id and same_version(c.version, installed)
                                             for c in [*r.components, *(c for v in r.variants for c in v.components)])]
    name = pkg.catalog.label
    other = (WORDS("shipped-by", name=name, installed=installed, releases=", ".join(with_it[:3])) if with_it
             else WORDS("shipped-by-none", name=name, installed=installed))
    return WORDS("other-version", name=name, published=pkg.published, fresh=fresh, other=other)


def _pin_remedy(ctx: CheckContext, dist_name: str, target: str, target_version: str) -> Text:
    """A ``Requires-Dist`` on ``target`` that the installed one does not meet: keep ``target`` (the image's, when the
    record says it is its own build) and install a ``dist_name`` release that accepts it."""
    requirement, options, free = _INSTALL_SPEC.get(_norm(dist_name), (dist_name, "", re.escape(dist_name)))
    grep = f"grep -ivE '^({free})=='" if free != re.escape(dist_name) else f"grep -iv '^{dist_name}=='"
    keep = (f"pip list --format=freeze | {grep} > /tmp/image-constraints.txt, then "
            f"pip install {options}-c /tmp/image-constraints.txt --upgrade {requirement}")
    if _norm(target) == "torch" and torch_is_image_build(ctx):
        # the image's own torch (2.7.1.8+nv25.3) meets no public release's torch== pin (torchvision 0.22.1 pins
        # torch==2.7.1, which 2.7.1.8 is not): the image's own copy is the only one built for it
        torch_pkg = next((p for p in record_packages(ctx) if p.id == "torch"), None)
        shown = torch_pkg.published if torch_pkg is not None else "build"
        return WORDS("pin-image-torch", shown=shown, dist=dist_name, fresh=fresh_container(ctx))
    return WORDS("pin-keep", target=target, target_version=target_version, dist=dist_name, keep=keep)


def _older_build_remedy(ctx: CheckContext, name: str, version: str) -> Text:
    """An extension installed before the current torch: the release's pair from a fresh container when a record
    applies; else a build of it against the installed torch (pip builds from its source distribution)."""
    if ctx.record is not None:
        return WORDS("older-fresh", name=name, fresh=fresh_container(ctx), extra=constraints_install())
    cmd = f"pip install --no-build-isolation --no-deps --force-reinstall --no-binary {name} '{name}=={version}'"
    return WORDS("older-build", name=name, version=version, cmd=cmd)


def _torch_version(facts: Facts) -> Optional[str]:
    """The installed torch's version: its distribution's, else what torch itself reports."""
    torch_dist = facts.distribution("torch")
    return (torch_dist.version if torch_dist else None) or (facts.torch.version if facts.torch else None)


def _release_extensions(ctx: CheckContext, packages: list, torch_version: Optional[str]) -> tuple[bool, list[Finding]]:
    """The release's torch extensions against its torch: left behind by a torch change, or swapped for a public
    wheel over the image's own torch.  (whether any was checked, the findings)"""
    torch_pkg = next((p for p in packages if p.id == "torch"), None)
    if torch_pkg is None or not torch_version:
        return False, []
    torch_changed = same_version(torch_pkg.published, torch_version) is False
    checked, findings = False, []
    for pkg in packages:
        if not pkg.catalog.torch_extension or pkg.installed.version is None:
            continue
        checked = True
        same = same_version(pkg.published, pkg.installed.version)
        name = pkg.catalog.label
        links = [component_url(ctx, pkg.id, pkg.published)]
        if torch_changed and same is True:
            shown = _undefined_symbol(ctx.facts)
            verdict = WORDS("shows-failure", shown=shown) if shown else WORDS("may-not-load")
            findings.append(make(
                ctx, RULE, AREA, Severity.error,
                WORDS("left-behind", name=name, version=pkg.installed.version, published=torch_pkg.published,
                      torch=torch_version, verdict=verdict),
                remedy=restore_remedy(ctx, [torch_pkg]), observed=f"torch {torch_version}, {name} {pkg.installed.version}",
                expected=f"torch {torch_pkg.published}", links=links))
        elif not torch_changed and same is False and torch_pkg.image_build:
            findings.append(make(
                ctx, RULE, AREA, Severity.error,
                WORDS("replaced", name=name, published=pkg.published, version=pkg.installed.version, torch=torch_version),
                remedy=_other_version(ctx, pkg), observed=pkg.installed.version, expected=pkg.published, links=links))
    return checked, findings


def _pins(ctx: CheckContext) -> tuple[bool, list[Finding]]:
    """``Requires-Dist`` pins on torch, the catalog's extensions and vendor builds that the installed ones do not
    meet.  (whether any such pin was read, the findings)"""
    facts = ctx.facts
    targets = _abi_targets(ctx)
    checked = any(_may_name(line, targets) and _pin_target(line) in targets
                  for d in facts.distributions if _norm(d.name) not in targets for line in d.requires)
    findings = []
    for dist_name, requirement, version, target_version in _unsatisfied_pins(facts, targets):
        # imported only for a pin to report: packaging's parser costs the start-up of every other run
        from packaging.requirements import Requirement

        target = Requirement(requirement).name
        exact = "==" in requirement or _norm(target) != "torch"
        findings.append(make(
            ctx, RULE, AREA, Severity.error if exact else Severity.warning,
            WORDS("pin", dist=dist_name, version=version, requirement=requirement, target=target,
                  target_version=target_version, tail=WORDS("pin-exact-tail" if exact else "pin-tail")),
            remedy=_pin_remedy(ctx, dist_name, target, target_version),
            observed=f"{target} {target_version}", expected=requirement))
    return checked or bool(findings), findings


def _installed_before_torch(ctx: CheckContext, torch_version: Optional[str]) -> list[Finding]:
    torch_dist = ctx.facts.distribution("torch")
    torch_at = torch_dist.installed_at if torch_dist else "?"
    return [make(ctx, RULE, AREA, Severity.error,
                 WORDS("before-torch", name=name, version=ext_version, at=ext_time, torch=torch_version, torch_at=torch_at),
                 remedy=_older_build_remedy(ctx, name, ext_version),
                 observed=f"{name} {ext_version} @ {ext_time}", expected=WORDS("built-after", torch=torch_version))
            for name, ext_version, ext_time in _built_before_torch(ctx)]


def _te_meta(ctx: CheckContext, packages: list, full_list: bool) -> list[Finding]:
    # "neither part is installed" needs the full package list; a partial one (collect_env) may just not name them
    if not full_list:
        return []
    te_pkg = next((p for p in packages if p.id == "transformer-engine"), None)
    te_meta = _te_meta_only(ctx.facts, te_pkg.published if te_pkg else None)
    if te_meta is None:
        return []
    version = te_meta or WORDS("version-unknown")
    return [make(ctx, RULE, AREA, Severity.error, WORDS("te-meta", version=version), remedy=WORDS("te-meta-remedy"),
                 observed=WORDS("te-observed", version=version), links=[component_url(ctx, "transformer-engine", None)])]


@rule(RULE, AREA, "Compiled extensions match torch", "编译扩展与 torch 匹配", order=160, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error for extensions left behind by a torch change, extensions swapped for prebuilt wheels on the image's
    torch, unsatisfied ``torch==`` pins, and an empty Transformer Engine meta package; ok otherwise."""
    facts = ctx.facts
    torch_version = _torch_version(facts)
    packages = list(record_packages(ctx)) if ctx.record is not None else []
    full_list = state(facts, "distributions") == OBSERVED
    release_checked, release_findings = _release_extensions(ctx, packages, torch_version)
    pins_checked, pin_findings = _pins(ctx)
    findings = [*release_findings, *pin_findings, *_installed_before_torch(ctx, torch_version),
                *_te_meta(ctx, packages, full_list)]
    yield from findings
    if findings or not (release_checked or pins_checked):
        return
    if full_list:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok"))
    else:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok-partial", name=input_name(facts)))
