"""The sweep over positions, its back-pointers and the rebuilding of groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import (_RANK_POINTS, _bought_may_start, _line_after, _loose_ahead,
                                   _pure_within, _suit_tables)
from rummy21.solver.moves import (EITHER, JOKER_ONLY, NATURAL, PURE_ONLY, TUNNELA_ONLY, _IDLE,
                                  SuitMove, _options)
from rummy21.solver.packing import (_AT_BOUGHT, _AT_OWED, _AT_POOL, _AT_PURE, _AT_SUIT,
                                    _CANONICAL_OF, _EMPTY_ID, _EXTENDS, _LAYER_BITS,
                                    _OPEN_PURE_OF, _PURITY, _STATE_BITS, _Partial, _Struct,
                                    _pack, _unpack)
from rummy21.solver.pools import _NO_SETS, PoolSplit, _pool_splits
from rummy21.solver.results import Arrangement
from rummy21.solver.runs import (CLOSE, FIRST, I2, LAST, LOWMARK, MAX_RUN, MID, P1, P2,
                                 _IMPURE_OF, _LOW, _NEXT_J, _NEXT_N)

# One reachable state: (joker balance, loose points, back-pointer to the state before it).
_Entry = tuple[int, int, Any]


def _insert(entries: list[_Entry], balance: int, cost: int, back: object, exact: bool) -> None:
    """Add a state unless another of the same structure beats it; drop those it beats.

    Fewer loose points and more spare jokers are better — except, with ``exact``, where
    every spare joker must be placed (Option A), so each balance counts on its own.
    """
    if not entries:
        entries.append((balance, cost, back))
        return
    if exact:
        for i, (b, c, _) in enumerate(entries):
            if b == balance:
                if cost < c:
                    entries[i] = (balance, cost, back)
                return
        entries.append((balance, cost, back))
        return
    beaten = False
    for b, c, _ in entries:
        if b <= balance and c <= cost:
            return
        if balance <= b and cost <= c:
            beaten = True
    if beaten:
        entries[:] = [e for e in entries if not (balance <= e[0] and cost <= e[1])]
    entries.append((balance, cost, back))


class _Table:
    """One solve: the sweep, its back-pointers and the rebuilding of groups.

    ``bound``: the most loose points looked for. ``option_a``: every balance counts (each
    spare joker must be placed; moves that only place spare jokers are tried).
    ``rank_points``: the points of a loose card by rank (the cards' own by default). ``replace`` / ``buy``: the fewest-replacements
    variant, with or without buying cards (see :func:`replacements`); ``aside``: exactly one
    card is put aside at no cost (see :func:`least_after_put_aside`; no rebuilding then).
    Slot 5 of a state counts the cards bought or put aside.
    """

    def __init__(self, counts: Sequence[int], mask: tuple[bool, ...], rules: RuleSet,
                 bound: int, option_a: bool,
                 rank_points: Sequence[int] = (), replace: bool = False,
                 buy: bool = False, aside: bool = False) -> None:
        self.counts = counts
        self.replace = replace
        self.buy = buy
        self.aside = aside
        self.removed: tuple[Card, ...] = ()
        """After rebuilding with ``replace``: the cards that go out."""
        self.mask = mask
        self.rules = rules
        self.need = rules.pure_groups_needed
        self.bound = bound
        self.option_a = option_a
        self.rank_points = rank_points or _RANK_POINTS
        self.layers: list[dict[int, list[_Entry]]] = []      # keys packed (_LAYER_BITS)
        self.stages: list[list[dict[_Partial, list[_Entry]] | None]] = []

    def run(self) -> dict[_Struct, list[_Entry]]:
        counts, mask, need = self.counts, self.mask, self.need
        bound, exact, replace, buy = self.bound, self.option_a, self.replace, self.buy
        aside = self.aside
        # Key slot 5 counts cards bought (``replace``) or put aside (``aside``: exactly one).
        spend = bound if replace else 1 if aside else 0
        printed = counts[JOKER_INDEX]
        layer: dict[int, list[_Entry]] = {}      # keys packed (see _LAYER_BITS)
        for tunnelas in range(printed // 3 + 1):
            # With ``replace``, also pure groups of three bought cards (see ``near`` below).
            for bought in range(need + 1 if buy else 1):
                key = _pack((_EMPTY_ID,) * 4 + (min(tunnelas + bought, need), 3 * bought))
                _insert(layer.setdefault(key, []), -(printed - 3 * tunnelas) + 3 * bought, 0,
                        tunnelas + 100 * bought, exact)
            if aside and printed - 3 * tunnelas > 0:     # a printed joker put aside
                key = _pack((_EMPTY_ID,) * 4 + (min(tunnelas, need), 1))
                _insert(layer.setdefault(key, []), -(printed - 3 * tunnelas - 1), 0, tunnelas,
                        exact)
        self.layers.append(layer)
        # Joker cards still to come after each position (Aces are all decided at position 1).
        supply_after = [0] * 16
        for p in range(13, 1, -1):
            supply_after[p - 1] = supply_after[p] + sum(
                counts[s * 13 + p - 1] for s in range(4) if mask[s * 13 + p - 1])
        # Per suit: natural copies by position (0 past the King; Aces high come from the
        # state), and the tables below, which depend on that suit's cards alone.
        suit_tables = [_suit_tables(tuple(counts[s * 13:s * 13 + 13])) for s in range(4)]
        at = [t[0] for t in suit_tables]
        line = [t[1] for t in suit_tables]
        reach = [list(t[2]) for t in suit_tables]
        # At position 1: whether keeping an Ace for a run ending at Ace-high can help — only
        # if a natural card of the suit lies within joker reach of the King, and no lower
        # than the Ten: in a high run whose Ace is d >= 4 places above the nearest natural
        # (d - 1 jokers between), the Ace can go low with two of those jokers (A-?-?) and
        # the rest still makes a run, unless d == 4 and that natural is alone (10-?-?-?-A).
        most_jokers = printed + sum(n for i, n in enumerate(counts[:JOKER_INDEX]) if mask[i])
        for s in range(4):
            reach[s][1] = 1 if any(at[s][q] for q in range(
                10 if replace else max(10, 13 - most_jokers), 14)) else 4
        pure_ok = [[True] * 16] * 4 if replace else [t[3] for t in suit_tables]
        near = [t[4] for t in suit_tables]
        ahead = [0] * 17 if replace else _loose_ahead(counts, mask, self.rank_points,
                                                      1 if aside else 0)
        pure_after = [sum(t[5][p] for t in suit_tables) for p in range(16)]
        if buy:     # ... buying cards (at most the bound): by what is left to buy
            pure_bought = [_pure_within([_line_after(at[s], p) for s in range(4)], bound, need)
                           for p in range(16)]
        max_set = self.rules.max_set_size
        joker_groups = self.rules.joker_groups
        # Option A may need a short run to take spare jokers at its front: at most two when
        # three spare jokers could form a joker group, else up to a 13-card run.
        padding = (2 if joker_groups else MAX_RUN - 3) if exact else 0
        for p in range(1, 16):
            phase = FIRST if p == 1 else LOWMARK if p == 3 else LAST if p == 14 \
                else CLOSE if p == 15 else MID
            rank = p if p <= 13 else 1
            idx = [s * 13 + rank - 1 for s in range(4)]
            cnt = [counts[i] if p <= 13 else 0 for i in idx]
            jok = [mask[i] for i in idx]
            jokerish = tuple(jok)
            points = 0 if p > 13 else self.rank_points[rank - 1]
            limit = supply_after[p] if p <= 13 else 0
            # Suit by suit, merging equal partial states as we go (a product of the four
            # suits' moves per state would repeat the same work many times over).
            # (The layer's entries themselves: rebuilding reads their key back from ``_Partial``.)
            stage: dict[_Partial, list[_Entry]] = {
                key | _PURITY if key >> _AT_PURE & 63 < need else key: entries
                for key, entries in layer.items()}
            stages: list[dict[_Partial, list[_Entry]] | None] = [stage]
            # With cards of fewer than two suits here no set can form: the pool is loose at
            # once (and a joker card, which may go to the pool only to sit in a set, may not).
            setless = sum(1 for n in cnt if n) < 2 and not aside
            for s in range(4):
                at_suit, at_pool = _AT_SUIT[s], _AT_POOL[s]
                if not cnt[s] and not (buy and near[s][p]) and \
                        all(pkey >> at_suit & _STATE_BITS == _EMPTY_ID for pkey in stage):
                    stages.append(None)     # this suit has nothing to do here
                    continue
                # Joker cards the suits after this one could still supply at this position.
                slack = limit + sum(cnt[t] for t in range(s + 1, 4) if jok[t])
                nxt_stage: dict[_Partial, list[_Entry]] = {}
                # The moves of this suit here, by purity matters and open runs: each with the
                # jokers its short runs are sure to owe at the next two places, and as what it
                # adds to a partial state.
                known: tuple[dict[int, tuple[tuple[Any, ...], ...]], ...] = ({}, {})
                for pkey, entries in stage.items():
                    here = pkey >> at_suit & _STATE_BITS
                    purity = bool(pkey & _PURITY)
                    options = known[purity].get(here)
                    if options is None:
                        if not jok[s]:
                            role = NATURAL
                        elif not joker_groups:
                            role = EITHER
                        elif not purity:
                            role = JOKER_ONLY
                        else:
                            role = PURE_ONLY if pure_ok[s][p] else TUNNELA_ONLY
                        options = known[purity][here] = _options(
                            here, cnt[s], role, phase, purity, reach[s][p], padding, exact,
                            at[s][p + 1] if p + 1 != 14 else -1,
                            at[s][p + 2] if p + 2 not in (14, 17) else -1,
                            (points if not jok[s] else -1) if setless else None,
                            3 - cnt[s] if buy and near[s][p] else 0, replace,
                            aside, not buy or _bought_may_start(line[s], p, bound))
                    for change, pool_, step, extends, jokers_, owed, loose_, move in options:
                        new_pkey = -1           # worked out once an entry can take the move
                        target = None
                        for balance, cost, _ in entries:
                            total = balance + jokers_ + owed
                            cost += loose_
                            # Replaced cards supply jokers too: at most ``bound - cost`` more.
                            if total > (slack if not replace else slack + bound - cost):
                                continue
                            if loose_ and cost + ahead[p] > bound:
                                continue
                            if new_pkey < 0:
                                new_pkey = pkey + (change << at_suit) + (pool_ << at_pool) + step \
                                    | extends
                                target = nxt_stage.get(new_pkey)
                            if target is None:
                                target = nxt_stage[new_pkey] = [(total, cost, (pkey, balance, move))]
                            elif len(target) == 1 and not exact:
                                # _insert's usual case, inlined (the hottest line of a solve)
                                b_, c_, _ = target[0]
                                if b_ <= total and c_ <= cost:
                                    continue
                                if total <= b_ and cost <= c_:
                                    target[0] = (total, cost, (pkey, balance, move))
                                else:
                                    target.append((total, cost, (pkey, balance, move)))
                            else:
                                _insert(target, total, cost, (pkey, balance, move), exact)
                stage = nxt_stage
                stages.append(stage)
            self.stages.append(stages)
            nxt: dict[int, list[_Entry]] = {}
            splits_of: dict[int, tuple[PoolSplit, ...]] = {}    # by the pool's bits
            for pkey, entries in stage.items():
                bought = pkey >> _AT_BOUGHT & 127
                if bought > spend:
                    continue
                pure = pkey >> _AT_PURE & 63
                owed = pkey >> _AT_OWED & 127
                ext = pkey & _EXTENDS
                new_key = pkey & _LAYER_BITS
                if pure > need:
                    new_key -= (pure - need) << _AT_PURE
                    pure = need
                elif pure < need and pure + _OPEN_PURE_OF[pkey & _STATE_BITS] \
                        + _OPEN_PURE_OF[pkey >> 16 & _STATE_BITS] \
                        + _OPEN_PURE_OF[pkey >> 32 & _STATE_BITS] \
                        + _OPEN_PURE_OF[pkey >> 48 & _STATE_BITS] + (
                        pure_after[p] if not buy else pure_bought[p][bound - bought]) < need:
                    continue
                if pkey & _PURITY and pure >= need:
                    new_key = _pack((*map(_CANONICAL_OF.__getitem__, _unpack(new_key)[:4]),
                                     pure, bought))
                pool = pkey >> _AT_POOL[0] & 255      # the four 2-bit pool fields
                splits = _NO_SETS if setless else splits_of.get(pool)
                if splits is None:
                    splits = splits_of[pool] = _pool_splits(
                        (pool & 3, pool >> 2 & 3, pool >> 4 & 3, pool >> 6 & 3), jokerish, points,
                        max_set, replace)
                target = None
                for balance, loose, _ in entries:
                    base = balance - owed  # owed was carried for pruning only
                    for split in splits:
                        total = base + split.jokers
                        cost = loose + split.loose_points
                        if replace:
                            total -= split.loose_points     # one point per loose card
                            if total + owed > limit + bound - cost:
                                continue
                        elif total + owed > limit:
                            continue
                        if (split.extension or ext) and not exact:
                            continue
                        if aside and not bought and split.loose_points and \
                                cost - points + ahead[p] <= bound:
                            # One of its loose cards may be the card put aside.
                            _insert(nxt.setdefault(new_key | 1 << _AT_BOUGHT, []), total,
                                    cost - points, (pkey, balance, split), exact)
                        if cost + ahead[p] > bound:
                            continue
                        if target is None:
                            target = nxt.get(new_key)
                            if target is None:
                                target = nxt[new_key] = [(total, cost, (pkey, balance, split))]
                                continue
                        _insert(target, total, cost, (pkey, balance, split), exact)
            layer = {k: v for k, v in nxt.items() if v}
            self.layers.append(layer)
        return {_unpack(key): entries for key, entries in layer.items()}

    def rebuild(self, final: _Struct, balance: int) -> Arrangement:
        """Replay the moves leading to a final state with concrete runs to get the groups."""
        path: list[object] = []
        keys: list[int] = []
        key = _pack(final)
        for p in range(len(self.layers) - 1, -1, -1):
            back = next(e[2] for e in self.layers[p][key] if e[0] == balance)
            keys.append(key)
            if not isinstance(back, tuple):
                path.append(back)          # the first layer: how many JK tunnelas
                break
            pkey: _Partial
            pkey, balance, split = back
            moves: list[object] = []
            for stage in reversed(self.stages[p - 1][1:]):
                if stage is None:           # the suit had nothing to do
                    moves.append(_IDLE)
                    continue
                pkey, balance, move = next(e[2] for e in stage[pkey] if e[0] == balance)
                moves.append(move)
            key = pkey & _LAYER_BITS
            path.append((*reversed(moves), split))
        path.reverse()
        keys.reverse()
        assert isinstance(path[0], int)
        virtual, tunnelas = divmod(path[0], 100)
        counts, mask = self.counts, self.mask
        groups: list[tuple[str, list[object]]] = []
        loose: list[Card] = []
        spare: list[Card] = [Card.joker()] * (counts[JOKER_INDEX] - 3 * tunnelas)
        for _ in range(tunnelas):
            groups.append(("tunnela", [Card.joker()] * 3))
        JOKER = "?"   # placeholder for a joker slot, filled at the end
        runs: list[list[list[list[object]]]] = [[[] for _ in range(7)] for _ in range(4)]
        for p, choice in enumerate(path[1:], start=1):
            assert isinstance(choice, tuple)
            *suit_moves, split = choice
            rank = p if p <= 13 else 1
            for s, raw in enumerate(suit_moves):
                if raw == _IDLE:
                    continue
                move = SuitMove._make(raw)
                card = ALL_CARDS[(s * 13 + rank - 1)]
                new_runs: list[list[object]] = []
                classes = runs[s]
                moved: list[list[list[object]]] = [[] for _ in range(7)]
                extra = move.extra_padding
                for k, (n_nat, n_jok, n_end) in enumerate(move.moves):
                    pool = classes[k]
                    for _ in range(n_nat):
                        run = pool.pop()
                        run.append(card)
                        target = _NEXT_N[k]
                        moved[_LOW.get(target, target) if p == 3 and k in (P2, I2) else target].append(run)
                    for _ in range(n_jok):
                        run = pool.pop()
                        run.append(JOKER)
                        target = _NEXT_J[k]
                        moved[_LOW.get(target, target) if p == 3 and k in (P2, I2) else target].append(run)
                    for _ in range(n_end):
                        run = pool.pop()
                        if len(run) < 3:
                            run.extend([JOKER] * (3 - len(run) + extra))
                            extra = 0
                        groups.append(("sequence", run))
                if keys[p] >> _AT_PURE & 63 >= self.need:   # the sweep forgot purity here: so do we
                    for pure, impure in _IMPURE_OF.items():
                        moved[impure].extend(moved[pure])
                        moved[pure] = []
                for _ in range(move.new_runs):
                    new_runs.append([card])
                moved[P1].extend(new_runs)
                # Purity is re-derived from the cards, so classes only need to stay distinct.
                runs[s] = [moved[k] for k in range(7)]
                if move.tunnela:
                    groups.append(("tunnela", [card] * 3))
                spare.extend([card] * move.as_jokers)
            if split is _NO_SETS[0]:
                for s, raw in enumerate(suit_moves):
                    move = SuitMove._make(raw)
                    loose.extend([ALL_CARDS[s * 13 + rank - 1]] * move.pool)
            elif isinstance(split, PoolSplit):
                for subset, n_jokers in split.sets:
                    members: list[object] = [ALL_CARDS[s * 13 + rank - 1] for s in subset]
                    groups.append(("set", members + [JOKER] * n_jokers))
                for s, n in enumerate(split.loose):
                    loose.extend([ALL_CARDS[s * 13 + rank - 1]] * n)
        if self.replace:
            for _ in range(virtual):       # pure groups of bought cards: kinds nobody holds
                used = {m.index for _, members in groups for m in members if isinstance(m, Card)}
                absent = next(i for i in range(JOKER_INDEX)
                              if not counts[i] and not mask[i] and i not in used)
                groups.append(("tunnela", [ALL_CARDS[absent]] * 3))
            held, bought = self._new_hand(groups, loose, spare)
            # More cards bought than loose: spare joker cards go out for them.
            for _ in range(bought - len(loose)):
                loose.append(spare.pop())
            spare.extend(self._fresh_jokers(held, len(loose) - bought))
            self.removed = tuple(sorted(loose))
            loose = []
        # Fill joker slots with joker cards; what is left is spare.
        built: list[tuple[str, tuple[Card, ...]]] = []
        for kind, members in groups:
            filled = []
            for m in members:
                if m == JOKER:
                    filled.append(spare.pop())
                else:
                    assert isinstance(m, Card)
                    filled.append(m)
            built.append((kind, tuple(filled)))
        if len(spare) >= 3 and self.rules.joker_groups:
            built.append(("joker_group", tuple(spare)))
            spare = []
        return Arrangement(tuple(built), tuple(sorted(loose + spare)))

    def _new_hand(self, groups: list[tuple[str, list[object]]], loose: list[Card],
                  spare: list[Card]) -> tuple[list[int], int]:
        """(copies of each card kind in the new hand so far, cards bought)."""
        held = list(self.counts)
        for card in loose:
            held[card.index] -= 1
        natural = [0] * len(held)
        for _, members in groups:
            for m in members:
                if isinstance(m, Card):
                    natural[m.index] += 1
        for card in spare:
            natural[card.index] += 1
        bought = 0
        for i, n in enumerate(natural):
            if n > held[i]:
                bought += n - held[i]
                held[i] = n
        return held, bought

    def _fresh_jokers(self, held: list[int], wanted: int) -> list[Card]:
        """For :func:`replacements`: ``wanted`` joker cards to add (one for each loose card
        that no bought card replaces), of kinds the shoe still holds beside the new hand
        ``held``."""
        kinds = [i for i in range(JOKER_INDEX) if self.mask[i]] + [JOKER_INDEX]
        fresh: list[Card] = []
        for i in kinds:
            room = (self.rules.printed_jokers if i == JOKER_INDEX else 3) - held[i]
            while room > 0 and len(fresh) < wanted:
                fresh.append(ALL_CARDS[i])
                room -= 1
        if len(fresh) < wanted:
            raise ValueError("the shoe holds too few jokers for these replacements")
        return fresh
