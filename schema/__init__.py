"""Data model of lingjun-kb: pydantic v2 models, YAML loading and the exported JSON Schema."""
