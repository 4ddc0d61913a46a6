"""The websocket feed: the hub that fans frames out, the socket handler, the message builders."""
