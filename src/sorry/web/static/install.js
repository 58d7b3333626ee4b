// @ts-check
// The site as an app a phone or a desktop can install (its manifest is linked from every
// page): the service worker (/sw.js) keeps the app's shell and shows the offline page when the
// network is gone. A browser without service workers, or one that refuses this one, plays
// online as before.

if ("serviceWorker" in navigator && window.isSecureContext) {
  // updateViaCache "none": the browser asks the server for /sw.js itself at each check, so a
  // new version of the game is found at the next visit
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {
    /* private mode, or the browser's settings: nothing to do */
  });
}
