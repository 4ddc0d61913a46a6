"""Every error a user can cause is worded from the catalogs: no `LivetbError` is raised with
English text of its own, and none words its message itself, so the command line speaks the
reader's language and a page words the body's `said` in its own."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import pytest

import livetb.errors
from livetb import i18n
from livetb.errors import InvalidInput, LivetbError, Num, Said

LIVETB = Path(i18n.__file__).parent.parent
ERRORS = {
    name
    for name, obj in vars(livetb.errors).items()
    if inspect.isclass(obj) and issubclass(obj, LivetbError)
}


def _text(node: ast.expr) -> bool:
    """Whether `node` makes English text of its own: a string, an f-string, a sum of them, or
    `str(...)` of something."""
    match node:
        case ast.Constant(value=str()) | ast.JoinedStr():
            return True
        case ast.BinOp(left=left, right=right):
            return _text(left) or _text(right)
        case ast.Call(func=ast.Name(id="str")):
            return True
    return False


def _worded_here(source: str, name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func, args = node.func, node.args
        if isinstance(func, ast.Name) and func.id in ERRORS:
            worded = args[:1]  # raised: the message first
        elif isinstance(func, ast.Attribute) and func.attr == "__init__" and _an_error(func.value):
            worded = args[:2]  # built by a class of its own: `super().__init__(message)` or
            # `Base.__init__(self, message)`
        else:
            continue
        if any(map(_text, worded)):
            found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def _an_error(node: ast.expr) -> bool:
    """`super()`, or a class of the errors."""
    match node:
        case ast.Call(func=ast.Name(id="super")):
            return True
        case ast.Name(id=name):
            return name in ERRORS
    return False


def test_no_error_is_raised_with_english_of_its_own() -> None:
    found = [
        line
        for path in sorted(LIVETB.rglob("*.py"))
        for line in _worded_here(path.read_text("utf-8"), str(path.relative_to(LIVETB.parent)))
    ]
    assert found == []


def test_the_guard_sees_english_where_it_is() -> None:
    sample = (
        "from livetb.errors import NotFound, LivetbError, Said\n"
        "raise NotFound(f'round {3}: no such round')\n"
        "raise NotFound(Said('rounds.wider', given=3, file='a', width=5))\n"
        "raise NotFound.of('rounds.wider', given=3, file='a', width=5)\n"
        "class Mine(LivetbError):\n"
        "    def __init__(self) -> None:\n"
        "        super().__init__('made ' + 'here')\n"
        "class Theirs(NotFound):\n"
        "    def __init__(self, no: int) -> None:\n"
        "        LivetbError.__init__(self, f'#{no} made here')\n"
        "        LivetbError.__init__(self, Said('rounds.wider', given=no, file='a', width=5))\n"
    )
    found = [line.split(": ", 1)[0] for line in _worded_here(sample, "sample.py")]
    assert found == ["sample.py:2", "sample.py:7", "sample.py:10"]


def test_an_error_of_a_said_words_itself_in_each_language() -> None:
    err = livetb.errors.NotFound(Said("rounds.given_declared", given=3, file="a.trf", declared=5))
    assert str(err) == err.message == "rounds 3: a.trf declares 5"
    assert err.words("it") == "turni 3: a.trf ne dichiara 5"
    assert err.as_dict()["said"] == {
        "key": "rounds.given_declared",
        "params": {"given": 3, "file": "a.trf", "declared": 5},
    }
    assert livetb.errors.NotFound("as given").words("it") == "as given"  # a bug's, never a user's


class _Shape(msgspec.Struct, forbid_unknown_fields=True):
    a: Annotated[int, msgspec.Meta(ge=1)]
    s: Annotated[str, msgspec.Meta(max_length=5, pattern="^[a-z]+$")] = "x"
    k: Literal["a", "b"] = "a"


@pytest.mark.parametrize(
    ("body", "italian"),
    [
        (b'{"a": 0}', "atteso `int` >= 1 - in `$.a`"),
        (b'{"a": "x"}', "atteso `int`, trovato `str` - in `$.a`"),
        (b"{}", "manca il campo obbligatorio `a`"),
        (b'{"a": 1, "z": 2}', "c'è il campo sconosciuto `z`"),
        (b'{"a": 1, "s": "abcdefg"}', "attesa una lunghezza di `str` <= 5 - in `$.s`"),
        (
            b'{"a": 1, "s": "AB"}',
            "atteso `str` conforme all'espressione regolare '^[a-z]+$' - in `$.s`",
        ),
        (b'{"a": 1, "k": "c"}', "valore non ammesso 'c' - in `$.k`"),
        (b'{"a": 1', "i dati sono troncati"),
        (b'{"a": 1}x', "JSON non valido: trailing characters (byte 9)"),
    ],
)
def test_msgspecs_refusals_are_read_back_into_the_catalogs_words(body: bytes, italian: str) -> None:
    with pytest.raises(msgspec.DecodeError) as caught:
        msgspec.json.decode(body, type=_Shape)
    err = InvalidInput.from_msgspec(caught.value)
    assert str(err) == str(caught.value)  # the same English, word for word
    assert err.words("it") == italian
    at = italian.rpartition(" - in `")[2].rstrip("`") if " - in `" in italian else None
    assert err.path == at


def test_a_sentence_of_another_shape_stays_msgspecs() -> None:
    err = InvalidInput.from_msgspec(msgspec.ValidationError("forty-two is refused - at `$.a`"))
    assert err.said is None and err.words("it") == "forty-two is refused - at `$.a`"
    assert err.path == "$.a"


def test_a_decimal_in_a_message_takes_the_readers_separator() -> None:
    err = InvalidInput(
        Said("input.prizes.finer", amount=Num("12.345"), unit=Num("0.01"), currency="EUR"),
        path="$.prizes[0].amount",
    )
    assert str(err) == "amount 12.345: finer than 0.01 EUR"
    assert err.words("it") == "importo 12,345: non è un multiplo di 0,01 EUR"
    assert err.as_dict()["said"] == {
        "key": "input.prizes.finer",
        "params": {"amount": {"num": "12.345"}, "unit": {"num": "0.01"}, "currency": "EUR"},
    }
