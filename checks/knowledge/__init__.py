"""What the checker knows about releases: the compiled bundle and views over it.

The bundle (:mod:`.bundle`), read-only views of a release record, which release
applies to this container (:mod:`.identify`), the installed version of a catalog
component, and known-issue conditions evaluated against the facts.
"""
