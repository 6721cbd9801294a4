// The service worker of the installable app (issue 50): it keeps the page's own files, so a
// reload while the server cannot be reached still opens the page, and the page draws the game
// as it last saw it with the moves it queued (app.js keeps both in localStorage).
// Network first: online, every file is the server's current one (and refreshes the copy);
// only when the network fails does the kept copy answer.  API calls that carry a token, the
// socket and sign-in links are never touched: they go to the network as if there were no
// worker.
const CACHE = "kakuro-shell-1";
const SHELL = [
  "/", "/static/app.js", "/static/board.js", "/static/watch.js", "/static/standings.js",
  "/static/devices.js", "/static/style.css", "/manifest.webmanifest",
  "/static/icon.svg", "/api/combos", "/api/modes",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.search) return;
  const key = url.pathname;
  if (!SHELL.includes(key)) return;
  event.respondWith(fetch(request).then((answer) => {
    if (answer.ok) {
      const copy = answer.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
    }
    return answer;
  }).catch(() => caches.match(key).then((kept) => kept || Response.error())));
});
