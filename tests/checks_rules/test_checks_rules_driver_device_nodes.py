import checks_rules_kit as kit

RULE = "driver.device-nodes"


def test_inaccessible_nodes_error_with_nvidia_workaround():
    facts = kit.gpu_facts("535.104.05")
    facts.driver.device_nodes_accessible = False
    f = kit.run(RULE, kit.context(facts))
    assert kit.severities(f) == ["error"] and "nvidia-ctk" in f[0].remedy.en


def test_usable_nodes_ok_and_missing_nodes_warning():
    assert kit.severities(kit.run(RULE, kit.context(kit.gpu_facts()))) == ["ok"]
    facts = kit.gpu_facts()
    facts.driver.device_nodes = []
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["warning"]
