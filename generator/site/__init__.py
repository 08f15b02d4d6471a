"""The bilingual documentation site generated from the release records.

Pipeline (:mod:`.build`): validate the knowledge base, compute the
language-neutral :mod:`.model`, render Markdown for English and Chinese with
Jinja2 (:mod:`.render`, templates in ``templates/``), write the
machine-readable files (:mod:`.api`), then build each language with MkDocs
Material (:mod:`.mkdocs_build`) and swap the result into the site folder.
``lingjun-kb build`` and ``lingjun-kb serve`` call :func:`cli_build` and
:func:`cli_serve`.
"""

from __future__ import annotations

from typing import Any

from lingjun.generator.site.site_url import site_url_from_config

__all__ = ["cli_build", "cli_serve", "site_url_from_config"]


def cli_build(args: Any) -> int:
    """``lingjun-kb build``: see :func:`lingjun.generator.site._commands.cli_build`."""
    from lingjun.generator.site._commands import cli_build as run  # deferred: pulls in jinja2, pydantic, which other commands do not need

    return run(args)


def cli_serve(args: Any) -> int:
    """``lingjun-kb serve``: see :func:`lingjun.generator.site._commands.cli_serve`."""
    from lingjun.generator.site._commands import cli_serve as run  # deferred: pulls in jinja2, pydantic, which other commands do not need

    return run(args)
