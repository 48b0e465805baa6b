// Test-only: "state" messages as the server sends them (the fields the page reads), and helpers.

export const JOKERS = {
  cut: "7D",
  joker_cards: ["7S", "7H", "7D", "7C", "JK"],
  value_cards: ["7D", "8D", "6D"],
  wild_rank: "7",
  upper: "8D",
  lower: "6D",
};

export const HAND = "2S 3S 4S 9S 5H 6H 8H KH 2C 3C 9C QC 4D 5D 5D 8D 10D JD KD AD JK".split(" ");

const SEATS = [
  { seat: 0, kind: "human", name: "Asha", taken: true, connected: true, autoplay: null, level: null },
  { seat: 1, kind: "bot", name: "Kiran", taken: true, connected: true, autoplay: null, level: "medium" },
];

// A "state" message: seat 0's view of deal ``deal`` (options override the deal's fields, and
// ``room``, ``result``, ``ready``…), received at local time ``at``.
export function stateMsg({ hand = HAND, deal = 0, status = "playing", at = 1000, room = {}, extra = {}, ...d } = {}) {
  return {
    type: "state",
    at,
    server_now: at + 50,
    you: 0,
    room: {
      code: "ABCD",
      status,
      seats: SEATS,
      deals: 3,
      host: 0,
      rules: "classic",
      point_value: "1",
      turn_seconds: 0,
      ...room,
    },
    match: { deal, totals: [0, 0], history: [], money: ["0", "0"] },
    deal:
      status === "playing"
        ? {
            hand,
            my_turn: true,
            phase: "draw",
            drawn: null,
            blocked: null,
            turn: 0,
            turns: 0,
            dealer: 1,
            seats: [
              { standing: "active", cards: hand.length, played: 0, timeouts: 0 },
              { standing: "active", cards: 21, played: 0, timeouts: 0 },
            ],
            open_pile: [{ card: "5C", discarded_by: null }],
            open_count: 1,
            stock_size: 70,
            can_take_open: true,
            top_stays: false,
            jokers: JOKERS,
            rules: { hand_size: 21, joker_pickup: false },
            drop_cost: 20,
            drop_kind: "first",
            history: [],
            events: 0,
            ...d,
          }
        : null,
    result: null,
    ready: [],
    next_deal_at: null,
    deadline: null,
    deadline_kind: null,
    trouble: null,
    ...extra,
  };
}

// A reading of the hand, as the "groups" answer gives it.
export function reading(fields = {}) {
  return {
    cards: 21,
    valid: false,
    options: [],
    penalty: 80,
    rule: "full_count",
    uncapped: 80,
    cap: 120,
    reason: "full count (every card counts)",
    why: "the pure save needs 3 pure groups, your cards can make 1",
    pure_groups: 1,
    pure_needed: 3,
    dublees: 0,
    value: { points: 0, marriages: 0 },
    discard: null,
    declare: false,
    draw: null,
    gain: 0,
    ...fields,
  };
}

// Freezes a value and everything in it: a reducer that changed its arguments throws.
export function frozen(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) frozen(child);
  }
  return value;
}

// Applies messages in turn, each to a frozen state.
export function run(apply, state, ...messages) {
  let s = state;
  for (const m of messages) s = apply(frozen(s), frozen(structuredClone(m)));
  return s;
}
