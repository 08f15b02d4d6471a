"""NCCL_IB_HCA syntax: prefixes, '=' exact names, ':port', '^' exclude (NCCL's matchIfList)."""

import pytest

from lingjun.checks.core import nccl_ib_hca as hca

PORTS = [("mlx5_0", 1), ("mlx5_1", 1), ("mlx5_10", 1), ("mlx5_bond_0", 1), ("mlx5_bond_0", 2), ("erdma_0", 1)]


@pytest.mark.parametrize("value,expected", [
    ("mlx5", [p for p in PORTS if p[0].startswith("mlx5")]),
    ("mlx5_1", [("mlx5_1", 1), ("mlx5_10", 1)]),                     # a prefix
    ("=mlx5_1", [("mlx5_1", 1)]),                                      # exact
    ("=mlx5_bond_0:2", [("mlx5_bond_0", 2)]),                          # one port
    ("mlx5_bond_0:1,erdma", [("mlx5_bond_0", 1), ("erdma_0", 1)]),
    ("^mlx5", [("erdma_0", 1)]),
    ("^=mlx5_1,mlx5_bond_0:2", [("mlx5_0", 1), ("mlx5_10", 1), ("mlx5_bond_0", 1), ("erdma_0", 1)]),
    ("^", []),                                                         # NCCL: an empty exclude list excludes everything
    ("", PORTS),
    ("ib", []),
])
def test_resolve(value, expected):
    assert hca.resolve(hca.parse(value), PORTS) == expected


def test_parse_and_unmatched():
    p = hca.parse("^=mlx5_0:1, mlx5_9 ,,x:y")
    assert (p.exclude, p.exact) == (True, True)
    # NCCL's parseStringList keeps spaces as part of a name: " mlx5_9 " is a prefix no device has
    assert [str(e) for e in p.entries] == ["mlx5_0:1", " mlx5_9 ", "x"]
    assert p.notes == ["space", "empty-entry", "bad-port"]
    assert [str(e) for e in hca.unmatched(hca.parse("mlx5_0:2,mlx5_bond,mlx6"), PORTS)] == ["mlx5_0:2", "mlx6"]
    assert "doubled-prefix" in hca.parse("==mlx5_0").notes
