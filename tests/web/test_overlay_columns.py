"""The overlay's `?columns=` read as the API reads tie-break codes (`livetb/web/pages/columns.py`):
every notation of one code names one column, spelt as the tournament spells it."""

from __future__ import annotations

import json
import re

from livetb.web.pages.columns import AskedColumn, asked_columns
from tests.web.conftest import TID, Api


def test_each_notation_of_a_code_names_the_same_column() -> None:
    got = asked_columns("pts, bhc1,BH-C1,bh/c1,aroc1,ks/l+1", ("PTS", "BH/C1", "ARO/C1"))
    assert [c.code for c in got] == ["PTS", "BH/C1", "BH/C1", "BH/C1", "ARO/C1", "KS/L+1"]


def test_the_tournaments_own_spelling_is_kept() -> None:
    """A list created as `BHC1` names its column `BHC1` in the standings."""
    assert asked_columns("BH/C1", ("PTS", "BHC1")) == [AskedColumn("BH/C1", "BHC1")]


def test_a_code_that_is_no_tiebreak_is_kept_as_asked_to_be_named() -> None:
    got = asked_columns("PTS,XYZ,,BH/Q9", ("PTS",))
    assert got == [AskedColumn("PTS", "PTS"), AskedColumn("XYZ", None), AskedColumn("BH/Q9", None)]


async def test_the_overlay_page_carries_the_columns_read(api: Api) -> None:
    await api.start(tiebreaks=("PTS", "BH", "FB"))
    async with api.session.get(f"{api.base}/t/{TID}/overlay?columns=pts,bh,nope") as resp:
        page = await resp.text()
    found = re.search(r'<script id="config" type="application/json">(.*?)</script>', page)
    assert found is not None
    assert json.loads(found.group(1))["columns"] == [
        {"asked": "pts", "code": "PTS"}, {"asked": "bh", "code": "BH"},
        {"asked": "nope", "code": None},
    ]  # fmt: skip
