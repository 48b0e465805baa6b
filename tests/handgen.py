"""Seeded hand generators for tests and benchmarks: random deals and near-complete hands.

Test data, not part of the package: tests import it as ``handgen`` (pytest's ``pythonpath``
holds ``tests/``), bench scripts put ``tests/`` on ``sys.path`` first.

Every generator is a pure function of the ``random.Random`` it is given, so a seed names a
hand for good. Near-complete hands are built from melds (RULES §4) so that valid
declarations of every option (RULES §5) and the saves (RULES §7) are well covered.

>>> import random
>>> from rummy21.ruleset import RuleSet
>>> cut, hand = random_deal(random.Random(7), RuleSet())
>>> len(hand), cut in canonical_shoe(3)
(21, True)
>>> cut, hand = near_complete(random.Random(7), RuleSet(), "B")
>>> len(hand), max(Counter(hand).values()) <= 3
(21, True)
>>> [kind for _, _, kind in corpus(1, 2, 5)]
['random', 'random', 'near-A', 'near-B', 'near-C', 'near-D', 'near-mixed']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Literal

from rummy21.cards import DECKS, Card, Suit, canonical_shoe
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

__all__ = [
    "RULE_VARIANTS",
    "Option",
    "corpus",
    "near_complete",
    "random_deal",
    "rule_variants",
]


_CLASSIC = RuleSet.preset("classic")
RULE_VARIANTS: dict[str, RuleSet] = {
    "classic": _CLASSIC,
    "adda52": RuleSet.preset("adda52"),
    "no-joker-groups": _CLASSIC.with_(joker_groups=False),
    "sets-of-3": _CLASSIC.with_(max_set_size=3),
    "one-pure": _CLASSIC.with_(pure_groups_needed=1),
    "two-pure": _CLASSIC.with_(pure_groups_needed=2),
    "pick-up": _CLASSIC.with_(joker_pickup=True, discard_taken_card=True),
}
"""The rule sets tests run their checks under, by the name their test ids carry."""


def rule_variants(*names: str) -> dict[str, RuleSet]:
    """The named :data:`RULE_VARIANTS`, in the order given.

    >>> list(rule_variants("adda52", "classic"))
    ['adda52', 'classic']
    """
    return {name: RULE_VARIANTS[name] for name in names}


Option = Literal["A", "B", "C", "D"]
OPTIONS: tuple[Option | None, ...] = ("A", "B", "C", "D", None)


def random_deal(rng: random.Random, rules: RuleSet) -> tuple[Card, list[Card]]:
    """Shuffle the shoe; the first 21 cards are the hand, the next one is the cut (RULES §2)."""
    shoe = canonical_shoe(rules.printed_jokers)
    rng.shuffle(shoe)
    size = rules.hand_size
    return shoe[size], shoe[:size]


class _Builder:
    """A hand under construction that never holds more copies of a card than the shoe."""

    def __init__(self, rng: random.Random, rules: RuleSet, jokers: Jokers) -> None:
        self.rng = rng
        self.rules = rules
        self.jokers = jokers
        self.size = rules.hand_size
        self.cards: list[Card] = []
        self.held: Counter[Card] = Counter()
        # Every joker card the shoe holds for this cut, one entry per copy.
        self.joker_cards = [c for c in canonical_shoe(rules.printed_jokers) if jokers.is_joker(c)]

    def limit(self, card: Card) -> int:
        return self.rules.printed_jokers if card.is_printed_joker else DECKS

    def fits(self, cards: list[Card]) -> bool:
        if len(self.cards) + len(cards) > self.size:
            return False
        return all(self.held[c] + n <= self.limit(c) for c, n in Counter(cards).items())

    def add(self, cards: list[Card]) -> bool:
        if not cards or not self.fits(cards):
            return False
        self.cards.extend(cards)
        self.held.update(cards)
        return True

    @property
    def room(self) -> int:
        return self.size - len(self.cards)

    # Meld recipes: each returns a candidate list of cards (it may not fit).

    def suit(self) -> Suit:
        return Suit(self.rng.randrange(4))

    def joker(self) -> Card:
        return self.rng.choice(self.joker_cards)

    def pure_run(self) -> list[Card]:
        """3–6 consecutive cards of a suit; Ace-low and Ace-high runs on purpose."""
        suit, length = self.suit(), self.rng.choice((3, 3, 3, 4, 4, 5, 6))
        style = self.rng.random()
        if style < 0.15:
            start = 1  # A-2-3...
        elif style < 0.3:
            start = 15 - length  # ...Q-K-A
        else:
            start = self.rng.randint(1, 14 - length + 1)
        return [Card.of((start + k - 1) % 13 + 1, suit) for k in range(length)]

    def impure_run(self) -> list[Card]:
        """A run with one or two of its cards replaced by jokers (sometimes added at an end)."""
        run = self.pure_run()
        for _ in range(self.rng.choice((1, 1, 2))):
            if self.rng.random() < 0.7:
                run[self.rng.randrange(len(run))] = self.joker()
            else:
                run.append(self.joker())
        return run

    def a_set(self) -> list[Card]:
        """3 or 4 cards of a rank in different suits; sometimes with jokers."""
        rank = self.rng.randint(1, 13)
        size = self.rng.choice((3, 3, 4)) if self.rules.max_set_size >= 4 else 3
        suits = self.rng.sample(list(Suit), size)
        cards = [Card.of(rank, s) for s in suits]
        for _ in range(self.rng.choice((0, 0, 1, 2))):
            cards[self.rng.randrange(1, size)] = self.joker()
        return cards

    def tunnela(self) -> list[Card]:
        """Three identical cards: often a joker card acting as itself, or JK JK JK."""
        style = self.rng.random()
        if style < 0.15 and self.rules.printed_jokers >= 3:
            card = Card.joker()
        elif style < 0.4:
            card = self.rng.choice([c for c in self.joker_cards if not c.is_printed_joker])
        else:
            card = Card.of(self.rng.randint(1, 13), self.suit())
        return [card] * 3

    def dublee(self) -> list[Card]:
        style = self.rng.random()
        if style < 0.1 and self.rules.printed_jokers >= 2:
            card = Card.joker()
        elif style < 0.25:
            card = self.rng.choice([c for c in self.joker_cards if not c.is_printed_joker])
        else:
            card = Card.of(self.rng.randint(1, 13), self.suit())
        return [card] * 2

    def jokers_(self) -> list[Card]:
        return [self.joker() for _ in range(self.rng.randint(1, 3))]

    def random_card(self) -> Card:
        while True:
            card = Card(self.rng.randrange(53))
            if self.held[card] < self.limit(card):
                return card

    def fill(self, recipes: list[tuple[Callable[[], list[Card]], int]], tries: int = 200) -> None:
        """Add melds picked by weight until the hand is full or nothing more fits."""
        makers = [m for m, _ in recipes]
        weights = [w for _, w in recipes]
        for _ in range(tries):
            if not self.room:
                return
            cards = self.rng.choices(makers, weights)[0]()
            if len(cards) > self.room:
                cards = cards[: self.room] if self.room >= 3 else cards[:0]
            self.add(cards)
        while self.room:
            self.add([self.random_card()])


def near_complete(
    rng: random.Random, rules: RuleSet, option: Option | None = None
) -> tuple[Card, list[Card]]:
    """A random cut and 21 cards made mostly of melds, then 0–3 cards replaced at random.

    ``option`` biases the recipe: ``"A"`` runs and sets with at least three pure groups,
    ``"B"`` at least three tunnelas, ``"C"`` at least eight dublees, ``"D"`` at least eight
    jokers (before the random replacements); ``None`` mixes everything.
    """
    shoe = canonical_shoe(rules.printed_jokers)
    cut = rng.choice(shoe)
    hand = _Builder(rng, rules, Jokers.from_cut(cut))
    melds: list[tuple[Callable[[], list[Card]], int]] = [
        (hand.pure_run, 4),
        (hand.impure_run, 3),
        (hand.a_set, 3),
        (hand.tunnela, 2),
        (hand.jokers_, 1),
    ]
    if option == "A":
        pure = 0
        while pure < rules.pure_groups_needed:
            pure += hand.add(rng.choice((hand.pure_run, hand.pure_run, hand.tunnela))())
        hand.fill(melds)
    elif option == "B":
        while len(hand.cards) < 9:
            hand.add(hand.tunnela())
        hand.fill(melds + [(hand.tunnela, 4), (hand.dublee, 1)])
    elif option == "C":
        while len(hand.cards) < 16:
            hand.add(hand.dublee())
        hand.fill([(hand.dublee, 6), (hand.tunnela, 1), (hand.pure_run, 1), (hand.jokers_, 1)])
    elif option == "D":
        target = rules.jokers_needed + rng.randint(0, 3)
        while len(hand.cards) < target:
            hand.add([hand.joker()])
        hand.fill(melds + [(hand.dublee, 1)])
    else:
        hand.fill(melds + [(hand.dublee, 2), (hand.jokers_, 1)])
    cards = hand.cards
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3))):
        position = rng.randrange(len(cards))
        hand.held[cards[position]] -= 1
        cards[position] = hand.random_card()
        hand.held[cards[position]] += 1
    rng.shuffle(cards)
    assert len(cards) == rules.hand_size
    return cut, cards


def corpus(
    seed: int, n_random: int, n_near: int, rules: RuleSet | None = None
) -> list[tuple[Card, list[Card], str]]:
    """``n_random`` random deals, then ``n_near`` near-complete hands cycling through the
    options A, B, C, D and mixed; each as ``(cut, hand, kind)``."""
    rules = rules or RuleSet()
    rng = random.Random(seed)
    hands: list[tuple[Card, list[Card], str]] = []
    for _ in range(n_random):
        cut, hand = random_deal(rng, rules)
        hands.append((cut, hand, "random"))
    for k in range(n_near):
        option = OPTIONS[k % len(OPTIONS)]
        cut, hand = near_complete(rng, rules, option)
        hands.append((cut, hand, f"near-{option or 'mixed'}"))
    return hands
