"""Tie-break codes as written by the FIDE reference (`BH/C1`, `KS/L+1`, `BH:MP/C1`) or as C.07
acronyms (`BHC1`, `AROC1`, `BH-C1`), parsed into one canonical `Spec` (C.07 2024 Art. 14,
modifiers; for teams, the point type `:MP` / `:GP` of 2023 Art. 12)."""

from __future__ import annotations

import re
from decimal import Decimal

import msgspec

from livetb.errors import TiebreakSpecError

# code -> which modifiers it accepts: C = low cut, M = median (low and high cut), L = Koya limit
FAMILIES: dict[str, str] = {
    "PTS": "",
    "WIN": "",
    "WON": "",
    "BPG": "",
    "BWG": "",
    "GE": "",
    "STD": "",
    "PS": "C",
    "BH": "CM",
    "FB": "CM",
    "SB": "C",
    "AOB": "",
    "ARO": "CM",
    "TPR": "",
    "PTP": "",
    "APRO": "",
    "APPO": "",
    "KS": "L",
    "DE": "",
    # US Chess (seed 003); O = the other reading of the unplayed-games rule (us_chess.py)
    "MM": "MO",
    "MED": "MO",
    "SOLK": "O",
    "CUM": "",
    "OCUM": "O",
    "KASH": "",
    "MB": "O",
    "TFL": "O",
    # --- team competitions (C.07 2023 Art. 11-12), see `TEAM_ONLY` ---
    "MPTS": "",
    "GPTS": "",
    "MPVGP": "",
    "EMMSB": "C",
    "EMGSB": "C",
    "EGMSB": "C",
    "EGGSB": "C",
    "EDE": "",
    "BC": "",
    "TBR": "",
    "BBE": "",
    "SSSC": "",
}
# Tie-breaks that exist for team events only; every other code also works on teams, on the
# point type its `:MP` / `:GP` names (else the primary score).
TEAM_ONLY = frozenset(
    {"MPTS", "GPTS", "MPVGP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EDE", "BC", "TBR", "BBE", "SSSC"}
)
POINT_TYPES = ("MP", "GP")
# Codes whose score is part of their name (or the boards' game points): no `:MP` / `:GP`.
_OWN_POINTS = frozenset({"MPTS", "GPTS", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "BC", "TBR", "BBE"})
# RBT, US Chess's "result between tied players": computed as DE (us_chess.py says why)
ALIASES = {"REP": "GE", "POINTS": "PTS", "RBT": "DE", "HARK": "MED"}
# Most specific code first, so that "APRO" is not read as "ARO" + junk.
_CODES = sorted({*FAMILIES, *ALIASES}, key=len, reverse=True)
_MODIFIER = re.compile(r"^(?:(?P<cm>[CM])(?P<n>\d)|L(?P<sign>[+-]?)(?P<lim>\d+)|(?P<other>O))$")


class Spec(msgspec.Struct, frozen=True):
    """One tie-break of the list: the family code plus its modifiers."""

    code: str
    cut_low: int = 0
    cut_high: int = 0
    ks_percent: Decimal = Decimal(50)  # Koya: share of the maximum score an opponent needs
    ks_steps: int = 0  # Koya: half points added to that limit (13.5: `L+1` raises it by ½)
    points: str = ""  # teams: "MP" or "GP" (`BH:MP`); "" = the event's primary score
    other: bool = False  # US Chess: the other reading of the unplayed-games rule (`MM/O`)

    @property
    def text(self) -> str:
        """The reference's notation, e.g. `BH/C1`, `BH/M2`, `KS/L+1`, `BH:MP/C1`."""
        mods = []
        if self.cut_high:
            mods.append(f"M{self.cut_high}")
        elif self.cut_low:
            mods.append(f"C{self.cut_low}")
        if self.ks_steps:
            mods.append(f"L{self.ks_steps:+d}")
        elif self.ks_percent != 50:
            mods.append(f"L{self.ks_percent}")
        if self.other:
            mods.append("O")
        head = f"{self.code}:{self.points}" if self.points else self.code
        return "/".join([head, *mods])


def parse_spec(raw: str, *, teams: bool = False) -> Spec:
    """Parse one tie-break code; raise TiebreakSpecError naming what is wrong. Team codes
    (`TEAM_ONLY`, a `:MP` / `:GP` point type) are accepted only when `teams` is true."""
    text = raw.strip().upper().replace(" ", "")
    if not text:
        raise TiebreakSpecError("empty tie-break code")
    head, *mods = text.split("/")
    head, _, points = head.partition(":")
    code = next((c for c in _CODES if head.startswith(c)), None)
    if code is None:
        known = ", ".join(sorted(FAMILIES))
        raise TiebreakSpecError(f"unknown tie-break {raw!r}; known: {known}")
    rest = head[len(code) :].lstrip("-")
    if rest:
        mods.insert(0, rest)
    code = ALIASES.get(code, code)
    fields: dict[str, object] = {}
    if points:
        fields["points"] = _point_type(raw, code, points)
    for mod in mods:
        fields.update(_modifier(raw, code, mod))
    if not teams and (code in TEAM_ONLY or points):
        raise TiebreakSpecError(f"{raw!r}: a team tie-break, for team events only")
    return Spec(code, **fields)  # type: ignore[arg-type]


def _point_type(raw: str, code: str, points: str) -> str:
    """A team point type: `:MP` (match points) or `:GP` (game points)."""
    if points not in POINT_TYPES:
        raise TiebreakSpecError(f"{raw!r}: unknown point type {points!r}; known: MP, GP")
    if code in _OWN_POINTS:
        raise TiebreakSpecError(f"{raw!r}: {code} takes no point type")
    return points


def _modifier(raw: str, code: str, mod: str) -> dict[str, object]:
    m = _MODIFIER.match(mod)
    allowed = FAMILIES[code]
    if m is None:
        raise TiebreakSpecError(f"{raw!r}: unknown modifier {mod!r}")
    if m["other"]:
        if "O" not in allowed:
            raise TiebreakSpecError(f"{raw!r}: {code} has no other reading (/O)")
        return {"other": True}
    if m["cm"]:
        if m["cm"] not in allowed:
            raise TiebreakSpecError(f"{raw!r}: {code} does not take modifier {mod!r}")
        n = int(m["n"])
        return {"cut_low": n, "cut_high": n if m["cm"] == "M" else 0}
    if "L" not in allowed:
        raise TiebreakSpecError(f"{raw!r}: only KS takes a limit modifier")
    if not m["sign"]:
        return {"ks_percent": Decimal(m["lim"])}
    steps = int(m["lim"])
    return {"ks_steps": steps if m["sign"] == "+" else -steps}


def parse_list(text: str | list[str] | tuple[str, ...], *, teams: bool = False) -> tuple[Spec, ...]:
    items = text.split(",") if isinstance(text, str) else list(text)
    return tuple(parse_spec(item, teams=teams) for item in items if item.strip())
