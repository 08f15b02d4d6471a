"""The process-wide cache of compiled Jinja2 templates (lingjun.generator.site._template_cache)."""

from __future__ import annotations

import jinja2
from jinja2 import DictLoader, Environment

from lingjun.generator.site._template_cache import SharedBytecodeCache
from lingjun.generator.site.render import TEMPLATE_DIR, compile_templates, make_environment


def _counting_compiles(monkeypatch) -> list[str]:
    names: list[str] = []
    original = jinja2.Environment.compile

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    return names


def test_a_second_markdown_environment_compiles_no_template_again(monkeypatch):
    compile_templates(make_environment())
    compiled = _counting_compiles(monkeypatch)
    env = make_environment()
    compile_templates(env)
    assert compiled == []
    assert len(env.list_templates()) == len(list(TEMPLATE_DIR.glob("*.j2")))


def test_environments_with_other_filters_or_settings_do_not_share_compiled_code():
    cache = SharedBytecodeCache()
    source = {"page": "{{ 'x' | shout }}\n{% if true %}\nline\n{% endif %}\n"}

    def env(shout, **options):
        made = Environment(loader=DictLoader(source), bytecode_cache=cache, **options)
        made.filters["shout"] = shout  # folded at compile time: 'x' is a constant
        return made

    def upper(text):
        return text.upper()

    def twice(text):
        return text * 2

    assert env(upper).get_template("page").render() == "X\n\nline\n"
    assert env(upper).get_template("page").render() == "X\n\nline\n"  # from the cache
    assert env(twice).get_template("page").render() == "xx\n\nline\n"
    assert env(upper, trim_blocks=True).get_template("page").render() == "X\nline\n"


def test_a_changed_template_is_compiled_again(monkeypatch):
    cache = SharedBytecodeCache()
    source = {"page": "one"}
    assert Environment(loader=DictLoader(source), bytecode_cache=cache).get_template("page").render() == "one"
    source["page"] = "two"
    compiled = _counting_compiles(monkeypatch)
    assert Environment(loader=DictLoader(source), bytecode_cache=cache).get_template("page").render() == "two"
    assert compiled == ["page"]
