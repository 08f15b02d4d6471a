import checks_rules_kit as kit
from lingjun.checks.facts import Facts


def test_record_given_is_ok():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    f = kit.run("release.identified", kit.context(Facts(), rec=rec))
    assert kit.severities(f) == ["ok"] and "training-nv-pytorch:25.07" in f[0].message.en
    kit.assert_bilingual(f)


def test_no_record_is_info():
    f = kit.run("release.identified", kit.context(Facts()))
    assert kit.severities(f) == ["info"] and "No release record" in f[0].message.en


def test_log_read_alone_naming_no_release_is_skipped_not_info():
    f = kit.run("release.identified", kit.context(Facts(origin="log")))
    assert kit.severities(f) == ["skipped"]
    assert f[0].message.en.startswith("The log alone does not name the image's release")
    assert "--release" in f[0].remedy.en and "--release" in f[0].remedy.zh
    kit.assert_bilingual(f)


def test_partial_fingerprint_is_info_with_candidates():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    ctx = kit.context(Facts(), rec=rec)
    ctx.release.how, ctx.release.score, ctx.release.candidates = "fingerprint", 0.8, [("training-nv-pytorch:25.08", 0.7)]
    f = kit.run("release.identified", ctx)
    assert kit.severities(f) == ["info"] and "80%" in f[0].message.en and "25.08" in f[0].message.en
