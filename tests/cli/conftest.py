"""The live server's fixtures, for the commands that talk to one (`watch`, `serve`)."""

from tests.web.conftest import api, config, server

__all__ = ["api", "config", "server"]
