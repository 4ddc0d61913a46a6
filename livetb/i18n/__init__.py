"""One message catalog per language (`en.json`, `it.json`), shared by the pages and the CLI.

`negotiate` picks the language: `?lang=`, then `Accept-Language`, then English. `text` fills a
message's `{placeholders}`; `number` writes a decimal the language's way (Italian: 12,5).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

LANGUAGES = ("en", "it")
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    data = resources.files("livetb.i18n").joinpath(f"{lang}.json").read_text("utf-8")
    messages: dict[str, str] = json.loads(data)  # each catalog is one object of strings
    return messages


def negotiate(asked: str | None, accept_language: str | None = None) -> str:
    """`asked` if it is a language we have; else the best of `Accept-Language`; else English."""
    if asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and q > 0:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else DEFAULT


LANG_ENV = "LIVETB_LANG"  # the CLI's language when --lang is absent


def cli_language(asked: str | None, env: dict[str, str]) -> str:
    """The CLI's language: `--lang`, then $LIVETB_LANG, then English (not the locale: a
    script's output should not change with the machine it runs on)."""
    return negotiate(asked or env.get(LANG_ENV))


def text(lang: str, key: str, /, **params: object) -> str:
    return catalog(lang)[key].format(**params)


def number(lang: str, value: object) -> str:
    """A value as shown: decimals with the language's separator, counts as they are."""
    if value is None:
        return "–"
    return str(value).replace(".", catalog(lang)["num.decimal"])
