"""The report: findings, their grouping and exit code, and the text and JSON renderers."""
