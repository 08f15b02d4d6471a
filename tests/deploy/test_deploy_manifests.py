"""What the manifests in deploy/kubernetes/ promise: one pod per GPU node, the ConfigMap mounted where the
commands look, the node's name from the downward API, a pre-flight that fails its pod."""

from __future__ import annotations

import math
import re
import shlex

import pytest

from _manifests import KUBERNETES, load, pod_spec

PYZ = "/opt/lingjun/lingjun-check.pyz"


def _container(spec: dict, name: str) -> dict:
    (found,) = [c for c in spec.get("containers", []) + spec.get("initContainers", []) if c["name"] == name]
    return found


def _script(container: dict) -> str:
    """The command line a container runs (``sh -c`` scripts as their text)."""
    words = container.get("command", []) + container.get("args", [])
    return words[2] if words[:2] == ["sh", "-c"] else shlex.join(words)


def _mounts_the_configmap(spec: dict, container: dict) -> None:
    volumes = {v["name"]: v for v in spec["volumes"]}
    (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == "/opt/lingjun"]
    assert mount.get("readOnly") is True
    source = volumes[mount["name"]]["configMap"]
    assert source["name"] == "lingjun-check"  # the default of `lingjun-kb bundle --configmap --name`
    assert source["items"] == [{"key": "lingjun-check.pyz", "path": "lingjun-check.pyz"}]


def _node_name_from_downward_api(container: dict) -> None:
    env = {e["name"]: e for e in container["env"]}
    assert env["NODE_NAME"]["valueFrom"] == {"fieldRef": {"fieldPath": "spec.nodeName"}}


def _on_gpu_nodes(spec: dict) -> None:
    assert spec["nodeSelector"] == {"nvidia.com/gpu.present": "true"}
    assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in spec["tolerations"]


def test_indexed_job_runs_one_pod_per_gpu_node():
    job = load("lingjun-check-job.yaml")
    assert (job["apiVersion"], job["kind"]) == ("batch/v1", "Job")
    assert job["spec"]["completionMode"] == "Indexed"
    assert job["spec"]["parallelism"] == job["spec"]["completions"] >= 1
    spec = pod_spec(job)
    labels = job["spec"]["template"]["metadata"]["labels"]
    # one pod per node by the GPU request (every GPU of the node), not by required pod anti-affinity
    assert "affinity" not in spec
    (container,) = spec["containers"]
    assert int(container["resources"]["limits"]["nvidia.com/gpu"]) == 8
    # and by a spread over this Job's own pods if the request is dropped
    (spread,) = spec["topologySpreadConstraints"]
    assert (spread["topologyKey"], spread["maxSkew"], spread["whenUnsatisfiable"]) == ("kubernetes.io/hostname", 1, "DoNotSchedule")
    assert spread["labelSelector"]["matchLabels"].items() <= labels.items() and spread["labelSelector"]["matchLabels"]
    assert spread["matchLabelKeys"] == ["batch.kubernetes.io/controller-uid"]
    assert spec["restartPolicy"] == "Never"
    _on_gpu_nodes(spec)


def test_job_pod_prints_a_snapshot_and_succeeds_on_findings():
    spec = pod_spec(load("lingjun-check-job.yaml"))
    (container,) = spec["containers"]
    script = _script(container)
    assert script.splitlines()[0] == f"python3 {PYZ} --collect - --require-gpu > /results/snapshot.json"
    assert "cat /results/snapshot.json" in script  # the snapshot on stdout, for kubectl logs
    # exit 1/2 are findings (read again by `fleet` from the snapshot); 3 and up fail the pod
    assert 'if [ "$status" -gt 2 ]; then exit "$status"; fi' in script and script.rstrip().endswith("exit 0")
    # the snapshot is kept as /results/snapshots/CLUSTER/NODE.json (a persistent volume when the operator mounts one)
    assert 'mv /results/snapshot.json "$dir/${NODE_NAME}.json"' in script
    assert 'dir="/results/snapshots/${LINGJUN_CLUSTER}"' in script
    _mounts_the_configmap(spec, container)
    _node_name_from_downward_api(container)
    # the GPUs are asked for (limits only: requests default to them), so the runtime gives the driver
    assert int(container["resources"]["limits"]["nvidia.com/gpu"]) >= 1
    assert "nvidia.com/gpu" not in container["resources"].get("requests", {})


@pytest.mark.parametrize("name", ["lingjun-check-job.yaml", "lingjun-check-daemonset.yaml", "lingjun-check-job-acs.yaml"])
def test_pods_name_their_cluster(name):
    (container,) = pod_spec(load(name))["containers"]
    env = {e["name"]: e for e in container["env"]}
    # an operator-set value: the downward API has no field for the cluster's identity
    assert env["LINGJUN_CLUSTER"]["value"] and "valueFrom" not in env["LINGJUN_CLUSTER"]


def failed_indexes_bound(completions: int) -> int:
    """The documented maxFailedIndexes of a sweep of ``completions`` nodes: 5 % of them, rounded up, at least 1."""
    return max(1, math.ceil(completions * 5 / 100))


def per_index_backoff_problems(job: dict) -> "list[str]":
    """What the API server's validation of a Job spec refuses about the per-index fields (the OpenAPI schemas
    kubernetes-validate checks do not carry these rules; the Job API reference's field descriptions state them)."""
    found = []
    if "maxFailedIndexes" in job and "backoffLimitPerIndex" not in job:
        found.append("maxFailedIndexes without backoffLimitPerIndex")
    if "backoffLimitPerIndex" in job:
        if job.get("completionMode") != "Indexed":
            found.append("backoffLimitPerIndex needs completionMode: Indexed")
        if job["template"]["spec"].get("restartPolicy") != "Never":
            found.append("backoffLimitPerIndex needs restartPolicy: Never")
    bound = job.get("maxFailedIndexes")
    if bound is not None:
        if not 0 <= bound <= job["completions"]:
            found.append(f"maxFailedIndexes {bound} is above completions {job['completions']}")
        if job["completions"] > 10 ** 5 and bound > 10 ** 4:
            found.append("maxFailedIndexes above 10^4 with completions above 10^5")
    return found


def _job_spec(doc: dict) -> dict:
    """The Job spec of a Job, or of the Jobs a CronJob creates."""
    return doc["spec"]["jobTemplate"]["spec"] if doc["kind"] == "CronJob" else doc["spec"]


@pytest.mark.parametrize("name", ["lingjun-check-job.yaml", "lingjun-check-job-acs.yaml", "lingjun-check-cronjob.yaml"])
def test_job_backs_off_per_node_not_per_sweep(name):
    job = _job_spec(load(name))
    assert "backoffLimit" not in job  # a few failed pods must not end the sweep of every other node
    assert job["backoffLimitPerIndex"] == 1 and per_index_backoff_problems(job) == []
    # the bound scales with the sweep: 5 % of its nodes, rounded up (1 for this file's 4 nodes)
    assert job["maxFailedIndexes"] == failed_indexes_bound(job["completions"])
    text = (KUBERNETES / name).read_text(encoding="utf-8")
    comment = " ".join(line.strip().lstrip("# ") for line in text.splitlines() if line.lstrip().startswith("#")
                       and line.startswith("  "))
    assert "GA since 1.33" in comment and "beta (on by default) since Kubernetes 1.29" in comment
    # the comment says how to set it, with examples that follow the rule, and what happens when it is reached
    assert "maxFailedIndexes: 5 % of completions, rounded up, at least 1" in comment
    examples = [(int(b.replace(",", "")), int(n.replace(",", ""))) for b, n in re.findall(r"\b([\d,]+) for (?:up to )?([\d,]+)", comment)]
    assert len(examples) == 4 and all(bound == failed_indexes_bound(nodes) for bound, nodes in examples), examples
    assert "reason FailedIndexes" in comment and "reason MaxFailedIndexesExceeded" in comment and "--expect N" in comment
    if name != "lingjun-check-cronjob.yaml":  # whose first comment points to the Job's steps
        assert "5 % of it, rounded up" in text.split("apiVersion:", 1)[0]  # and the steps at the top name it


@pytest.mark.parametrize("nodes", [20, 21, 100, 1000, 5000, 200_000])
def test_the_documented_bound_is_one_kubernetes_accepts_at_any_size(nodes):
    import kubernetes_validate

    job = load("lingjun-check-job.yaml")
    job["spec"].update(completions=nodes, parallelism=nodes, maxFailedIndexes=failed_indexes_bound(nodes))
    if nodes > 10 ** 5:  # the API server's own cap on the bound of such a sweep
        job["spec"]["maxFailedIndexes"] = min(job["spec"]["maxFailedIndexes"], 10 ** 4)
    assert per_index_backoff_problems(job["spec"]) == []
    assert kubernetes_validate.validate(job, "1.37", strict=True) == "1.37"


def test_a_bound_above_completions_is_refused():
    job = load("lingjun-check-job.yaml")["spec"]
    assert per_index_backoff_problems({**job, "maxFailedIndexes": job["completions"] + 1}) == [
        f"maxFailedIndexes {job['completions'] + 1} is above completions {job['completions']}"]
    assert per_index_backoff_problems({**job, "completionMode": "NonIndexed"}) == ["backoffLimitPerIndex needs completionMode: Indexed"]


_CRON_FIELD = re.compile(r"\*|\d+(-\d+)?(/\d+)?(,\d+(-\d+)?)*|\*/\d+")


def test_cronjob_runs_the_jobs_sweep_on_a_schedule():
    cron = load("lingjun-check-cronjob.yaml")
    assert (cron["apiVersion"], cron["kind"]) == ("batch/v1", "CronJob")
    assert len(cron["metadata"]["name"]) <= 52  # the API server's limit: its Jobs add an 11-character suffix
    spec = cron["spec"]
    # the same sweep: the Job's spec and pod template, but for the TTL, which the history limits replace
    job = load("lingjun-check-job.yaml")["spec"]
    assert spec["jobTemplate"]["spec"] == {k: v for k, v in job.items() if k != "ttlSecondsAfterFinished"}
    assert spec["jobTemplate"]["spec"]["template"] == job["template"]
    # one run at a time, a schedule in a named time zone, a run missed by far skipped, a bounded history
    assert spec["concurrencyPolicy"] == "Forbid"
    fields = spec["schedule"].split()
    assert len(fields) == 5 and all(_CRON_FIELD.fullmatch(f) for f in fields), spec["schedule"]
    assert spec["timeZone"] and 0 < spec["startingDeadlineSeconds"] <= 6 * 3600
    assert 1 <= spec["successfulJobsHistoryLimit"] <= 10 and 1 <= spec["failedJobsHistoryLimit"] <= 10
    assert spec["suspend"] is False
    # the Jobs it creates are told apart from the one-off Job's by their own label; their pods keep the Job's
    assert spec["jobTemplate"]["metadata"]["labels"]["app.kubernetes.io/component"] == "fleet-cronjob"
    # the schedule and how to collect a run are written where the operator edits them
    text = (KUBERNETES / "lingjun-check-cronjob.yaml").read_text(encoding="utf-8")
    assert f'schedule: "{spec["schedule"]}"' in text and "Sundays at 03:00 in timeZone" in text
    assert "kubectl logs -n ml -l job-name=<job> --prefix --tail=-1" in text
    assert "--from=cronjob/lingjun-check-scheduled" in text


def test_job_failure_policy_reruns_a_disrupted_pod_and_keeps_a_deadline():
    job = load("lingjun-check-job.yaml")
    assert job["spec"]["podFailurePolicy"]["rules"] == [
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]
    assert 0 < job["spec"]["activeDeadlineSeconds"] <= 3600
    assert job["spec"]["ttlSecondsAfterFinished"] >= 3600  # the logs are still there to collect


def test_daemonset_variant_runs_once_per_node_without_gpus():
    ds = load("lingjun-check-daemonset.yaml")
    assert (ds["apiVersion"], ds["kind"]) == ("apps/v1", "DaemonSet")
    assert ds["spec"]["selector"]["matchLabels"] == ds["spec"]["template"]["metadata"]["labels"]
    spec = pod_spec(ds)
    _on_gpu_nodes(spec)
    (container,) = spec["containers"]
    script = _script(container)
    assert f"python3 {PYZ} --collect - &" in script.splitlines()
    # the pod must not exit, or the kubelet restarts it and the log gets a second snapshot; it waits in the
    # background so that SIGTERM ends it at once (test_deploy_daemonset_signal.py)
    assert script.rstrip().splitlines()[-4:-2] == ["sleep 2147483647 &", "child=$!"]
    assert script.rstrip().splitlines()[-1] == 'wait "$child"'
    assert 0 < spec["terminationGracePeriodSeconds"] <= 30
    assert "nvidia.com/gpu" not in container["resources"].get("limits", {})
    _mounts_the_configmap(spec, container)
    _node_name_from_downward_api(container)
    # the Job's anti-affinity must not keep its pods off nodes the DaemonSet runs on
    job_labels = load("lingjun-check-job.yaml")["spec"]["template"]["metadata"]["labels"]
    assert job_labels != ds["spec"]["template"]["metadata"]["labels"]


@pytest.mark.parametrize("role", ["Master", "Worker"])
def test_pytorchjob_preflight_is_an_init_container_that_fails_the_pod(role):
    job = load("pytorchjob-preflight.yaml")
    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1", "PyTorchJob")
    assert set(job["spec"]["pytorchReplicaSpecs"]) == {"Master", "Worker"}
    replica = job["spec"]["pytorchReplicaSpecs"][role]
    assert replica["restartPolicy"] == "Never"  # a failed pre-flight fails the job instead of looping
    spec = replica["template"]["spec"]
    pytorch = _container(spec, "pytorch")  # the training-operator finds the training container by this name
    assert [c["name"] for c in spec["containers"]] == ["pytorch"]
    (init,) = spec["initContainers"]
    assert init["command"][:2] == ["python3", PYZ] and "--require-gpu" in init["command"]
    assert "--collect" not in init["command"]  # a pre-flight reports; the exit status decides
    assert init["image"] == pytorch["image"]  # it checks the image that will train
    # same GPUs as training: the pod's effective request is the larger of the two, so no GPU is added
    assert init["resources"]["limits"]["nvidia.com/gpu"] == pytorch["resources"]["limits"]["nvidia.com/gpu"]
    per_pod = init["command"][init["command"].index("--gpus-per-pod") + 1]
    assert per_pod == pytorch["resources"]["limits"]["nvidia.com/gpu"]
    _mounts_the_configmap(spec, init)
    _node_name_from_downward_api(init)
    # the init container checks the /dev/shm training gets: the same dshm volume at the same path
    shm = [m for m in pytorch["volumeMounts"] if m["mountPath"] == "/dev/shm"]
    assert shm and [m for m in init["volumeMounts"] if m["mountPath"] == "/dev/shm"] == shm


@pytest.mark.parametrize("name", ["lingjun-check-job.yaml", "lingjun-check-daemonset.yaml"])
def test_fleet_pods_mount_a_memory_dev_shm_like_training_pods(name):
    spec = load(name)["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == "/dev/shm"]
    (volume,) = [v for v in spec["volumes"] if v["name"] == mount["name"]]
    assert volume["emptyDir"]["medium"] == "Memory"
    # a Memory emptyDir is sized min(sizeLimit, the pod's memory limit): the limit must not shrink it below the sizeLimit
    units = {"Mi": 2 ** 20, "Gi": 2 ** 30}

    def size(text):
        return int(text[:-2]) * units[text[-2:]]

    assert size(container["resources"]["limits"]["memory"]) >= size(volume["emptyDir"]["sizeLimit"]) >= 2 ** 30


def test_acs_variant_selects_gpu_sandboxes_by_pod_labels():
    job = load("lingjun-check-job-acs.yaml")
    labels = job["spec"]["template"]["metadata"]["labels"]
    assert labels["alibabacloud.com/compute-class"] == "gpu"
    assert labels["alibabacloud.com/gpu-model-series"]
    spec = pod_spec(job)
    # no nodes of one's own: no node label, GPU taint or spread over host names
    assert not {"nodeSelector", "tolerations", "topologySpreadConstraints", "affinity"} & spec.keys()
    (container,) = spec["containers"]
    assert int(container["resources"]["limits"]["nvidia.com/gpu"]) >= 1
    # pods share a virtual node: each snapshot is named by its pod
    env = {e["name"]: e for e in container["env"]}
    assert env["NODE_NAME"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.name"}}
    # the ACS labels differ from the node-pool Job's, so collecting one never takes the other's logs
    assert labels["app.kubernetes.io/component"] != load("lingjun-check-job.yaml")["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"]
    assert "https://help.aliyun.com/zh/cs/pod-gpu-model-and-driver-version" in (KUBERNETES / "lingjun-check-job-acs.yaml").read_text(encoding="utf-8")


def _uncommented(text: str, line: str, count: int = 1) -> str:
    assert text.count("# " + line) == count, line
    return text.replace("# " + line, line)


#: the RDMA extended resources of Alibaba Cloud's device plugins, with the page that names each: the manifests cite it
RDMA_RESOURCES = {
    "rdma/hca": ("ack-rdma-device-plugin",
                 "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/rdma-device-plugin/"),
    "aliyun/erdma": ("ACK eRDMA Controller",
                     "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/use-erdma-in-ack-clusters"),
}


def _containers_with(doc: dict, resource: str) -> "list[dict]":
    if doc["kind"] == "PyTorchJob":
        specs = [role["template"]["spec"] for role in doc["spec"]["pytorchReplicaSpecs"].values()]
    else:
        specs = [pod_spec(doc)]
    return [c for spec in specs for c in spec.get("containers", []) + spec.get("initContainers", [])
            if resource in c.get("resources", {}).get("limits", {})]


@pytest.mark.parametrize("name, resource, where", [
    ("lingjun-check-job.yaml", "rdma/hca", 1), ("lingjun-check-job.yaml", "aliyun/erdma", 1),
    ("lingjun-check-daemonset.yaml", "rdma/hca", 1),
    ("pytorchjob-preflight.yaml", "rdma/hca", 2), ("pytorchjob-preflight.yaml", "aliyun/erdma", 2),
])
def test_rdma_device_plugin_resources_are_options_that_validate(name, resource, where):
    import kubernetes_validate
    import yaml

    from _manifests import VERSIONS
    from test_deploy_validate import _as_pod_template

    text = (KUBERNETES / name).read_text(encoding="utf-8")
    plugin, page = RDMA_RESOURCES[resource]
    assert plugin in text  # which device plugin advertises it
    # and the page that says so (the pre-flight points to the Job's comment, which cites it)
    assert page in text or (name == "pytorchjob-preflight.yaml" and "lingjun-check-job.yaml" in text)
    doc = yaml.safe_load(_uncommented(text, f'{resource}: "1"', where))
    found = _containers_with(doc, resource)
    assert len(found) == where and all(c["resources"]["limits"][resource] == "1" for c in found)
    if doc["kind"] == "PyTorchJob":  # the pre-flight init containers, beside the GPUs they already mirror
        assert {c["name"] for c in found} == {"lingjun-preflight"}
        docs = [_as_pod_template(role, spec["template"]) for role, spec in doc["spec"]["pytorchReplicaSpecs"].items()]
    else:
        docs = [doc]
    for checked in docs:
        for version in (VERSIONS[0], VERSIONS[-1]):
            assert kubernetes_validate.validate(checked, version, strict=True) == version


def test_the_daemonset_offers_only_the_shared_rdma_resource():
    """A DaemonSet holds its request while it waits: an exclusive NIC or an eRDMA device would be kept from training."""
    text = (KUBERNETES / "lingjun-check-daemonset.yaml").read_text(encoding="utf-8")
    assert '# rdma/hca: "1"' in text and '# aliyun/erdma: "1"' not in text
    assert "shared mode" in text and "exclusive mode" in text


@pytest.mark.parametrize("doc", ["README.md", "docs/en/checker/fleet.md", "docs/zh/checker/fleet.md"])
def test_docs_name_both_rdma_resources_and_their_plugins(doc):
    from _manifests import REPO

    text = (REPO / doc).read_text(encoding="utf-8")
    for resource, (plugin, page) in RDMA_RESOURCES.items():
        assert f"`{resource}" in text and plugin in text and page in text, (doc, resource)


def test_results_volume_and_report_job_share_the_claim():
    import yaml

    pvc, report = yaml.safe_load_all((KUBERNETES / "lingjun-check-results.yaml").read_text(encoding="utf-8"))
    assert (pvc["kind"], report["kind"]) == ("PersistentVolumeClaim", "Job")
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]  # check pods on many nodes write at once
    spec = pod_spec(report)
    (claim,) = [v for v in spec["volumes"] if "persistentVolumeClaim" in v]
    assert claim["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
    (container,) = spec["containers"]
    script = _script(container)
    assert f"python3 {PYZ} fleet /results/snapshots --format json -o /results/fleet.json" in script
    assert f"python3 {PYZ} fleet /results/snapshots --format html -o /results/fleet.html" in script
    _mounts_the_configmap(spec, container)


def test_the_check_job_keeps_its_snapshots_on_the_claim_with_a_two_line_change():
    import kubernetes_validate
    import yaml

    pvc, _ = yaml.safe_load_all((KUBERNETES / "lingjun-check-results.yaml").read_text(encoding="utf-8"))
    text = (KUBERNETES / "lingjun-check-job.yaml").read_text(encoding="utf-8")
    # the change the comment describes, made as written there
    assert "        - name: results\n          emptyDir: {}\n" in text
    changed = text.replace("        - name: results\n          emptyDir: {}\n",
                           f"        - name: results\n          persistentVolumeClaim:\n            claimName: {pvc['metadata']['name']}\n")
    job = yaml.safe_load(changed)
    (volume,) = [v for v in pod_spec(job)["volumes"] if v["name"] == "results"]
    assert volume == {"name": "results", "persistentVolumeClaim": {"claimName": "lingjun-check-results"}}
    assert kubernetes_validate.validate(job, "1.37", strict=True) == "1.37"
