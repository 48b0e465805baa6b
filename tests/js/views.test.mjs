// The views' models: what each part of the table shows, worked out from the state alone (plain
// data, no DOM), and the hand's fitting sizes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { apply, initial } from "/static/state.js";
import { declareModel, groupsWithout } from "/static/views/declare.js";
import { firstFit, sizes } from "/static/views/fit.js";
import { handModel } from "/static/views/hand.js";
import { countdownText, resultLiveModel, resultModel } from "/static/views/result.js";
import {
  actionsModel,
  bannersModel,
  feltModel,
  initials,
  meModel,
  opponentsModel,
  readingModel,
  statusText,
} from "/static/views/table.js";
import { HAND, reading, run, stateMsg } from "./fixtures.mjs";

const start = () => initial({ code: "ABCD", seat: { seat: 0, token: "t" }, now: 1000 });
const online = (...messages) => run(apply, start(), { type: "welcome" }, ...messages);

describe("the table around the hand", () => {
  test("the status line says whose turn it is and what to do", () => {
    assert.match(statusText(online(stateMsg())), /^Your turn: draw from the stock or take the open card/);
    assert.equal(statusText(online(stateMsg({ my_turn: false, turn: 1 }))), "Kiran is drawing…");
    assert.equal(statusText(apply(online(stateMsg()), { type: "closed", at: 2000 })), "Reconnecting to the table…");
  });

  test("a page that never reached the server says it keeps trying, in a banner", () => {
    const s = run(apply, start(), { type: "closed", at: 1000 }, { type: "tick", now: 6000 });
    assert.match(bannersModel(s).offline, /cannot be reached — trying again by itself… \(5 s\)/);
    assert.equal(statusText(s), "Reconnecting to the table…");
    const seated = run(apply, online(stateMsg()), { type: "closed", at: 1000 }, { type: "tick", now: 2000 });
    assert.match(bannersModel(seated).offline, /^Connection lost — reconnecting… Nothing you did is lost/);
    assert.equal(bannersModel(online(stateMsg())).offline, null);
  });

  test("the other players, from the next seat on, with their badges", () => {
    const m = opponentsModel(online(stateMsg({ my_turn: false, turn: 1 })));
    assert.equal(m.seats.length, 1);
    const [kiran] = m.seats;
    assert.equal(kiran.turn, true);
    assert.deepEqual(
      kiran.badges.map((b) => b.text),
      ["D", "medium bot"],
    );
    assert.match(kiran.label, /^Kiran, in turn: 21 cards, 0 points$/);
  });

  test("one letter for a one-word name, two for two words", () => {
    assert.equal(initials("Meera"), "M");
    assert.equal(initials("Asha Rao"), "AR");
  });

  test("the felt: the open card, who let it go, and the finish slot only in the discard phase", () => {
    const m = feltModel(online(stateMsg()));
    assert.equal(m.top, "5C");
    assert.equal(m.by, "first open card");
    assert.equal(m.finish, false);
    assert.equal(feltModel(online(stateMsg({ phase: "discard" }))).finish, true);
  });

  test("the buttons: draw ones in the draw phase; discard needs one card selected", () => {
    const drawing = actionsModel(online(stateMsg()));
    assert.equal(drawing.draw && drawing.canOpen && !drawing.discard, true);
    let s = online(stateMsg({ hand: [...HAND, "9H"], phase: "discard", drawn: "9H" }));
    assert.equal(actionsModel(s).problem, "select the card first");
    s = apply(s, { type: "select", ids: [s.layout.drawnId] });
    const m = actionsModel(s);
    assert.equal(m.problem, null);
    assert.equal(m.card, "9♥");
  });

  test("the reading: what the hand would pay, and the tip", () => {
    const hand = [...HAND, "9H"];
    let s = online(stateMsg({ hand, phase: "discard", drawn: "9H" }));
    s = apply(s, { type: "asking", id: 1, keys: [], hand: "", at: 1000 });
    s = apply(s, { type: "groups", id: 1, labels: [], reading: reading({ cards: 22, discard: "KD" }), hand });
    const m = readingModel(s);
    assert.equal(m.lead, "After discarding K♦ you'd pay ");
    assert.equal(m.points, "80");
    assert.match(m.why, /full count \(every card counts\); the pure save needs 3 pure groups, your cards can make 1/);
    assert.deepEqual(m.tip, { text: "Tip: discard K♦." });
  });

  test("the host may let a bot play for an absent player", () => {
    const away = { ...stateMsg({ my_turn: false, turn: 1 }) };
    away.room.seats = [away.room.seats[0], { ...away.room.seats[1], kind: "human", connected: false }];
    assert.deepEqual(meModel(online(away)).autoplay, { seat: 1, name: "Kiran" });
  });
});

describe("the hand", () => {
  test("every card once, the groups labelled as the server said, the reason of an invalid one", () => {
    let s = online(stateMsg());
    s = apply(s, { type: "group", ids: s.layout.loose.slice(0, 2) });
    s = apply(s, { type: "asking", id: 1, keys: ["2S 3S"], hand: "", at: 1000 });
    const bad = { valid: false, reason: "two cards form only a dublee, and 2S 3S are not identical" };
    s = apply(s, { type: "groups", id: 1, labels: [bad], hand: HAND });
    const m = handModel(s);
    assert.equal(Object.keys(m.cards).length, 21);
    assert.equal(m.groups[0].cls, "group bad");
    assert.equal(m.groups[0].reason, "two cards form only a dublee, and 2♠ 3♠ are not identical");
    assert.equal(m.looseLabel, "ungrouped");
  });

  test("out of the deal: a sentence in place of the cards", () => {
    const s = online(stateMsg({ hand: [], seats: [{ standing: "dropped", cards: 0 }, { standing: "active" }] }));
    assert.equal(handModel(s).empty, "You dropped out of this deal.");
  });
});

describe("the result and the declare window", () => {
  const result = {
    deal: 0,
    winner: 1,
    reason: "declared",
    option: "A",
    finish: "KH",
    jokers: { cut: "7D" },
    seats: [
      {
        seat: 0,
        name: "Asha",
        score: -40,
        money: "-40",
        groups: [],
        loose: ["2S"],
        rule: "full_count",
        penalty: 40,
        rule_label: "all cards count",
      },
      {
        seat: 1,
        name: "Kiran",
        score: 40,
        money: "40",
        groups: [{ pure: true, label: "pure sequence", cards: ["2H", "3H", "4H"] }],
        loose: [],
      },
    ],
  };
  const between = (extra = {}) => online(stateMsg({ status: "between", extra: { result, ...extra } }));

  test("the winner first, a score said once, the finish card shown", () => {
    const m = resultModel(between());
    assert.equal(m.title, "Deal 1: Kiran declared — option A.");
    assert.deepEqual(
      m.seats.map((x) => x.seat),
      [1, 0],
    );
    assert.equal(m.seats[0].money, null);
    assert.equal(m.seats[0].groups.at(-1).label, "finish");
    assert.equal(m.seats[1].name, "Asha (you)");
  });

  test("the countdown waits only for the seats not ready (the bots are, at once)", () => {
    const s = between({ ready: [1], next_deal_at: 21_050 });
    assert.equal(countdownText(s, 0), "Deal 2 starts in 20 s — or as soon as you are ready.");
    assert.equal(resultLiveModel(s).button, "I'm ready");
    const ready = apply(s, { type: "ready", deal: 0 });
    assert.deepEqual([resultLiveModel(ready).ready, resultLiveModel(ready).button], [true, "Waiting for the others…"]);
  });

  test("the declare window shows the arrangement that proves a valid hand", () => {
    const check = {
      valid: true,
      option: "A",
      finish: "KH",
      cost_if_wrong: 80,
      groups: [],
      labels: [],
      loose: [],
      reasons: [],
      proof: { groups: [{ cards: ["2H", "3H", "4H"], pure: true, label: "pure sequence" }], loose: [] },
    };
    const m = declareModel(online(stateMsg()), check);
    assert.equal(m.verdict, "✓ A valid declaration (option A).");
    assert.deepEqual(m.send, [["2H", "3H", "4H"]]);
    assert.equal(m.button, "Declare");
  });

  test("the finish card leaves the groups sent with the question (one copy of it)", () => {
    assert.deepEqual(
      groupsWithout(
        [
          ["KH", "KS"],
          ["KH", "QH"],
        ],
        "KH",
      ),
      [["KS"], ["KH", "QH"]],
    );
    assert.deepEqual(groupsWithout([["KH"]], "KH"), []);
  });
});

describe("fitting the hand", () => {
  test("sizes shrink and overlap more together, from the largest to the smallest", () => {
    const list = sizes(58, 30, [0.5, 0.6]);
    assert.deepEqual(list[0], { cw: 58, fan: 0.5 });
    assert.deepEqual(list.at(-1), { cw: 30, fan: 0.6 });
    for (let i = 1; i < list.length; i++) {
      assert.ok(list[i].cw <= list[i - 1].cw && list[i].fan >= list[i - 1].fan);
      // What shows of each card in a fan never grows as the cards shrink.
      assert.ok(list[i].cw * (1 - list[i].fan) <= list[i - 1].cw * (1 - list[i - 1].fan));
    }
  });

  test("the first size that fits, in few tries; none: past the end", () => {
    let tries = 0;
    const fits = (i) => {
      tries += 1;
      return i >= 9;
    };
    assert.equal(firstFit(15, fits), 9);
    assert.ok(tries <= 4);
    assert.equal(
      firstFit(15, () => false),
      15,
    );
    assert.equal(
      firstFit(15, () => true),
      0,
    );
  });
});
