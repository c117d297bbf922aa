"""A small news site of our own, generated and served on 127.0.0.1: for `newscorpus demo` and the crawl tests."""
