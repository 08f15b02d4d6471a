"""``lingjun-check``: exactly what ships in ``lingjun-check.pyz`` (the release-data gate lives in
:mod:`lingjun.schema.gate`).

The in-container checker (probes, rules, report) uses only the standard
library and :mod:`packaging`; nothing in this package's ``__init__`` imports
anything heavier, so it is safe to embed in the zipapp.
"""
