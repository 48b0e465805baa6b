// state.js: the table page's one reducer, apply(state, message), and its selectors. What a
// player relies on: the hand on screen is the hand the server says the seat holds, the layout the
// player made survives every message, a question about the hand is asked once and again when its
// answer is lost, no window hides a turn, and the result stays up exactly between deals.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { allIds, cardOf } from "/static/layout.js";
import {
  advisedId,
  apply,
  currentReading,
  initial,
  lost,
  myTurn,
  question,
  releaseProblem,
  selectedCard,
  wantsArrangement,
} from "/static/state.js";
import { HAND, reading, run, stateMsg } from "./fixtures.mjs";

const cards = (ids) => ids.map(cardOf);
const multiset = (list) => [...list].sort().join(" ");
const start = () => initial({ code: "ABCD", seat: { seat: 0, token: "t" }, now: 1000 });
const online = (...messages) => run(apply, start(), { type: "welcome" }, ...messages);

describe("apply is pure", () => {
  test("it never changes the state or the message it is given (both frozen here)", () => {
    const s = online(stateMsg(), { type: "move", ids: [], target: { kind: "new" } });
    assert.ok(s.game);
  });

  test("the same messages make the same state, card ids included", () => {
    const messages = [
      { type: "welcome" },
      stateMsg(),
      stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H" }),
    ];
    assert.deepEqual(run(apply, start(), ...messages), run(apply, start(), ...messages));
  });

  test("an unknown message changes nothing (the very same state)", () => {
    const s = online(stateMsg());
    assert.equal(apply(s, { type: "pong" }), s);
  });
});

describe("the hand and the player's layout", () => {
  test("a fresh deal: every card once, and its best groups are asked for once", () => {
    const s = online(stateMsg());
    assert.equal(multiset(cards(allIds(s.layout))), multiset(HAND));
    assert.equal(wantsArrangement(s), true);
    assert.equal(wantsArrangement(apply(s, { type: "arranging" })), false);
  });

  test("a layout saved for this deal (a reload) is used as it was, and nothing is rearranged", () => {
    const first = online(stateMsg(), { type: "group", ids: [] });
    const made = apply(first, { type: "group", ids: first.layout.loose.slice(0, 3) });
    const saved = structuredClone(made.layout);
    const reloaded = online({ ...stateMsg(), saved });
    assert.deepEqual(reloaded.layout.groups, saved.groups);
    assert.equal(wantsArrangement(reloaded), false);
  });

  test("a saved layout of another deal is not used", () => {
    const s = online(stateMsg());
    const next = apply(s, { ...stateMsg({ deal: 1 }), saved: s.layout });
    assert.equal(next.layout.deal, 1);
    assert.equal(wantsArrangement(next), true);
  });

  test("the drawn card is marked; a state that changes nothing keeps the very same layout", () => {
    const s = online(stateMsg());
    const drawn = apply(s, stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H", at: 2000 }));
    assert.equal(cardOf(drawn.layout.drawnId), "9H");
    const again = apply(drawn, stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H", at: 3000 }));
    assert.equal(again.layout, drawn.layout);
  });

  test("moves, groups and sorting change the layout; the selection follows the cards that stay", () => {
    let s = online(stateMsg());
    const three = s.layout.loose.slice(0, 3);
    s = apply(s, { type: "select", ids: three });
    assert.deepEqual(s.selected, three);
    s = apply(s, { type: "group", ids: three });
    assert.deepEqual(s.selected, []);
    assert.equal(s.layout.groups.length, 1);
    assert.equal(s.layout.own, true);
    s = apply(s, { type: "sort" });
    assert.equal(s.layout.sort, "rank");
    s = apply(s, { type: "ungroup", index: 0 });
    assert.equal(s.layout.groups.length, 0);
    assert.equal(multiset(cards(allIds(s.layout))), multiset(HAND));
  });

  test("a selected card that leaves the hand leaves the selection", () => {
    let s = online(stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H" }));
    const nine = allIds(s.layout).find((id) => cardOf(id) === "9H");
    s = apply(s, { type: "select", ids: [nine] });
    assert.equal(selectedCard(s), "9H");
    s = apply(s, stateMsg({ my_turn: false, turn: 1 }));
    assert.deepEqual(s.selected, []);
  });

  test("the server's arrangement: groups labelled, the advised discard apart and selected", () => {
    let s = online(stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H" }));
    const reply = {
      type: "arranged",
      groups: [{ kind: "pure_sequence", label: "pure sequence", pure: true, cards: ["2S", "3S", "4S"] }],
      loose: HAND.filter((c) => !["2S", "3S", "4S"].includes(c)),
      discard: "9H",
      reading: reading({ cards: 22, discard: "9H" }),
    };
    s = apply(s, { type: "arrangement", reply, keep: [] });
    assert.deepEqual(cards(s.layout.groups[0]), ["2S", "3S", "4S"]);
    assert.equal(s.labels["2S 3S 4S"].pure, true);
    assert.equal(selectedCard(s), "9H");
    assert.equal(currentReading(s).discard, "9H");
  });

  test("the fresh deal's arrangement gives way to a group the player made meanwhile", () => {
    let s = online(stateMsg());
    s = apply(s, { type: "group", ids: s.layout.loose.slice(0, 2) });
    const reply = { type: "arranged", groups: [], loose: HAND, discard: null };
    assert.equal(apply(s, { type: "arrangement", reply, keep: [], fresh: true }), s);
  });
});

describe("asking the server about the hand", () => {
  test("asked once; not again while on its way; answered, the labels and the reading are kept", () => {
    let s = online(stateMsg());
    s = apply(s, { type: "group", ids: s.layout.loose.slice(0, 3) });
    const q = question(s);
    assert.deepEqual(q.groups, [["2S", "3S", "4S"]]);
    s = apply(s, { type: "asking", id: 7, keys: q.keys, hand: q.hand, at: 1100 });
    assert.equal(question(s), null);
    const label = { valid: true, kind: "pure_sequence", label: "pure sequence", pure: true };
    s = apply(s, { type: "groups", id: 7, labels: [label], reading: reading(), hand: HAND });
    assert.deepEqual(s.labels["2S 3S 4S"], label);
    assert.ok(currentReading(s));
    assert.equal(question(s), null, "nothing new to ask");
    s = apply(s, { type: "ungroup", index: 0 });
    assert.deepEqual(question(s).groups, []);
  });

  test("an answer to another question is ignored", () => {
    let s = online(stateMsg());
    const q = question(s);
    s = apply(s, { type: "asking", id: 3, keys: q.keys, hand: q.hand, at: 1100 });
    assert.equal(apply(s, { type: "groups", id: 2, labels: [], reading: reading(), hand: HAND }), s);
  });

  test("refused (the hand moved on under it): asked again", () => {
    let s = online(stateMsg());
    const q = question(s);
    s = apply(s, { type: "asking", id: 3, keys: q.keys, hand: q.hand, at: 1100 });
    s = apply(s, { type: "error", id: 3, error: "stale" });
    assert.deepEqual(question(s), q);
  });

  test("unanswered for more than 4 s: given up and asked again", () => {
    let s = online(stateMsg());
    const q = question(s);
    s = apply(s, { type: "asking", id: 3, keys: q.keys, hand: q.hand, at: 1100 });
    assert.equal(question(apply(s, { type: "tick", now: 4000 })), null);
    assert.deepEqual(question(apply(s, { type: "tick", now: 5200 })), q);
  });

  test("nothing is asked while an action is on its way, or offline", () => {
    const s = online(stateMsg());
    assert.equal(question(apply(s, { type: "acting" })), null);
    assert.equal(question(apply(s, { type: "closed", at: 2000 })), null);
  });
});

describe("the advice on screen", () => {
  const drawn = () => {
    const hand = [...HAND, "9H"];
    let s = online(stateMsg({ hand, phase: "discard", drawn: "9H" }));
    s = apply(s, { type: "asking", id: 1, keys: [], hand: "", at: 1000 });
    return apply(s, { type: "groups", id: 1, labels: [], reading: reading({ cards: 22, discard: "KD" }), hand });
  };

  test("the advised discard is marked after drawing, and not with the tips off", () => {
    const s = drawn();
    assert.equal(cardOf(advisedId(s)), "KD");
    assert.equal(advisedId(apply(s, { type: "tips", on: false })), null);
  });

  test("a reading about other cards is not shown", () => {
    const s = apply(drawn(), stateMsg({ hand: [...HAND, "9H", "AS"], phase: "discard", drawn: "AS" }));
    assert.equal(currentReading(s), null);
    assert.equal(advisedId(s), null);
  });

  test("the card just taken from the open pile cannot be let go, and the page says why", () => {
    let s = online(stateMsg({ hand: [...HAND, "5C"], phase: "discard", drawn: "5C", blocked: "5C" }));
    const taken = s.layout.drawnId;
    s = apply(s, { type: "select", ids: [taken] });
    assert.match(releaseProblem(s), /5♣ was just taken from the open pile/);
    assert.equal(releaseProblem(apply(s, { type: "select", ids: [] })), "select the card first");
  });
});

describe("actions", () => {
  test("an action on its way makes the page busy; its ack ends that and clears the selection", () => {
    let s = online(stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H" }));
    s = apply(s, { type: "select", ids: [s.layout.drawnId] });
    s = apply(s, { type: "acting" });
    assert.equal(s.busy, true);
    const after = apply(s, { type: "acted", reply: { type: "ack" }, action: "discard" });
    assert.equal(after.busy, false);
    assert.deepEqual(after.selected, []);
    const drew = apply(s, { type: "acted", reply: { type: "ack" }, action: "draw" });
    assert.equal(drew.selected.length, 1, "a draw keeps the selection");
  });
});

describe("windows and turns", () => {
  test("a turn that begins closes the help and the scores, not the declare window", () => {
    let s = online(stateMsg({ my_turn: false, turn: 1 }));
    s = apply(s, { type: "open", window: { kind: "help" } });
    s = apply(s, stateMsg({ turn: 0, turns: 1 }));
    assert.equal(s.window, null);
    assert.equal(s.flash, 1, "the turn is signalled");
    s = apply(s, { type: "open", window: { kind: "declare", check: {} } });
    s = apply(s, stateMsg({ turn: 0, turns: 1, at: 3000 }));
    assert.equal(s.window.kind, "declare", "the same turn: nothing closes");
    assert.equal(myTurn(s), true);
  });

  test("the result opens between deals, stays after I'm ready, and closes when the next deal starts", () => {
    const result = { deal: 0, seats: [], winner: 1, reason: "declared", jokers: {} };
    let s = online(stateMsg());
    s = apply(s, stateMsg({ status: "between", extra: { result } }));
    assert.deepEqual(s.window, { kind: "result", deal: 0 });
    s = apply(s, { type: "ready", deal: 0 });
    s = apply(s, stateMsg({ status: "between", extra: { result, ready: [0, 1] }, at: 3000 }));
    assert.equal(s.window.kind, "result");
    s = apply(s, stateMsg({ deal: 1, extra: { result }, at: 4000 }));
    assert.equal(s.window, null);
    s = apply(s, stateMsg({ deal: 1, status: "between", extra: { result }, at: 5000 }));
    assert.equal(s.window, null, "a result already seen does not open again");
  });

  test("a result dismissed without I'm ready comes back with the next state", () => {
    const result = { deal: 0, seats: [], winner: 1, reason: "declared", jokers: {} };
    let s = online(stateMsg({ status: "between", extra: { result } }));
    s = apply(s, { type: "close", kind: "result" });
    assert.equal(s.window, null);
    s = apply(s, stateMsg({ status: "between", extra: { result }, at: 3000 }));
    assert.equal(s.window.kind, "result");
  });

  test("closing a window closes only that one", () => {
    let s = apply(start(), { type: "open", window: { kind: "help" } });
    assert.equal(apply(s, { type: "close", kind: "drop" }), s);
    s = apply(s, { type: "close", kind: "help" });
    assert.equal(s.window, null);
  });
});

describe("the connection", () => {
  test("lost: since when; back: counted once; ended for good: not lost", () => {
    let s = online(stateMsg());
    s = apply(s, { type: "acting" });
    s = apply(s, { type: "closed", at: 5000 });
    assert.equal(lost(s), true);
    assert.equal(s.busy, false, "a lost action is not on its way any more");
    assert.equal(apply(s, { type: "closed", at: 9000 }).conn.lostAt, 5000, "lost since the first");
    const back = apply(s, { type: "welcome" });
    assert.equal(lost(back), false);
    assert.equal(back.conn.back, 1);
    const ended = apply(s, { type: "ended", text: "There is no such table." });
    assert.equal(lost(ended), false);
    assert.equal(ended.conn.ended, "There is no such table.");
  });

  test("the server's clock: the offset is taken from each state", () => {
    const s = online(stateMsg({ at: 1000 }));
    assert.equal(s.offset, 50);
  });
});
