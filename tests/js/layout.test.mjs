// layout.js: the player's own arrangement of the hand (pure functions on plain data, no DOM).
// What a player relies on: no card is ever lost or duplicated by a move, a group keeps its place,
// the drawn card lands at its sorted place, and applying the advice keeps the groups asked for.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  allIds,
  applyArrangement,
  cardOf,
  emptyLayout,
  groupCards,
  insertSorted,
  moveCards,
  reconcile,
  sortIds,
  sortKey,
  sortLoose,
  ungroup,
} from "/static/layout.js";

const cards = (ids) => ids.map(cardOf);
const multiset = (list) => [...list].sort().join(" ");

function dealt(hand, sort = "suit") {
  const layout = emptyLayout(3);
  layout.sort = sort;
  reconcile(layout, hand, null);
  return layout;
}

describe("sorting", () => {
  test("by suit then rank: spades, hearts, clubs, diamonds (colours alternate), the joker last", () => {
    const ids = ["KD#1", "JK#2", "2S#3", "AH#4", "10S#5", "3C#6"];
    assert.deepEqual(cards(sortIds(ids, "suit")), ["2S", "10S", "AH", "3C", "KD", "JK"]);
  });

  test("by rank then suit", () => {
    const ids = ["KD#1", "2C#2", "2S#3", "AH#4", "JK#5"];
    assert.deepEqual(cards(sortIds(ids, "rank")), ["AH", "2S", "2C", "KD", "JK"]);
  });

  test("copies of one card keep a stable order (by id)", () => {
    assert.deepEqual(sortIds(["5H#b", "5H#a"], "suit"), ["5H#a", "5H#b"]);
  });

  test("ten sorts after nine, not after one", () => {
    assert.ok(sortKey("10S", "suit") > sortKey("9S", "suit"));
    assert.ok(sortKey("10S", "rank") > sortKey("9D", "rank"));
  });

  test("insertSorted puts a card at its place, and at the end when it is the highest", () => {
    const loose = ["2S#1", "9S#2", "AH#3"];
    insertSorted(loose, "5S#4", "suit");
    insertSorted(loose, "QD#5", "suit");
    assert.deepEqual(cards(loose), ["2S", "5S", "9S", "AH", "QD"]);
  });

  test("sortLoose re-sorts the ungrouped cards and remembers the mode", () => {
    const layout = dealt(["2C", "2S", "KS"]);
    sortLoose(layout, "rank");
    assert.equal(layout.sort, "rank");
    assert.deepEqual(cards(layout.loose), ["2S", "2C", "KS"]);
  });
});

describe("reconcile with the hand the server sends", () => {
  test("a fresh deal: every card once, sorted, none marked as drawn", () => {
    const layout = dealt(["KD", "2S", "2S", "JK"]);
    assert.deepEqual(cards(layout.loose), ["2S", "2S", "KD", "JK"]);
    assert.equal(new Set(layout.loose).size, 4, "each copy has its own id");
    assert.equal(layout.drawnId, null);
  });

  test("the drawn card lands at its sorted place and is marked", () => {
    const layout = dealt(["2S", "9S", "AH"]);
    const added = reconcile(layout, ["2S", "9S", "AH", "5S"], "5S");
    assert.equal(added.length, 1);
    assert.deepEqual(cards(layout.loose), ["2S", "5S", "9S", "AH"]);
    assert.equal(layout.drawnId, added[0]);
  });

  test("a card that left is taken out of its group; an emptied group vanishes", () => {
    const layout = dealt(["3C", "4C", "5C", "KD"]);
    groupCards(
      layout,
      layout.loose.filter((id) => cardOf(id) === "KD"),
    );
    groupCards(
      layout,
      layout.loose.filter((id) => ["3C", "4C", "5C"].includes(cardOf(id))),
    );
    reconcile(layout, ["3C", "4C", "5C"], null);
    assert.equal(layout.groups.length, 1);
    assert.deepEqual(cards(layout.groups[0]), ["3C", "4C", "5C"]);
  });

  test("the player's groups survive a state message that changes nothing", () => {
    const layout = dealt(["3C", "4C", "5C", "KD"]);
    groupCards(layout, layout.loose.slice(0, 3));
    const before = JSON.stringify(layout);
    assert.deepEqual(reconcile(layout, ["KD", "5C", "4C", "3C"], null), []);
    assert.equal(JSON.stringify(layout), before);
  });

  test("with two copies in hand and one discarded, exactly one copy stays", () => {
    const layout = dealt(["7H", "7H", "8H"]);
    reconcile(layout, ["7H", "8H"], null);
    assert.equal(multiset(cards(allIds(layout))), "7H 8H");
  });
});

describe("moving cards", () => {
  test("a move never loses or duplicates a card", () => {
    const hand = ["AS", "2S", "3S", "9D", "9C", "9H", "JK"];
    const layout = dealt(hand);
    const ids = [...layout.loose];
    assert.ok(moveCards(layout, ids.slice(0, 3), { kind: "new" }));
    assert.ok(moveCards(layout, [ids[6]], { kind: "group", group: 0, index: 1 }));
    assert.ok(moveCards(layout, [ids[0]], { kind: "loose", index: 0 }));
    assert.equal(multiset(cards(allIds(layout))), multiset(hand));
    assert.equal(new Set(allIds(layout)).size, hand.length);
    assert.equal(layout.own, true, "the layout is now the player's own");
  });

  test("moving right within a group counts the insertion point before the move", () => {
    const layout = dealt(["AS", "2S", "3S", "4S"]);
    const [a, b, c, d] = layout.loose;
    moveCards(layout, [a, b, c, d], { kind: "new" });
    // Drop A between 3 and 4: index 3 in the group as the player saw it.
    moveCards(layout, [a], { kind: "group", group: 0, index: 3 });
    assert.deepEqual(layout.groups[0], [b, c, a, d]);
  });

  test("a group keeps its place when it loses a card", () => {
    const layout = dealt(["AS", "2S", "5H", "6H"]);
    const [as, s2, h5, h6] = layout.loose;
    moveCards(layout, [as, s2], { kind: "new" });
    moveCards(layout, [h5, h6], { kind: "new" });
    moveCards(layout, [as], { kind: "loose", index: 0 });
    assert.deepEqual(layout.groups, [[s2], [h5, h6]]);
  });

  test("a card not in the hand, or a group that does not exist, changes nothing", () => {
    const layout = dealt(["AS", "2S"]);
    const before = JSON.stringify(layout);
    assert.equal(moveCards(layout, ["KD#nope"], { kind: "new" }), false);
    assert.equal(moveCards(layout, [layout.loose[0]], { kind: "group", group: 5, index: 0 }), false);
    assert.equal(JSON.stringify(layout), before);
  });

  test("groupCards makes one sorted group of the selection; ungroup puts them back in place", () => {
    const layout = dealt(["5C", "3C", "4C", "KD"]);
    const clubs = layout.loose.filter((id) => cardOf(id).endsWith("C"));
    assert.ok(groupCards(layout, [clubs[2], clubs[0], clubs[1]]));
    assert.deepEqual(cards(layout.groups[0]), ["3C", "4C", "5C"]);
    ungroup(layout, 0);
    assert.deepEqual(layout.groups, []);
    assert.deepEqual(cards(layout.loose), ["3C", "4C", "5C", "KD"]);
  });
});

describe("applying the advice", () => {
  test("the suggested groups, the loose cards sorted, the advised discard at the end", () => {
    const layout = dealt(["3C", "4C", "5C", "KD", "2S", "9H"]);
    const apart = applyArrangement(layout, {
      groups: [["3C", "4C", "5C"]],
      loose: ["9H", "2S"],
      apart: "KD",
    });
    assert.deepEqual(cards(layout.groups[0]), ["3C", "4C", "5C"]);
    assert.deepEqual(cards(layout.loose), ["2S", "9H", "KD"]);
    assert.equal(cardOf(apart), "KD");
    assert.equal(layout.own, false, "an arrangement nobody kept is not the player's own");
  });

  test("ids already placed are reused, so a card the player holds keeps its identity", () => {
    const layout = dealt(["3C", "4C", "5C"]);
    const before = new Set(allIds(layout));
    applyArrangement(layout, { groups: [["3C", "4C", "5C"]], loose: [], apart: null });
    assert.deepEqual(new Set(allIds(layout)), before);
  });

  test("the player's kept groups stay first and untouched", () => {
    const layout = dealt(["7S", "7H", "7D", "3C", "4C", "5C", "KD"]);
    const sevens = layout.loose.filter((id) => cardOf(id).startsWith("7"));
    groupCards(layout, sevens);
    const mine = [...layout.groups[0]];
    applyArrangement(layout, { groups: [["3C", "4C", "5C"]], loose: ["KD"], apart: null }, [0]);
    assert.deepEqual(layout.groups[0], mine);
    assert.deepEqual(cards(layout.groups[1]), ["3C", "4C", "5C"]);
    assert.equal(layout.own, true);
    assert.equal(multiset(cards(allIds(layout))), "3C 4C 5C 7D 7H 7S KD");
  });

  test("a card the advice forgot is not lost: it joins the ungrouped cards", () => {
    const layout = dealt(["3C", "4C", "5C", "KD"]);
    applyArrangement(layout, { groups: [["3C", "4C", "5C"]], loose: [], apart: null });
    assert.deepEqual(cards(layout.loose), ["KD"]);
  });
});
