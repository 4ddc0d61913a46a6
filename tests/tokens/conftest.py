"""The live server's fixtures, for the organiser token's API tests."""

from tests.web.conftest import api, config, server

__all__ = ["api", "config", "server"]
