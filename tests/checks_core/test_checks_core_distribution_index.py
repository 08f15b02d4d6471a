"""Facts.distribution: an index by normalised name that always answers as a scan of ``distributions`` would."""

from __future__ import annotations

import copy
import random

from lingjun.checks.facts import DistributionFacts, Facts, normalise_name


def _scan(facts: Facts, name: str):
    wanted = normalise_name(name)
    return next((d for d in facts.distributions if normalise_name(d.name) == wanted), None)


NAMES = ["torch", "Flash_Attn", "flash-attn", "transformer.engine", "vllm", "nvidia-nccl-cu12", "apex", "NumPy"]
QUERIES = NAMES + ["flash_attn", "Transformer-Engine", "numpy", "absent", "TORCH"]


def test_lookups_match_a_scan_through_every_kind_of_change():
    rng = random.Random(8)
    facts = Facts(distributions=[DistributionFacts(name=n, version=str(i)) for i, n in enumerate(NAMES)])
    for step in range(400):
        for query in QUERIES:
            assert facts.distribution(query) is _scan(facts, query), (step, query)
        change = rng.randrange(5)
        if change == 0:  # a new list object
            facts.distributions = [DistributionFacts(name=rng.choice(QUERIES), version="n") for _ in range(rng.randrange(1, 9))]
        elif change == 1:  # appended (length changes)
            facts.distributions.append(DistributionFacts(name=rng.choice(QUERIES), version="a"))
        elif change == 2 and facts.distributions:  # the first item replaced (same length)
            facts.distributions[0] = DistributionFacts(name=rng.choice(QUERIES), version="r")
        elif change == 3 and facts.distributions:  # removed, or removed and another appended (same length)
            facts.distributions.pop(rng.randrange(len(facts.distributions)))
            if rng.random() < 0.5:
                facts.distributions.append(DistributionFacts(name=rng.choice(QUERIES), version="p"))
        elif facts.distributions:  # the last item replaced (same length)
            facts.distributions[-1] = DistributionFacts(name=rng.choice(QUERIES), version="l")


def test_an_item_found_before_and_since_renamed_or_replaced_is_not_returned():
    facts = Facts(distributions=[DistributionFacts(name=n, version="1") for n in NAMES])
    vllm = facts.distribution("vllm")
    assert vllm is facts.distributions[4]
    vllm.name = "vllm-renamed"
    assert facts.distribution("vllm") is None and facts.distribution("vllm_renamed") is vllm
    facts.distributions[5] = DistributionFacts(name="other", version="2")
    assert facts.distribution("nvidia-nccl-cu12") is None and facts.distribution("other") is facts.distributions[5]

def test_the_first_of_duplicates_wins_and_the_index_is_not_part_of_the_facts():
    first, second = DistributionFacts(name="Flash_Attn", version="1"), DistributionFacts(name="flash-attn", version="2")
    facts = Facts(distributions=[first, second])
    assert facts.distribution("flash.attn") is first
    assert "_dist_index" not in facts.to_dict() and facts == Facts(distributions=[first, second])
    copied = copy.deepcopy(facts)
    assert copied.distribution("flash-attn") == first and copied.distribution("flash-attn") is copied.distributions[0]


def _name_normalisations(monkeypatch, capsys, tmp_path, size: int) -> int:
    """How many distribution names a whole check with a release normalises for C01 plus ``size`` distributions."""
    import json

    from lingjun.checks.cli import main
    from lingjun.checks.core.requirement_name import normalise

    from checks_core_helpers import REPO

    data = json.loads((REPO / "tests" / "fixtures" / "cases" / "C01.json").read_text(encoding="utf-8"))
    data["distributions"] += [{"name": f"scale-pkg-{i}", "version": "1.0", "installer": "pip",
                               "requires": [f"torch>=0.{i % 5}"]} for i in range(size)]
    target = tmp_path / f"snapshot-{size}.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    for name in ("LINGJUN_RELEASE", "LINGJUN_CHECK_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    normalise.cache_clear()
    code = main(["--from", str(target), "--release", "training-nv-pytorch:25.10", "--format", "json"])
    capsys.readouterr()
    assert code in (0, 1, 2)
    info = normalise.cache_info()
    return info.hits + info.misses


def test_a_check_with_a_release_normalises_each_distribution_name_a_few_times_not_once_per_lookup(monkeypatch, capsys, tmp_path):
    """Work per distribution stays constant: before the index every lookup (about 135 with a release) scanned them all."""
    small = _name_normalisations(monkeypatch, capsys, tmp_path, 1000)
    large = _name_normalisations(monkeypatch, capsys, tmp_path, 3000)
    per_distribution = (large - small) / 2000
    assert 1 <= per_distribution <= 10, per_distribution
