"""A Ctrl-C whose KeyboardInterrupt is swallowed (it landed in a finaliser) still stops the build before the swap."""

from __future__ import annotations

import pytest

from lingjun.generator import _interrupt


def test_a_swallowed_sigint_is_remembered_and_raised_at_the_next_check(monkeypatch):
    monkeypatch.setattr(_interrupt, "_seen", [])
    assert not _interrupt.interrupted()
    _interrupt.raise_if_interrupted()  # nothing arrived: no effect
    with pytest.raises(KeyboardInterrupt):
        _interrupt._on_sigint(2, None)  # what Python raises where the signal lands ...
    # ... may be swallowed ("Exception ignored in: <function _releaseLock>"); the flag is not
    assert _interrupt.interrupted()
    with pytest.raises(KeyboardInterrupt):
        _interrupt.raise_if_interrupted()
