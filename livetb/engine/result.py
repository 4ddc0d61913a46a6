"""What a tie-break returns for one participant: its value and, for `--explain`, where it came
from (each round's contribution, the rounds cut and why).

Explanations are data, never sentences: a part's `source` is one tagged struct per kind, and a
cut names its `Reason`. The catalogs put them into words (`explain.<kind>` with the struct's
fields as parameters, `cut.<reason>`): `livetb/i18n/explain.py` for the command line, the
pages' `words.js` for the card, which receives the same structs as JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Literal, cast

import msgspec

from livetb.engine.model import Code

Number = Decimal | int

# A round's outcome by its `Code`'s name in lower case, as the card's results strip names it.
Outcome = Literal[
    "win", "draw", "loss", "short_win", "short_draw", "short_loss", "forfeit_win",
    "forfeit_loss", "half_bye", "full_bye", "pab", "zero_bye", "unknown", "pending",
]  # fmt: skip


def outcome(code: Code) -> Outcome:
    return cast(Outcome, code.name.lower())


class Reason(StrEnum):
    """Why a round's contribution is cut."""

    LOWEST = "lowest"  # Cut-n, Median-n, MED and MM: among the least significant
    HIGHEST = "highest"  # Median-n, MED and MM: among the most significant
    VOLUNTARY = "voluntary"  # an own voluntarily unplayed round, cut first (2024 16.5)
    EARLY = "early"  # PS Cut-n: one of the first n rounds
    BELOW_LIMIT = "below_limit"  # KS: the opponent's score is under the Koya limit


class Source(msgspec.Struct, frozen=True, tag_field="kind"):
    """Where a part's amount comes from; the tag is the kind the catalogs name. Subclasses
    repeat `frozen=True`: msgspec inherits it, but type checkers (PEP 681) do not."""


class Opponent(Source, tag="opponent", frozen=True):
    no: int


class OpponentValue(Source, tag="opponent_value", frozen=True):
    """The opponent's value of the tie-break `code` (AOB: BH, APRO: TPR, APPO: PTP)."""

    no: int
    code: str


class OpponentRating(Source, tag="opponent_rating", frozen=True):
    no: int


class OwnUnplayed(Source, tag="own_unplayed", frozen=True):
    """An own unplayed round counted as a game against oneself: the own score (2024 16.4)."""

    outcome: Outcome


class OwnUnplayedCapped(Source, tag="own_unplayed_capped", frozen=True):
    """As `OwnUnplayed`, capped by the scheduled opponent's score (the 2026 edition)."""

    outcome: Outcome


class UnplayedZero(Source, tag="unplayed_zero", frozen=True):
    """US Chess: an own unplayed round enters the list of opponents' scores as 0."""

    outcome: Outcome


class VirtualOpponent(Source, tag="virtual_opponent", frozen=True):
    """Pre-2023 FIDE (seed 004): an own unplayed round against a virtual opponent."""

    outcome: Outcome


class RoundResult(Source, tag="result", frozen=True):
    outcome: Outcome


class RunningScore(Source, tag="running_score", frozen=True):
    """PS, CUM: the score after the round."""


class Black(Source, tag="black", frozen=True):
    pass


class BlackForfeit(Source, tag="black_forfeit", frozen=True):
    """MB `/O`: a forfeit counted with its scheduled colour, Black."""


class FirstLoss(Source, tag="first_loss", frozen=True):
    pass


class KoyaLimit(Source, tag="koya_limit", frozen=True):
    """KS: the score an opponent needs (not a round: a part of round 0)."""


class OnBoard(Source, tag="board", frozen=True):
    board: int


class BoardProducts(Source, tag="board_products", frozen=True):
    """BC: each board number times the game points scored on it."""

    boards: tuple[tuple[int, Decimal], ...]


class SecondaryScore(Source, tag="secondary_score", frozen=True):
    """SSSC: the secondary score (not a round: a part of round 0)."""

    points: Literal["MP", "GP"]


class NormalisingFactor(Source, tag="normalising_factor", frozen=True):
    """SSSC: the normalising factor (not a round: a part of round 0)."""


# What a Buchholz-type term is: the sources `buchholz.terms` gives.
TermSource = Opponent | OwnUnplayed | OwnUnplayedCapped | VirtualOpponent


class Product(Source, tag="product", frozen=True):
    """Extended SB: the term's score times the points scored in its round."""

    of: TermSource
    score: Decimal
    scored: Decimal


AnySource = (
    Opponent | OpponentValue | OpponentRating | OwnUnplayed | OwnUnplayedCapped | UnplayedZero
    | VirtualOpponent | RoundResult | RunningScore | Black | BlackForfeit | FirstLoss | KoyaLimit
    | OnBoard | BoardProducts | SecondaryScore | NormalisingFactor | Product
)  # fmt: skip

# The kinds without fields, made once.
RUNNING_SCORE, BLACK, BLACK_FORFEIT = RunningScore(), Black(), BlackForfeit()
FIRST_LOSS, KOYA_LIMIT, NORMALISING_FACTOR = FirstLoss(), KoyaLimit(), NormalisingFactor()


class Part(msgspec.Struct, frozen=True):
    """One round's contribution to a tie-break (round 0: a total the value is built from)."""

    rnd: int
    amount: Number
    source: AnySource


class Value(msgspec.Struct, frozen=True):
    value: Number | None
    parts: tuple[Part, ...] = ()
    cut: tuple[tuple[int, Reason], ...] = ()  # (round, why)


def half_up(x: Decimal, places: str) -> Decimal:
    """C.07 averages: rounded half up (AOB to 0.01, rating averages to whole numbers)."""
    return x.quantize(Decimal(places), rounding=ROUND_HALF_UP)


def average(values: Sequence[Number], places: str) -> Decimal | None:
    if not values:
        return None
    return half_up(Decimal(sum(values)) / len(values), places)
