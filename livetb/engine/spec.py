"""Tie-break codes as written by the FIDE reference (`BH/C1`, `KS/L+1`) or as C.07 acronyms
(`BHC1`, `AROC1`, `BH-C1`), parsed into one canonical `Spec` (C.07 2024 Art. 14, modifiers)."""

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
    "CUM": "",
    "KASH": "",
    "TFL": "",  # US Chess (seed 003)
}
ALIASES = {"REP": "GE", "POINTS": "PTS"}
# Most specific code first, so that "APRO" is not read as "ARO" + junk.
_CODES = sorted({*FAMILIES, *ALIASES}, key=len, reverse=True)
_MODIFIER = re.compile(r"^(?:(?P<cm>[CM])(?P<n>\d)|L(?P<sign>[+-]?)(?P<lim>\d+))$")


class Spec(msgspec.Struct, frozen=True):
    """One tie-break of the list: the family code plus its modifiers."""

    code: str
    cut_low: int = 0
    cut_high: int = 0
    ks_percent: Decimal = Decimal(50)  # Koya: share of the maximum score an opponent needs
    ks_steps: int = 0  # Koya: half points added to that limit (13.5: `L+1` raises it by ½)

    @property
    def text(self) -> str:
        """The reference's notation, e.g. `BH/C1`, `BH/M2`, `KS/L+1`."""
        mods = []
        if self.cut_high:
            mods.append(f"M{self.cut_high}")
        elif self.cut_low:
            mods.append(f"C{self.cut_low}")
        if self.ks_steps:
            mods.append(f"L{self.ks_steps:+d}")
        elif self.ks_percent != 50:
            mods.append(f"L{self.ks_percent}")
        return "/".join([self.code, *mods])


def parse_spec(raw: str) -> Spec:
    """Parse one tie-break code; raise TiebreakSpecError naming what is wrong."""
    text = raw.strip().upper().replace(" ", "")
    if not text:
        raise TiebreakSpecError("empty tie-break code")
    head, *mods = text.split("/")
    code = next((c for c in _CODES if head.startswith(c)), None)
    if code is None:
        known = ", ".join(sorted(FAMILIES))
        raise TiebreakSpecError(f"unknown tie-break {raw!r}; known: {known}")
    rest = head[len(code) :].lstrip("-")
    if rest:
        mods.insert(0, rest)
    code = ALIASES.get(code, code)
    fields: dict[str, object] = {}
    for mod in mods:
        fields.update(_modifier(raw, code, mod))
    return Spec(code, **fields)  # type: ignore[arg-type]


def _modifier(raw: str, code: str, mod: str) -> dict[str, object]:
    m = _MODIFIER.match(mod)
    allowed = FAMILIES[code]
    if m is None:
        raise TiebreakSpecError(f"{raw!r}: unknown modifier {mod!r}")
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


def parse_list(text: str | list[str] | tuple[str, ...]) -> tuple[Spec, ...]:
    items = text.split(",") if isinstance(text, str) else list(text)
    return tuple(parse_spec(item) for item in items if item.strip())
