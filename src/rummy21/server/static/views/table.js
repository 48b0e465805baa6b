// The table around the hand: the top bar, the other players, the felt (stock, open pile, finish
// slot, cut), the player's own line (turn, status, what the hand would pay) and the action bar.
// Each part is a model — plain data worked out from the state, no DOM — and a render function
// that draws a model (the store redraws a part only when its model changes).
import { backEl, cardEl, el, prettyCard, scoreClass, signed } from "/static/cards.js";
import {
  currentReading,
  deal,
  jokers,
  lost,
  myTurn,
  nameOf,
  phase,
  releaseProblem,
  selectedCard,
  serverNow,
} from "/static/state.js";

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function initials(name) {
  const words = String(name || "?")
    .trim()
    .split(/\s+/);
  // One letter for a one-word name: "Meera" as "ME" would read as the player's own seat.
  return (words.length > 1 ? words[0][0] + words[1][0] : words[0].slice(0, 1)).toUpperCase();
}

// A taken seat whose player is away and no bot plays for them (an open seat is not offline).
export const isOffline = (seat) => seat.kind === "human" && seat.taken && !seat.connected && !seat.autoplay;

const secondsLeft = (s, at) => (at ? Math.max(0, Math.ceil((at - serverNow(s)) / 1000)) : null);

// ------------------------------------------------------------------ the top bar
export function topbarModel(s) {
  if (!s.game) return null;
  const room = s.game.room;
  const dealNo = s.game.match.deal;
  return {
    code: room.code,
    deal: dealNo >= 0 ? `Deal ${dealNo + 1}/${room.deals}` : plural(room.deals, "deal"),
    dealTitle: dealNo >= 0 ? `deal ${dealNo + 1} of ${room.deals}` : "",
    rules: `${room.rules} · ${room.point_value}/pt${room.turn_seconds ? ` · ${room.turn_seconds}s turns` : " · no timer"}`,
  };
}

// The banners above the table: the connection lost, the database in trouble.
export function bannersModel(s) {
  const out = { offline: null, trouble: null };
  if (lost(s)) {
    const seconds = Math.floor((s.now - s.conn.lostAt) / 1000);
    const wait = seconds >= 3 ? ` (${seconds} s)` : "";
    out.offline = s.game
      ? `Connection lost — reconnecting…${wait} Nothing you did is lost.`
      : `The table's server cannot be reached — trying again by itself…${wait}`;
    return out;
  }
  const trouble = s.game?.trouble;
  if (trouble) {
    const wait = trouble.retry_at ? Math.ceil((trouble.retry_at - serverNow(s)) / 1000) : null;
    const next = wait === null ? "" : wait > 0 ? ` Next try in ${wait} s.` : " Trying again now…";
    out.trouble = `${trouble.text}${next}`;
  }
  return out;
}

// ------------------------------------------------------------------ the other players
function badges(seat, info, d) {
  const out = [];
  if (d && d.dealer === seat.seat) out.push({ cls: "dealer", text: "D", title: "dealer" });
  if (seat.kind === "bot") out.push({ cls: "bot", text: `${seat.level} bot` });
  if (seat.kind === "human" && seat.autoplay)
    out.push({
      cls: "bot",
      text: "bot playing",
      title: `the ${seat.level} bot plays for ${seat.name} until they are back`,
    });
  if (seat.kind === "human" && !seat.taken) out.push({ cls: "open-seat", text: "open seat" });
  else if (isOffline(seat)) out.push({ cls: "off", text: "offline" });
  if (info?.standing === "dropped") out.push({ cls: "out", text: info.drop === "first" ? "first drop" : "dropped" });
  if (info?.standing === "wrong_declaration") out.push({ cls: "out", text: "wrong declaration" });
  if (info?.standing === "declared") out.push({ cls: "win", text: "declared" });
  if (info?.timeouts)
    out.push({
      cls: "off",
      text: `${info.timeouts} time-out${info.timeouts > 1 ? "s" : ""}`,
      title: "time-outs in a row",
    });
  return out;
}

export function opponentsModel(s) {
  if (!s.game) return null;
  const d = deal(s);
  const seats = s.game.room.seats;
  const order = [];
  for (let k = 1; k < seats.length; k++) order.push(seats[(s.game.you + k) % seats.length]);
  return {
    many: order.length >= 4,
    seats: order.map((seat) => {
      const info = d ? d.seats[seat.seat] : null;
      const turn = !!(d && d.turn === seat.seat && s.game.room.status === "playing");
      const total = s.game.match.totals[seat.seat];
      const offline = isOffline(seat);
      const cards = info ? info.cards : null;
      return {
        seat: seat.seat,
        name: seat.name,
        turn,
        timed: turn && !!s.game.deadline,
        out: !!info && info.standing !== "active",
        offline,
        cards,
        note: info ? null : seat.taken ? "seated" : "open seat",
        total,
        badges: badges(seat, info, d),
        label: `${seat.name}${turn ? ", in turn" : ""}${offline ? ", offline" : ""}: ${info ? plural(info.cards, "card") : seat.taken ? "seated" : "open seat"}, ${signed(total)} points`,
      };
    }),
  };
}

// An avatar with a ring: the ring runs down with the turn clock (or pulses without one).
export function avatar(name, { turn = false, timed = false, me = false } = {}) {
  const ring = el("span", { class: `ring${turn ? " on" : ""}${turn && !timed ? " pulse" : ""}` });
  if (turn && timed) {
    ring.innerHTML =
      '<svg viewBox="0 0 44 44" aria-hidden="true"><circle class="track" cx="22" cy="22" r="20"/><circle class="left" cx="22" cy="22" r="20" data-timer="1"/></svg>';
  }
  return el(
    "span",
    { class: `avatar${me ? " me" : ""}`, "aria-hidden": "true" },
    ring,
    el("span", { class: "initials" }, initials(name)),
  );
}

export function renderOpponents(m) {
  if (!m) return [];
  return m.seats.map((o) =>
    el(
      "div",
      {
        class: `opp${o.turn ? " turn" : ""}${o.out ? " out" : ""}${o.offline ? " offline" : ""}`,
        dataset: { seat: o.seat },
        role: "group",
        "aria-label": o.label,
      },
      avatar(o.name, { turn: o.turn, timed: o.timed }),
      el(
        "div",
        { class: "opp-text" },
        el(
          "div",
          { class: "opp-name" },
          el("span", { class: "nm", title: o.name }, o.name),
          o.badges.map((b) => el("span", { class: `badge ${b.cls}`, title: b.title }, b.text)),
        ),
        el(
          "div",
          { class: "opp-meta" },
          o.cards !== null
            ? el(
                "span",
                { class: "cards-count" },
                el("i", { class: "mini-card" }),
                `${o.cards}`,
                el("span", { class: "hide-sm" }, o.cards === 1 ? " card" : " cards"),
              )
            : el("span", {}, o.note),
          el("span", { class: `total ${scoreClass(o.total)}` }, `${signed(o.total)} pts`),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ the felt
export function feltModel(s) {
  const d = deal(s);
  if (!d) return { dealt: false };
  const j = jokers(s);
  const top = d.open_pile[d.open_pile.length - 1] || null;
  const stays = d.top_stays; // (the engine's rule: a joker a player discarded stays)
  return {
    dealt: true,
    jokers: j,
    stock: d.stock_size,
    top: top ? top.card : null,
    openCount: d.open_count,
    by: top
      ? (top.discarded_by === null ? "first open card" : `from ${nameOf(s, top.discarded_by)}`) +
        (stays ? " · joker: stays" : "")
      : "",
    openLabel: top ? `open pile: ${prettyCard(top.card)}${d.can_take_open ? ", take it" : ""}` : "open pile: empty",
    finish: myTurn(s) && phase(s) === "discard",
    cut: {
      card: j.cut,
      jokers: `jokers: every ${j.wild_rank}, ${prettyCard(j.upper)}, ${prettyCard(j.lower)}, JK`,
      values: `value: ${j.value_cards.map(prettyCard).join(" ")}`,
    },
    before: d.open_pile
      .slice(0, -1)
      .slice(-4)
      .reverse()
      .map((o) => ({ card: o.card, who: o.discarded_by === null ? "first" : nameOf(s, o.discarded_by) })),
  };
}

// Draws the felt into its slots (``parts``: the stock, open and finish slots and the rest).
export function renderFelt(m, parts) {
  if (!m.dealt) {
    parts.stock.replaceChildren(el("div", { class: "empty-slot" }));
    parts.open.replaceChildren(el("div", { class: "empty-slot" }));
    parts.by.textContent = "";
    parts.cut.replaceChildren();
    parts.discards.replaceChildren();
    parts.finish.classList.add("hidden");
    return;
  }
  const j = m.jokers;
  parts.stock.replaceChildren(backEl(), el("span", { class: "count", title: "cards in the stock" }, m.stock));
  parts.open.replaceChildren(
    m.top ? cardEl(m.top, j) : el("div", { class: "empty-slot" }),
    m.openCount > 1 ? el("span", { class: "count", title: "cards in the open pile" }, m.openCount) : "",
  );
  parts.by.textContent = m.by;
  parts.open.setAttribute("aria-label", m.openLabel);
  parts.finish.classList.toggle("hidden", !m.finish);
  parts.cut.replaceChildren(
    el("div", { class: "cut-card" }, el("span", { class: "label" }, "Cut"), cardEl(m.cut.card, j, { size: "small" })),
    el(
      "div",
      { class: "cut-text" },
      el("div", {}, el("b", { class: "joker-mark" }, "★"), ` ${m.cut.jokers}`),
      el("div", {}, el("b", { class: "value-mark" }, "$"), ` ${m.cut.values}`),
    ),
  );
  parts.discards.replaceChildren(
    ...(m.before.length ? [el("span", { class: "label" }, "Before")] : []),
    ...m.before.map((o) =>
      el("div", { class: "discard-row" }, cardEl(o.card, j, { size: "tiny" }), el("span", { class: "who" }, o.who)),
    ),
  );
}

// ------------------------------------------------------------------ the player's own line
export function statusText(s) {
  if (s.conn.ended) return s.conn.ended;
  if (!s.game) return lost(s) ? "Reconnecting to the table…" : "Connecting…";
  if (lost(s)) return "Reconnecting to the table…";
  if (s.status) return s.status;
  const room = s.game.room;
  const d = deal(s);
  if (room.status === "waiting") {
    const open = room.seats.filter((seat) => !seat.taken).length;
    return `Waiting for ${plural(open, "more player")} — share the link or the code ${room.code}.`;
  }
  if (room.status === "finished") return "The match is over. See the scores and the history.";
  if (room.status === "between") {
    const left = secondsLeft(s, s.game.next_deal_at);
    return left !== null ? `Deal over. The next deal starts in ${left} s.` : "Deal over.";
  }
  if (!d) return "";
  if (d.my_turn) {
    if (d.phase === "draw")
      return `Your turn: draw from the stock${d.can_take_open ? " or take the open card" : ""} — or drop.`;
    return "Your turn: discard a card (select it, or drag it to the open pile) — or declare.";
  }
  const seat = room.seats[d.turn];
  const who = nameOf(s, d.turn);
  if (seat && isOffline(seat)) {
    const left = secondsLeft(s, s.game.deadline);
    return `${who} is offline${left !== null ? ` — their turn times out in ${left} s.` : "."}`;
  }
  return `${who} ${d.phase === "draw" ? "is drawing" : "is thinking"}…`;
}

export function meModel(s) {
  const status = statusText(s);
  if (!s.game) return { status };
  const me = s.game.room.seats[s.game.you];
  const d = deal(s);
  const info = d ? d.seats[s.game.you] : null;
  let autoplay = null;
  // The host may hand the seat of an absent player to a bot.
  if (d && s.game.room.host === s.game.you && s.game.room.status === "playing" && d.turn !== s.game.you) {
    const seat = s.game.room.seats[d.turn];
    if (seat && isOffline(seat)) autoplay = { seat: seat.seat, name: seat.name };
  }
  return {
    status,
    name: me.name,
    turn: myTurn(s),
    timed: myTurn(s) && !!s.game.deadline,
    total: s.game.match.totals[s.game.you],
    autoplay,
    timeouts: info?.timeouts || 0,
  };
}

export function renderAvatar(m) {
  return [
    avatar(m.name, { turn: m.turn, timed: m.timed, me: true }),
    el("span", { class: `my-total ${scoreClass(m.total)}`, title: "your total" }, `${signed(m.total)} pts`),
  ];
}

export function renderTools(m, on) {
  const tools = [];
  if (m.autoplay)
    tools.push(
      el(
        "button",
        { class: "btn small", type: "button", id: "btn-autoplay", onclick: () => on.autoplay(m.autoplay) },
        `Let a bot play for ${m.autoplay.name}`,
      ),
    );
  if (m.timeouts)
    tools.push(el("span", { class: "badge off" }, `${m.timeouts} time-out${m.timeouts > 1 ? "s" : ""} in a row`));
  return tools;
}

// What the hand would pay if another player declared now, and why (RULES §7): the server's
// charge (the first-turn cap included) and the narration's words for it, shown as they are.
export function penaltyText(r) {
  return [`${r.penalty}`, ` — ${r.reason}${r.why ? `; ${r.why}` : ""}`];
}

export function tipText(s) {
  const r = currentReading(s);
  const d = deal(s);
  if (!r || !myTurn(s)) return null;
  if (phase(s) === "discard" && r.declare)
    return { go: true, text: `✓ You can declare: finish with ${prettyCard(r.discard)} (option ${r.options[0]}).` };
  if (!s.tips) return null;
  if (phase(s) === "discard" && r.discard) return { text: `Tip: discard ${prettyCard(r.discard)}.` };
  if (phase(s) === "draw" && r.draw === "open") {
    const top = d.open_pile[d.open_pile.length - 1];
    return {
      text: `Tip: take ${prettyCard(top.card)} from the open pile${r.gain ? ` (penalty −${r.gain}).` : " (it fits your groups)."}`,
    };
  }
  if (phase(s) === "draw") return { text: "Tip: draw from the stock." };
  return null;
}

export function readingModel(s) {
  const r = currentReading(s);
  if (!r) return null;
  const after = r.cards > (deal(s).rules.hand_size || 21);
  const [points, why] = penaltyText(r);
  return {
    valid: r.valid && !after ? `✓ A valid hand (option ${r.options[0]}). ` : null,
    lead: after ? `After discarding ${prettyCard(r.discard)} you'd pay ` : "You'd pay ",
    points,
    why,
    value: r.value.points
      ? ` Value cards ${r.value.points} pts${r.value.marriages ? ` (${plural(r.value.marriages, "marriage")})` : ""}.`
      : null,
    tip: tipText(s),
  };
}

export function renderReading(m) {
  if (!m) return [];
  return [
    m.valid ? el("span", { class: "valid" }, m.valid) : null,
    el(
      "span",
      { class: "penalty" },
      m.lead,
      el("b", {}, m.points),
      " if someone declared now",
      el("span", { class: "why" }, m.why),
      ".",
    ),
    m.value ? el("span", { class: "value" }, m.value) : null,
    m.tip ? el("div", { class: `tip${m.tip.go ? " go" : ""}` }, m.tip.text) : null,
  ].filter(Boolean);
}

// ------------------------------------------------------------------ the action bar
export function actionsModel(s) {
  const d = deal(s);
  const playing = myTurn(s);
  const draw = playing && phase(s) === "draw";
  const discard = playing && phase(s) === "discard";
  const problem = releaseProblem(s);
  const card = selectedCard(s);
  const count = s.selected.length;
  const sort = s.layout.sort;
  return {
    waiting: !playing,
    holding: !!d?.hand.length,
    busy: s.busy,
    draw,
    discard,
    canOpen: draw && !!d.can_take_open,
    dropCost: d ? d.drop_cost : null,
    card: card ? prettyCard(card) : null,
    problem,
    count,
    sort,
    stockClickable: draw && !s.busy,
    openClickable: (draw && !s.busy && !!d.can_take_open) || (discard && !problem),
    finishClickable: discard && !problem,
  };
}

// Updates the buttons of the action bar in place (``b``: the buttons and slots by name).
export function renderActions(m, b) {
  const show = (node, on) => node.classList.toggle("hidden", !on);
  show(b.stock, m.draw);
  show(b.open, m.canOpen);
  show(b.drop, m.draw);
  show(b.discard, m.discard);
  show(b.declare, m.discard);
  b.bar.classList.toggle("waiting", m.waiting);
  b.stock.disabled = b.open.disabled = b.drop.disabled = m.busy;
  if (m.dropCost !== null) b.drop.replaceChildren("Drop ", el("small", {}, `−${m.dropCost}`));
  b.discard.disabled = b.declare.disabled = m.busy || !!m.problem;
  b.discard.replaceChildren("Discard", m.card ? el("small", {}, ` ${m.card}`) : "");
  b.discard.title = m.problem ? `Cannot discard: ${m.problem}.` : `Discard ${m.card} (X)`;
  b.declare.title = m.problem ? `Cannot declare: ${m.problem}.` : `Declare with ${m.card} on the finish slot (F)`;
  show(b.group, m.holding);
  show(b.sort, m.holding);
  show(b.arrange, m.holding);
  b.group.disabled = m.count < 2;
  b.group.classList.toggle("idle", m.count < 2);
  b.group.title =
    m.count < 2 ? "Select two or more cards to group them (G)" : `Group the ${m.count} selected cards (G)`;
  b.group.replaceChildren("Group", m.count ? el("small", {}, ` ${m.count}`) : "");
  b.sort.replaceChildren("Sort", el("small", { class: "hide-sm" }, m.sort === "suit" ? " by suit" : " by rank"));
  b.sort.title = `Sort your ungrouped cards ${m.sort === "suit" ? "by rank" : "by suit"} next (R)`;
  b.stockSlot.classList.toggle("clickable", m.stockClickable);
  b.openSlot.classList.toggle("clickable", m.openClickable);
  b.finishSlot.classList.toggle("clickable", m.finishClickable);
}

// While a card is dragged, the piles it may land on light up (the open pile only for a card
// that may be discarded: the rest would be refused).
export function dropTargetsModel(s) {
  return !!s.dragging && s.dragging.length === 1 && myTurn(s) && phase(s) === "discard";
}

// ------------------------------------------------------------------ the table log
export function logModel(s) {
  const d = deal(s);
  return d ? { events: d.events, lines: d.history.map((e) => e.text).reverse() } : { events: 0, lines: [] };
}

export function renderLog(m, list) {
  list.replaceChildren(...m.lines.map((text) => el("li", {}, text)));
  if (m.lines.length) list.setAttribute("start", String(m.events));
}
