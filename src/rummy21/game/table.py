"""One deal of 21 Card Rummy as an explicit state machine (RULES §2, §6, §7).

Every operation comes as ``verify_x`` (raises :class:`IllegalActionError` with the reason),
``can_x`` (bool) and ``x`` (acts, returns a frozen event record and appends it to ``log``).
An illegal operation changes nothing. Time-outs are events the caller feeds in.

>>> table = Table(players=3, seed=42)
>>> table.turn, table.phase.value, table.stock_size
(0, 'draw', 95)
>>> table.can_draw("open"), table.can_discard("AS")
(True, False)
>>> table.discard("AS")
Traceback (most recent call last):
...
rummy21.game.errors.IllegalActionError: draw a card first (from the stock or the open pile)
>>> drew = table.draw("stock")
>>> event = table.discard(drew.card)
>>> table.turn, table.turns, len(table.open_pile)
(1, 1, 2)
>>> Table.replay(table.log).log == table.log
True
"""

from __future__ import annotations

import random
import secrets
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from typing import Any

from rummy21.analysis import Option
from rummy21.cards import ALL_CARDS, TYPE_COUNT, Card, Hand, MissingCard, counts_of, without
from rummy21.game.actions import (
    DECLARE_OF,
    DISCARD_OF,
    DRAW_OPEN,
    DRAW_STOCK,
    DROP,
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Source,
    TimeOut,
    as_card,
)
from rummy21.game.dealing import check_shoe, deal_shoe, shuffled_shoe
from rummy21.game.declaration import Verdict, judge
from rummy21.game.errors import IllegalActionError, NotYourTurnError, ReplayError, SetupError
from rummy21.game.events import (
    DealEnded,
    DealStarted,
    Declared,
    Discarded,
    Drew,
    DropKind,
    Dropped,
    EndReason,
    Event,
    Reshuffled,
    TimedOut,
)
from rummy21.game.log import load_log
from rummy21.game.seat import Seat
from rummy21.game.settlement import SeatEnd, Settlement, Standing, settle
from rummy21.game.turn import drop_cost, drop_kind, drop_points, kept_after_taking, why_not_take
from rummy21.game.view import OpenCard, Phase, PublicEvent, SeatInfo, View, public_event
from rummy21.jokers import Jokers
from rummy21.ruleset import CLASSIC, RuleSet

Groups = Sequence[Sequence[Card | str]]


class Table:
    """One deal: the shoe is shuffled (or given) and dealt when the table is created.

    ``seed`` makes the deal reproducible (RULES §2); without it the shoe is shuffled with
    :class:`secrets.SystemRandom` and recorded in the log header. ``shoe`` deals a chosen order
    (then ``seed``, if given, drives only reshuffles). ``dealer`` defaults to the last seat.
    ``reshuffles`` are the orders of the deal's first reshuffles (a replayed log's, see
    :meth:`start_of`); the reshuffles after them are shuffled as a live table shuffles.
    """

    def __init__(
        self,
        players: int,
        rules: RuleSet = CLASSIC,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        shoe: Sequence[Card] | None = None,
        reshuffles: Iterable[Sequence[Card]] | None = None,
    ) -> None:
        if not isinstance(players, int) or not rules.min_players <= players <= rules.max_players:
            raise SetupError(
                f"the rule set {rules.name!r} seats {rules.min_players} to "
                f"{rules.max_players} players, not {players}"
            )
        dealer = players - 1 if dealer is None else dealer
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise SetupError(f"the dealer must be a seat 0..{players - 1}, not {dealer}")
        self._rules = rules
        self._rng: random.Random = (
            random.Random(seed) if seed is not None else secrets.SystemRandom()
        )
        recorded: tuple[Card, ...] | None
        if shoe is None:
            order = shuffled_shoe(rules.printed_jokers, self._rng)
            recorded = None if seed is not None else tuple(order)
        else:
            order = list(shoe)
            check_shoe(order, rules.printed_jokers)
            recorded = tuple(order)
        layout = deal_shoe(order, players, dealer, rules.hand_size)
        self._players = players
        self._dealer = dealer
        self._seed = seed
        self._jokers = Jokers.from_cut(layout.cut)
        self._hands = [counts_of(h) for h in layout.hands]
        self._held: list[Hand | None] = [None] * players
        """Each seat's hand as cards, kept until the hand changes (every view lists it)."""
        self._sizes = [len(h) for h in layout.hands]
        self._stock: list[Card] = list(reversed(layout.stock))  # pop() takes the top card
        self._open: list[OpenCard] = [OpenCard(layout.open_card, None)]
        self._out: list[Hand | None] = [None] * players
        self._finish: Card | None = None
        self._standing = [Standing.ACTIVE] * players
        self._drops: list[DropKind | None] = [None] * players
        self._drop_points: list[int | None] = [None] * players
        self._played = [0] * players
        self._timeouts = [0] * players
        self._turn = (dealer + 1) % players
        self._phase = Phase.DRAW
        self._drawn: Card | None = None
        self._drawn_from: Source | None = None
        self._turns = 0
        self._result: Settlement | None = None
        self._forced_orders = None if reshuffles is None else deque(tuple(r) for r in reshuffles)
        self._log: list[Event] = []
        self._public: list[PublicEvent] = []
        self._shown: tuple[tuple[PublicEvent, ...], tuple[OpenCard, ...]] = ((), ())
        self._shown_at = -1
        """The public history and the open pile as tuples, and the log length they were made
        at (every view lists both; every change to them records an event)."""
        self._record(
            DealStarted(players, dealer, seed, rules, layout.cut, layout.open_card, recorded)
        )

    def _record(self, event: Event) -> None:
        self._log.append(event)
        self._public.append(public_event(event))

    # ----------------------------------------------------------------- facts
    @property
    def players(self) -> int:
        return self._players

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def jokers(self) -> Jokers:
        return self._jokers

    @property
    def cut(self) -> Card:
        return self._jokers.cut

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` once the deal is over."""
        return None if self._phase is Phase.OVER else self._turn

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def turns(self) -> int:
        """Turns completed (a draw and discard, a drop, a declaration or a timed-out turn)."""
        return self._turns

    @property
    def result(self) -> Settlement | None:
        """The settlement, once the deal is over (every hand, arranged and scored)."""
        return self._result

    @property
    def scores(self) -> tuple[int, ...] | None:
        return None if self._result is None else self._result.scores

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self._log)

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def open_pile(self) -> tuple[OpenCard, ...]:
        """Bottom first; the last entry is the top card."""
        return self._public_state()[1]

    def _public_state(self) -> tuple[tuple[PublicEvent, ...], tuple[OpenCard, ...]]:
        """The public history and the open pile, as tuples made again only after an event
        (a long deal's views would otherwise copy its whole history each)."""
        if self._shown_at != len(self._log):
            self._shown = (tuple(self._public), tuple(self._open))
            self._shown_at = len(self._log)
        return self._shown

    @property
    def drawn(self) -> Card | None:
        """The card the player in turn drew, between its draw and its discard."""
        return self._drawn

    def hand(self, seat: int) -> Hand:
        """The cards ``seat`` holds; empty once it left the deal."""
        held = self._held[seat]
        if held is None:
            held = self._held[seat] = Hand(tuple(self._hands[seat]))
        return held

    def standing(self, seat: int) -> Standing:
        return self._standing[seat]

    def zones(self) -> dict[str, list[Card]]:
        """Where every one of the shoe's cards is (full information, for tests and tools)."""
        zones: dict[str, list[Card]] = {
            f"hand {s}": list(self.hand(s)) for s in range(self._players)
        }
        zones.update({f"out {s}": list(self._out[s] or ()) for s in range(self._players)})
        zones["stock"] = list(reversed(self._stock))
        zones["open"] = [o.card for o in self._open]
        zones["finish"] = [] if self._finish is None else [self._finish]
        return zones

    # ------------------------------------------------------------- checks
    def _actor(self, seat: int | None) -> int:
        why = self._why_not_actor(seat)
        if why is not None:
            if self._phase is Phase.OVER:
                raise IllegalActionError(why, "deal_over")
            raise NotYourTurnError(why, self._turn)
        return self._turn

    def _why_not_actor(self, seat: int | None) -> str | None:
        """Why ``seat`` (``None``: whoever is in turn) may not act now, or ``None``."""
        if self._phase is Phase.OVER:
            return "the deal is over"
        if seat is not None and seat != self._turn:
            return f"it is not your turn: {Seat(self._turn)} is to play"
        return None

    def _blocked(self) -> Card | None:
        """The card that may not leave the hand this turn (just taken from the open pile)."""
        if self._drawn_from is Source.OPEN and self._drawn is not None:
            return kept_after_taking(self._drawn, self._rules)
        return None

    def _check_release(self, card: Card, verb: str) -> None:
        if not self._hands[self._turn][card.index]:
            raise IllegalActionError(f"you hold no {card}", "not_held", card=str(card))
        if card == self._blocked():
            raise IllegalActionError(
                f"{card} was just taken from the open pile: it cannot be {verb} this turn",
                "just_taken",
                card=str(card),
            )

    # --------------------------------------------------------------- draw
    def verify_draw(self, source: Source | str = Source.STOCK, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless the player in turn may draw from ``source``."""
        why = self._why_not_draw(source, seat)
        if why is not None:
            self._actor(seat)  # (a seat not in turn: that error, naming the seat in turn)
            raise IllegalActionError(
                why, "cannot_draw", source=str(getattr(source, "value", source))
            )

    def can_draw(self, source: Source | str = Source.STOCK, seat: int | None = None) -> bool:
        return self._why_not_draw(source, seat) is None

    def _why_not_draw(self, source: Source | str, seat: int | None) -> str | None:
        """Why the player in turn may not draw from ``source`` now, or ``None`` if it may
        (every view asks, so this answers without raising)."""
        why = self._why_not_actor(seat)
        if why is not None:
            return why
        if self._phase is not Phase.DRAW:
            return "you have drawn already: discard or declare"
        try:
            where = Source(source)
        except ValueError:
            return f"draw from 'stock' or 'open', not {source!r}"
        if where is Source.OPEN:
            if not self._open:
                return "the open pile is empty"
            top = self._open[-1]
            return why_not_take(top.card, top.discarded_by, self._jokers, self._rules)
        return None

    def draw(
        self, source: Source | str = Source.STOCK, seat: int | None = None
    ) -> Drew | DealEnded:
        """Draw the top card of the stock or the open pile.

        Drawing from an empty stock first reshuffles the open pile but its top card; if that
        leaves nothing to draw, the deal ends as a wash and its :class:`DealEnded` is returned.
        """
        self.verify_draw(source, seat)
        return self._draw(Source(source), forced=False)

    def _draw(self, source: Source, forced: bool) -> Drew | DealEnded:
        seat = self._turn
        if source is Source.STOCK:
            if not self._stock:
                ended = self._reshuffle(seat)
                if ended is not None:
                    return ended
            card = self._stock.pop()
        else:
            card = self._open.pop().card
        self._hands[seat][card.index] += 1
        self._held[seat] = None
        self._sizes[seat] += 1
        self._drawn, self._drawn_from = card, source
        self._phase = Phase.DISCARD
        event = Drew(seat, source, card, forced)
        self._record(event)
        return event

    def _reshuffle(self, seat: int) -> DealEnded | None:
        pile = [o.card for o in self._open[:-1]]
        if not pile:
            return self._end(EndReason.WASH)
        if self._forced_orders:  # replaying a log: its reshuffles, while it has any
            if Counter(self._forced_orders[0]) != Counter(pile):
                raise ReplayError("the log's reshuffle does not match the open pile")
            order = list(self._forced_orders.popleft())
        else:  # live (a table rebuilt from its log plays on past the log's reshuffles)
            order = pile
            self._rng.shuffle(order)
        self._open = self._open[-1:]
        self._stock = order[::-1]
        self._record(Reshuffled(seat, tuple(order)))
        return None

    # ------------------------------------------------------------ discard
    def verify_discard(self, card: Card | str, seat: int | None = None) -> Card:
        """Raise :class:`IllegalActionError` unless ``card`` may be discarded now; return it."""
        self._actor(seat)
        if self._phase is not Phase.DISCARD:
            raise IllegalActionError(
                "draw a card first (from the stock or the open pile)", "draw_first"
            )
        found = as_card(card)
        self._check_release(found, "discarded")
        return found

    def can_discard(self, card: Card | str, seat: int | None = None) -> bool:
        try:
            self.verify_discard(card, seat)
        except IllegalActionError:
            return False
        return True

    def discard(self, card: Card | str, seat: int | None = None) -> Discarded:
        """Discard ``card`` face up on the open pile, ending the turn."""
        found = self.verify_discard(card, seat)
        event = self._put_discard(found, forced=False)
        self._end_turn(timed_out=False)
        return event

    def _put_discard(self, card: Card, forced: bool) -> Discarded:
        seat = self._turn
        self._hands[seat][card.index] -= 1
        self._held[seat] = None
        self._sizes[seat] -= 1
        self._open.append(OpenCard(card, seat))
        event = Discarded(seat, card, forced)
        self._record(event)
        return event

    # ------------------------------------------------------------ declare
    def verify_declare(
        self, finish: Card | str, groups: Groups | None = None, seat: int | None = None
    ) -> tuple[Card, tuple[tuple[Card, ...], ...] | None]:
        """Raise :class:`IllegalActionError` unless the player in turn may declare now.

        A wrong declaration is legal (and costly); this checks only that the player has drawn,
        holds ``finish`` and may let it go, and that ``groups`` use only its other cards.
        """
        self._actor(seat)
        if self._phase is not Phase.DISCARD:
            raise IllegalActionError("draw a card before declaring", "draw_first")
        card = as_card(finish)
        self._check_release(card, "finished")
        layout = None
        if groups is not None:
            layout = tuple(tuple(as_card(c) for c in group) for group in groups)
            shown = self.hand(self._turn).minus([card])
            try:
                without(shown, (c for group in layout for c in group))
            except MissingCard as error:
                raise IllegalActionError(
                    f"the layout shows {error.card}, which you do not "
                    "hold (besides the finish card)"
                ) from None
        return card, layout

    def can_declare(
        self, finish: Card | str, groups: Groups | None = None, seat: int | None = None
    ) -> bool:
        try:
            self.verify_declare(finish, groups, seat)
        except IllegalActionError:
            return False
        return True

    def declare(
        self, finish: Card | str, groups: Groups | None = None, seat: int | None = None
    ) -> Declared:
        """Finish with ``finish`` and show the other 21 cards (optionally laid out in ``groups``).

        A valid declaration ends the deal; a wrong one costs ``rules.wrong_declaration`` and
        takes the player's 22 cards out of play (RULES §6.5).
        """
        card, layout = self.verify_declare(finish, groups, seat)
        actor = self._turn
        counts = list(self._hands[actor])
        counts[card.index] -= 1
        verdict = judge(Hand(tuple(counts)), layout, self._jokers, self._rules)
        event = Declared(actor, card, verdict.valid, verdict.option, layout)
        if verdict.valid:
            self._hands[actor] = counts
            self._held[actor] = None
            self._sizes[actor] -= 1
            self._finish = card
            self._standing[actor] = Standing.DECLARED
        else:
            self._out[actor] = self.hand(actor)
            self._hands[actor] = [0] * TYPE_COUNT
            self._held[actor] = None
            self._sizes[actor] = 0
            self._standing[actor] = Standing.WRONG
        self._record(event)
        self._end_turn(timed_out=False, verdict=verdict if verdict.valid else None)
        return event

    # --------------------------------------------------------------- drop
    def verify_drop(self, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless the player in turn may drop now."""
        self._actor(seat)
        if self._phase is not Phase.DRAW:
            raise IllegalActionError(
                "you can drop only at the start of your turn, before drawing", "drop_too_late"
            )

    def can_drop(self, seat: int | None = None) -> bool:
        try:
            self.verify_drop(seat)
        except IllegalActionError:
            return False
        return True

    def drop(self, seat: int | None = None) -> Dropped:
        """Leave the deal: a first drop before the player's first draw, else a middle drop."""
        self.verify_drop(seat)
        event = self._drop(forced=False)
        self._end_turn(timed_out=False)
        return event

    def _drop(self, forced: bool) -> Dropped:
        seat = self._turn
        kind = drop_kind(self._played[seat], forced)
        points = drop_points(kind, self._rules)
        self._out[seat] = self.hand(seat)
        self._hands[seat] = [0] * TYPE_COUNT
        self._held[seat] = None
        self._sizes[seat] = 0
        self._standing[seat] = Standing.DROPPED
        self._drops[seat] = kind
        self._drop_points[seat] = points
        event = Dropped(seat, kind, points, forced)
        self._record(event)
        return event

    # ------------------------------------------------------------ timeout
    def verify_timeout(self, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` (default: the player in turn) is
        the one whose time can run out now."""
        self._actor(seat)

    def can_timeout(self, seat: int | None = None) -> bool:
        try:
            self.verify_timeout(seat)
        except IllegalActionError:
            return False
        return True

    def timeout(self, seat: int | None = None) -> TimedOut:
        """The player in turn ran out of time (RULES §6.4).

        Before drawing it draws from the stock; then it discards the drawn card (after taking
        from the open pile: its highest-point non-joker card that may be discarded). The
        ``rules.timeouts_to_drop``-th time-out in a row drops it at once (a middle drop; after
        a draw, the forced discard is made first so that the dropped hand holds 21 cards).
        """
        self.verify_timeout(seat)
        actor = self._turn
        self._timeouts[actor] += 1
        event = TimedOut(actor, self._timeouts[actor])
        self._record(event)
        if self._timeouts[actor] >= self._rules.timeouts_to_drop:
            if self._phase is Phase.DISCARD:
                self._put_discard(self._timeout_discard(), forced=True)
            self._drop(forced=True)
        else:
            if self._phase is Phase.DRAW and isinstance(self._draw(Source.STOCK, True), DealEnded):
                return event
            self._put_discard(self._timeout_discard(), forced=True)
        self._end_turn(timed_out=True)
        return event

    def _timeout_discard(self) -> Card:
        if self._drawn_from is Source.STOCK and self._drawn is not None:
            return self._drawn
        blocked = self._blocked()
        held = [ALL_CARDS[i] for i, n in enumerate(self._hands[self._turn]) if n]
        allowed = [c for c in held if c != blocked]
        plain = [c for c in allowed if not self._jokers.is_joker(c)]
        return max(plain or allowed, key=lambda c: (c.points, -c.index))

    # ---------------------------------------------------------- sequencing
    def _end_turn(self, timed_out: bool, verdict: Verdict | None = None) -> None:
        seat = self._turn
        self._played[seat] += 1
        self._turns += 1
        if not timed_out:
            self._timeouts[seat] = 0
        self._drawn = self._drawn_from = None
        if verdict is not None:
            self._end(EndReason.DECLARED, seat, verdict.option, verdict)
            return
        active = [s for s in range(self._players) if self._standing[s] is Standing.ACTIVE]
        if len(active) == 1:
            self._end(EndReason.LAST_ACTIVE, active[0])
            return
        limit = self._rules.turn_limit
        if limit is not None and self._turns >= limit:
            self._end(EndReason.WASH)
            return
        nxt = (seat + 1) % self._players
        while self._standing[nxt] is not Standing.ACTIVE:
            nxt = (nxt + 1) % self._players
        self._turn = nxt
        self._phase = Phase.DRAW

    def _end(
        self,
        reason: EndReason,
        winner: int | None = None,
        option: Option | None = None,
        verdict: Verdict | None = None,
    ) -> DealEnded:
        seats = [
            SeatEnd(
                s,
                self._standing[s],
                self._out[s] or self.hand(s),
                self._played[s],
                self._drops[s],
                self._drop_points[s],
            )
            for s in range(self._players)
        ]
        self._result = settle(
            self._rules,
            self._jokers,
            self._dealer,
            reason,
            winner,
            option,
            seats,
            None if verdict is None else verdict.analysis,
        )
        self._phase = Phase.OVER
        self._drawn = self._drawn_from = None
        event = DealEnded(winner, reason, option, self._turns, self._result.scores)
        self._record(event)
        return event

    # ------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """The actions the player in turn may choose (time-outs are not chosen, so not listed).

        Declaring is listed for every card that may be finished: a wrong declaration is legal.
        """
        if self._phase is Phase.OVER:
            return []
        if self._phase is Phase.DRAW:
            if self.can_draw(Source.OPEN):
                return [DRAW_STOCK, DRAW_OPEN, DROP]
            return [DRAW_STOCK, DROP]
        blocked = self._blocked()
        skip = -1 if blocked is None else blocked.index
        held = [i for i, n in enumerate(self._hands[self._turn]) if n and i != skip]
        actions: list[Action] = [DISCARD_OF[i] for i in held]
        actions += [DECLARE_OF[i] for i in held]
        return actions

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is allowed now."""
        if isinstance(action, Draw):
            self.verify_draw(action.source, seat)
        elif isinstance(action, Discard):
            self.verify_discard(action.card, seat)
        elif isinstance(action, Declare):
            self.verify_declare(action.finish, action.groups, seat)
        elif isinstance(action, Drop):
            self.verify_drop(seat)
        elif isinstance(action, TimeOut):
            self.verify_timeout(seat)
        else:
            raise IllegalActionError(f"not an action: {action!r}")

    def can_apply(self, action: Action, seat: int | None = None) -> bool:
        try:
            self.verify(action, seat)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Carry out ``action`` for the player in turn (or for ``seat``, checked to be in turn)."""
        if isinstance(action, Draw):
            return self.draw(action.source, seat)
        if isinstance(action, Discard):
            return self.discard(action.card, seat)
        if isinstance(action, Declare):
            return self.declare(action.finish, action.groups, seat)
        if isinstance(action, Drop):
            return self.drop(seat)
        if isinstance(action, TimeOut):
            return self.timeout(seat)
        raise IllegalActionError(f"not an action: {action!r}")

    # ---------------------------------------------------------------- views
    def view(self, seat: int) -> View:
        """What ``seat`` may see: its own hand and the public state (see :mod:`.view`)."""
        if not isinstance(seat, int) or not 0 <= seat < self._players:
            raise IllegalActionError(f"no seat {seat} at a table of {self._players}")
        own_turn = seat == self._turn and self._phase is Phase.DISCARD
        return View(
            seat=seat,
            players=self._players,
            dealer=self._dealer,
            rules=self._rules,
            jokers=self._jokers,
            turn=self.turn,
            phase=self._phase,
            hand=self.hand(seat),
            drawn=self._drawn if own_turn else None,
            drawn_from=self._drawn_from if own_turn else None,
            stock_size=len(self._stock),
            open_pile=self.open_pile,
            seats=tuple(
                SeatInfo(
                    s,
                    self._sizes[s],
                    self._standing[s],
                    self._drops[s],
                    self._played[s],
                    self._timeouts[s],
                )
                for s in range(self._players)
            ),
            history=self._public_state()[0],
            turns=self._turns,
            scores=self.scores,
            blocked=self._blocked() if own_turn else None,
            can_take_open=seat == self._turn and self.can_draw(Source.OPEN),
            drop_cost=drop_cost(self._played[seat], self._rules),
        )

    # --------------------------------------------------------------- replay
    @classmethod
    def start_of(cls, events: Sequence[Event]) -> Table:
        """The table as the logged deal ``events`` began, before its first action: set up from
        the ``deal_started`` record (and, for a deal without a seed, the orders its reshuffles
        recorded). Raises :class:`ReplayError` for a log that does not start a deal.
        """
        if not events or not isinstance(events[0], DealStarted):
            raise ReplayError("a deal log starts with a deal_started record")
        head = events[0]
        orders = (
            [e.cards for e in events if isinstance(e, Reshuffled)] if head.seed is None else None
        )
        try:
            return cls(
                head.players,
                head.rules,
                seed=head.seed,
                dealer=head.dealer,
                shoe=head.shoe,
                reshuffles=orders,
            )
        except SetupError as error:
            raise ReplayError(f"cannot set up the table: {error}") from None

    @classmethod
    def replay(cls, log: str | Iterable[Any]) -> Table:
        """Rebuild a deal from its log (JSON lines or event records) and check it reproduces.

        Player actions and time-outs are applied again; automatic records (reshuffles, forced
        moves, the end) must come out identical, or :class:`ReplayError` says where not.
        """
        events = load_log(log)
        table = cls.start_of(events)
        for number, event in enumerate(events[1:], 2):
            try:
                table.apply_recorded(event)
            except IllegalActionError as error:
                raise ReplayError(f"record {number} ({event.kind}) is illegal: {error}") from None
        produced = table._log
        for number, (mine, theirs) in enumerate(zip(produced, events, strict=False), 1):
            if mine != theirs:
                raise ReplayError(
                    f"record {number} differs on replay: expected "
                    f"{theirs.to_dict()}, got {mine.to_dict()}"
                )
        if len(produced) != len(events):
            raise ReplayError(f"the log has {len(events)} records, the replay {len(produced)}")
        return table

    def apply_recorded(self, event: Event) -> bool:
        """Redo the player action behind a recorded ``event``.

        Returns ``False`` for records the table writes by itself (forced moves, reshuffles,
        the end of the deal): those follow from the actions. Raises :class:`ReplayError`
        for a record that cannot come next, :class:`IllegalActionError` for an illegal action.
        """
        if isinstance(event, TimedOut):
            self.timeout(event.seat)
        elif isinstance(event, Drew) and not event.forced:
            self.draw(event.source, event.seat)
        elif isinstance(event, Discarded) and not event.forced:
            self.discard(event.card, event.seat)
        elif isinstance(event, Declared):
            self.declare(event.finish, event.groups, event.seat)
        elif isinstance(event, Dropped) and not event.forced:
            self.drop(event.seat)
        elif isinstance(event, DealStarted):
            raise ReplayError("a second deal_started record")
        else:
            return False
        return True
