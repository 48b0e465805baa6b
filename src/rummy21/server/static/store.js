// One store for the page: the state, ``dispatch(message)`` to change it through the reducer, and
// views that redraw only when what they show has changed.

export function createStore(reducer, state) {
  const watchers = [];
  let current = state;
  return {
    get: () => current,
    dispatch(message) {
      const before = current;
      current = reducer(current, message);
      if (current === before) return;
      for (const watcher of [...watchers]) watcher(current, before);
    },
    // ``fn(state, before)`` after every change.
    subscribe(fn) {
      watchers.push(fn);
      return () => watchers.splice(watchers.indexOf(fn), 1);
    },
    // ``draw(model, state)`` whenever ``model(state)`` (plain data) changes, and once now.
    view(model, draw) {
      let last;
      const run = (s) => {
        const next = model(s);
        const key = JSON.stringify(next);
        if (key === last) return;
        last = key;
        draw(next, s);
      };
      watchers.push(run);
      run(current);
    },
  };
}
