// The hand on screen: groups and ungrouped cards drawn from the player's layout, selection,
// drag and drop (mouse and touch; held near an edge, whatever must scroll scrolls), and the
// keyboard. ``handModel`` works out what to draw from the state (pure); ``createHand`` draws it.
// Card nodes are kept by id and reused, and nothing under the player's finger is ever rebuilt:
// while a card is held, redraws wait for the drop (then the move applies to the hand as it is).
import { cardEl, cardName, el, prettyText } from "/static/cards.js";
import { allIds, cardOf } from "/static/layout.js";
import { advisedId, deal, groupKey, jokers } from "/static/state.js";

const DRAG_START = 7; // px a pointer moves before a press becomes a drag
const EDGE = 44; // px from an edge where a held card scrolls what can scroll
// Group names short enough for a phone's narrow groups.
const SHORT = {
  pure_sequence: "pure",
  impure_sequence: "impure",
  set: "set",
  tunnela: "tunnela",
  dublee: "dublee",
  joker_group: "jokers",
};

function emptyText(s) {
  const d = deal(s);
  const standing = d ? d.seats[s.game.you].standing : null;
  if (standing === "dropped") return "You dropped out of this deal.";
  if (standing === "wrong_declaration") return "Your declaration was wrong: you are out of this deal.";
  return d ? "" : "Your cards appear here when the deal starts.";
}

function groupModel(ids, index, s) {
  const cards = ids.map(cardOf);
  const label = s.labels[groupKey(cards)];
  const g = { index, ids, key: [...ids].sort().join(" "), cls: "group", kind: "…", short: "…", reason: null };
  if (label?.valid) {
    g.cls += label.pure ? " pure" : " ok";
    g.kind = label.label + (label.pure ? " ✓" : "");
    g.short = (SHORT[label.kind] || label.label) + (label.pure ? " ✓" : "");
  } else if (label) {
    g.cls += " bad";
    g.kind = g.short = "not valid";
    g.reason = prettyText(label.reason);
  }
  g.name = `Group ${index + 1}: ${label ? (label.valid ? label.label : `not valid, ${g.reason}`) : "being checked"}`;
  return g;
}

export function handModel(s) {
  const d = deal(s);
  if (!d?.hand.length) return { empty: s.game ? emptyText(s) : "Your cards appear here when the deal starts." };
  const layout = s.layout;
  const j = jokers(s);
  const advised = advisedId(s);
  const cards = {};
  for (const id of allIds(layout)) {
    const card = cardOf(id);
    const drawn = id === layout.drawnId && !!d.drawn;
    const blocked = d.blocked === card && id === layout.drawnId;
    cards[id] = {
      card,
      selected: s.selected.includes(id),
      drawn,
      blocked,
      advised: advised === id,
      label:
        cardName(card, j) +
        (drawn ? ", just drawn" : "") +
        (blocked ? ", just taken: cannot be discarded this turn" : "") +
        (advised === id ? ", advised discard" : ""),
    };
  }
  return {
    empty: null,
    jokerKey: j?.cut || "",
    cards,
    groups: layout.groups.map((ids, i) => groupModel(ids, i, s)),
    loose: layout.loose,
    looseLabel: layout.groups.length ? "ungrouped" : "your cards",
  };
}

// ``ctx``: get() the state, dispatch(message), refuse(text), discard(card), finish(card), and
// drawn() after every redraw.
export function createHand(root, ctx) {
  const nodes = new Map(); // id -> card node (kept across renders)
  let model = null; // the last model given
  let focusId = null; // the card that holds the keyboard focus (roving tabindex)
  let press = null; // a pointer pressed on a card: {id, node, x, y, active, ...}
  let deferred = false; // a redraw is waiting for the drop
  const explained = new Set(); // invalid groups (their cards) whose reason the player asked for
  const newGroup = el(
    "div",
    { class: "newgroup", dataset: { group: "new" }, "aria-hidden": "true" },
    "drop here: new group",
  );

  const layout = () => ctx.get().layout;
  const selected = () => ctx.get().selected;

  // ---------------------------------------------------------------- drawing
  function cardNode(id) {
    const c = model.cards[id];
    let node = nodes.get(id);
    if (!node || node.dataset.jokers !== model.jokerKey) {
      node = cardEl(c.card, jokers(ctx.get()));
      node.dataset.id = id;
      node.dataset.jokers = model.jokerKey;
      node.setAttribute("role", "button");
      nodes.set(id, node);
    }
    node.classList.toggle("selected", c.selected);
    node.classList.toggle("drawn", c.drawn);
    node.classList.toggle("blocked", c.blocked);
    node.classList.toggle("advised", c.advised);
    node.setAttribute("aria-pressed", c.selected ? "true" : "false");
    node.setAttribute("aria-label", c.label);
    node.tabIndex = id === focusId ? 0 : -1;
    return node;
  }

  function groupBox(g) {
    // On a small screen an invalid group is a chip; its reason shows when asked (tap "why?").
    const open = explained.has(g.key);
    const shortLabel = g.reason
      ? el(
          "button",
          {
            class: "k short why",
            type: "button",
            "aria-expanded": open ? "true" : "false",
            title: g.reason,
            dataset: { why: g.key },
          },
          open ? "✗ not valid" : "✗ why?",
        )
      : el("span", { class: "k short", "aria-hidden": "true" }, g.short);
    return el(
      "div",
      { class: g.cls, dataset: { group: String(g.index) }, role: "group", "aria-label": g.name },
      el(
        "div",
        { class: "g-label" },
        el("span", { class: "k long" }, g.kind),
        shortLabel,
        el(
          "button",
          {
            class: "g-x",
            type: "button",
            title: "Break this group up",
            "aria-label": `break group ${g.index + 1} up`,
            dataset: { ungroup: String(g.index) },
          },
          "×",
        ),
      ),
      g.reason ? el("div", { class: `g-reason${open ? " open" : ""}` }, g.reason) : null,
      el("div", { class: "g-cards" }, g.ids.map(cardNode)),
    );
  }

  function draw() {
    if (!model) return;
    if (press) {
      deferred = true;
      return;
    }
    deferred = false;
    if (model.empty !== null) {
      nodes.clear();
      root.replaceChildren(el("div", { class: "hand-empty muted" }, model.empty));
      ctx.drawn();
      return;
    }
    const ids = Object.keys(model.cards);
    for (const id of [...nodes.keys()]) if (!(id in model.cards)) nodes.delete(id);
    if (!focusId || !(focusId in model.cards)) focusId = ids[0] || null;
    const hadFocus = root.contains(document.activeElement) && document.activeElement.classList.contains("card");
    const n = model.loose.length;
    const loose = el(
      "div",
      {
        class: `group loose${n ? "" : " empty"}`,
        dataset: { group: "loose" },
        role: "group",
        "aria-label": `Ungrouped: ${n} cards`,
      },
      el(
        "div",
        { class: "g-label" },
        el("span", { class: "k" }, model.looseLabel),
        el("span", { class: "muted" }, `${n} card${n === 1 ? "" : "s"}`),
      ),
      el("div", { class: "g-cards" }, model.loose.map(cardNode)),
    );
    root.replaceChildren(...model.groups.map(groupBox), loose, newGroup);
    if (hadFocus && focusId) nodes.get(focusId)?.focus({ preventScroll: true });
    ctx.drawn();
  }

  function render(m) {
    model = m;
    draw();
  }

  // ---------------------------------------------------------------- selection
  function toggle(id) {
    const now = selected();
    focusId = id;
    ctx.dispatch({ type: "select", ids: now.includes(id) ? now.filter((x) => x !== id) : [...now, id] });
  }

  // ---------------------------------------------------------------- dragging
  function onPointerDown(event) {
    const node = event.target.closest(".card[data-id]");
    if (!node || !root.contains(node) || event.button > 0 || press) return;
    event.preventDefault();
    press = {
      id: node.dataset.id,
      node,
      x: event.clientX,
      y: event.clientY,
      active: false,
      target: null,
      pointer: event.pointerId,
    };
    try {
      node.setPointerCapture(event.pointerId);
    } catch (_) {
      /* already released */
    }
    node.addEventListener("pointermove", onPointerMove);
    node.addEventListener("pointerup", onPointerUp);
    node.addEventListener("pointercancel", onPointerCancel);
    node.addEventListener("lostpointercapture", onPointerCancel);
  }

  function moving() {
    // Dragging a selected card moves every selected card with it.
    const chosen = selected();
    if (chosen.includes(press.id)) return allIds(layout()).filter((id) => chosen.includes(id));
    return [press.id];
  }

  function onPointerMove(event) {
    if (!press || event.pointerId !== press.pointer) return;
    if (!press.active) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START) return;
      press.active = true;
      press.ids = moving();
      const rect = press.node.getBoundingClientRect();
      press.dx = press.x - rect.left;
      press.dy = press.y - rect.top;
      press.ghost = el(
        "div",
        { class: "drag-ghost" },
        press.ids.map((id) => cardEl(cardOf(id), jokers(ctx.get()))),
      );
      press.ghost.style.setProperty("--cw", getComputedStyle(root).getPropertyValue("--cw"));
      document.body.append(press.ghost);
      for (const id of press.ids) nodes.get(id)?.classList.add("dragging");
      ctx.dispatch({ type: "dragging", cards: press.ids.map(cardOf) });
    }
    press.at = { x: event.clientX, y: event.clientY };
    press.ghost.style.left = `${event.clientX - press.dx}px`;
    press.ghost.style.top = `${event.clientY - press.dy}px`;
    findTarget(event.clientX, event.clientY);
    autoScroll();
  }

  // Held near the top or the bottom of what can scroll (the hand, or the page), it scrolls, a
  // little faster the nearer the edge, until the card moves away or is let go.
  function scrollers() {
    const out = [];
    const bar = document.querySelector(".actions");
    const barTop = bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : innerHeight;
    if (root.scrollHeight > root.clientHeight + 1) {
      const r = root.getBoundingClientRect();
      out.push({ node: root, top: Math.max(0, r.top), bottom: Math.min(barTop, r.bottom) });
    }
    const page = document.scrollingElement;
    if (page.scrollHeight > innerHeight + 1) out.push({ node: page, top: 0, bottom: barTop });
    return out;
  }

  function autoScroll() {
    if (!press?.active || press.scrolling) return;
    const step = () => {
      if (!press?.active) return;
      const { y } = press.at;
      let moved = false;
      for (const s of scrollers()) {
        if (y < s.top - EDGE || y > s.bottom + EDGE) continue;
        const up = s.top + EDGE - y;
        const down = y - (s.bottom - EDGE);
        const before = s.node.scrollTop;
        if (up > 0) s.node.scrollTop -= Math.ceil(Math.min(EDGE, up) / 3);
        else if (down > 0) s.node.scrollTop += Math.ceil(Math.min(EDGE, down) / 3);
        if (s.node.scrollTop !== before) {
          moved = true;
          break;
        }
      }
      if (!moved) {
        press.scrolling = false;
        return;
      }
      findTarget(press.at.x, press.at.y); // what lies under the finger has moved
      requestAnimationFrame(step);
    };
    press.scrolling = true;
    requestAnimationFrame(step);
  }

  function clearMarks() {
    for (const n of document.querySelectorAll(".droptarget-on")) n.classList.remove("droptarget-on");
    for (const n of root.querySelectorAll(".insert-before, .insert-after")) {
      n.classList.remove("insert-before", "insert-after");
    }
  }

  function findTarget(x, y) {
    clearMarks();
    press.target = null;
    const under = document.elementFromPoint(x, y);
    if (!under) return;
    const pile = under.closest("#open-slot, #finish-slot");
    if (pile) {
      pile.classList.add("droptarget-on");
      press.target = { kind: pile.id === "open-slot" ? "discard" : "finish" };
      return;
    }
    const box = under.closest("[data-group]");
    if (!box || !root.contains(box)) return;
    box.classList.add("droptarget-on");
    const which = box.dataset.group;
    if (which === "new") {
      press.target = { kind: "new" };
      return;
    }
    const ids = which === "loose" ? layout().loose : layout().groups[Number(which)] || [];
    const cards = ids.map((id) => nodes.get(id)).filter(Boolean);
    let index = 0;
    for (const n of cards) {
      const r = n.getBoundingClientRect();
      if (r.bottom < y || (r.top <= y && r.left + r.width / 2 < x)) index += 1;
    }
    if (cards.length) {
      if (index < cards.length) cards[index].classList.add("insert-before");
      else cards[cards.length - 1].classList.add("insert-after");
    }
    press.target = which === "loose" ? { kind: "loose", index } : { kind: "group", group: Number(which), index };
  }

  function finishPress() {
    const current = press;
    if (!current) return null;
    const node = current.node;
    node.removeEventListener("pointermove", onPointerMove);
    node.removeEventListener("pointerup", onPointerUp);
    node.removeEventListener("pointercancel", onPointerCancel);
    node.removeEventListener("lostpointercapture", onPointerCancel);
    try {
      if (node.hasPointerCapture(current.pointer)) node.releasePointerCapture(current.pointer);
    } catch (_) {
      /* gone */
    }
    if (current.ghost) current.ghost.remove();
    for (const n of nodes.values()) n.classList.remove("dragging");
    clearMarks();
    press = null;
    if (current.active) ctx.dispatch({ type: "dragging", cards: null });
    return current;
  }

  function onPointerCancel() {
    if (!press) return;
    finishPress();
    draw();
  }

  function onPointerUp(event) {
    if (!press || event.pointerId !== press.pointer) return;
    const current = finishPress();
    if (!current.active) {
      draw();
      toggle(current.id);
      return;
    }
    const target = current.target;
    const still = current.ids.filter((id) => allIds(layout()).includes(id));
    draw(); // what waited for the drop, and the card back in its place
    if (!target || !still.length) return;
    if (target.kind === "discard" || target.kind === "finish") {
      if (still.length !== 1) {
        ctx.refuse(
          `Drop one card on the ${target.kind === "discard" ? "open pile" : "finish slot"}, not ${still.length}.`,
        );
        return;
      }
      if (target.kind === "discard") ctx.discard(cardOf(still[0]));
      else ctx.finish(cardOf(still[0]));
      return;
    }
    if (target.kind === "group" && !layout().groups[target.group]) return;
    ctx.dispatch({ type: "move", ids: still, target });
  }

  // ---------------------------------------------------------------- keyboard
  function containerOf(id) {
    const l = layout();
    const g = l.groups.findIndex((group) => group.includes(id));
    return g >= 0 ? { kind: "group", group: g, ids: l.groups[g] } : { kind: "loose", ids: l.loose };
  }

  function focusCard(id) {
    if (!id) return;
    focusId = id;
    draw();
    nodes.get(id)?.focus({ preventScroll: false });
  }

  function move(id, target) {
    ctx.dispatch({ type: "move", ids: [id], target });
    focusCard(id);
  }

  function onKeyDown(event) {
    const node = event.target.closest?.(".card[data-id]");
    if (!node) return;
    const id = node.dataset.id;
    const ids = allIds(layout());
    const at = ids.indexOf(id);
    const here = containerOf(id);
    const key = event.key;
    if (key === " " || key === "Enter") {
      event.preventDefault();
      toggle(id);
      return;
    }
    if (key === "Escape") {
      ctx.dispatch({ type: "select", ids: [] });
      return;
    }
    if (!event.shiftKey && (key === "ArrowRight" || key === "ArrowLeft")) {
      event.preventDefault();
      focusCard(ids[Math.max(0, Math.min(ids.length - 1, at + (key === "ArrowRight" ? 1 : -1)))]);
      return;
    }
    if (!event.shiftKey && (key === "ArrowDown" || key === "ArrowUp")) {
      event.preventDefault();
      const boxes = [...layout().groups, layout().loose].filter((g) => g.length);
      const now = boxes.findIndex((g) => g.includes(id));
      const next = boxes[Math.max(0, Math.min(boxes.length - 1, now + (key === "ArrowDown" ? 1 : -1)))];
      focusCard(next[0]);
      return;
    }
    if (event.shiftKey && (key === "ArrowRight" || key === "ArrowLeft")) {
      // Move the card one place within its group (or among the ungrouped cards).
      event.preventDefault();
      const pos = here.ids.indexOf(id) + (key === "ArrowRight" ? 2 : -1);
      if (pos < 0 || pos > here.ids.length) return;
      move(
        id,
        here.kind === "group" ? { kind: "group", group: here.group, index: pos } : { kind: "loose", index: pos },
      );
      return;
    }
    if (event.shiftKey && (key === "ArrowDown" || key === "ArrowUp")) {
      // Move the card to the next (or previous) group; past the last group: ungrouped.
      event.preventDefault();
      const groups = layout().groups.length;
      const from = here.kind === "group" ? here.group : groups;
      const to = from + (key === "ArrowDown" ? 1 : -1);
      if (to < 0) return;
      if (to >= groups) move(id, { kind: "loose", index: layout().loose.length });
      else move(id, { kind: "group", group: to, index: layout().groups[to].length });
    }
  }

  function onClick(event) {
    const x = event.target.closest("[data-ungroup]");
    if (x && root.contains(x)) ctx.dispatch({ type: "ungroup", index: Number(x.dataset.ungroup) });
    const why = event.target.closest("[data-why]");
    if (why && root.contains(why)) {
      const key = why.dataset.why;
      if (!explained.delete(key)) explained.add(key);
      draw();
    }
  }

  root.addEventListener("pointerdown", onPointerDown);
  root.addEventListener("keydown", onKeyDown);
  root.addEventListener("click", onClick);
  root.addEventListener("contextmenu", (e) => {
    if (e.target.closest(".card")) e.preventDefault();
  });

  return {
    render,
    holding: () => !!press,
    deferred: () => deferred,
    focus: () => nodes.get(focusId)?.focus(),
  };
}
