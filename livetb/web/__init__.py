"""The live server: REST API, websocket standings feed, arbiter tokens (aiohttp).

from livetb.web import Config, create_app
web.run_app(create_app(Config(db_path="livetb.sqlite")), host="127.0.0.1", port=8080)
"""

from livetb.web.app import create_app
from livetb.web.config import Config

__all__ = ["Config", "create_app"]
