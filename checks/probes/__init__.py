"""Probes: each reads one part of the system into the facts, isolated and time-bounded."""
