"""newscorpus: crawl news sites into a clean, deduplicated text corpus in Postgres (layers: README "Layout")."""
