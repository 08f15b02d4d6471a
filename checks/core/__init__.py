"""The stdlib-only core: versions, package names, CUDA/driver compatibility, GPU architectures.

Pure functions and small value types with no knowledge of probes, facts or
reports.  The in-container checker, the data model (:mod:`lingjun.schema`) and
the site (:mod:`lingjun.generator`) all use this one implementation, so a
version is parsed and a driver judged the same way everywhere.  Only the
standard library and :mod:`packaging` may be imported here.
"""
