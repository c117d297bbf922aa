"""The numbered SQL migrations and schema.sql, shipped as the data package newscorpus.migrations (no code:
newscorpus.store.migrations applies them)."""
