// The page's language and accessibility helpers, loaded before app.js.
// The server puts the catalog of the script's strings in <script id="i18n-data"> (the language
// chosen by the cookie the menu sets, else the browser's Accept-Language): t() and tn() look
// strings up there; announce() speaks to screen readers through a polite live region.
"use strict";

const I18N = (() => {
  try { return JSON.parse(document.getElementById("i18n-data").textContent); }
  catch (e) { return { lang: "en", messages: {} }; }
})();

// "{name}" placeholders are filled from vars.
function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (vars && k in vars ? String(vars[k]) : m));
}

function t(msg, vars) {
  const s = I18N.messages[msg];
  return fill(typeof s === "string" ? s : msg, vars);
}

// Plural forms: every language served has the rule n != 1 (the catalogs' Plural-Forms).
function tn(one, other, n, vars) {
  const forms = I18N.messages[one];
  const text = Array.isArray(forms) ? forms[n === 1 ? 0 : 1] : (n === 1 ? one : other);
  return fill(text, { n, ...(vars || {}) });
}

function colourName(c) { return t({ R: "Red", B: "Blue", Y: "Yellow", G: "Green" }[c] || c); }

function announce(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  // a change of text is what screen readers announce: clear, then set on the next frame
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

document.addEventListener("DOMContentLoaded", () => {
  if (!document.getElementById("live")) {
    const live = document.createElement("div");
    live.id = "live";
    live.className = "sr-only";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    document.body.append(live);
  }
  // the choice is remembered twice: a cookie (the server reads it) and localStorage (if the
  // cookie was cleared, it is restored from there once)
  let kept = null;
  try { kept = localStorage.getItem("sorry:lang"); } catch (e) { /* private mode */ }
  if (kept && /^[a-z]{2}$/.test(kept) && kept !== I18N.lang && !/(^|;\s*)sorry_lang=/.test(document.cookie)) {
    document.cookie = `sorry_lang=${kept}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
    return;
  }
  const menu = document.getElementById("lang-menu");
  if (menu) {
    menu.addEventListener("change", () => {
      const lang = menu.value;
      document.cookie = `sorry_lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
      try { localStorage.setItem("sorry:lang", lang); } catch (e) { /* private mode */ }
      location.reload();
    });
  }
});
