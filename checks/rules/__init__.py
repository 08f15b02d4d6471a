"""Checker rules, one small module each; importing this package registers them all."""
