"""The off-site replica: what survives losing the machine (docs/durability.md).

leads.db is replicated continuously by Litestream (its own process, deploy/
watchbuyers-litestream.service, configured from these settings by litestream.py), and every
private file a lead's records name (watch photos, ID photos, the register's certificates, the
bill of sale and the receipt) is copied to the same bucket by copies.py, which the database
tells what is owed (the `file_copies` rows its triggers write). Everything stored there is
encrypted by the storage with this deployment's own key (SSE-C, objects.py), which the storage
never keeps. monitor.py says how far behind the replica is and when to alert staff.

A shared package: it imports the records (app.leads) and the queue, never a feature.
"""
