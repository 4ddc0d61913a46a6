"""Files in and out of the event log: TRF to events and commands, PGN results, exports."""
