"""The application layer: the service (one writer per tournament: decide, append, apply,
publish), the group commit, time travel and the follower of other nodes' writes."""
