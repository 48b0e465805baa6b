// The service worker: it keeps the pages' shell (their HTML, scripts, styles and icon) so that a
// page opened or reloaded while the server cannot be reached still opens — and then says so and
// reconnects by itself — instead of the browser's error page. The network comes first: when the
// server answers, its answer is used (and kept); the kept copy only when it does not. The API and
// the WebSocket are never touched.
const CACHE = "rummy21-shell-v1";
const SHELL = [
  "/static/index.html",
  "/static/table.html",
  "/static/history.html",
  "/static/style.css",
  "/static/table.css",
  "/static/favicon.svg",
  "/static/cards.js",
  "/static/history.js",
  "/static/layout.js",
  "/static/lobby.js",
  "/static/net.js",
  "/static/seats.js",
  "/static/state.js",
  "/static/store.js",
  "/static/table.js",
  "/static/views/declare.js",
  "/static/views/fit.js",
  "/static/views/hand.js",
  "/static/views/result.js",
  "/static/views/table.js",
  "/static/views/windows.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// The file a page's address is served from (the same page for every table).
function pageOf(path) {
  if (path === "/") return "/static/index.html";
  if (/^\/t\/[^/]+\/history$/.test(path)) return "/static/history.html";
  if (/^\/t\/[^/]+$/.test(path)) return "/static/table.html";
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const key =
    request.mode === "navigate" ? pageOf(url.pathname) : url.pathname.startsWith("/static/") ? url.pathname : null;
  if (!key) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
        }
        return response;
      })
      .catch(() => caches.match(key).then((kept) => kept || Response.error())),
  );
});
