// The player's own layout of the hand: groups of card ids, the ungrouped cards, what is new.
// Pure functions on plain data (no DOM): the page keeps one layout per deal in localStorage.
//
// A card id is "<card>#<serial>": the hand may hold up to three copies of a card, and the page
// must know which copy the player put where.

export const cardOf = (id) => id.split("#")[0];

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // black, red, black, red
const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

function parts(card) {
  if (card === "JK") return { rank: 14, suit: 4 };
  return { rank: RANK_ORDER.indexOf(card.slice(0, -1)), suit: SUIT_ORDER[card.slice(-1)] };
}

// Sort key of a card: by suit then rank ("suit"), or by rank then suit ("rank").
export function sortKey(card, mode) {
  const p = parts(card);
  return mode === "rank" ? p.rank * 10 + p.suit : p.suit * 100 + p.rank;
}

export function sortIds(ids, mode) {
  return [...ids].sort((a, b) => sortKey(cardOf(a), mode) - sortKey(cardOf(b), mode) || (a < b ? -1 : 1));
}

// A new id for a copy of ``card``, unique in ``layout``: numbered by the layout's own counter,
// so the same layout and the same hand always make the same ids (the page's reducer is pure).
export function newId(layout, card) {
  const taken = new Set(allIds(layout));
  let n = layout.serial || 0;
  let id;
  do {
    n += 1;
    id = `${card}#${n}`;
  } while (taken.has(id));
  layout.serial = n;
  return id;
}

export function emptyLayout(deal) {
  return { deal, groups: [], loose: [], drawnId: null, sort: "suit", own: false, serial: 0 };
}

// A copy of a layout that the functions below may change without touching the original.
export function copyLayout(layout) {
  return { ...layout, groups: layout.groups.map((g) => [...g]), loose: [...layout.loose] };
}

// Whether two layouts place the same cards in the same places.
export function sameLayout(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function allIds(layout) {
  return [...layout.groups.flat(), ...layout.loose];
}

// Insert ``id`` into the ungrouped cards at its sorted place.
export function insertSorted(loose, id, mode) {
  const key = sortKey(cardOf(id), mode);
  let at = loose.findIndex((other) => sortKey(cardOf(other), mode) > key);
  if (at < 0) at = loose.length;
  loose.splice(at, 0, id);
}

// Bring the layout in step with the cards the server says the seat holds: cards that left are
// taken out (empty groups vanish), new ones go to their sorted place among the ungrouped cards.
// ``drawn`` (the card drawn this turn, or null) marks the new copy. Returns the ids added.
export function reconcile(layout, hand, drawn) {
  const need = new Map();
  for (const c of hand) need.set(c, (need.get(c) || 0) + 1);
  const keep = (id) => {
    const c = cardOf(id);
    if ((need.get(c) || 0) > 0) {
      need.set(c, need.get(c) - 1);
      return true;
    }
    return false;
  };
  layout.groups = layout.groups.map((g) => g.filter(keep)).filter((g) => g.length);
  layout.loose = layout.loose.filter(keep);
  if (!drawn || (layout.drawnId && !allIds(layout).includes(layout.drawnId))) layout.drawnId = null;
  const added = [];
  for (const c of hand) {
    while ((need.get(c) || 0) > 0) {
      const id = newId(layout, c);
      insertSorted(layout.loose, id, layout.sort);
      need.set(c, need.get(c) - 1);
      added.push(id);
      if (drawn === c) layout.drawnId = id;
    }
  }
  return added;
}

// Where ``id`` is: {group: index} or {group: null} for the ungrouped cards.
function remove(layout, id) {
  for (const g of layout.groups) {
    const at = g.indexOf(id);
    if (at >= 0) {
      g.splice(at, 1);
      return;
    }
  }
  const at = layout.loose.indexOf(id);
  if (at >= 0) layout.loose.splice(at, 1);
}

function tidy(layout) {
  layout.groups = layout.groups.filter((g) => g.length);
}

// Move cards (in the order given) to a target: {kind: "group", group, index},
// {kind: "loose", index} or {kind: "new"}. A group keeps its place even when it loses a card.
export function moveCards(layout, ids, target) {
  const present = ids.filter((id) => allIds(layout).includes(id));
  if (!present.length) return false;
  let index = target.index ?? 0;
  if (target.kind === "group") {
    const group = layout.groups[target.group];
    if (!group) return false;
    // Cards before the insertion point that move away shift it left.
    index -= group.slice(0, index).filter((id) => present.includes(id)).length;
  } else if (target.kind === "loose") {
    index -= layout.loose.slice(0, index).filter((id) => present.includes(id)).length;
  }
  for (const id of present) remove(layout, id);
  if (target.kind === "new") layout.groups.push(present);
  else if (target.kind === "loose")
    layout.loose.splice(Math.max(0, Math.min(index, layout.loose.length)), 0, ...present);
  else {
    const group = layout.groups[target.group];
    group.splice(Math.max(0, Math.min(index, group.length)), 0, ...present);
  }
  tidy(layout);
  layout.own = true;
  return true;
}

// Make a new group of the selected cards, in sorted order.
export function groupCards(layout, ids) {
  const present = ids.filter((id) => allIds(layout).includes(id));
  if (!present.length) return false;
  for (const id of present) remove(layout, id);
  layout.groups.push(sortIds(present, layout.sort));
  tidy(layout);
  layout.own = true;
  return true;
}

// Break a group up: its cards go to their sorted places among the ungrouped cards.
export function ungroup(layout, index) {
  const group = layout.groups[index];
  if (!group) return;
  layout.groups.splice(index, 1);
  for (const id of group) insertSorted(layout.loose, id, layout.sort);
  layout.own = true;
}

export function sortLoose(layout, mode) {
  layout.sort = mode;
  layout.loose = sortIds(layout.loose, mode);
}

// Lay the hand out as the server suggests: ``groups`` (lists of cards), ``loose`` cards, and
// ``apart`` (a card to put at the end of the ungrouped cards: the advised discard), reusing the
// ids of the cards already placed. ``keep`` (group indexes) are the player's groups to keep.
export function applyArrangement(layout, arranged, keepGroups = []) {
  const kept = keepGroups.map((i) => layout.groups[i]).filter(Boolean);
  const keptIds = new Set(kept.flat());
  const pool = new Map();
  for (const id of allIds(layout)) {
    if (keptIds.has(id)) continue;
    const c = cardOf(id);
    if (!pool.has(c)) pool.set(c, []);
    pool.get(c).push(id);
  }
  const take = (c) => {
    const ids = pool.get(c);
    return ids?.length ? ids.shift() : newId(layout, c);
  };
  const groups = arranged.groups.map((g) => g.map(take));
  const loose = sortIds(arranged.loose.map(take), layout.sort);
  let apart = null;
  if (arranged.apart) {
    apart = take(arranged.apart);
    loose.push(apart);
  }
  for (const ids of pool.values()) for (const id of ids) insertSorted(loose, id, layout.sort);
  layout.groups = [...kept, ...groups];
  layout.loose = loose;
  layout.own = kept.length > 0;
  return apart;
}
