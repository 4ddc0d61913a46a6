"""The live server: REST API, websocket standings feed, arbiter tokens (aiohttp).

from livetb.web import Config, create_app
web.run_app(create_app(Config(db_path="livetb.sqlite")), host="127.0.0.1", port=8080)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livetb.web.config import Config

if TYPE_CHECKING:
    from livetb.web.app import create_app

__all__ = ["Config", "create_app"]


def __getattr__(name: str) -> Any:
    """`create_app` on first use: commands that only read the config (`livetb standings`)
    do not pay for importing aiohttp."""
    if name == "create_app":
        from livetb.web.app import create_app

        return create_app
    raise AttributeError(name)
