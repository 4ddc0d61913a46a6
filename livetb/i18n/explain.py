"""Explanations in words, from the catalog alone: a tie-break part's source and a cut's reason
as the engine gives them (`livetb/engine/result.py`) and the wire carries them, a JSON object
`{"kind": …, fields}` and a reason's name. The pages' `words.js` writes the same data with the
same keys and the same rules:

- a source is the message `explain.<kind>` (on a page that knows the name of participant `no`,
  `explain.<kind>.named` with `{name}`), its fields the parameters: `outcome` as its word
  (`outcome.<outcome>`), `of` as the nested source in words, `boards` as the board products
  (`explain.board_product` joined by " + "), anything else as a number is written;
- a cut is the message `cut.<reason>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livetb.i18n import number, text


def source_words(lang: str, source: Mapping[str, Any]) -> str:
    """A part's source (`msgspec.to_builtins` of the engine's struct) in `lang`."""
    params = {name: _param(lang, name, v) for name, v in source.items() if name != "kind"}
    return text(lang, f"explain.{source['kind']}", **params)


def _param(lang: str, name: str, value: Any) -> str:
    if name == "outcome":
        return text(lang, f"outcome.{value}")
    if name == "of":
        return source_words(lang, value)
    if name == "boards":
        return " + ".join(
            text(lang, "explain.board_product", board=board, points=number(lang, points))
            for board, points in value
        )
    return number(lang, value)


def cut_words(lang: str, reason: str) -> str:
    return text(lang, f"cut.{reason}")
