"""FactClause: a fact a condition tests is a known one, with an operator and a value its kind accepts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from lingjun.checks.core.condition_facts import FACTS, operators_for
from lingjun.schema.models import Condition, ErrorSignature, FactClause, SignaturePattern


@pytest.mark.parametrize("clause", [
    {"fact": "shm.size_bytes", "op": "lt", "value": 1073741824},
    {"fact": "limits.memlock_soft", "op": "in", "value": [65536, 8388608]},
    {"fact": "limits.cap_ipc_lock", "op": "eq", "value": False},
    {"fact": "gpu.compute_capability_min", "op": "ge", "value": "10.0"},
    {"fact": "driver.cuda", "op": "lt", "value": "12.8"},
    {"fact": "place", "op": "in", "value": ["kubernetes", "acs"]},
    {"fact": "nccl.network", "op": "eq", "value": "socket"},
])
def test_well_typed_clauses_validate(clause):
    assert FactClause.model_validate(clause).fact == clause["fact"]


@pytest.mark.parametrize("clause,fragment", [
    ({"fact": "shm.size", "op": "lt", "value": 1}, "unknown fact 'shm.size'"),
    ({"fact": "gpu.memory_bytes", "op": "gt", "value": 1}, "unknown fact 'gpu.memory_bytes'"),
])
def test_an_unknown_fact_is_refused_with_the_known_ones(clause, fragment):
    with pytest.raises(ValidationError) as info:
        FactClause.model_validate(clause)
    assert fragment in str(info.value) and "shm.size_bytes" in str(info.value)


@pytest.mark.parametrize("clause,fragment", [
    ({"fact": "shm.size_bytes", "op": "lt", "value": "1g"}, "shm.size_bytes is a whole number"),
    ({"fact": "shm.size_bytes", "op": "lt", "value": True}, "shm.size_bytes is a whole number"),
    ({"fact": "shm.size_bytes", "op": "in", "value": [1, "2"]}, "shm.size_bytes is a whole number"),
    ({"fact": "limits.cap_ipc_lock", "op": "eq", "value": 1}, "limits.cap_ipc_lock is true or false"),
    ({"fact": "limits.cap_ipc_lock", "op": "eq", "value": "yes"}, "limits.cap_ipc_lock is true or false"),
    ({"fact": "driver.version", "op": "ge", "value": 570}, "driver.version is a version"),
    ({"fact": "driver.version", "op": "ge", "value": "R570"}, "driver.version is a version"),
    ({"fact": "place", "op": "eq", "value": "ecs"}, "place is one of docker, kubernetes, acs"),
])
def test_a_value_of_the_wrong_type_is_refused(clause, fragment):
    with pytest.raises(ValidationError) as info:
        FactClause.model_validate(clause)
    assert fragment in str(info.value)


@pytest.mark.parametrize("clause,fragment", [
    ({"fact": "limits.cap_ipc_lock", "op": "lt", "value": True}, "limits.cap_ipc_lock is a bool fact: use one of eq, ne, not lt"),
    ({"fact": "driver.version", "op": "in", "value": ["570.1"]}, "driver.version is a version fact"),
    ({"fact": "place", "op": "gt", "value": "acs"}, "place is a word fact"),
    ({"fact": "shm.size_bytes", "op": "in", "value": 1}, "op 'in' takes a non-empty list"),
    ({"fact": "shm.size_bytes", "op": "in", "value": []}, "op 'in' takes a non-empty list"),
    ({"fact": "shm.size_bytes", "op": "lt", "value": [1]}, "op 'in' takes a non-empty list"),
])
def test_an_operator_the_kind_does_not_take_is_refused(clause, fragment):
    with pytest.raises(ValidationError) as info:
        FactClause.model_validate(clause)
    assert fragment in str(info.value)


def test_an_operator_outside_the_language_is_refused():
    with pytest.raises(ValidationError, match="op"):
        FactClause.model_validate({"fact": "shm.size_bytes", "op": "below", "value": 1})


def test_every_fact_kind_has_operators():
    assert all(operators_for(spec.kind) for spec in FACTS.values())


def test_a_condition_carries_its_fact_clauses():
    condition = Condition.model_validate({"facts": [{"fact": "rdma.devices", "op": "eq", "value": 0}]})
    assert condition.facts[0].value == 0


def test_a_signature_pattern_literal_with_edge_white_space_or_a_broken_regex_is_refused():
    with pytest.raises(ValidationError, match="white space"):
        SignaturePattern.model_validate({"literal": " NCCL WARN"})
    with pytest.raises(ValidationError, match="does not compile"):
        SignaturePattern.model_validate({"literal": "NCCL WARN", "regex": "(unclosed"})


def test_a_signature_needs_a_pattern_an_example_a_cause_and_a_source():
    base = {"kind": "error-signature", "id": "x-y", "printed_by": "nccl", "title": {"en": "T", "zh": "题"},
            "explanation": {"en": "E", "zh": "解"}}
    with pytest.raises(ValidationError) as info:
        ErrorSignature.model_validate({**base, "patterns": [], "examples": [], "causes": [], "sources": []})
    assert {err["loc"][0] for err in info.value.errors()} == {"patterns", "examples", "causes", "sources"}


@pytest.mark.parametrize("literal", ["abcd\nefgh", "NCCL\u00a0WARN", "NCCL\u200bWARN"])
def test_a_literal_no_printed_line_can_hold_is_refused(literal):
    from lingjun.schema.models import SignaturePattern

    with pytest.raises(ValueError, match="line break, a control, a no-break or zero-width space"):
        SignaturePattern(literal=literal)
