"""FIDE Rating Regulations B.02, table 8.1(a) (p -> dp) and 8.1(b) (rating difference -> pd).

Written from the published FIDE tables as ranges, not copied element by element.
"""

from __future__ import annotations

# 8.1(a): fractional score p (in hundredths, 0..100) -> rating difference dp. Symmetric around 50.
_DP_UPPER = (
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
)  # p = .50, .51, ..., 1.00

SCORE_TO_DP: tuple[int, ...] = tuple(-d for d in reversed(_DP_UPPER[1:])) + _DP_UPPER

# 8.1(b): upper bound of each rating-difference range and the stronger player's pd (hundredths).
_PD_RANGES = (
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
    (800, 100),
)


def _expand_pd() -> tuple[int, ...]:
    table: list[int] = []
    for upper, pd in _PD_RANGES:
        table.extend([pd] * (upper + 1 - len(table)))
    return tuple(table)


DIFF_TO_PD: tuple[int, ...] = _expand_pd()  # index 0..800
