"""The tournament hall: each board's edge publishes its journal to a NATS JetStream stream for
the event, and one hall folds every board's entries from it (docs/hall.md)."""
