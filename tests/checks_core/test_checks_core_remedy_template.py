"""The placeholders a remedy quotes from the input (``{{name|fallback}}``, :mod:`lingjun.checks.core.remedy_template`):
filled from values, said by their fallback words where the input does not show them, and counted when malformed."""

from __future__ import annotations

from lingjun.checks.core.remedy_template import VALUES, fallback, fill, malformed, placeholders

REMEDY = "Upgrade the host driver to {{driver.target|the branch the release notes name}}, then restart the pod."


def test_fill_puts_in_the_value_the_input_shows():
    assert fill(REMEDY, {"driver.target": "R580 (580 or later)"}) == (
        "Upgrade the host driver to R580 (580 or later), then restart the pod.")


def test_fill_says_the_fallback_for_a_value_missing_or_empty():
    words = "Upgrade the host driver to the branch the release notes name, then restart the pod."
    assert fill(REMEDY, {}) == words
    assert fill(REMEDY, {"driver.target": ""}) == words
    assert fallback(REMEDY) == words


def test_text_without_placeholders_and_template_braces_of_commands_stay_as_written():
    command = "docker inspect --format '{{.Config.Env}}' IMAGE"
    assert fill(command, {"driver.target": "R580"}) == command
    assert placeholders(command) == []


def test_placeholders_lists_names_and_fallbacks_in_order():
    text = "Use {{nvcc.gcc_max|the GCC the line names}} with CUDA {{cuda.required|X}}."
    assert placeholders(text) == [("nvcc.gcc_max", "the GCC the line names"), ("cuda.required", "X")]


def test_malformed_counts_openings_that_are_no_placeholder():
    assert malformed(REMEDY) == 0
    assert malformed("{{driver.target}} and {{driver.target|}} and {{Driver|x}} and {{ cuda.required | x }}") == 3
    assert malformed("docker inspect --format '{{.Config.Env}}'") == 0


def test_every_value_has_a_description_in_both_languages():
    assert {"driver.target", "cuda.required", "nvcc.gcc_max"} <= set(VALUES)
    assert all(en and zh and en != zh for en, zh in VALUES.values())
