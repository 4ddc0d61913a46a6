"""Tie-break codes as written by the FIDE reference (`BH/C1`, `KS/L+1`, `BH:MP/C1`) or as C.07
acronyms (`BHC1`, `AROC1`, `BH-C1`), parsed into one canonical `Spec` (C.07 2024 Art. 14,
modifiers; for teams, the point type `:MP` / `:GP` of 2023 Art. 12). Which code takes which
modifier is its catalogue record's (`catalogue.py`)."""

from __future__ import annotations

import re
from decimal import Decimal

from livetb.engine.catalogue import ALIASES, TIEBREAKS
from livetb.engine.modifiers import Spec
from livetb.errors import TiebreakSpecError

__all__ = ["POINT_TYPES", "Spec", "parse_list", "parse_spec"]

POINT_TYPES = ("MP", "GP")
# Most specific code first, so that "APRO" is not read as "ARO" + junk.
_CODES = sorted({*TIEBREAKS, *ALIASES}, key=len, reverse=True)
_MODIFIER = re.compile(r"^(?:(?P<cm>[CM])(?P<n>\d)|L(?P<sign>[+-]?)(?P<lim>\d+)|(?P<other>O))$")


def parse_spec(raw: str, *, teams: bool = False) -> Spec:
    """Parse one tie-break code; raise TiebreakSpecError naming what is wrong. Team codes
    (team-only ones, a `:MP` / `:GP` point type) are accepted only when `teams` is true."""
    text = raw.strip().upper().replace(" ", "")
    if not text:
        raise TiebreakSpecError.of("tiebreak.empty")
    head, *mods = text.split("/")
    head, _, points = head.partition(":")
    code = next((c for c in _CODES if head.startswith(c)), None)
    if code is None:
        known = ", ".join(sorted(TIEBREAKS))
        raise TiebreakSpecError.of("tiebreak.unknown", code=repr(raw), known=known)
    rest = head[len(code) :].lstrip("-")
    if rest:
        mods.insert(0, rest)
    code = ALIASES.get(code, code)
    fields: dict[str, object] = {}
    if points:
        fields["points"] = _point_type(raw, code, points)
    for mod in mods:
        fields.update(_modifier(raw, code, mod))
    if not teams and (TIEBREAKS[code].team_only or points):
        raise TiebreakSpecError.of("tiebreak.team_only", code=repr(raw))
    return Spec(code, **fields)  # type: ignore[arg-type]


def _point_type(raw: str, code: str, points: str) -> str:
    """A team point type: `:MP` (match points) or `:GP` (game points)."""
    if points not in POINT_TYPES:
        raise TiebreakSpecError.of(
            "tiebreak.point_type", code=repr(raw), points=repr(points), known=", ".join(POINT_TYPES)
        )
    if TIEBREAKS[code].own_points:
        raise TiebreakSpecError.of("tiebreak.no_point_type", code=repr(raw), family=code)
    return points


def _modifier(raw: str, code: str, mod: str) -> dict[str, object]:
    """One modifier, if the code takes it (2024 Art. 14; US Chess `/O`)."""
    m = _MODIFIER.match(mod)
    takes = TIEBREAKS[code].takes
    if m is None:
        raise TiebreakSpecError.of("tiebreak.modifier_unknown", code=repr(raw), modifier=repr(mod))
    if m["other"]:
        if not takes.other:
            raise TiebreakSpecError.of("tiebreak.no_other", code=repr(raw), family=code)
        return {"other": True}
    if m["cm"]:
        median = m["cm"] == "M"
        if not (takes.median if median else takes.cut):
            raise TiebreakSpecError.of(
                "tiebreak.modifier_not_taken", code=repr(raw), family=code, modifier=repr(mod)
            )
        n = int(m["n"])
        return {"cut_low": n, "cut_high": n if median else 0}
    if not takes.limit:
        raise TiebreakSpecError.of("tiebreak.limit_ks_only", code=repr(raw))
    if not m["sign"]:
        return {"ks_percent": Decimal(m["lim"])}
    steps = int(m["lim"])
    return {"ks_steps": steps if m["sign"] == "+" else -steps}


def parse_list(text: str | list[str] | tuple[str, ...], *, teams: bool = False) -> tuple[Spec, ...]:
    """A tie-break list, in order (2024 4.2): comma-separated text or one code per item."""
    items = text.split(",") if isinstance(text, str) else list(text)
    return tuple(parse_spec(item, teams=teams) for item in items if item.strip())
