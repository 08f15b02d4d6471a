"""lingjun.checks.knowledge.carried: what a family's releases stated, carried to a release that did not capture it."""

from lingjun.checks.knowledge.carried import carried_known_issues, carried_usage_notes, stated_range, usage_note_for
from lingjun.checks.knowledge.release_record import UsageNote, release_from_dict

NCCL = {"id": "nccl-socket-ifname", "text": {"en": "eth0 below 16 GPUs", "zh": "16 卡以下用 eth0"},
        "rule": "env.nccl-socket-ifname-pod-size"}
REINSTALL = {"id": "do-not-reinstall", "text": {"en": "do not reinstall", "zh": "请勿重装"}, "rule": "packages.image-build-replaced"}
LOST = ["usage_notes", "known_issues"]


def rel(version, notes=(), not_captured=(), family="f", **extra):
    return {"family": family, "version": version, "usage_notes": list(notes), "not_captured": list(not_captured), **extra}


def carried(releases, version):
    target = next(r for r in releases if r["version"] == version)
    return [(c.key(), c.stated_by, c.provenance_en, c.provenance_zh) for c in carried_usage_notes(releases, target)]


def test_note_of_a_captured_release_carries_over_uncaptured_ones():
    family = [rel("25.07", [NCCL, REINSTALL]), rel("25.08", (), LOST), rel("25.09", (), LOST), rel("25.10", (), LOST)]
    assert carried(family, "25.10") == [
        ("nccl-socket-ifname", ("25.07",), "stated by 25.07; not recorded for 25.10", "25.07 载明；25.10 未记录该部分"),
        ("do-not-reinstall", ("25.07",), "stated by 25.07; not recorded for 25.10", "25.07 载明；25.10 未记录该部分"),
    ]


def test_consecutive_statements_read_as_a_range_and_gaps_as_a_list():
    family = [rel("25.03", [NCCL]), rel("25.04", [NCCL]), rel("25.06", (), LOST), rel("25.07", [NCCL]), rel("25.10", (), LOST)]
    assert carried(family, "25.10") == [("nccl-socket-ifname", ("25.03", "25.04", "25.07"),
                                         "stated by 25.03–25.04, 25.07; not recorded for 25.10",
                                         "25.03–25.04、25.07 载明；25.10 未记录该部分")]
    assert stated_range(["a", "b", "c"], ["a", "b", "c"]) == ("a–c",)


def test_a_captured_release_without_the_note_ends_it():
    family = [rel("25.07", [NCCL, REINSTALL]), rel("25.08", [REINSTALL]), rel("25.10", (), LOST)]
    assert [c[0] for c in carried(family, "25.10")] == ["do-not-reinstall"]
    assert carried(family, "25.10")[0][1] == ("25.07", "25.08")


def test_a_release_stating_no_notes_ends_every_carry():
    family = [rel("25.07", [NCCL]), rel("25.08", ()), rel("25.10", (), LOST)]
    assert carried(family, "25.10") == []


def test_a_captured_release_receives_nothing_and_a_partial_one_keeps_its_own_wording():
    own = dict(NCCL, id="pod-size-interface", text={"en": "hpn0 for 16", "zh": "16 卡用 hpn0"})
    family = [rel("25.07", [NCCL, REINSTALL]), rel("25.08", ()), rel("25.09", [own], LOST)]
    assert carried(family, "25.08") == []
    # 25.09 states a note for the same rule under another id: its own note, not the carried one
    assert [c[0] for c in carried([family[0], family[2]], "25.09")] == ["do-not-reinstall"]
    typed = [release_from_dict(family[0]), release_from_dict(family[2])]
    note, how = usage_note_for([family[0], family[2]], typed[1], "env.nccl-socket-ifname-pod-size")
    assert note is typed[1].usage_notes[0] and how is None
    assert isinstance(note, UsageNote)
    assert (note.id, note.rule, note.text) == ("pod-size-interface", "env.nccl-socket-ifname-pod-size", own["text"])


def test_only_earlier_releases_of_the_same_family_and_placed_ones_count():
    other = rel("25.06", [NCCL], family="g")
    later = rel("25.11", [NCCL])
    unplaced = rel("nightly", (), LOST)
    family = [other, rel("25.07", ()), rel("25.10", (), LOST), later, unplaced]
    assert carried(family, "25.10") == []
    assert carried_usage_notes(family, unplaced) == []


ISSUE = {"id": "vllm-oom", "affects": {"families": ["f"], "releases": ["f:25.05"], "components": {"vllm": "==0.8.5"}},
         "fixed_in": []}


def issues_of(releases, version, issue=ISSUE):
    target = next(r for r in releases if r["version"] == version)
    return [(c.key(), c.provenance_en) for c in carried_known_issues(releases, [issue], target)]


def test_known_issue_carries_unless_fixed_or_its_component_changed():
    base = rel("25.05", components=[{"id": "vllm", "version": "0.8.5"}])
    same = rel("25.06", (), LOST, components=[{"id": "vllm", "version": "0.8.5"}])
    assert issues_of([base, same], "25.06") == [("vllm-oom", "stated by 25.05; not recorded for 25.06")]
    newer = rel("25.06", (), LOST, components=[{"id": "vllm", "version": "0.9.0"}])
    assert issues_of([base, newer], "25.06") == []
    gone = rel("25.06", (), LOST, components=[], component_list="complete")
    assert issues_of([base, gone], "25.06") == []
    unknown = rel("25.06", (), LOST, components=[], component_list="partial")
    assert issues_of([base, unknown], "25.06") == [("vllm-oom", "stated by 25.05; not recorded for 25.06")]
    fixed = dict(ISSUE, fixed_in=["f:25.06"])
    assert issues_of([base, same, rel("25.07", (), LOST)], "25.07", fixed) == []


def test_known_issue_ends_at_a_release_that_captured_its_known_issues():
    family = [rel("25.05"), rel("25.06"), rel("25.07", (), LOST)]
    assert issues_of(family, "25.07", dict(ISSUE, affects={"releases": ["f:25.05"]})) == []
    family[1]["not_captured"] = LOST
    assert issues_of(family, "25.07", dict(ISSUE, affects={"releases": ["f:25.05"]})) == [
        ("vllm-oom", "stated by 25.05; not recorded for 25.07")]
