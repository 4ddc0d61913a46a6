"""argparse in the reader's language: the parser's headings, `-h`'s help, "usage: " and its
usage errors are catalog messages (`cli.argparse.*`), so that `livetb sync --help` and a
missing `--tournament` read Italian with `--lang it` or LIVETB_LANG=it.

The language is known before parsing (`argv_language`), since help and errors are printed
while parsing."""

from __future__ import annotations

import argparse
import functools
import os
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from livetb import i18n


def argv_language(argv: Sequence[str]) -> str:
    """The language the command will run in (`i18n.cli_language`), read from `argv` before
    parsing: its last `--lang` (abbreviated as argparse allows) if that is a language we have,
    else $LIVETB_LANG, else English. An unknown `--lang` is argparse's to refuse, in the
    language of the environment."""
    try:
        asked = _LANG.parse_known_args(argv)[0].lang
    except argparse.ArgumentError:  # `--lang` with no value: the parser's to refuse
        asked = None
    return i18n.cli_language(asked if asked in i18n.LANGUAGES else None, dict(os.environ))


# `--lang` alone, read the way the whole parser reads it; anything else is left for that one.
_LANG = argparse.ArgumentParser(add_help=False, exit_on_error=False)
_LANG.add_argument("--lang")


def _escaped(text: str) -> str:
    """argparse %-formats helps: a `%` of the catalog doubled to stay a `%`."""
    return text.replace("%", "%%")


def words(lang: str, key: str, /, **params: object) -> str:
    """One of argparse's own phrases (`cli.argparse.KEY`) in `lang`."""
    return i18n.text(lang, f"cli.argparse.{key}", **params)


def help_text(lang: str, key: str, /, **params: object) -> str:
    """An argument's or a command's help (`cli.help.KEY`)."""
    return _escaped(i18n.text(lang, f"cli.help.{key}", **params))


class Formatter(argparse.HelpFormatter):
    """argparse's layout, with "usage: " in the reader's language."""

    def __init__(self, prog: str, *, lang: str, **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        self._lang = lang

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        said = words(self._lang, "usage") if prefix is None else prefix
        super().add_usage(usage, actions, groups, said)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose own words are in `lang`; its subcommands' parsers are too
    (`add_subparsers(parser_class=Parser)`, each `add_parser(…, lang=…)`)."""

    def __init__(self, *, lang: str, **kwargs: Any) -> None:
        formatter = functools.partial(Formatter, lang=lang)
        super().__init__(formatter_class=formatter, add_help=False, **kwargs)
        self.lang = lang
        self._positionals.title = words(lang, "positionals")
        self._optionals.title = words(lang, "options")
        self.add_argument(
            "-h",
            "--help",
            action="help",
            default=argparse.SUPPRESS,
            help=_escaped(words(lang, "help")),
        )

    def error(self, message: str) -> NoReturn:
        """argparse's error (usage on stderr, exit code 2), its message in `lang`."""
        self.print_usage(sys.stderr)
        said = words(self.lang, "error", prog=self.prog, message=usage_error(self.lang, message))
        self.exit(2, f"{said}\n")


# argparse's usage errors as it words them in English (Python 3.11), each with its catalog
# key: whole messages, then what follows "argument X: ".
_WHOLE = (
    (re.compile(r"the following arguments are required: (?P<names>.+)"), "required"),
    (re.compile(r"one of the arguments (?P<names>.+) is required"), "one_of"),
    (re.compile(r"unrecognized arguments: (?P<args>.*)"), "unrecognized"),
    (re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)"), "ambiguous"),
)
_ABOUT_ONE = (
    (re.compile(r"invalid int value: (?P<value>.+)"), "invalid_int"),
    (re.compile(r"invalid float value: (?P<value>.+)"), "invalid_float"),
    (re.compile(r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)"), "choice"),
    (re.compile(r"expected one argument"), "expected_one"),
    (re.compile(r"not allowed with argument (?P<other>.+)"), "not_allowed"),
)
_ARGUMENT = re.compile(r"argument (?P<name>[^:]+): (?P<message>.+)", re.DOTALL)


def usage_error(lang: str, message: str) -> str:
    """argparse's English `message` in `lang`; a shape not listed stays as argparse says it
    (a type's own ArgumentTypeError is worded in `lang` already)."""
    if about := _ARGUMENT.fullmatch(message):
        said = _reworded(lang, about["message"], _ABOUT_ONE)
        return words(lang, "argument", name=about["name"], message=said)
    return _reworded(lang, message, _WHOLE)


def _reworded(lang: str, message: str, shapes: Iterable[tuple[re.Pattern[str], str]]) -> str:
    for shape, key in shapes:
        if found := shape.fullmatch(message):
            return words(lang, key, **found.groupdict())
    return message
