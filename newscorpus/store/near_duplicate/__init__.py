"""The near-duplicate index in Postgres and the stage's write path: batches decided and recorded in one
transaction, in a thread or a process of their own."""
