import checks_rules_kit as kit
from lingjun.checks.core import nccl_ifname
from lingjun.checks.facts import Facts, InterfaceFacts

RULE = "env.nccl-socket-ifname"
IFACES = ["lo", "eth0", "eth1", "eth10", "docker0", "hpn0"]


def test_syntax():
    assert nccl_ifname.resolve(nccl_ifname.parse("eth1"), IFACES) == ["eth1", "eth10"]
    assert nccl_ifname.resolve(nccl_ifname.parse("=eth1"), IFACES) == ["eth1"]
    assert nccl_ifname.resolve(nccl_ifname.parse("^=eth1,lo"), IFACES) == ["eth0", "eth10", "docker0", "hpn0"]
    assert nccl_ifname.resolve(nccl_ifname.parse("^docker,lo"), IFACES) == ["eth0", "eth1", "eth10", "hpn0"]
    assert nccl_ifname.resolve(nccl_ifname.parse("eth0:1,hpn"), IFACES) == ["eth0", "hpn0"]
    assert nccl_ifname.default_candidates(IFACES) == ["eth0", "eth1", "eth10", "hpn0"]


def _facts(**env):
    facts = Facts()
    facts.network = [InterfaceFacts(name="lo", ipv4=["127.0.0.1/8"]), InterfaceFacts(name="eth0", operstate="up", ipv4=["192.0.2.5/24"]),
                     InterfaceFacts(name="ib0", operstate="up")]
    facts.env.update(env)
    return facts


def test_no_match_error_lists_interfaces():
    f = kit.run(RULE, kit.context(_facts(NCCL_SOCKET_IFNAME="bond0")))
    assert kit.severities(f) == ["error"] and "eth0 (192.0.2.5/24" in f[0].message.en


def test_match_ok_unset_info_no_ip_warning_and_gloo():
    assert kit.severities(kit.run(RULE, kit.context(_facts(NCCL_SOCKET_IFNAME="eth")))) == ["ok"]
    assert kit.severities(kit.run(RULE, kit.context(_facts()))) == ["info"]
    assert kit.severities(kit.run(RULE, kit.context(_facts(NCCL_SOCKET_IFNAME="ib")))) == ["warning"]
    f = kit.run(RULE, kit.context(_facts(NCCL_SOCKET_IFNAME="eth0", GLOO_SOCKET_IFNAME="eth")))
    assert kit.severities(f) == ["ok", "error"]
