// The service worker of the installed app, served as /sw.js by the server
// (sorry.web.installable), which fills in VERSION (a digest of the files kept) and SHELL
// (the files). It keeps the app's shell in the cache of its version and deletes the caches of
// other versions; it fetches everything from the network first, so that a page online never
// runs a stale script, and answers from the cache only when the network is gone: a page's
// navigation with the offline page, a script or style with the copy kept.

const VERSION = "unversioned";
const SHELL = ["/offline"];
const PREFIX = "sorry-shell-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" }))))
      // a new version takes over at once: nothing it serves can mix with the old one's files,
      // as everything comes from the network while there is one
      .then(() => /** @type {any} */ (self).skipWaiting()),
  );
});

self.addEventListener("activate", (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => /** @type {any} */ (self).clients.claim()),
  );
});

/** @param {string} path */
async function kept(path) {
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) || Response.error();
}

self.addEventListener("fetch", (/** @type {any} */ event) => {
  /** @type {Request} */
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => kept("/offline")));
  } else if (url.pathname.startsWith("/static/")) {
    // "no-cache": asked of the server each time (an unchanged file costs a 304): the files
    // are sent without a lifetime, and the browser's own cache would otherwise keep an old
    // script for a while by its heuristics (a day, for a file ten days old), after an update
    event.respondWith(fetch(new Request(request, { cache: "no-cache" })).catch(() => kept(url.pathname)));
  }
  // the game's API and connection: the network, or nothing
});
