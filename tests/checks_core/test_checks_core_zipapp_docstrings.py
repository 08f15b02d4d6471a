"""The zipapp's modules ship without docstrings, with every line number and code line kept."""

from __future__ import annotations

import ast

from lingjun.generator._docstrings import blank_docstrings
from lingjun.generator.zipapp import zip_entries

SOURCE = '''"""Module text
over two lines."""
from __future__ import annotations


class Probe:
    r"""One line with a quote \\" in it."""

    def read(self) -> str:
        """Read it.

        Returns: the text — ünïcode before the column.
        """
        x = "not a docstring"
        return x


def f():
    return 1
'''


def test_blank_docstrings_keeps_line_numbers_and_code_lines():
    out = blank_docstrings(SOURCE.encode()).decode()
    before, after = SOURCE.splitlines(), out.splitlines()
    assert len(before) == len(after)
    for old, new in zip(before, after):
        if '"""' not in old and "Returns" not in old and "over two" not in old:
            assert old == new
    assert after[0] == '"""' and after[1] == '"""'
    assert after[6] == '    "-"'
    assert after[9:13] == ['        """', "", "", '"""']
    assert 'x = "not a docstring"' in after[13]
    tree = ast.parse(out)
    assert ast.get_docstring(tree) == "" and ast.get_docstring(tree.body[2]) == "-"
    namespace: dict = {}
    exec(compile(out, "m.py", "exec"), namespace)
    assert namespace["Probe"]().read() == "not a docstring" and namespace["f"]() == 1


def test_blank_docstrings_leaves_a_module_that_does_not_parse_as_it_is():
    assert blank_docstrings(b"def (:\n") == b"def (:\n"


def test_archive_modules_have_no_docstrings_and_the_same_line_count():
    entries = dict(zip_entries())
    from lingjun.generator.zipapp import _checks_dir
    checked = 0
    for name, content in entries.items():
        if name.startswith("lingjun/checks/") and name.endswith(".py"):
            tree = ast.parse(content)
            assert ast.get_docstring(tree) in (None, "", "-"), name
            original = (_checks_dir() / name[len("lingjun/checks/"):]).read_bytes()
            assert content.count(b"\n") == original.count(b"\n"), name
            checked += 1
    assert checked > 150
    # vendored packaging stays as its authors wrote it
    assert b'"""' in entries["packaging/version.py"]

