"""The release-data gate: cross-record rules run by ``lingjun-kb validate``.

The YAML loader (:mod:`lingjun.schema.loader`) checks each file on its own;
the gate checks what only the whole knowledge base can show (a release
version given twice, a component id missing from the catalog, a driver
minimum below what the release's CUDA needs, ...).  Each rule is one module
under :mod:`lingjun.schema.gate.rules`, registered with
:func:`~lingjun.schema.gate.rules.gate_rule` under an id ``data.<name>``.

Unlike the in-container checker, the gate runs with the full project
installed and may use pydantic; it is never embedded in the zipapp.

Entry point: :func:`lingjun.schema.gate.runner.run_gate`.
"""
