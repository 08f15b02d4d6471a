"""Error-level lines: a line a logger, a compiler or a build tool marks as an error, whoever wrote it.

The error signatures and catalogs name the lines they know; a failed job's log often ends in a line they do not:
vLLM's ``ERROR 09-26 10:57:34 [core.py:700] EngineCore failed to start.``, glog's
``E0914 12:00:01.123456 1234 cuda_dnn.cc:535] ...``, gcc's ``foo.cu:3:10: fatal error: cuda_fp8.h: No such file or
directory``, pip's ``ERROR: Could not find a version ...``.  Such a line is an observed failure of unknown cause:
the report quotes the first of them, never "no known error line".

Each form is found in two steps, so that a log without such lines costs nothing more: a literal the block search
looks for (:data:`LITERALS`, a few bytes every line of the form holds), then a short expression over the start of
the line that decides whether the literal is the line's level (``ERROR`` in ``VLLM_LOGGING_LEVEL=ERROR`` or in
``--log-level ERROR`` is not).

The forms, from the printers' own formats:

* Python's ``logging`` (``ERROR:root:msg``, ``... - ERROR - msg``), vLLM and SGLang (``ERROR 09-26 10:57:34``),
  loguru (``| ERROR    |``), bracketed levels (``[ERROR]``, ``[FATAL]``) and ``CRITICAL``
  (https://docs.python.org/3/library/logging.html#logrecord-attributes);
* glog and klog (``E1204 11:38:59.123456 1234 file.cc:12]``, ``F...`` for fatal;
  https://github.com/google/glog#log-line-prefix-format), as XLA, TensorFlow and Kubernetes' components print them,
  and c10's older ``[E ProcessGroupNCCL.cpp:475]``;
* logfmt's ``level=error`` and ``level=fatal`` (containerd, the GPU Operator's Go components);
* compilers and linkers: gcc/clang/nvcc ``fatal error:`` and ``file:line:col: error:``, nvcc's ``file.cu(12): error:``,
  ``nvcc fatal``, ``ptxas fatal``, ld's ``cannot find -lNAME`` and ``undefined reference to``, ``collect2: error:``,
  setuptools' ``error: command '...' failed``, make's ``*** [...] Error N`` and ninja's ``FAILED:``, pip's
  ``error: subprocess-exited-with-error``;
* a failed assertion (``Assertion failed``, glibc's ``Assertion `x' failed.``, a CUDA kernel's ``Assertion `x` failed.``);
* the dynamic loader's ``undefined symbol:``, ``cannot open shared object file`` and ``version `X' not found``; a
  shell's ``line 4: /usr/bin/.nvidia-smi: No such file or directory`` and ``command not found``;
* Docker's ``Error response from daemon:``; Kubernetes' warning events as ``kubectl describe`` lists them
  (``Warning  FailedScheduling``) and the pod states of ``kubectl get pods`` (or a ``Reason:`` line of
  ``kubectl describe pod``) that are failures (``CrashLoopBackOff``, ``ImagePullBackOff``, ``OOMKilled``,
  ``UnexpectedAdmissionError``, ...).
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

__all__ = ["LITERALS", "HEAD", "FAILURE_KINDS", "kind_of"]

#: how far into a line a level may start (a time stamp, a host, a pod and a rank prefix come first)
HEAD = 160
#: characters read either side of an occurrence of the literal of a failure's form that may stand anywhere in a line
AROUND = 200
#: the most occurrences of such a literal one line is read around: an earlier mention of it (a path, an echoed command)
#: hides no failure after it, and a line of many mentions costs no more than this many reads
AROUND_READS = 8

#: literal -> (kind, expression over the line's first :data:`HEAD` characters deciding it is the line's level);
#: the kinds are "logger" (a logging level), "glog", "build" (a compiler, linker or build tool)
#: (compiled on first use, through ``re``'s own cache: a check without a log never compiles them)
_FORMS: dict[str, tuple[str, str]] = {}


def _form(kind: str, regex: str, *literals: str) -> None:
    for literal in literals:
        _FORMS[literal] = (kind, regex)


# a level word that is the line's level: bracketed, followed by a colon, between dashes or bars, or followed by a
# date or time (vLLM's "ERROR 09-26 10:57:34"), after nothing but a prefix
_LEVEL = (r"(?:^|[\s\[\](|:>-])(?:\[{L}\]|<{L}>|{L}:|{L} +[-|]|{L} +\d\d[-:/]\d\d|\| *{L}\b|- {L} -)")
_form("logger", _LEVEL.replace("{L}", "ERROR"), "ERROR")
_form("logger", _LEVEL.replace("{L}", "FATAL"), "FATAL")
_form("logger", _LEVEL.replace("{L}", "CRITICAL"), "CRITICAL")
_form("logger", r"\blevel=(?:error|fatal)\b", "level=error", "level=fatal")
# glog/klog: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] (only E and F are errors; absl writes E0000 00:00:<epoch>
# before its start-up is logged; c10 writes [E1120 07:46:10.118345285 ProcessGroupNCCL.cpp:616] without the thread),
# TensorFlow's "2018-03-27 15:29:16.782566: E path/cuda_dnn.cc:352]" and the older "E path/file.cc:352]"
_form("glog", r"(?:^|[\s\[:])(?:[EF]\d{4} [\d:.]{8,30}(?: +\d{1,10})? |[EF] )[\w.+/-]{1,200}:\d{1,7}\]",
      ".cc:", ".cpp:", ".cu:", ".go:")
_form("build", r"fatal error: ", "fatal error: ")
_form("build", r"(?:^|\s)(?:nvcc|ptxas) fatal\s*:", "nvcc fatal", "ptxas fatal")
_form("build", r"(?:[\w.+/-]:\d{1,7}(?::\d{1,5})?|\(\d{1,7}\)|collect2|\bld): error: ", ": error: ")
_form("build", r"(?:^|\s)(?:/usr/bin/)?ld(?:\.\w{1,8})?: cannot find -l\S", "cannot find -l")
_form("build", r"undefined reference to [`']", "undefined reference to ")
_form("build", r"(?:^|\s)error: command '[^']{1,400}' failed", "error: command '")
_form("build", r"\*\*\* \[[^\]]{1,300}\] Error \d", "] Error ")
_form("build", r"(?:^|\s)FAILED: \S", "FAILED: ")

# pip's and setuptools' own error marker at the start of a line ("  error: subprocess-exited-with-error")
_form("build", r"^\s{0,12}(?:×\s)?error: [a-z]", "error: ")
# the dynamic loader (ld.so) refusing a library: "libx.so.9: undefined symbol: name", "cannot open shared object file",
# "version `GLIBCXX_3.4.30' not found (required by ...)" (https://man7.org/linux/man-pages/man8/ld.so.8.html)
_form("loader", r"\.so(?:\.\d{1,6}){0,4}: undefined symbol: \S", ": undefined symbol: ")
_form("loader", r"\.so(?:\.\d{1,6}){0,4}: cannot open shared object file", "cannot open shared object file")
_form("loader", r"version [`'][\w.@-]{1,80}' not found \(required by ", "' not found (required by ")
# a shell's report of a command it could not run ("/usr/bin/nvidia-smi: line 4: /usr/bin/.nvidia-smi: No such file or
# directory", "bash: nvcc: command not found")
_form("shell", r"(?:^|\s)(?:/[\w.+/-]{1,200}|-?(?:ba|z|da)?sh): (?:line \d{1,7}: )?[^\n]{0,300}: "
               r"(?:No such file or directory|command not found|Permission denied)\s*$",
      ": command not found", "No such file or directory", ": Permission denied")
# a failed assertion, which ends the program or the request ("[TensorRT-LLM][ERROR] Assertion failed: Failed to
# deserialize cuda engine", glibc's "python: x.c:12: f: Assertion `n > 0' failed."), and a CUDA kernel's, which the
# device prints with a backtick at both ends ("Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0],
# thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.")
_form("assertion", r"\bAssertion failed\b|\bAssertion [`'][^\n]{1,300}[`'] failed", "Assertion failed", "Assertion `",
      "Assertion '")
# BuildKit's end of a failed docker build ("ERROR: failed to solve: process \"/bin/sh -c pip install ...\" did not
# complete successfully: exit code: 1"; https://docs.docker.com/build/buildkit/)
_form("container", r"failed to solve: \S", "failed to solve: ")
# Docker's client and engine ("docker: Error response from daemon: ...")
_form("container", r"Error response from daemon: \S", "Error response from daemon")
# Kubernetes: an event of kubectl describe ("Warning  FailedScheduling  2m  default-scheduler  ..."), a pod state
_form("kubernetes", r"^\s{0,12}Warning\s{2,12}(?:Failed|BackOff|Unhealthy|Evicted|OOMKill|Preempt|UnexpectedAdmission)"
                    r"\w{0,40}\s", "Warning  ")
# a pod's state as kubectl get pods lists it, or its Reason: line in kubectl describe pod (the kubelet refused it at
# admission: UnexpectedAdmissionError, OutOfnvidia.com/gpu)
_form("kubernetes", r"(?:\s{2}|^\s{0,12}(?:Last State:\s{1,20}Terminated\s{0,4}\n?)?Reason:\s{1,20})(?:CrashLoopBackOff|ImagePullBackOff|ErrImagePull|CreateContainerError|"
                    r"CreateContainerConfigError|RunContainerError|OOMKilled|UnexpectedAdmissionError|"
                    r"OutOf[\w./-]{1,60})(?:\s{2}|\s*$)", "CrashLoopBackOff", "ImagePullBackOff",
      "ErrImagePull", "CreateContainerError", "CreateContainerConfigError", "RunContainerError", "OOMKilled",
      "UnexpectedAdmissionError", "OutOfnvidia.com/")

#: the literals the block search looks for, each with the form it starts
LITERALS = tuple(sorted(_FORMS))

#: the kinds whose line states that a step failed (a compiler, the loader, a shell, Docker, Kubernetes), not a level a
#: program logged at, which a run may survive: with no known error beside it such a line is an error of the report
FAILURE_KINDS = frozenset({"build", "assertion", "loader", "shell", "container", "kubernetes"})


def kind_of(line: str, literal: str) -> Optional[str]:
    """The kind of error-level line ``line`` is by the form ``literal`` starts (one of :data:`LITERALS`): "logger",
    "glog", "build", "assertion", "loader", "shell", "container" or "kubernetes"; None when the literal is not the line's level (``LOG_LEVEL=ERROR``, an ``INFO`` line naming
    ``foo.cc:12``).

    Args:
        line: one decoded log line (any length; only its first :data:`HEAD` characters are read, or, for the forms
            of :data:`FAILURE_KINDS` that may stand anywhere, the :data:`AROUND` characters either side of each
            occurrence of the literal, at most :data:`AROUND_READS` of them, until one is the form).
        literal: the literal the line was found by.

    >>> kind_of("ERROR 09-26 10:57:34 [core.py:700] EngineCore failed to start.", "ERROR")
    'logger'
    >>> kind_of("export VLLM_LOGGING_LEVEL=ERROR", "ERROR") is None
    True
    >>> kind_of("x.cu:3:10: fatal error: cuda_fp8.h: No such file or directory", "fatal error: ")
    'build'
    """
    form = _FORMS.get(literal)
    if form is None:
        return None
    kind, regex = form
    # a failed step's words may stand anywhere in the line: read around each occurrence of the literal; a level, at
    # the line's head
    if kind in FAILURE_KINDS and not regex.startswith("^"):
        return kind if any(re.search(regex, text) for text in _around(line, literal)) else None
    text = line[:HEAD]
    found = re.search(regex, text)
    if found is None:
        return None
    if kind == "logger" and re.match(_CONTINUATION, text[re.compile(_LEVEL_TAIL).match(text, found.end()).end():]):
        return None  # a traceback or a message printed under the level line by line, not an error of its own
    return kind


def _around(line: str, literal: str) -> "Iterator[str]":
    """The text :data:`AROUND` characters either side of each occurrence of ``literal`` in ``line`` that the text
    before does not hold whole, at most :data:`AROUND_READS` of them."""
    at = line.find(literal)
    for _ in range(AROUND_READS):
        if at < 0:
            return
        yield line[max(0, at - AROUND):at + AROUND]
        at = line.find(literal, at + max(AROUND - len(literal) + 1, 1))


#: what follows a level before its message: padding, a separator, the rest of a time stamp, a ``[file.py:596]`` bracket
#: (older vLLM releases wrote ``file.py:226]`` without its opening bracket)
_LEVEL_TAIL = r"\s*[|-]?\s*(?:\d[\d:., /-]{0,30}\s)?(?:\[[^\]]{0,120}\]|[\w.-]{1,120}:\d{1,7}\])?"
#: a message that makes the line a continuation: indented text (vLLM prints each line of a worker's traceback as
#: ``ERROR 08-20 03:19:43 [x.py:596]     code``), a traceback's header or frame, or nothing
_CONTINUATION = r"\s{2}|\s*$|\s*Traceback \(|\s*File \""
