// The hand fits the screen: its cards shrink, and overlap more, as the hand grows (more cards,
// more groups), so that the whole hand, the piles and the action bar stay on one screen at every
// point of a deal. The largest size that fits wins; below the smallest the hand scrolls inside
// its own box, and nothing above it (the piles) is pushed away.

// The sizes to try, largest first: the card width in px and the part of a card its neighbour
// covers, both shrinking or growing together (so a later size is never larger than an earlier).
export function sizes(max, min, fan = [0.5, 0.62]) {
  const out = [];
  const steps = Math.max(1, Math.round((max - min) / 2));
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    out.push({ cw: Math.round(max - (max - min) * t), fan: +(fan[0] + (fan[1] - fan[0]) * t).toFixed(3) });
  }
  return out;
}

// The first index in [0, n) for which ``fits`` holds, if ``fits`` is monotone (false…, true…);
// n when none does.
export function firstFit(n, fits) {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const px = (style, name, fallback) => {
  const value = Number.parseFloat(style.getPropertyValue(name));
  return Number.isFinite(value) ? value : fallback;
};

// Fit ``root`` (the hand) into the room the page leaves it. Returns the size chosen.
export function fitHand(root) {
  root.classList.remove("scrolls");
  root.style.maxHeight = "";
  const style = getComputedStyle(root);
  const max = px(style, "--cw-max", 74);
  const min = px(style, "--cw-min", 40);
  const fan = [px(style, "--fan-min", 0.5), px(style, "--fan-max", 0.62)];
  // The room: the hand's height now, plus what the page leaves free under its content (or
  // minus what it overflows the screen by). The hand's own padding stays.
  const page = (root.closest(".game") || document.body).getBoundingClientRect().bottom + scrollY;
  const room = root.clientHeight + (innerHeight - page);
  const pad = px(style, "padding-bottom", 0);
  const set = (size) => {
    root.style.setProperty("--cw", `${size.cw}px`);
    root.style.setProperty("--fan", String(size.fan));
  };
  const need = () => {
    const top = root.getBoundingClientRect().top;
    let bottom = top;
    for (const child of root.children) bottom = Math.max(bottom, child.getBoundingClientRect().bottom);
    return bottom - top + pad;
  };
  const list = sizes(max, min, fan);
  const at = firstFit(list.length, (i) => {
    set(list[i]);
    return need() <= room + 0.5;
  });
  const chosen = list[Math.min(at, list.length - 1)];
  set(chosen);
  if (at >= list.length) {
    // Even the smallest cards do not fit: the hand scrolls in its own box.
    root.classList.add("scrolls");
    root.style.maxHeight = `${Math.max(room, chosen.cw * 2)}px`;
  }
  root.dataset.fit = `${chosen.cw}`;
  return chosen;
}
