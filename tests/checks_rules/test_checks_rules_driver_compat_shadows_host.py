from lingjun.checks.facts import LdSoConfFile
import checks_rules_kit as kit

RULE = "driver.compat-shadows-host"


def _facts(kmod, umd, compat=True, conf=None):
    facts = kit.gpu_facts(kmod)
    facts.libcuda.path = "/usr/local/cuda/compat/libcuda.so.1" if compat else "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
    facts.libcuda.file_version, facts.libcuda.is_forward_compat = umd, compat
    facts.cuda.toolkit_version = "12.8.1"
    if conf:
        facts.loader.ld_so_conf = [LdSoConfFile(file=conf, dirs=["/usr/local/cuda/compat"])]
    return facts


def test_compat_libcuda_on_a_host_that_needs_no_compat_is_error_naming_the_conf():
    f = kit.run(RULE, kit.context(_facts("575.57.08", "570.124.06", conf="00-cuda-compat.conf")))
    assert kit.severities(f) == ["error"] and "00-cuda-compat.conf" in f[0].message.en and "zzz-" in f[0].message.en


def test_stale_host_libcuda_is_error_matching_is_ok():
    assert kit.severities(kit.run(RULE, kit.context(_facts("575.57.08", "570.124.06", compat=False)))) == ["error"]
    assert kit.severities(kit.run(RULE, kit.context(_facts("575.57.08", "575.57.08", compat=False)))) == ["ok"]


def test_needed_forward_compat_is_info():
    assert kit.severities(kit.run(RULE, kit.context(_facts("535.230.02", "570.124.06")))) == ["info"]
