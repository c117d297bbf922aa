"""The Postgres layer: where the database is (connection, embedded_server), the named queries (sql/), the retry
policy and the one connection holder (retry, held_connection), and the stores.

Shape: a store used by the crawl (CorpusWriter, LineNoiseStore, StoredArticles, NearDuplicateRecorder) is a class
built from plain values (a DSN, a config) holding one HeldConnection/AsyncHeldConnection; a maintenance or CLI
operation is a function taking a DSN that opens its own connection (corpus_reader, builds, search, reextraction);
a function that runs inside its caller's transaction takes the connection. An export or a snapshot streams: a
context manager yields an iterator over a server-side cursor. Only the store holds SQL (tests/test_layers.py says
so). Imports only newscorpus.core (and psycopg): never scrapy, twisted or the crawl.
"""
