"""Unplayed rounds in English words: C.07 2024 16.2.n (= 2023 14.3.n), the participant card's
`category_text` for API clients. The pages and `--explain` write the category from the catalogs
(`cat.<n>`) in the reader's language."""

from __future__ import annotations

from livetb.engine.context import Context, Round

_CATEGORIES = {
    1: "PAB, forfeit win or full-point bye",
    2: "requested bye followed by an available round",
    3: "forfeit loss followed by an available round",
    4: "requested bye not followed by an available round",
    5: "forfeit loss not followed by an available round",
}


def category_text(ctx: Context, no: int, r: Round, unit: str = "game") -> str:
    """C.07 2024 16.2.n (2023 14.3.n); round robins treat forfeits as games (2024 16.2).
    `unit` names what was forfeited: a game, or a team's match."""
    n = ctx.category(no, r)
    if n is None:
        return "played"
    if ctx.rr:
        return (
            f"round robin: forfeit counted as a {unit}" if r.opponent else "round robin: rest round"
        )
    return f"unplayed, 2024 16.2.{n} / 2023 14.3.{n}: {_CATEGORIES[n]}"
