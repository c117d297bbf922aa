"""The Postgres layer: where the database is (connection, embedded_server), the named queries (sql/), the retry
policy and the one connection holder (retry, held_connection), and the stores.

Shape: a store used by the crawl (CorpusWriter, LineNoiseStore, StoredArticles, NearDuplicateRecorder) is a class
built from plain values (a DSN, a config) holding one HeldConnection/AsyncHeldConnection; a maintenance or CLI
operation is a function taking a DSN that opens its own connection; a helper that runs inside its caller's
transaction takes the connection. Imports only newscorpus.core (and psycopg): never scrapy, twisted or the crawl.
"""
