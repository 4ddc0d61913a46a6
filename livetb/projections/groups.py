"""DE (direct encounter, type A) in the live standings: one column's tied groups, kept from
event to event so that only the groups a row left or joined, or whose members' games changed,
are decided again (`direct_encounter` on the group; the shortcuts for big groups are in
`contexts.py`). A group known to have no game played inside stays tied unless a row that
joined it, or whose games changed, played another member: only those rows' games are looked
at, not every member's."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Collection, Iterable

from livetb.engine.direct_encounter import direct_encounter
from livetb.projections.contexts import Contexts, met_inside
from livetb.projections.lines import ANEW, Line, Touched, mark
from livetb.projections.steps import Steps, chunks, emptying, item_chunks

Prefix = tuple[object, ...]  # the sort-key parts before the DE column: one tied group
# DE groups after a change: by prefix, each row's, the changed ones, the rows joining each
Regrouped = tuple[dict[Prefix, set[int]], dict[int, Prefix], set[Prefix], dict[Prefix, list[int]]]


class DirectEncounters:
    """The tied groups of DE column `i`: the participants tied on the values before it."""

    def __init__(self, i: int) -> None:
        self.i = i
        self.prefix = _prefix(i)
        self.groups: dict[Prefix, set[int]] = {}
        self.group_of: dict[int, Prefix] = {}
        self.tied: set[Prefix] = set()  # groups known to have place 1 throughout
        # Groups known to have no game played inside: only a row that joins one, or whose
        # games change, can bring one in (`met_inside`'s `among`).
        self.apart: set[Prefix] = set()

    def copying(self, chunk: int) -> Steps[DirectEncounters]:
        """The same groups, to change apart from these (a fork's: `_own`), a piece of `chunk`
        groups or rows at a time."""
        twin = DirectEncounters(self.i)
        for part in item_chunks(self.groups, chunk):
            twin.groups.update((prefix, set(members)) for prefix, members in part)
            yield
        for rows in item_chunks(self.group_of, chunk):
            twin.group_of.update(rows)
            yield
        twin.tied, twin.apart = set(self.tied), set(self.apart)
        return twin

    def updating(
        self,
        ctx: Contexts,
        lines: dict[int, Line],
        touched: Touched,
        moved: set[int],
        games: Collection[int],
        chunk: int,
    ) -> Steps[None]:
        """DE for every tied group a row left or joined, or whose members' games changed. Only
        the rows with a changed value before the column (or new) can have changed groups: a
        pairing, which changes values after it for everybody, regroups nobody else. Pieces
        of `chunk` rows or groups."""
        i = self.i
        before = (1 << i) - 1 | ANEW
        nos: list[int] = []
        for items in item_chunks(touched, chunk):
            nos += [no for no, bits in items if bits & before]
            yield
        if 2 * len(nos) > len(lines):
            redo, joined = yield from self._regrouping_all(lines, chunk)
        else:
            redo, joined = set(), {}
            for some in chunks(nos, chunk):
                self._regroup(lines, some, redo, joined)
                yield
        group_of = self.group_of
        played: dict[Prefix, list[int]] = {}  # the members whose games changed, by group
        for some in chunks(list(games), chunk):
            for no in some:
                prefix = group_of.get(no)
                if prefix is not None:
                    redo.add(prefix)
                    played.setdefault(prefix, []).append(no)
            yield
        # Pieces of about `chunk` rows: groups of one row each early in a Swiss, of hundreds
        # tied on points and Buchholz in a round robin's or a big open's first rounds.
        groups, few, rows = self.groups, [], 0
        for prefix in list(redo):
            few.append(prefix)
            rows += len(groups.get(prefix, ()))
            if rows >= chunk:
                self._decide(ctx, lines, touched, moved, few, joined, played)
                few, rows = [], 0
                yield
        if few:
            self._decide(ctx, lines, touched, moved, few, joined, played)
            yield

    def _decide(
        self,
        ctx: Contexts,
        lines: dict[int, Line],
        touched: Touched,
        moved: set[int],
        redo: Iterable[Prefix],
        joined: dict[Prefix, list[int]],
        played: dict[Prefix, list[int]],
    ) -> None:
        """DE's places in the groups `redo`, the rows whose place changed marked."""
        i, tied, apart = self.i, self.tied, self.apart
        groups, bit, inseparable = self.groups, 1 << i, ctx.inseparable
        for prefix in redo:
            members = groups.get(prefix)
            if not members:
                groups.pop(prefix, None)
                tied.discard(prefix)
                apart.discard(prefix)
                continue
            size = len(members)
            if size == 1:
                (no,) = members
                line = lines[no]
                if line.values[i] != 1:
                    line.put(i, 1, 1)
                    mark(touched, no, bit)
                    moved.add(no)
                tied.add(prefix)
                apart.add(prefix)
                continue
            fresh = itertools.chain(joined.get(prefix, ()), played.get(prefix, ()))
            if size < inseparable and not self._apart(ctx, prefix, members, fresh):
                tied.discard(prefix)
                places = direct_encounter(ctx.live, sorted(members))
            else:
                if size >= inseparable:
                    apart.discard(prefix)  # its games not looked at
                if prefix in tied:  # only the rows joining it can differ
                    places = dict.fromkeys(joined.get(prefix, ()), 1)
                else:
                    places = dict.fromkeys(members, 1)
                    tied.add(prefix)
            for no, place in places.items():
                line = lines[no]
                if line.values[i] != place:
                    line.put(i, place, place)
                    mark(touched, no, bit)
                    moved.add(no)

    def _apart(
        self, ctx: Contexts, prefix: Prefix, members: set[int], fresh: Iterable[int]
    ) -> bool:
        """Whether no two members of group `prefix` played each other (kept for the next
        event). In a group known to have no such game, only a `fresh` member (one that joined
        it, or whose games changed) can have brought one in: its games alone are looked at."""
        apart = self.apart
        if prefix in apart:
            if not met_inside(ctx.live, members, fresh):
                return True
            apart.discard(prefix)
            return False
        if met_inside(ctx.live, members):
            return False
        apart.add(prefix)
        return True

    def _regroup(
        self,
        lines: dict[int, Line],
        nos: Iterable[int],
        redo: set[Prefix],
        joined: dict[Prefix, list[int]],
    ) -> None:
        """Move `nos` to the groups of their current values: the groups that changed join
        `redo`, the rows that joined each `joined`."""
        groups, group_of, prefix_of = self.groups, self.group_of, self.prefix
        for no in nos:
            prefix = prefix_of(lines[no].parts)
            old = group_of.get(no)
            if old != prefix:
                if old is not None:
                    groups[old].discard(no)
                    redo.add(old)
                groups.setdefault(prefix, set()).add(no)
                group_of[no] = prefix
                joined.setdefault(prefix, []).append(no)
                redo.add(prefix)

    def _regrouping_all(
        self, lines: dict[int, Line], chunk: int
    ) -> Steps[tuple[set[Prefix], dict[Prefix, list[int]]]]:
        """`_regroup` of every row at once (a close re-keys nearly everybody): the groups made
        afresh, compared with the previous ones as wholes; a group whose membership did not
        change is not decided again. Pieces of `chunk` rows or groups."""
        previous, prefix_of = self.groups, self.prefix
        groups: dict[Prefix, set[int]] = {}
        group_of: dict[int, Prefix] = {}
        for part in item_chunks(lines, chunk):
            for no, line in part:
                prefix = group_of[no] = prefix_of(line.parts)
                members = groups.get(prefix)
                if members is None:
                    groups[prefix] = {no}
                else:
                    members.add(no)
            yield
        redo: set[Prefix] = set()
        joined: dict[Prefix, list[int]] = {}
        for made in item_chunks(groups, chunk):
            for prefix, members in made:
                old = previous.get(prefix)
                if old != members:
                    redo.add(prefix)
                    joined[prefix] = list(members - old) if old else list(members)
            yield
        # Prefixes are tuples, whose hashes are not kept: a set of every previous one and the
        # dict the new groups replace, freed, took 2-4 ms at 10,000 rows in one piece.
        gone: list[Prefix] = []
        for old_prefixes in chunks(list(previous), chunk):
            gone += [prefix for prefix in old_prefixes if prefix not in groups]
            yield
        self.tied.difference_update(gone)
        self.apart.difference_update(gone)
        self.groups = groups
        self.group_of = group_of
        yield
        yield from emptying(previous, chunk)
        return redo, joined


def _prefix(i: int) -> Callable[[tuple[object, ...]], Prefix]:
    """The sort-key parts before column `i`, as a tuple: numeric parts, not shown text ("1.0"
    and "1.00" are the same tie, as in `rank`)."""
    if i >= 2:
        return operator.itemgetter(*range(i))  # a tuple in one call, no list in between
    return lambda parts: parts[:i]
