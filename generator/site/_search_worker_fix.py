"""Repair lunr's token-set key in Material's search worker (a known lunr bug that breaks numeric queries).

Material for MkDocs ships lunr 2.x inside ``assets/javascripts/workers/search.<hash>.min.js``.
When the index is loaded, lunr builds a minimised automaton of every indexed term and merges the
nodes whose ``TokenSet.prototype.toString`` keys are equal.  That key joins each edge's label with
the child's numeric id without a delimiter, so with digit labels two different nodes can get the
same key ("1" + id 23 and "12" ... read as "0123"): the automaton then holds terms the index does
not, and a query that reaches one fails inside the worker ("Invalid query", TypeError reading
``_index``).  Driver versions are exactly such terms: on our pages a search for ``570`` or
``driver 570`` found nothing.  Upstream: https://github.com/olivernn/lunr.js/issues/503 (terms in
the inverted index that the loaded index cannot find).

:func:`search_worker_fix` is a MkDocs plugin that, after the build, ends each edge of that key with
a comma.  A label is always one character, so ``final flag, (label, id digits, comma)*`` reads back
one way only.

A second repair (:func:`patch_query_colons`) keeps a pasted log line searchable.  lunr reads ``word:``
as a field name; Material's worker turns an unknown field's colon into a space, but only the first of a
token, so a line holding ``09:52:01`` or ``host:1234:5678`` (every NCCL line does) stops the search with
"Invalid query" and finds nothing.  The repair replaces every colon of the query by a space before the
worker reads it, except after the field names the site indexes (``title:``, ``text:``, ``tags:``).
Nothing else in the worker changes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

__all__ = ["KEY_PATTERN", "QUERY_PATTERN", "patch_worker_text", "patch_query_colons", "search_worker_fix",
           "SearchWorkerFixError"]

#: lunr's TokenSet key as minified in Material 9's search worker: ``e=e+s+o.id}return e}`` with any names
KEY_PATTERN = re.compile(
    r'(TokenSet\.prototype\.toString=function\(\)\{if\(this\._str\)return this\._str;'
    r'for\(var (\w+)=this\.final\?"1":"0",[^{}]*\{var [^{}]*?)'
    r'\2=\2\+(\w+)\+(\w+)\.id\}'
)


#: the start of Material 9's ``search(query)`` method in the worker: ``search(e){if(e=e.replace(new RegExp("\\p{sc=Han}+"``
QUERY_PATTERN = re.compile(r'search\((\w+)\)\{if\(\1=\1\.replace\(new RegExp\("\\\\p\{sc=Han\}\+"')
#: the code the repair puts first in ``search``: colons become spaces, except after a field name of the site
_COLONS = '{0}=String({0}).replace(/(^|\\s)(title|text|tags):|:/g,(m,a,f)=>f?m:" ");'
_COLONS_MARK = '(title|text|tags):|:/g'


class SearchWorkerFixError(RuntimeError):
    """The search worker does not hold lunr's token-set key in the expected form (another Material build)."""


def patch_worker_text(text: str) -> str:
    """``text`` (the worker's JavaScript) with lunr's token-set key delimited; unchanged if already patched.

    Raises:
        SearchWorkerFixError: when the key's code is not found exactly once.
    """
    if '.id+","}' in text and "TokenSet.prototype.toString" in text:
        return text
    found = KEY_PATTERN.findall(text)
    if len(found) != 1:
        raise SearchWorkerFixError(f"lunr's TokenSet key found {len(found)} times in the search worker (expected once)")
    return KEY_PATTERN.sub(lambda m: f'{m.group(1)}{m.group(2)}={m.group(2)}+{m.group(3)}+{m.group(4)}.id+","}}', text)


def patch_query_colons(text: str) -> str:
    """``text`` (the worker's JavaScript) with the query's colons turned to spaces first (see the module docstring);
    unchanged if already patched.

    Raises:
        SearchWorkerFixError: when the start of ``search`` is not found exactly once.
    """
    if _COLONS_MARK in text:
        return text
    found = QUERY_PATTERN.findall(text)
    if len(found) != 1:
        raise SearchWorkerFixError(f"the worker's search(query) found {len(found)} times (expected once)")
    return QUERY_PATTERN.sub(lambda m: f"search({m.group(1)}){{{_COLONS.format(m.group(1))}" + m.group(0)[len(f"search({m.group(1)}){{"):],
                             text)


def search_worker_fix() -> Any:
    """A MkDocs plugin applying :func:`patch_worker_text` to the built search worker (``on_post_build``).

    Raises (from the build):
        mkdocs.exceptions.PluginError: when no worker is found or its code has another form.
    """
    from mkdocs.exceptions import PluginError  # deferred: pulls in mkdocs, which other commands do not need
    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need

    class SearchWorkerFix(BasePlugin):
        def on_post_build(self, config) -> None:
            workers = sorted((Path(config.site_dir) / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
            if not workers:
                raise PluginError("search worker fix: no assets/javascripts/workers/search.*.min.js in the built site")
            for worker in workers:
                try:
                    text = worker.read_text(encoding="utf-8")
                    worker.write_text(patch_query_colons(patch_worker_text(text)), encoding="utf-8")
                except SearchWorkerFixError as exc:
                    raise PluginError(f"search worker fix: {worker.name}: {exc}") from None

    return SearchWorkerFix()
