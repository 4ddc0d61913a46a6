"""The live server (aiohttp): the REST API, the websocket standings feed and the pages.

from livetb.web import Config, create_app
web.run_app(create_app(Config(db_path="livetb.sqlite")), host="127.0.0.1", port=8080)

Both names load on first use, so that `livetb.web.config` (the CLI's defaults) does not pull in
aiohttp.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from livetb.web.app import create_app
    from livetb.web.config import Config

__all__ = ["Config", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from livetb.web.app import create_app

        return create_app
    if name == "Config":
        from livetb.web.config import Config

        return Config
    raise AttributeError(f"module 'livetb.web' has no attribute {name!r}")
