"""The table on a phone: what a player needs to read is not cut off."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browser.kit import PHONE, Player, Server

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
