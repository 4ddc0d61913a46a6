"""The wire format: the feed's messages and the standings document, shared by the server and
its clients (msgspec Structs only; no import of the projections)."""
