"""How the table feels to play, checked the way a person plays: mouse, touch and keyboard in
Debian's Chromium. Each test is one thing players hit (issue: "The table as people really
play it"): a drag held while someone else moves, advice that names a forbidden card, the
result window hiding the next deal, arranging that helps, grouping, the keyboard.
"""

from __future__ import annotations

from collections.abc import Callable

from browser.kit import (
    DESKTOP,
    PHONE,
    Player,
    Server,
    drag,
    group_ids,
    groups_count,
    hand_cards,
    press_and_move,
    release_on,
    seed_where,
    settled,
    wait_discard_phase,
    wait_my_turn,
    wait_until,
)

from rummy21.analysis import analyze
from rummy21.cards import counts_of
from rummy21.game import Table
from rummy21.game.match import deal_seed
from rummy21.solver import max_pure_groups

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pretty(card: str) -> str:
    return card if card == "JK" else card[:-1] + SUITS[card[-1]]


def first_deal(seed: int, players: int = 2) -> Table:
    """The first deal of a seeded room, as the server deals it."""
    return Table(players, seed=deal_seed(seed, 0), dealer=players - 1)


def test_a_drag_held_while_a_bot_moves_completes(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """1. A bot's move while a card is held must neither cancel the drag nor leave a ghost."""
    server = server_factory(bot_delay=0.7)
    made = server.create(["human", "greedy"], seed=3, turn_seconds=120)
    asha = players(DESKTOP).sit(server, made)
    page = asha.page
    asha.draw_and_throw()
    page.wait_for_selector("#hand [data-group='0'] .card")
    before = groups_count(page)
    card = page.locator("#hand [data-group='0'] .card").first
    held = card.get_attribute("data-id")
    press_and_move(page, card)
    # Hold the card while the bot draws and discards (two new states), until it is our turn.
    wait_my_turn(page)
    settled(page)  # (the bot's states drawn, the card still held)
    assert page.locator(".drag-ghost").count() == 1
    release_on(page, page.locator("#hand .newgroup"))
    wait_until(page, lambda: groups_count(page) == before + 1, "the card's new group")
    assert page.locator(".drag-ghost").count() == 0, "a ghost card is left on the screen"
    assert page.locator("#hand .card.dragging").count() == 0
    moved = page.locator(f"#hand .group:not(.loose) >> nth={before} >> .card")
    assert moved.count() == 1 and moved.get_attribute("data-id") == held
    assert len(hand_cards(page)) == 21
    assert not asha.errors


def test_a_touch_drag_survives_a_bot_move_on_a_phone(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """1, with a finger: the same on a phone, the state arriving in the middle of the gesture."""
    server = server_factory(bot_delay=0.25)
    made = server.create(["human", "greedy", "greedy"], seed=8, turn_seconds=120)
    ravi = players(PHONE).sit(server, made)
    page = ravi.page
    ravi.draw_and_throw()
    # The two bots move now, while a card is dragged into a new group.
    before = groups_count(page)
    ravi.drag(page.locator("#hand [data-group=loose] .card").first, page.locator("#hand .newgroup"))
    wait_until(page, lambda: groups_count(page) == before + 1, "the card's new group")
    assert page.locator(".drag-ghost").count() == 0
    wait_my_turn(page)
    assert len(hand_cards(page)) == 21
    assert not ravi.errors


def _taken_card_is_the_natural_discard(seed: int) -> bool:
    table = first_deal(seed)
    if not table.can_draw("open"):
        return False
    top = table.open_pile[-1].card
    table.draw("open")
    return analyze(list(table.hand(0)), table.cut).discard == top


def test_after_taking_the_open_card_nothing_names_it(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """2. The card just taken is, by the hand alone, the best one to let go: yet no hint,
    tip, arrangement or selection may name it; a drop on the pile says why it is refused."""
    seed = seed_where(_taken_card_is_the_natural_discard)
    taken = str(first_deal(seed).open_pile[-1].card)
    server = server_factory(bot_delay=0.3)
    made = server.create(["human", "greedy"], seed=seed, turn_seconds=120)
    asha = players(DESKTOP).sit(server, made)
    page = asha.page
    asha.draw("open")
    page.wait_for_selector("#reading .tip")
    assert pretty(taken) not in page.inner_text("#reading .tip")
    advised = page.locator("#hand .card.advised")
    assert advised.count() == 1 and advised.get_attribute("data-card") != taken
    blocked = page.locator("#hand .card.blocked")
    assert blocked.count() == 1 and blocked.get_attribute("data-card") == taken
    # Selected, it cannot be discarded, and the button says why.
    asha.tap(blocked)
    assert page.is_disabled("#btn-discard") and page.is_disabled("#btn-declare")
    assert "just taken" in (page.get_attribute("#btn-discard", "title") or "")
    asha.tap(blocked)
    # Dragged onto the open pile: refused, with the reason, and nothing lost.
    drag(page, blocked, page.locator("#open-slot"))
    page.wait_for_selector(".toast.error")
    assert "just taken" in page.inner_text(".toast.error")
    assert len(hand_cards(page)) == 22 and page.is_visible("#btn-discard")
    # Auto-arrange lays the advised discard apart and selects it: never the taken card.
    page.click("#btn-arrange")
    page.wait_for_selector("#hand .card.selected")
    selected = page.locator("#hand .card.selected")
    assert selected.count() == 1 and selected.get_attribute("data-card") != taken
    assert page.is_enabled("#btn-discard")
    page.click("#btn-discard")
    page.wait_for_selector("#btn-discard.hidden", state="attached")
    assert taken in hand_cards(page)
    assert not asha.errors


def test_the_result_counts_down_and_never_hides_a_turn(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """4. Between deals the result shows a countdown, and closes when the next deal starts."""
    server = server_factory(bot_delay=0.4, next_deal_seconds=5)
    made = server.create(["human", "greedy"], seed=5, turn_seconds=60, deals=3)
    asha = players(DESKTOP).sit(server, made)
    page = asha.page
    wait_my_turn(page)
    page.click("#btn-drop")
    page.click("#confirm-drop")
    page.wait_for_selector("#result-title")
    first = page.inner_text("#next-deal")
    assert "Deal 2 starts in" in first
    # (it counts down: a second, then the next number)
    wait_until(page, lambda: page.inner_text("#next-deal") != first, "the countdown", 3000)
    asha.shot("result_countdown_1280")
    # Nobody clicks: the next deal starts on time and the window closes by itself.
    page.wait_for_selector("#result-title", state="detached", timeout=15_000)
    page.wait_for_selector(".toast.notice")
    assert "Deal 2 has started" in page.inner_text("#toasts")
    wait_my_turn(page)
    assert page.locator(".overlay").count() == 0
    assert page.locator(".me.turn .ring.on").count() == 1
    assert not asha.errors


def _few_pure_groups(seed: int) -> bool:
    return max_pure_groups(counts_of(first_deal(seed).hand(0))) < 3


def test_the_best_groups_show_from_the_first_turn_and_arrange_keeps_mine(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """5 and 8. A hand that cannot yet use the pure save is laid out in groups at once;
    cards selected together become a group; arranging again asks before touching it."""
    seed = seed_where(_few_pure_groups)
    server = server_factory(bot_delay=0.3)
    made = server.create(["human", "greedy", "greedy"], seed=seed, turn_seconds=120)
    asha = players(DESKTOP).sit(server, made)
    page = asha.page
    page.wait_for_selector("#hand .group.pure, #hand .group.ok")
    page.wait_for_selector("#reading .penalty")
    assert "the pure save needs 3 pure groups" in page.inner_text("#reading")
    labels = page.eval_on_selector_all(
        "#hand .group:not(.loose) .k.long", "ns => ns.map(n => n.textContent)"
    )
    assert labels and all(label != "not valid" for label in labels), labels
    asha.shot("arranged_early_1280")
    # Select two ungrouped cards and group them.
    loose = page.locator("#hand [data-group=loose] .card")
    assert loose.count() >= 2
    picked = [loose.nth(0).get_attribute("data-id"), loose.nth(1).get_attribute("data-id")]
    asha.tap(loose.nth(0))
    asha.tap(loose.nth(1))
    assert page.inner_text("#btn-group").startswith("Group")
    page.click("#btn-group")
    mine = page.locator("#hand .group:not(.loose)").last
    assert mine.locator(".card").evaluate_all("ns => ns.map(n => n.dataset.id)") == picked
    asha.shot("multiselect_group_1280")
    # Arrange asks first, and can keep the group.
    page.click("#btn-arrange")
    sent = len(asha.frames)
    page.click("#arrange-rest")
    asha.answered("arranged", since=sent)
    kept = group_ids(page)
    assert picked in kept
    page.click("#btn-arrange")
    sent = len(asha.frames)
    page.click("#arrange-all")
    asha.answered("arranged", since=sent)
    groups = group_ids(page)
    assert picked not in groups
    # Sorting orders the ungrouped cards and leaves the groups alone.
    page.click("#btn-sort")
    assert "by rank" in page.inner_text("#btn-sort")
    after = group_ids(page)
    assert after == groups
    assert not asha.errors


def test_grouping_with_a_finger_on_a_phone(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """8, on a phone: tap to select several cards, Group; drag a card out of a group."""
    server = server_factory(bot_delay=0.3)
    made = server.create(["human", "greedy"], seed=21, turn_seconds=120)
    ravi = players(PHONE).sit(server, made)
    page = ravi.page
    page.wait_for_selector("#hand .group.pure, #hand .group.ok")
    ravi.shot("fresh_deal_375")
    loose = page.locator("#hand [data-group=loose] .card")
    count = loose.count()
    for i in range(min(3, count)):
        ravi.tap(loose.nth(i))
    assert page.locator("#hand .card.selected").count() == min(3, count)
    page.click("#btn-group")
    assert page.locator("#hand .card.selected").count() == 0
    before = groups_count(page)
    ravi.drag(page.locator("#hand [data-group='0'] .card").first, page.locator("#hand .newgroup"))
    settled(page)  # (the drop is applied as the finger lifts)
    assert page.locator(".drag-ghost").count() == 0
    assert groups_count(page) in (before, before + 1)  # a group of one card moves as a whole
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways ({width}px)"
    assert not ravi.errors


def test_the_table_works_with_the_keyboard_alone(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """Select, group, draw and discard without a mouse; cards and groups are labelled."""
    server = server_factory(bot_delay=0.3)
    made = server.create(["human", "greedy"], seed=11, turn_seconds=120)
    asha = players(DESKTOP).sit(server, made)
    page = asha.page
    page.wait_for_selector("#hand .group:not(.loose)")
    labels = page.eval_on_selector_all(
        "#hand .card", "ns => ns.map(n => n.getAttribute('aria-label'))"
    )
    assert len(labels) == 21
    assert all(" of " in label or "joker" in label.lower() for label in labels)
    assert page.locator("#hand [role=group][aria-label]").count() >= 2
    # Tab into the hand, move and select two cards, group them.
    page.locator("#hand .card[tabindex='0']").focus()
    before = groups_count(page)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.locator("#hand .card[aria-pressed=true]").count() == 2
    page.keyboard.press("g")
    assert groups_count(page) == before + 1
    # Move a card within its group with Shift+arrow.
    page.locator("#hand .card[tabindex='0']").focus()
    page.keyboard.press("Shift+ArrowRight")
    # Draw with S, choose a card, discard with X.
    wait_my_turn(page)
    page.keyboard.press("s")
    wait_discard_phase(page)
    page.locator("#hand .card[tabindex='0']").focus()
    page.keyboard.press("Escape")
    page.keyboard.press("Space")
    chosen = page.locator("#hand .card[aria-pressed=true]").get_attribute("data-card")
    page.keyboard.press("x")
    page.wait_for_selector("#btn-discard.hidden", state="attached")
    state = asha.state()
    top = state["deal"]["open_pile"][-1]
    assert top["card"] == chosen and top["discarded_by"] == state["you"]
    assert not asha.errors


def test_the_declare_window_explains_before_anything_happens(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """The finish slot: a card dropped on it opens the check, which changes nothing."""
    server = server_factory(bot_delay=0.3)
    made = server.create(["human", "greedy"], seed=4, turn_seconds=120)
    for device, name in ((DESKTOP, "1280"), (PHONE, "375")):
        asha = players(device, name)
        asha.sit(server, made)
        page = asha.page
        if name == "1280":
            wait_my_turn(page)
            page.click("#btn-stock")
        wait_discard_phase(page)
        page.wait_for_selector("#finish-slot")
        asha.drag(page.locator("#hand [data-group=loose] .card").last, page.locator("#finish-slot"))
        page.wait_for_selector(".verdict")
        assert "declaration" in page.inner_text(".verdict")
        asha.shot(f"declare_window_{name}")
        page.click("text=Cancel")
        assert len(hand_cards(page)) == 22
        assert not asha.errors
