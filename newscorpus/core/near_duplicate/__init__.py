"""Near-duplicate detection, pure: features of an article (title and window keywords, simhash, shingle sketch),
the decision against candidates, the in-memory index and the batch plan the store records."""
