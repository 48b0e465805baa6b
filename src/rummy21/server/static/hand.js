// The hand on screen: groups and ungrouped cards drawn from the player's layout, selection,
// drag and drop (mouse and touch), and the keyboard. Card nodes are kept by id and reused, and
// nothing under the player's finger is ever rebuilt: while a card is held, redraws wait for
// the drop (then the move is applied to whatever the hand has become meanwhile).
import { cardEl, cardName, el, prettyCard, prettyText } from "/static/cards.js";
import { allIds, cardOf, moveCards } from "/static/layout.js";

const DRAG_START = 7; // px a pointer moves before a press becomes a drag
// Group names short enough for a phone's narrow groups.
const SHORT = {
  pure_sequence: "pure",
  impure_sequence: "impure",
  set: "set",
  tunnela: "tunnela",
  dublee: "dublee",
  joker_group: "jokers",
};

export function createHand(root, ctx) {
  const nodes = new Map(); // id -> card node (kept across renders)
  const selected = new Set(); // ids
  let focusId = null; // the card that holds the keyboard focus (roving tabindex)
  let press = null; // a pointer pressed on a card: {id, node, x, y, active, ...}
  let deferred = false; // a redraw is waiting for the drop
  const explained = new Set(); // invalid groups (their cards) whose reason the player asked for

  // ---------------------------------------------------------------- drawing
  function cardNode(id) {
    let node = nodes.get(id);
    const card = cardOf(id);
    if (!node || node.dataset.jokers !== ctx.jokerKey()) {
      node = cardEl(card, ctx.jokers());
      node.dataset.id = id;
      node.dataset.jokers = ctx.jokerKey();
      node.setAttribute("role", "button");
      nodes.set(id, node);
    }
    const deal = ctx.deal();
    const isSelected = selected.has(id);
    const isNew = id === ctx.layout().drawnId && !!deal?.drawn;
    const blocked = deal?.blocked === card && id === ctx.layout().drawnId;
    node.classList.toggle("selected", isSelected);
    node.classList.toggle("drawn", isNew);
    node.classList.toggle("blocked", blocked);
    node.classList.toggle("advised", ctx.advised() === id);
    node.setAttribute("aria-pressed", isSelected ? "true" : "false");
    node.setAttribute(
      "aria-label",
      cardName(card, ctx.jokers()) +
        (isNew ? ", just drawn" : "") +
        (blocked ? ", just taken: cannot be discarded this turn" : "") +
        (ctx.advised() === id ? ", advised discard" : ""),
    );
    node.tabIndex = id === focusId ? 0 : -1;
    return node;
  }

  function groupBox(ids, index) {
    const cards = ids.map(cardOf);
    const label = ctx.label(cards);
    let cls = "group";
    let kind = "…";
    let short = "…";
    if (label?.valid) {
      cls += label.pure ? " pure" : " ok";
      kind = label.label + (label.pure ? " ✓" : "");
      short = (SHORT[label.kind] || label.label) + (label.pure ? " ✓" : "");
    } else if (label) {
      cls += " bad";
      kind = "not valid";
      short = "not valid";
    }
    const name = `Group ${index + 1}: ${label ? (label.valid ? label.label : `not valid, ${prettyText(label.reason)}`) : "being checked"}`;
    // On a small screen an invalid group is a chip; its reason shows when asked (tap "why?").
    const key = [...ids].sort().join(" ");
    const open = explained.has(key);
    const shortLabel =
      label && !label.valid
        ? el(
            "button",
            {
              class: "k short why",
              type: "button",
              "aria-expanded": open ? "true" : "false",
              title: prettyText(label.reason),
              dataset: { why: key },
            },
            open ? "✗ not valid" : "✗ why?",
          )
        : el("span", { class: "k short", "aria-hidden": "true" }, short);
    return el(
      "div",
      { class: cls, dataset: { group: String(index) }, role: "group", "aria-label": name },
      el(
        "div",
        { class: "g-label" },
        el("span", { class: "k long" }, kind),
        shortLabel,
        el(
          "button",
          {
            class: "g-x",
            type: "button",
            title: "Break this group up",
            "aria-label": `break group ${index + 1} up`,
            dataset: { ungroup: String(index) },
          },
          "×",
        ),
      ),
      label && !label.valid ? el("div", { class: `g-reason${open ? " open" : ""}` }, prettyText(label.reason)) : null,
      el("div", { class: "g-cards" }, ids.map(cardNode)),
    );
  }

  function render() {
    if (press) {
      deferred = true;
      return;
    }
    deferred = false;
    const deal = ctx.deal();
    const layout = ctx.layout();
    if (!deal?.hand.length) {
      nodes.clear();
      selected.clear();
      root.replaceChildren(el("div", { class: "hand-empty muted" }, ctx.emptyText()));
      return;
    }
    const ids = allIds(layout);
    for (const id of [...selected]) if (!ids.includes(id)) selected.delete(id);
    for (const id of [...nodes.keys()]) if (!ids.includes(id)) nodes.delete(id);
    if (!focusId || !ids.includes(focusId)) focusId = ids[0] || null;
    const hadFocus = root.contains(document.activeElement) && document.activeElement.classList.contains("card");
    const loose = el(
      "div",
      {
        class: `group loose${layout.loose.length ? "" : " empty"}`,
        dataset: { group: "loose" },
        role: "group",
        "aria-label": `Ungrouped: ${layout.loose.length} cards`,
      },
      el(
        "div",
        { class: "g-label" },
        el("span", { class: "k" }, layout.groups.length ? "ungrouped" : "your cards"),
        el("span", { class: "muted" }, `${layout.loose.length} card${layout.loose.length === 1 ? "" : "s"}`),
      ),
      el("div", { class: "g-cards" }, layout.loose.map(cardNode)),
    );
    root.replaceChildren(
      ...layout.groups.map(groupBox),
      loose,
      el("div", { class: "newgroup", dataset: { group: "new" }, "aria-hidden": "true" }, "drop here: new group"),
    );
    if (hadFocus && focusId) nodes.get(focusId)?.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- selection
  function toggle(id) {
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    focusId = id;
    render();
    ctx.selectionChanged();
  }

  function select(ids) {
    selected.clear();
    for (const id of ids) selected.add(id);
    render();
    ctx.selectionChanged();
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
    if (selected.has(press.id)) return allIds(ctx.layout()).filter((id) => selected.has(id));
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
        press.ids.map((id) => cardEl(cardOf(id), ctx.jokers())),
      );
      document.body.append(press.ghost);
      for (const id of press.ids) nodes.get(id)?.classList.add("dragging");
      ctx.dragging(press.ids.map(cardOf));
    }
    press.ghost.style.left = `${event.clientX - press.dx}px`;
    press.ghost.style.top = `${event.clientY - press.dy}px`;
    findTarget(event.clientX, event.clientY);
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
    const ids = which === "loose" ? ctx.layout().loose : ctx.layout().groups[Number(which)] || [];
    const cards = ids.map((id) => nodes.get(id)).filter(Boolean);
    let index = 0;
    cards.forEach((n) => {
      const r = n.getBoundingClientRect();
      if (r.bottom < y || (r.top <= y && r.left + r.width / 2 < x)) index += 1;
    });
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
    ctx.dragging(null);
    return current;
  }

  function onPointerCancel() {
    if (!press) return;
    finishPress();
    render();
  }

  function onPointerUp(event) {
    if (!press || event.pointerId !== press.pointer) return;
    const current = finishPress();
    if (!current.active) {
      render();
      toggle(current.id);
      return;
    }
    const target = current.target;
    const still = current.ids.filter((id) => allIds(ctx.layout()).includes(id));
    if (!target || !still.length) {
      render();
      return;
    }
    if (target.kind === "discard" || target.kind === "finish") {
      render();
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
    if (target.kind === "group" && !ctx.layout().groups[target.group]) {
      render();
      return;
    }
    moveCards(ctx.layout(), still, target);
    ctx.layoutChanged();
  }

  // ---------------------------------------------------------------- keyboard
  function order() {
    return allIds(ctx.layout());
  }

  function containerOf(id) {
    const layout = ctx.layout();
    const g = layout.groups.findIndex((group) => group.includes(id));
    return g >= 0 ? { kind: "group", group: g, ids: layout.groups[g] } : { kind: "loose", ids: layout.loose };
  }

  function focusCard(id) {
    if (!id) return;
    focusId = id;
    render();
    nodes.get(id)?.focus({ preventScroll: false });
  }

  function onKeyDown(event) {
    const node = event.target.closest?.(".card[data-id]");
    if (!node) return;
    const id = node.dataset.id;
    const ids = order();
    const at = ids.indexOf(id);
    const here = containerOf(id);
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      toggle(id);
      return;
    }
    if (event.key === "Escape") {
      select([]);
      return;
    }
    if (!event.shiftKey && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
      event.preventDefault();
      focusCard(ids[Math.max(0, Math.min(ids.length - 1, at + (event.key === "ArrowRight" ? 1 : -1)))]);
      return;
    }
    if (!event.shiftKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      const boxes = [...ctx.layout().groups, ctx.layout().loose].filter((g) => g.length);
      const now = boxes.findIndex((g) => g.includes(id));
      const next = boxes[Math.max(0, Math.min(boxes.length - 1, now + (event.key === "ArrowDown" ? 1 : -1)))];
      focusCard(next[0]);
      return;
    }
    if (event.shiftKey && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
      // Move the card one place within its group (or among the ungrouped cards).
      event.preventDefault();
      const pos = here.ids.indexOf(id) + (event.key === "ArrowRight" ? 2 : -1);
      if (pos < 0 || pos > here.ids.length) return;
      moveCards(
        ctx.layout(),
        [id],
        here.kind === "group" ? { kind: "group", group: here.group, index: pos } : { kind: "loose", index: pos },
      );
      ctx.layoutChanged();
      focusCard(id);
      return;
    }
    if (event.shiftKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      // Move the card to the next (or previous) group; past the last group: ungrouped.
      event.preventDefault();
      const groups = ctx.layout().groups.length;
      const from = here.kind === "group" ? here.group : groups;
      const to = from + (event.key === "ArrowDown" ? 1 : -1);
      if (to < 0) return;
      if (to >= groups) moveCards(ctx.layout(), [id], { kind: "loose", index: ctx.layout().loose.length });
      else moveCards(ctx.layout(), [id], { kind: "group", group: to, index: ctx.layout().groups[to].length });
      ctx.layoutChanged();
      focusCard(id);
    }
  }

  function onClick(event) {
    const x = event.target.closest("[data-ungroup]");
    if (x && root.contains(x)) ctx.ungroup(Number(x.dataset.ungroup));
    const why = event.target.closest("[data-why]");
    if (why && root.contains(why)) {
      const key = why.dataset.why;
      if (!explained.delete(key)) explained.add(key);
      render();
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
    selected: () => order().filter((id) => selected.has(id)),
    select,
    clear: () => select([]),
    focus: () => nodes.get(focusId)?.focus(),
    describe: (id) => prettyCard(cardOf(id)),
  };
}
