// @ts-check
// The offline page (the service worker shows it when a page cannot be reached): its words in
// the visitor's language (the language menu's choice, else the browser's; English otherwise),
// and "Try again" reloads the page that could not be reached, as coming back online does.

/** @returns {string[]} the languages wanted, the first first */
function wanted() {
  const out = [];
  const cookie = /(?:^|;\s*)sorry_lang=([a-z]{2})/.exec(document.cookie);
  if (cookie) out.push(cookie[1]);
  try {
    const kept = localStorage.getItem("sorry:lang");
    if (kept) out.push(kept);
  } catch {
    /* private mode */
  }
  for (const tag of navigator.languages || [navigator.language]) out.push(tag.slice(0, 2).toLowerCase());
  return out;
}

const pages = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("article[lang]")]);
const lang = wanted().find((code) => pages.some((p) => p.lang === code)) || "en";
for (const p of pages) {
  p.hidden = p.lang !== lang;
  if (p.lang === lang) {
    document.documentElement.lang = lang;
    const title = p.dataset.title || "Sorry!";
    document.title = title;
    const logo = document.querySelector("header .logo");
    if (logo) logo.textContent = title;
  }
}
document.body.dataset.lang = lang;
for (const b of document.querySelectorAll("button.again")) b.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
