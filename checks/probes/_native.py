"""Shared logic of the cuDNN and NCCL probes: headers, library files, pip wheels, loader resolution.

A :class:`NativeSpec` names one library; :func:`probe_native` fills a
:class:`~lingjun.checks.facts.NativeLibraryFacts`:

* ``header_version`` / ``header_path``: the first header found of
  ``spec.headers`` (system include directories, then the wheels'
  ``nvidia/<lib>/include``), parsed by ``spec.parse_header``;
* ``files``: every ``lib<name>.so.<digits>`` in the loader search directories
  and the wheels' ``nvidia/<lib>/lib`` directories, one entry per real file,
  version from the file name (after following links) or, for wheel files
  named only by SONAME, from the wheel's metadata when exactly one wheel owns
  the directory;
* ``wheels``: installed ``nvidia-<lib>-cu<major>`` distributions;
* ``resolved``: the file the loader picks for ``lib<name>.so.<major>`` where
  the major is the one torch pins, else the header's, else the highest found.
  The search order is LD_LIBRARY_PATH, wheel directories (torch's RUNPATH),
  ld.so.conf, defaults (:mod:`lingjun.checks.probes.loader`);
* ``env_version``: the image's ``NCCL_VERSION`` / ``CUDNN_VERSION``;
* ``expected_by_torch``: the ``==`` pin in torch's ``Requires-Dist`` on
  ``nvidia-<lib>-cu<major>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

from lingjun.checks.facts import LibraryFile, NativeLibraryFacts, WheelFacts
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.distributions import scan, site_dirs
from lingjun.checks.probes.loader import SearchDir, loader_facts, resolve, search_dirs, version_from_name

__all__ = ["NativeSpec", "probe_native", "parse_defines"]

_DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Z_0-9]+)\s+(.+?)\s*(?:/[/*].*)?$", re.MULTILINE)
_PIN_RE = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*(?:\[[^\]]*\])?\s*\(?\s*===?\s*([^\s,;)]+)")


def parse_defines(text: str) -> dict[str, str]:
    """``#define NAME value`` pairs of a C header (first definition wins)."""
    out: dict[str, str] = {}
    for match in _DEFINE_RE.finditer(text):
        out.setdefault(match.group(1), match.group(2).strip())
    return out


@dataclass(frozen=True)
class NativeSpec:
    """Which library to probe and how to read its header."""

    lib: str  # "cudnn" / "nccl": file stem, wheel name part and nvidia/<lib> directory
    headers: tuple[str, ...]  # container paths to try, in order
    wheel_headers: tuple[str, ...]  # header names inside nvidia/<lib>/include
    parse_header: Callable[[str], Optional[str]]
    env_var: str


def _wheel_re(lib: str) -> "re.Pattern[str]":
    return re.compile(rf"^nvidia[-_.]{lib}[-_.]cu([0-9]{{1,18}})$", re.IGNORECASE)  # (a longer run is not a CUDA major)


def probe_native(env: ProbeEnv, spec: NativeSpec) -> NativeLibraryFacts:
    """Probe one native library (see the module docstring)."""
    facts = NativeLibraryFacts(env_version=env.environ.get(spec.env_var) or None)
    dists = scan(env)
    wheel_re = _wheel_re(spec.lib)
    facts.wheels.extend(_wheels(dists, wheel_re))
    pin = _torch_pin(dists, wheel_re)
    if pin is not None:
        facts.expected_by_torch = pin

    wheel_base = [f"{site}/nvidia/{spec.lib}" for site in site_dirs(env)]
    wheel_base = [base for base in wheel_base if env.isdir(base)]
    header = _header(env, spec, wheel_base)
    if header is not None:
        facts.header_version, facts.header_path = header

    wheel_lib_dirs = [f"{b}/lib" for b in wheel_base if env.isdir(f"{b}/lib")]
    dirs = search_dirs(loader_facts(env), wheel_lib_dirs)
    wheel_version = _wheel_dir_versions(facts.wheels, wheel_lib_dirs, spec.lib)
    majors: set[int] = set()
    for directory in dirs:
        facts.files.extend(_dir_files(env, spec.lib, directory, wheel_version, majors))

    major = _major(facts.expected_by_torch) or _major(facts.header_version) or (max(majors) if majors else None)
    if major is not None:
        facts.resolved = _resolved(env, spec.lib, major, dirs, facts.files, wheel_version)
    return facts


def _wheels(dists: list, wheel_re: "re.Pattern[str]") -> list[WheelFacts]:
    """The installed ``nvidia-<lib>-cu<major>`` distributions."""
    wheels = []
    for dist in dists:
        match = wheel_re.match(dist.name)
        if match:
            wheels.append(WheelFacts(name=dist.name, version=dist.version, cuda_major=int(match.group(1)), location=dist.location))
    return wheels


def _torch_pin(dists: list, wheel_re: "re.Pattern[str]") -> Optional[str]:
    """The ``==`` version the first installed torch's ``Requires-Dist`` pins for the library's wheel, None without one."""
    for dist in dists:
        if dist.name.lower() == "torch":
            for requirement in dist.requires:
                pin = _PIN_RE.match(requirement)
                if pin and wheel_re.match(pin.group(1)):
                    return pin.group(2)
            return None
    return None


def _header(env: ProbeEnv, spec: NativeSpec, wheel_base: list[str]) -> Optional[tuple[str, str]]:
    """``(version, path)`` of the first readable header that gives a version: system paths, then the wheels'."""
    for path in list(spec.headers) + [f"{b}/include/{h}" for b in wheel_base for h in spec.wheel_headers]:
        try:
            text = env.open_bytes(path, 512 * 1024).decode("utf-8", "replace")
        except OSError:
            continue
        version = spec.parse_header(text)
        if version:
            return version, path
    return None


def _dir_files(env: ProbeEnv, lib: str, directory: SearchDir, wheel_version: dict[str, str], majors: set[int]) -> list[LibraryFile]:
    """The ``lib<lib>.so.<digits>`` files of one search directory, one per real file (the shortest name kept);
    the SONAME majors seen are added to ``majors``."""
    file_re = re.compile(rf"^lib{lib}\.so\.(\d+)(?:\.\d+)*$")
    file_prefix = f"lib{lib}.so."  # every name file_re matches starts with it
    by_real: dict[str, LibraryFile] = {}
    for name in _listing(env, directory.path):
        match = file_re.match(name) if name.startswith(file_prefix) else None
        if not match:
            continue
        majors.add(int(match.group(1)))
        path = f"{directory.path}/{name}"
        real = env.real_path(path)
        version = _full_version(version_from_name(real.rsplit("/", 1)[-1])) or _full_version(version_from_name(name))
        version = version or wheel_version.get(directory.path)
        current = by_real.get(real)
        if current is None or len(path) < len(current.path):
            by_real[real] = LibraryFile(path=path, version=version or (current.version if current else None), via=directory.via)
    return list(by_real.values())


def _resolved(env: ProbeEnv, lib: str, major: int, dirs: list[SearchDir], files: list[LibraryFile],
              wheel_version: dict[str, str]) -> Optional[LibraryFile]:
    """The file the loader picks for ``lib<lib>.so.<major>`` (None: none), with the best version known for it."""
    chosen = resolve(env, f"lib{lib}.so.{major}", dirs).chosen
    if chosen is None:
        return None
    chosen_dir = chosen.path.rsplit("/", 1)[0]
    known = next((f.version for f in files if f.path.rsplit("/", 1)[0] == chosen_dir and f.version and _major(f.version) == major), None)
    chosen.version = _full_version(chosen.version) or known or wheel_version.get(chosen_dir)
    return chosen


def _listing(env: ProbeEnv, path: str) -> list[str]:
    """``env.listdir(path)``, read once per run for both libraries (the loader directories hold thousands of files)."""
    return env.shared(f"native-listdir:{path}", lambda: env.listdir(path))


def _full_version(version: Optional[str]) -> Optional[str]:
    """Keep versions with at least major.minor (a bare SONAME major is not a version)."""
    return version if version and "." in version else None


def _major(version: Optional[str]) -> Optional[int]:
    if not version:
        return None
    match = re.match(r"^([0-9]{1,18})(?![0-9])", version)  # (a longer run is not a major version)
    return int(match.group(1)) if match else None


def _wheel_dir_versions(wheels: list[WheelFacts], lib_dirs: list[str], lib: str) -> dict[str, str]:
    """lib dir -> version, when exactly one wheel with a version lives in that site directory."""
    out: dict[str, str] = {}
    for lib_dir in lib_dirs:
        site = lib_dir[: -len(f"/nvidia/{lib}/lib")]
        owners = [w for w in wheels if w.location == site and w.version]
        if len(owners) == 1:
            out[lib_dir] = owners[0].version  # type: ignore[assignment]
    return out
