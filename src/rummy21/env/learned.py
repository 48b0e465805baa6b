"""The ``learned`` bot: a small network trained on the expert's play, run with NumPy alone.

It sees what every bot sees — its seat's :class:`~rummy21.game.view.View` and the legal
actions — read as the environments read them (:class:`~rummy21.env.observation.Encoder`),
laid out for six seats whatever the table's size (:func:`features`), and plays the legal
action its network scores best. It declares only as the engine's analysis would
(:func:`~rummy21.env.declaring.sound_declarations`), and always when it can; it drops by the
expert's drop rule (:meth:`~rummy21.bots.expert.ExpertBot.drops`: a drop is one decision
in 250 of the teacher's, too rare to learn from): the network is asked only
about draws and discards. ``learned`` plays the network shipped in the
package (``rummy21/env/weights/learned.npz``, made by :mod:`rummy21.learn`); ``learned:PATH``
plays another network file of the same format (:mod:`rummy21.env.network`). Making or playing
it never imports PyTorch; a missing or corrupt file is a :class:`ValueError` naming it.

>>> from rummy21.game import Table
>>> table = Table(players=3, seed=2)
>>> bot = LearnedBot()
>>> bot.choose(table.view(table.turn), table.legal_actions()) in table.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rummy21.analysis import analyze
from rummy21.bots import BOT_KINDS
from rummy21.bots.evaluate import penalty_after, valid_release
from rummy21.bots.expert import ExpertBot, release_readings
from rummy21.bots.tracking import NEAR, next_active, read_public
from rummy21.cards import JOKER_INDEX, RANK_NAMES, TYPE_COUNT, Suit
from rummy21.env.actions import ACTION_COUNT, ACTIONS, DECLARE, DISCARD, index_of, mask_of
from rummy21.env.declaring import hand_reading, sound_declarations
from rummy21.env.network import Array, Network, NetworkError, load_network
from rummy21.env.observation import Encoder, fields, size
from rummy21.env.reach import ReachNetwork
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.events import DropKind
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import Phase, View
from rummy21.solver import paused_collection

SEATS = 6
"""The table size the network's input is laid out for: a smaller table's missing seats are 0."""
OBSERVED = size(SEATS) + SEATS - 1
"""The first part of the network's input: the six-seat observation and the table's size
one-hot (2 to 6)."""
PLANES = (
    "pure",
    "melded",
    "loose",
    "near",
    "put_aside",
    "release_points",
    "release_pure",
    "live",
    "feeds",
)
"""The engine's reading of the own hand, one entry per card type each (:func:`reading`)."""
SCALARS = ("penalty", "valid", "pure_save", "value", "penalty_taking_open", "valid_taking_open")
FEATURES = OBSERVED + len(PLANES) * TYPE_COUNT + len(SCALARS)
"""The network's input: the observation part, then the reading."""

_NEAR = np.zeros((TYPE_COUNT, TYPE_COUNT), dtype=np.float32)
for _kind, _near in enumerate(NEAR):
    for _other in _near:
        if _other != _kind:
            _NEAR[_kind, _other] = 1.0


@cache
def one_blas_thread() -> None:
    """Keep NumPy's BLAS to one thread in this process, once (threadpoolctl): the bot's
    matrices are small, so more threads only spin beside the one that works — on a loaded
    machine they multiplied its CPU time a move by ten. A process that makes a learned bot
    keeps the limit."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


def shipped_network() -> Path:
    """The network the bot named ``learned`` plays, inside the package."""
    return Path(str(files("rummy21.env") / "weights" / "learned.npz"))


@cache
def _places(players: int) -> tuple[tuple[int, int, int], ...]:
    """Where each field of a ``players``-seat observation goes in the six-seat one: (source
    start, target start, length) runs."""
    target = {f.name: f.start for f in fields(SEATS)}
    # A per-seat field is seat-major: its n blocks are the first n of the six-seat field.
    runs = [(f.start, target[f.name], f.size) for f in fields(players)]
    return tuple(runs)


CARD_FIELDS = (
    "hand",
    "drawn",
    "blocked",
    "cut",
    "jokers",
    "value",
    "open_top",
    "open_pile",
    "discards",
    "taken",
)
"""The observation's fields made of card-type planes (one entry per card type, per seat)."""
SUITS = len(Suit)
RANKS = len(RANK_NAMES)


def suit_maps(order: Sequence[int]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The same position with the suits renamed: suit ``s`` becomes suit ``order[s]`` in every
    card-type plane of the input and in every action. Returns the gathers ``x[:, inputs]``
    (the renamed input) and ``actions``, where ``actions[i]`` is what action ``i`` becomes.
    The rules treat the four suits alike (RULES §3, §4), so a renamed position is as good a
    lesson as the first: training shows each row under any of the 24 namings.

    >>> inputs, actions = suit_maps([1, 0, 2, 3])   # spades and hearts swapped
    >>> from rummy21.env.actions import DISCARD, action_of
    >>> str(action_of(int(actions[DISCARD + 0])))          # AS -> AH
    'discard AH'
    """
    card = np.arange(TYPE_COUNT)
    renamed = card.copy()
    renamed[: SUITS * RANKS] = np.asarray(order)[card[: SUITS * RANKS] // RANKS] * RANKS + (
        card[: SUITS * RANKS] % RANKS
    )
    back = np.empty_like(renamed)
    back[renamed] = card  # the old card now at each new card's place
    inputs = np.arange(FEATURES)
    planes = [(f.start, f.size) for f in fields(SEATS) if f.name in CARD_FIELDS]
    planes += [(OBSERVED + k * TYPE_COUNT, TYPE_COUNT) for k in range(len(PLANES))]
    for start, length in planes:
        for block in range(start, start + length, TYPE_COUNT):
            inputs[block : block + TYPE_COUNT] = block + back
    actions = np.arange(ACTION_COUNT)
    actions[DISCARD : DISCARD + TYPE_COUNT] = DISCARD + renamed
    actions[DECLARE : DECLARE + TYPE_COUNT] = DECLARE + renamed
    return inputs, actions


def reading(view: View, out: Array) -> None:
    """Write into ``out`` the engine's reading of the seat's hand
    (:func:`~rummy21.analysis.analyze`; after drawing, of its best 21 of 22, the card just
    taken from the open pile kept): the copies of each card type in its pure groups, in its
    other groups, loose, and the held copies of the kinds that can share a group with it
    (:data:`~rummy21.bots.tracking.NEAR`); the card it would put aside; after drawing, for
    each card it may let go, the penalty of the 21 left / 120 and whether their pure save
    holds (:func:`~rummy21.bots.expert.release_readings`, as the expert reads them); the
    copies of each card type it has not seen / 3 and how many cards near it the next seat
    visibly collects / 2 (:func:`~rummy21.bots.tracking.read_public`); then its penalty /
    120, whether it is a valid declaration, whether the pure save holds, its value points /
    100, and before drawing the same penalty and validity with the open card taken."""
    card = TYPE_COUNT
    analysis = hand_reading(view.hand, view.cut, view.rules, view.blocked)
    planes = out[: len(PLANES) * card].reshape(len(PLANES), card)
    for group in analysis.penalty.groups:
        row = planes[0] if group.is_pure else planes[1]
        for c in group.cards:
            row[c.index] += 1.0
    for c in analysis.penalty.loose:
        planes[2, c.index] += 1.0
    held = list(view.hand.counts)
    planes[3] = _NEAR @ np.asarray(held, dtype=np.float32)
    if analysis.discard is not None:
        planes[4, analysis.discard.index] = 1.0
    if view.phase is Phase.DISCARD:
        blocked = None if view.blocked is None else view.blocked.index
        for index, left in release_readings(held, blocked, view).items():
            planes[5, index] = left.points / 120
            planes[6, index] = left.pure
    public = read_public(view)
    planes[7] = np.asarray(public.live, dtype=np.float32) / 3
    following = next_active(view)
    if following is not None:
        planes[8, :JOKER_INDEX] = [public.fed(following, i) / 2 for i in range(JOKER_INDEX)]
    scalars = out[len(PLANES) * card :]
    scalars[0] = analysis.penalty.points / 120
    scalars[1] = analysis.valid
    scalars[2] = analysis.pure_groups_possible
    scalars[3] = analysis.value.points / 100
    top = view.top
    if view.phase is Phase.DRAW and top is not None and view.can_take_open:
        taking = (*view.hand, top.card)
        kept = kept_after_taking(top.card, view.rules)
        after = analyze(taking, view.cut, view.rules, keep=kept)
        scalars[4] = after.penalty.points / 120
        scalars[5] = after.valid


def features(observation: Array, view: View) -> Array:
    """The network's input for ``view`` and its ``observation``: the observation's fields at
    their six-seat places (per-seat blocks for the first relative seats, the rest 0), the
    table's size one-hot, then the engine's :func:`reading` of the hand.

    >>> from rummy21.game import Table
    >>> view = Table(players=3, seed=1).view(0)
    >>> x = features(Encoder(3).encode(view), view)
    >>> x.shape == (FEATURES,), float(x[:53].sum()), float(x[OBSERVED - 5 : OBSERVED].argmax()) + 2
    (True, 21.0, 3.0)
    """
    out = np.zeros(FEATURES, dtype=np.float32)
    players = view.players
    for source, target, length in _places(players):
        out[target : target + length] = observation[source : source + length]
    out[size(SEATS) + players - 2] = 1.0
    reading(view, out[OBSERVED:])
    return out


@lru_cache(maxsize=8)
def _network(path: str, modified: int) -> Network:
    return load_network(path)


def network_at(path: str | Path) -> Network:
    """The network in ``path`` (loaded once per file version), checked to fit the bot."""
    file = Path(path)
    if not file.is_file():
        raise NetworkError(f"no network file at {path}")
    net = _network(str(file.resolve()), file.stat().st_mtime_ns)
    if net.inputs != FEATURES or net.actions != ACTION_COUNT:
        raise NetworkError(
            f"{path} takes {net.inputs} inputs and scores {net.actions} actions; the learned "
            f"bot gives {FEATURES} and plays {ACTION_COUNT}"
        )
    return net


RACE = {
    "margin": 0.05,
    "take": 0.5,
    "far_drop": 3.0,
    "tie_policy": 0.0,
    "draw_policy": 1.0,
    "ask": -0.05,
    "feed": 0.0,
    "drop_value": 0.0,
}
"""The race rule's settings, for a network file that holds a reach network (its meta's
``race`` may set them): a discard is compared only if the hand it leaves is within
``margin`` cards (expected distance) of the nearest, and those that are by the policy
(``tie_policy`` 1) or by the penalty left (0); the open card is taken when a card let go
after it leaves a hand ``take`` cards nearer than now, and otherwise as the policy says
(``draw_policy`` 1; the policy is not asked, and the stock drawn, when the nearest hand
after taking is more than ``ask`` cards further than now) or never (0); a first drop from an
expected distance of ``far_drop``; where that rule (or the expert's) drops, the drop is
made (``drop_value`` 0) or made only if the value head expects less than the drop's cost
from the best move but the drop (1: stage 3 of the recipe learns that value,
:mod:`rummy21.learn.improve`). Tuned on seeds 61 and 62 (``docs/learn/tune/race_settings.md``)."""

HEADS = ("policy", "value", "policy+value")
"""How a network file's ``head`` chooses: the policy's likeliest legal move, the move of the
highest value, or the highest-valued of the policy's ``top`` likeliest (its meta's ``top``,
3 by default)."""


class LearnedBot:
    """Plays a network file (see the module docstring); ``seed`` is not used: the same view
    gives the same move."""

    def __init__(self, path: str | Path | None = None, seed: int | None = None) -> None:
        self.name = "learned" if path is None else f"learned:{path}"
        self.network = network_at(shipped_network() if path is None else path)
        self.head = str(self.network.meta.get("head", "policy"))
        if self.head not in HEADS:
            raise NetworkError(f"{self.name}: its meta names an unknown head {self.head!r}")
        self.top = int(self.network.meta.get("top", 3))
        self._encoders: dict[int, Encoder] = {}
        self._expert = ExpertBot()  # (its drop rule)
        one_blas_thread()
        self.reach: ReachNetwork | None = None
        """The reach network the file holds, if any: then the bot plays the race rule."""
        self.race = {**RACE, **dict(self.network.meta.get("race", {}))}
        if any(k.startswith("reach_") for k in self.network.parts):
            self.reach = ReachNetwork.from_arrays(self.network.parts, self.name)

    def inputs(self, view: View) -> Array:
        """The network's input for ``view`` (:func:`features`)."""
        encoder = self._encoders.get(view.players)
        if encoder is None:
            encoder = self._encoders[view.players] = Encoder(view.players)
        return features(encoder.encode(view), view)

    def outputs(self, view: View, x: Array | None = None) -> tuple[Array, Array]:
        """The network's policy logits and action values (points) for ``view`` (its input
        ``x``, if made already)."""
        logits, values = self.network.forward((self.inputs(view) if x is None else x)[None, :])
        return logits[0], values[0]

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        # A move makes few objects; a cycle collection that falls in it (one started by what
        # the rest of the process made) would be most of its time.
        with paused_collection():
            return self.settle(view, self.options(view, legal_actions))

    def options(
        self, view: View, legal_actions: Sequence[Action], ask_drops: bool = False
    ) -> list[Action]:
        """The moves left once the rules have spoken: a valid declaration alone; the drop
        alone when the drop rule drops (else no drop; with race setting ``drop_value`` or
        ``ask_drops``, the drop beside the other moves left); with a reach network, the
        discards near the nearest hand and the draws the race rule leaves (:meth:`_nearest`).
        Where more than one is left, :meth:`settle` chooses — the decisions stage 3 of the
        recipe (:mod:`rummy21.learn.improve`) explores."""
        counts = list(view.hand.counts)
        legal = self._sound(view, counts, legal_actions)
        for action in legal:
            if isinstance(action, Declare):
                return [action]
        dropping = False
        if Drop() in legal:
            legal = [a for a in legal if not isinstance(a, Drop)]
            if self.drops(view, counts):
                if not (ask_drops or self.race["drop_value"]):
                    return [Drop()]
                dropping = True
        if self.reach is not None:
            legal = self._nearest(view, counts, legal)
        return [*legal, Drop()] if dropping else legal

    def settle(self, view: View, options: list[Action], x: Array | None = None) -> Action:
        """The move of ``options`` (:meth:`options`) the bot plays: the least penalty left
        among discards when the race rule says so (setting ``tie_policy`` 0), else what the
        network's ``head`` scores best (``x``: the input, if made already); a drop among
        them by race setting ``drop_value`` (see :data:`RACE`)."""
        if Drop() in options:
            rest = [a for a in options if a != Drop()]
            if not self.race["drop_value"] or not rest:
                return Drop()
            x = self.inputs(view) if x is None else x
            best = self.settle(view, rest, x)
            _, values = self.outputs(view, x)
            return Drop() if values[index_of(best)] < -view.drop_cost else best
        if len(options) > 1 and self.reach is not None and not self.race["tie_policy"]:
            options = self._least_penalty(view, list(view.hand.counts), options)
        if len(options) == 1:
            return options[0]
        mask = mask_of(options).astype(bool)
        logits, values = self.outputs(view, x)
        policy = np.where(mask, logits, -np.inf)
        if self.head == "policy":
            return ACTIONS[int(policy.argmax())]
        if self.head == "value":
            return ACTIONS[int(np.where(mask, values, -np.inf).argmax())]
        # policy+value: the best-valued of the policy's ``top`` likeliest moves.
        likely = np.argsort(-policy, kind="stable")[: min(self.top, int(mask.sum()))]
        return ACTIONS[int(likely[int(values[likely].argmax())])]

    def _sound(self, view: View, counts: list[int], legal: Sequence[Action]) -> list[Action]:
        """The legal actions with only the declaration the engine finds valid
        (:func:`~rummy21.env.declaring.sound_declarations`). With a reach network, whether
        any is valid is read first, in numbers (:func:`~rummy21.bots.evaluate.valid_release`):
        the engine's whole analysis of the 22 is asked only when one is."""
        if self.reach is None or view.phase is not Phase.DISCARD:
            return sound_declarations(view, legal)
        blocked = None if view.blocked is None else view.blocked.index
        if valid_release(counts, view.cut, view.rules, blocked):
            return sound_declarations(view, legal)
        return [a for a in legal if not isinstance(a, Declare)]

    def _least_penalty(self, view: View, counts: list[int], legal: list[Action]) -> list[Action]:
        """Of the discards in ``legal``, the one whose hand left pays the least (then the
        highest card let go, then the first): the tie-break when the policy does not break
        ties (race setting ``tie_policy`` 0)."""
        discards = [a for a in legal if isinstance(a, Discard)]
        if len(discards) < 2:
            return legal

        fed = [0] * len(counts)
        following = next_active(view) if self.race["feed"] else None
        if following is not None:
            public = read_public(view)
            for a in discards:
                if a.card.index < JOKER_INDEX:  # (a printed joker joins anything alike)
                    fed[a.card.index] = public.fed(following, a.card.index)

        def left(action: Discard) -> int:
            counts[action.card.index] -= 1
            reading = penalty_after(counts, view.cut, view.rules)
            counts[action.card.index] += 1
            return reading.points

        return [
            min(
                discards,
                key=lambda a: (fed[a.card.index], left(a), -a.card.points, a.card.index),
            )
        ]

    def drops(self, view: View, counts: list[int]) -> bool:
        """The drop rule: the expert's (:meth:`~rummy21.bots.expert.ExpertBot.drops`), and
        with a reach network also a first drop when the hand is far from a valid
        declaration (its expected distance ``far_drop`` or more, as the race bot drops
        four or more cards away)."""
        now = penalty_after(counts, view.cut, view.rules)
        if self.reach is not None and view.drop_kind is DropKind.FIRST and not now.valid:
            far = float(self.reach.expected(np.asarray([counts]), view.jokers)[0])
            if far >= self.race["far_drop"]:
                return True
        return self._expert.drops(view, counts, now)

    def _nearest(self, view: View, counts: list[int], legal: list[Action]) -> list[Action]:
        """The race rule with the reach network's distances (as :mod:`rummy21.bots.race`
        with the solver's): the discards whose hand left is within ``margin`` of the
        nearest; the open card alone when some card let go after taking it leaves a hand
        ``take`` nearer than now; else ``legal`` as it is."""
        reach = self.reach
        assert reach is not None
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            hands = np.repeat(np.asarray([counts], dtype=np.float32), len(discards), axis=0)
            hands[np.arange(len(discards)), [a.card.index for a in discards]] -= 1
            away = reach.expected(hands, view.jokers)
            near = away <= away.min() + self.race["margin"]
            kept = [a for a, keep in zip(discards, near, strict=True) if keep]
            return kept + [a for a in legal if not isinstance(a, Discard)]
        take = Draw(Source.OPEN)
        top = view.top
        if take not in legal or top is None:
            return legal
        taking = list(counts)
        taking[top.card.index] += 1
        blocked = kept_after_taking(top.card, view.rules)
        kinds = [i for i, n in enumerate(taking) if n and (blocked is None or i != blocked.index)]
        hands = np.repeat(np.asarray([taking], dtype=np.float32), len(kinds) + 1, axis=0)
        hands[np.arange(len(kinds)), kinds] -= 1
        hands[-1] = counts  # the hand now
        away = reach.expected(hands, view.jokers)
        nearest = away[:-1].min()
        if nearest <= away[-1] - self.race["take"]:
            return [take]
        if not self.race["draw_policy"] or nearest > away[-1] + self.race["ask"]:
            return [a for a in legal if a != take]
        return legal


def learned_bot(argument: str, seed: int | None = None) -> LearnedBot:
    """The bot named ``learned`` (``argument`` empty: the shipped network) or
    ``learned:PATH``; a :class:`ValueError` (:class:`NetworkError`) for a file it cannot play."""
    return LearnedBot(argument.strip() or None, seed)


BOT_KINDS["learned"] = learned_bot
