"""The table on a phone: what a player needs to read is not cut off."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browser.kit import PHONE, Player, Server, groups_count, settled, wait_until

CUT = """() => [...document.querySelectorAll('#opponents .opp')].flatMap((opp) => {
  const edge = opp.getBoundingClientRect();
  return [...opp.querySelectorAll('*')]
    .filter((n) => n.children.length === 0 && n.textContent.trim() && n.getClientRects().length)
    .filter((n) => {
      const box = n.getBoundingClientRect();
      return n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).textOverflow !== 'ellipsis'
        || box.right > edge.right + 1 || box.left < edge.left - 1 || box.right > innerWidth;
    })
    .map((n) => n.textContent.trim());
})"""


@pytest.mark.parametrize("seats", [4, 6])
def test_opponents_names_and_scores_are_not_cut_off(
    server_factory: Callable[..., Server], players: Callable[..., Player], seats: int
) -> None:
    server = server_factory()
    made = server.create(
        ["human", "expert", "greedy", "random", "expert", "greedy"][:seats], seed=2
    )
    player = players(PHONE).sit(server, made)
    page = player.page
    page.wait_for_selector("#opponents .opp")
    assert page.evaluate(CUT) == []
    # After a few deals: totals of four digits and signs (the page draws what the state says;
    # here the text is set as a long match would make it, and the layout must hold it).
    page.evaluate(
        "() => document.querySelectorAll('#opponents .total').forEach((n, i) =>"
        " { n.textContent = (i % 2 ? '−' : '+') + '1,234 pts'; })"
    )
    player.shot(f"phone-{seats}-seats")
    assert page.evaluate(CUT) == []
    assert not player.errors


FITS = """() => {
  const inside = (n) => { const b = n.getBoundingClientRect();
    return b.top >= -1 && b.bottom <= innerHeight + 1
      && b.left >= -1 && b.right <= innerWidth + 1; };
  const bar = document.querySelector('.actions, #actions, .action-bar');
  const barTop = bar ? bar.getBoundingClientRect().top : innerHeight;
  const cards = [...document.querySelectorAll('#hand .card')];
  return {
    page: document.scrollingElement.scrollHeight - innerHeight,
    piles: [...document.querySelectorAll('#stock-slot, #open-slot')].every(inside),
    hidden: cards.filter((c) => !inside(c) || c.getBoundingClientRect().bottom > barTop + 1).length,
    cards: cards.length,
  };
}"""


def test_groups_of_two_keep_the_whole_hand_on_one_phone_screen(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """Three two-card groups made by tap + Group: each a compact chip, not a full-width
    reason, and the whole hand, the stock and the open pile stay on the screen."""
    server = server_factory()
    made = server.create(["human", "greedy"], seed=7, deals=3)
    player = players(PHONE).sit(server, made)
    page = player.page
    page.wait_for_selector("#hand .card")
    player.answered("arranged")  # the dealt hand is laid out by the server: break it up

    def groups_become(count: int) -> Callable[[], bool]:
        return lambda: groups_count(page) == count

    while page.locator("#hand .group:not(.loose) .g-x").count():
        groups = groups_count(page)
        page.locator("#hand .group:not(.loose) .g-x").first.click()
        wait_until(page, groups_become(groups - 1), "a group broken up")
    for _ in range(3):
        groups = groups_count(page)
        loose = page.locator("#hand .group.loose .card")
        player.tap(loose.nth(0))
        player.tap(loose.nth(3))
        page.click("#btn-group")
        wait_until(page, groups_become(groups + 1), "the new group")
    page.wait_for_selector("#hand .group.bad")
    settled(page)
    seen = page.evaluate(FITS)
    player.shot("phone-groups-of-two")
    assert seen["cards"] == 21
    assert seen["piles"], seen
    assert seen["hidden"] == 0, seen
    assert seen["page"] <= 1, seen  # nothing to scroll: one screen
    # The reason is one tap away, and folds again.
    why = page.locator("#hand .group.bad .why").first
    assert page.locator("#hand .group.bad .g-reason").first.is_hidden()
    player.tap(why)
    reason = page.locator("#hand .group.bad .g-reason").first
    reason.wait_for(state="visible")
    assert "dublee" in reason.inner_text()
    player.tap(page.locator("#hand .group.bad .why").first)
    reason.wait_for(state="hidden")
    assert not player.errors
