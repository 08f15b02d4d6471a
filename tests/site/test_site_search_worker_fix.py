"""The lunr token-set key repair applied to Material's search worker (generator/site/_search_worker_fix.py)."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from lingjun.generator.site._search_worker_fix import SearchWorkerFixError, patch_worker_text

WORKERS = sorted((Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "workers").glob("search.*.min.js"))


def test_the_installed_material_worker_is_patched_once_and_only_there():
    assert WORKERS, "Material's search worker is not where the fix looks for it"
    text = WORKERS[0].read_text(encoding="utf-8")
    patched = patch_worker_text(text)
    assert len(patched) == len(text) + 4  # +',' and its quotes: one place changed
    assert patched.count('.id+","}') == 1
    assert patched.replace('.id+","}', ".id}") == text
    assert patch_worker_text(patched) == patched  # a second build leaves it as it is


def test_the_key_is_unambiguous_with_digit_labels():
    # the two token-set nodes lunr merged: edge "1" to node 23, and edges "1" to 2 and "3" to ... read "0123..."
    def key(final, edges, delimited):
        out = "1" if final else "0"
        for label, child in sorted(edges.items()):
            out += label + str(child) + ("," if delimited else "")
        return out

    a, b = {"1": 234}, {"1": 2, "3": 4}
    assert key(False, a, False) == key(False, b, False)  # lunr's own key: a collision
    assert key(False, a, True) != key(False, b, True)


def test_another_worker_shape_is_refused_not_guessed():
    with pytest.raises(SearchWorkerFixError):
        patch_worker_text("t.TokenSet.prototype.toString=function(){return this._str}")


def test_a_pasted_log_line_with_colons_reaches_the_search_as_words():
    """NCCL lines hold host:pid:tid and 09:52:01; lunr would read each 'word:' as a field and give up."""
    import shutil
    import subprocess

    from lingjun.generator.site._search_worker_fix import _COLONS, patch_query_colons

    text = WORKERS[0].read_text(encoding="utf-8")
    patched = patch_query_colons(text)
    assert patched.count(_COLONS.format("e")) == 1 and len(patched) == len(text) + len(_COLONS.format("e"))
    assert patch_query_colons(patched) == patched
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the repair's JavaScript is run by the browser test only")
    script = ("const f = e => { " + _COLONS.format("e") + " return e; };\n"
              "for (const q of JSON.parse(process.argv[1])) console.log(f(q));")
    queries = ["[2025-06-06 09:52:01] node-1:15016:15201 [1] misc/shmutils.cc:87 NCCL WARN Error",
               "title:NCCL text:posix_fallocate", "a:b"]
    out = subprocess.run(["node", "-e", script, __import__("json").dumps(queries)], capture_output=True, text=True,
                         timeout=30).stdout.splitlines()
    assert out == ["[2025-06-06 09 52 01] node-1 15016 15201 [1] misc/shmutils.cc 87 NCCL WARN Error",
                   "title:NCCL text:posix_fallocate", "a b"]
