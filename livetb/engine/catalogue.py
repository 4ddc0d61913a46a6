"""Every tie-break livetb computes, one record each: FIDE C.07 (2024 and 2023 editions) and the
US Chess ones of seed 003. A record says what the code is, which modifiers it takes (2024
Art. 14), how the live standings schedule it (the 2024 4.3 types) and what computes it; the
parser, the ranking, the live projections and the `/new` picker read their tables from
`TIEBREAKS`. Each family module opens with its slice of the coverage table (name, type,
articles per edition).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from livetb.engine import (
    buchholz,
    counts,
    koya,
    performance,
    team_boards,
    team_scores,
    team_sonneborn,
    us_chess,
)
from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.modifiers import Spec, Takes
from livetb.engine.result import Value
from livetb.engine.team_context import TeamView
from livetb.engine.team_encounter import extended_direct_encounter

Compute = Callable[[Context, Spec, int], Value]
Places = Callable[[Context, list[int]], dict[int, int]]
TeamCompute = Callable[[TeamView, Spec, int], Value]
TeamPlaces = Callable[[TeamView, Spec, list[int]], dict[int, int]]


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tie-break: its facts, its modifiers as a value, and what computes it."""

    code: str  # its name in words is the catalogs' `tb.<code>` (livetb/i18n)
    types: str  # 2024 4.3 types, "BC" = B and C; "" for a score or a US Chess tie-break
    family: str  # the module computing it, whose table gives the articles
    takes: Takes = Takes.NOTHING
    compute: Compute | None = None  # one participant's value
    places: Places | None = None  # a group tie-break: places within the group still tied
    team_compute: TeamCompute | None = None  # a team's value, when not `compute` on a score
    team_places: TeamPlaces | None = None  # a team group tie-break's places
    boards: TeamCompute | None = None  # on game points: boards, as the FIDE reference counts
    lower_is_better: bool = False  # places and board counts: 1 is best
    team_only: bool = False
    own_points: bool = False  # its score is in its name: no `:MP` / `:GP`
    score: bool = False  # the score itself (PTS, MPTS, GPTS), not a tie-break of it
    counts_wins: bool = False  # counts rounds scored as a win, whatever else it selects
    # Needs the opponents' results of the round (type C, and averages of the opponents'
    # performances): the live standings read it on the closed rounds while a round runs.
    type_c: bool = False
    fore: bool = False  # FB: read as if the running round were the last, a prediction
    reach: int | None = 0  # opponent hops a result's change travels (None: to everybody)
    sums: tuple[bool, bool] | None = None  # (fore, sb) of `buchholz.totals_of`, which caches
    # Computed on the participants still tied at its turn (2024 Art. 6; 2023 12.3): a field,
    # not a property, as the live projection asks it for every cell an event recomputes.
    group: bool = field(init=False)

    def __post_init__(self) -> None:
        group = self.places is not None or self.team_places is not None
        object.__setattr__(self, "group", group)  # frozen: set once, here

    @property
    def cached(self) -> bool:
        """The bulk sums keep its values in the context until an update reaches them."""
        return self.sums is not None


_RECORDS = (
    # --- the participant's own results (counts.py), type B ---
    Tiebreak("PTS", "", "counts", compute=counts.points, score=True),
    Tiebreak(
        "WIN",
        "B",
        "counts",
        compute=counts.wins,
        boards=team_scores.board_wins,
        counts_wins=True,
    ),
    Tiebreak(
        "WON",
        "B",
        "counts",
        compute=counts.games_won,
        boards=team_scores.board_games_won,
        counts_wins=True,
    ),
    Tiebreak(
        "BPG",
        "B",
        "counts",
        compute=counts.black_games,
        boards=team_scores.board_black_games,
    ),
    Tiebreak(
        "BWG",
        "B",
        "counts",
        compute=counts.black_wins,
        boards=team_scores.board_black_wins,
        counts_wins=True,
    ),
    Tiebreak(
        "GE",
        "B",
        "counts",
        compute=counts.games_elected,
        boards=team_scores.board_games_elected,
    ),
    Tiebreak(
        "STD",
        "B",
        "counts",
        compute=counts.standard_points,
        boards=team_scores.board_standard_points,
    ),
    Tiebreak("PS", "B", "counts", Takes.CUT, counts.progressive),
    # --- opponents' scores (buchholz.py) ---
    Tiebreak(
        "BH",
        "C",
        "buchholz",
        Takes.CUT_OR_MEDIAN,
        buchholz.buchholz,
        type_c=True,
        reach=1,
        sums=(False, False),
    ),
    Tiebreak(
        "FB",
        "D",
        "buchholz",
        Takes.CUT_OR_MEDIAN,
        buchholz.fore_buchholz,
        fore=True,
        reach=1,
        sums=(True, False),
    ),
    Tiebreak(
        "SB",
        "BC",
        "buchholz",
        Takes.CUT,
        buchholz.sonneborn_berger,
        type_c=True,
        reach=1,
        sums=(False, True),
    ),
    Tiebreak(
        "AOB",
        "C",
        "buchholz",
        compute=buchholz.average_of_buchholz,
        type_c=True,
        reach=2,
    ),
    # --- ratings (performance.py), type D ---
    Tiebreak(
        "ARO",
        "D",
        "performance",
        Takes.CUT_OR_MEDIAN,
        performance.average_rating_of_opponents,
    ),
    Tiebreak(
        "TPR",
        "D",
        "performance",
        compute=performance.performance_rating,
    ),
    Tiebreak(
        "PTP",
        "D",
        "performance",
        compute=performance.perfect_performance_rating,
    ),
    Tiebreak(
        "APRO",
        "BD",
        "performance",
        compute=performance.average_performance_of_opponents,
        type_c=True,
        reach=1,
    ),
    Tiebreak(
        "APPO",
        "BD",
        "performance",
        compute=performance.average_perfect_performance_of_opponents,
        type_c=True,
        reach=1,
    ),
    # --- Koya (koya.py) ---
    # In a round robin the limit counts who has not played yet: a change can move anyone.
    Tiebreak("KS", "BC", "koya", Takes.LIMIT, koya.koya, type_c=True, reach=None),
    # --- the tied group's games (direct_encounter.py), type A: places, lower is better ---
    Tiebreak(
        "DE",
        "A",
        "direct_encounter",
        places=direct_encounter,
        lower_is_better=True,
        reach=None,
    ),
    # --- US Chess (us_chess.py): `/O` is the other reading of the unplayed-games rule ---
    Tiebreak(
        "MM",
        "",
        "us_chess",
        Takes.MEDIAN_OR_OTHER,
        us_chess.modified_median,
        type_c=True,
        reach=1,
    ),
    Tiebreak(
        "MED",
        "",
        "us_chess",
        Takes.MEDIAN_OR_OTHER,
        us_chess.median,
        type_c=True,
        reach=1,
    ),
    Tiebreak("SOLK", "", "us_chess", Takes.OTHER, us_chess.solkoff, type_c=True, reach=1),
    Tiebreak("CUM", "", "us_chess", compute=us_chess.cumulative),
    Tiebreak(
        "OCUM",
        "",
        "us_chess",
        Takes.OTHER,
        us_chess.opponents_cumulative,
        type_c=True,
        reach=1,
    ),
    Tiebreak("KASH", "", "us_chess", compute=us_chess.kashdan),
    Tiebreak("MB", "", "us_chess", Takes.OTHER, us_chess.most_blacks),
    Tiebreak("TFL", "", "us_chess", Takes.OTHER, us_chess.first_loss),
    # --- team competitions (2023 Art. 10-12; 2024 Art. 11-13) ---
    Tiebreak(
        "MPTS",
        "",
        "team_scores",
        compute=counts.points,
        team_only=True,
        own_points=True,
        score=True,
    ),
    Tiebreak(
        "GPTS",
        "",
        "team_scores",
        compute=counts.points,
        team_only=True,
        own_points=True,
        score=True,
    ),
    Tiebreak(
        "MPVGP",
        "B",
        "team_scores",
        team_compute=team_scores.secondary_score,
        team_only=True,
    ),
    *(
        Tiebreak(
            code,
            "BC",
            "team_sonneborn",
            Takes.CUT,
            team_compute=team_sonneborn.extended_sonneborn_berger,
            team_only=True,
            own_points=True,
            type_c=True,
            reach=1,
        )
        for code in ("EMMSB", "EMGSB", "EGMSB", "EGGSB")
    ),
    Tiebreak(
        "EDE",
        "A",
        "team_encounter",
        team_places=extended_direct_encounter,
        lower_is_better=True,
        team_only=True,
        reach=None,
    ),
    Tiebreak(
        "BC",
        "B",
        "team_boards",
        team_compute=team_boards.board_count,
        lower_is_better=True,
        team_only=True,
        own_points=True,
    ),
    Tiebreak(
        "TBR",
        "B",
        "team_boards",
        team_places=team_boards.top_board_results,
        lower_is_better=True,
        team_only=True,
        own_points=True,
        reach=None,
    ),
    Tiebreak(
        "BBE",
        "B",
        "team_boards",
        team_places=team_boards.bottom_board_elimination,
        lower_is_better=True,
        team_only=True,
        own_points=True,
        reach=None,
    ),
    # BH on the primary score: the opponents' results of the round, like BH.
    Tiebreak(
        "SSSC",
        "BD",
        "team_scores",
        team_compute=team_scores.score_strength,
        team_only=True,
        type_c=True,
        reach=1,
    ),
)

# Code -> its record, in the order the `/new` picker lists them.
TIEBREAKS: dict[str, Tiebreak] = {tb.code: tb for tb in _RECORDS}
# Other names of the same tie-break. RBT, US Chess's "result between tied players", is DE
# (`us_chess.py` says why).
ALIASES: dict[str, str] = {"REP": "GE", "POINTS": "PTS", "RBT": "DE", "HARK": "MED"}


def tiebreak_of(spec: Spec) -> Tiebreak:
    """The record of a parsed tie-break (its code is canonical, never an alias)."""
    return TIEBREAKS[spec.code]
