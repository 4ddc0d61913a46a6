"""What every route shares: the route table's vocabulary, token checks, limits, log redaction."""
