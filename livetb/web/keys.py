"""Typed application keys (aiohttp's "no singletons"): what `create_app` shares with handlers."""

from __future__ import annotations

from aiohttp import web

from livetb.app.group_commit import GroupCommit
from livetb.app.offload import Offload
from livetb.app.service import TournamentService
from livetb.app.timetravel import TimeTravel
from livetb.events.store import EventStore
from livetb.tokens.store import Tokens
from livetb.web.config import Config
from livetb.web.feed.hub import Hub

CONFIG = web.AppKey("config", Config)
STORE = web.AppKey("store", EventStore)
SERVICE = web.AppKey("service", TournamentService)
HUB = web.AppKey("hub", Hub)
TOKENS = web.AppKey("tokens", Tokens)
TIMETRAVEL = web.AppKey("timetravel", TimeTravel)
COMMITS = web.AppKey("commits", GroupCommit)
OFFLOAD = web.AppKey("offload", Offload)
