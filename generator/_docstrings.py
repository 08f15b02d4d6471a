"""Docstrings blanked out of the modules the zipapp ships, their line numbers kept.

The checker never reads a docstring at run time (no ``__doc__``, no ``help``); in the archive they are a quarter
of the source, and the ConfigMap that carries the archive to every node has a hard limit of 1 MiB
(:data:`lingjun.generator.configmap.CONFIGMAP_LIMIT`).  Each docstring is replaced by a literal spanning the same
lines that holds only its newlines (``"-"`` for a one-line docstring: never an empty one, which ``@dataclass``
would fill from :func:`inspect.signature`, importing :mod:`inspect` at start-up), so a traceback from the archive
names the same line numbers as the checkout's file and shows the same code lines.
"""

from __future__ import annotations

import ast

__all__ = ["blank_docstrings"]


def _docstring_nodes(tree: ast.Module) -> list[ast.Expr]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.append(first)
    return found


def blank_docstrings(source: bytes) -> bytes:
    """``source`` (a UTF-8 Python module) with every module, class and function docstring replaced by ``"-"``, or
    by as many newlines as the docstring spanned inside a triple-quoted literal, so every other line
    keeps its number and its text.

    Returns ``source`` unchanged when it does not parse (the archive then ships it as it is, and the import fails
    the same way as from the checkout).
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    lines = source.splitlines(keepends=True)
    # from the last docstring up, so earlier offsets stay valid; ast's column offsets count UTF-8 bytes
    for node in sorted(_docstring_nodes(tree), key=lambda n: (n.lineno, n.col_offset), reverse=True):
        first, last = node.lineno - 1, node.end_lineno - 1
        head = lines[first][:node.col_offset]
        tail = lines[last][node.end_col_offset:]
        span = last - first
        # never empty: @dataclass writes a class without a docstring one from inspect.signature (importing inspect)
        literal = b'"-"' if span == 0 else b'"""' + b"\n" * span + b'"""'
        lines[first:last + 1] = [head + literal + tail]
    return b"".join(lines)
