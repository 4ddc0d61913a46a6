"""The append-only event log: schemas, command decisions and stores."""
