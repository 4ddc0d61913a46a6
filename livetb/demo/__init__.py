"""`livetb demo`: a generated Swiss tournament (`tournament`), replayed live through the server
(`replay`)."""
