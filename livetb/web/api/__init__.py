"""The REST API: reads, writes, the console's reads, files, and the OpenAPI document."""
