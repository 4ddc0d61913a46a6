"""What a pairing program's file, a tie-break list or an export is refused for is worded from
the catalogs: English word for word in the message, the reader's language on the command line
(LIVETB_LANG), and the key and values in the API's body (`said`) for a page."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from livetb.engine.spec import parse_spec
from livetb.errors import (
    ExportUnsupported,
    RoundsDiffer,
    TiebreakSpecError,
    TrfError,
)
from livetb.trf import parse_trf
from livetb.trf.rounds import with_round_count
from livetb.trf.writer import write_trf
from tests.cli.running import run
from tests.interchange.sync_cuts import SWISSES, cuts
from tests.trf.test_reader import player
from tests.trf.test_real_world import trf


def test_a_tiebreak_code_is_refused_in_the_readers_language() -> None:
    with pytest.raises(TiebreakSpecError) as caught:
        parse_spec("BH/X9")
    err = caught.value
    assert str(err) == "'BH/X9': unknown modifier 'X9'"
    assert err.words("it") == "'BH/X9': modificatore sconosciuto 'X9'"
    assert err.as_dict() == {
        "code": "tiebreak_unknown",
        "message": "'BH/X9': unknown modifier 'X9'",
        "said": {
            "key": "tiebreak.modifier_unknown",
            "params": {"code": "'BH/X9'", "modifier": "'X9'"},
        },
    }
    with pytest.raises(TiebreakSpecError) as caught:
        parse_spec("WIN/C1")
    assert caught.value.words("it") == "'WIN/C1': WIN non ammette il modificatore 'C1'"


def test_a_files_tiebreak_issue_nests_the_reason_for_a_page() -> None:
    text = trf(player(1, "1.0", "2 w 1"), player(2, "0.0", "1 b 0"), "212 PTS, BH/Q")
    with pytest.raises(TrfError) as caught:
        parse_trf(text)
    err = caught.value
    assert "expected a tie-break livetb computes ('BH/Q': unknown modifier 'Q')" in str(err)
    assert "atteso uno spareggio che livetb calcola ('BH/Q': modificatore sconosciuto 'Q')" in (
        err.words("it")
    )
    (issue,) = msgspec.json.decode(msgspec.json.encode(err.as_dict()))["issues"]
    assert issue["expected_key"] == "trf.expected.tiebreak"
    assert issue["expected_params"] == {
        "reason": {
            "key": "tiebreak.modifier_unknown",
            "params": {"code": "'BH/Q'", "modifier": "'Q'"},
        }
    }


def test_a_round_count_the_file_contradicts() -> None:
    imported = parse_trf(cuts(SWISSES[0])[1].text)
    declared = imported.declared_rounds
    with pytest.raises(RoundsDiffer) as caught:
        with_round_count(imported, 3, "vega.trf")
    assert str(caught.value) == f"rounds 3: vega.trf declares {declared}"
    assert caught.value.words("it") == f"turni 3: vega.trf ne dichiara {declared}"


def test_an_export_field_too_long_names_its_place_in_the_readers_language() -> None:
    t = parse_trf(trf(player(1, "1.0", "2 w 1"), player(2, "0.0", "1 b 0"))).tournament
    long = msgspec.structs.replace(t.participants[0], name="N" * 34)
    with pytest.raises(ExportUnsupported) as caught:
        write_trf(msgspec.structs.replace(t, participants=(long, *t.participants[1:])))
    assert str(caught.value) == f"#1 name: {'N' * 34!r} is longer than its 33 TRF columns"
    assert (
        caught.value.words("it")
        == f"#1 nome: {'N' * 34!r} è più lungo delle sue 33 colonne del TRF"
    )


def test_sync_without_a_round_count_says_so_in_italian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "".join(
        line for line in cuts(SWISSES[0])[0].text.splitlines(True) if line[:3] not in ("XXR", "142")
    )
    trf_file = tmp_path / "vega.trf"
    trf_file.write_text(text)
    monkeypatch.setenv("LIVETB_LANG", "it")
    db = str(tmp_path / "t.sqlite")
    code, _, err = run(capsys, "sync", str(trf_file), "--db", db, "--tournament", "open")
    assert code == 2
    assert "livetb: vega.trf non dichiara il numero dei turni (nessuna riga 142 o XXR)" in err
    assert "indicalo con --rounds N (livetb sync)" in err
