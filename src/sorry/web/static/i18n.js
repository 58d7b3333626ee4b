// @ts-check
// The page's language. The server puts the catalog of the script's strings in
// <script id="i18n-data" type="application/json"> (the language chosen by the cookie the menu
// sets, else the browser's Accept-Language): t() and tn() look strings up there; announce()
// speaks to screen readers through a polite live region.

/** @type {{lang: string, messages: Record<string, string | string[]>}} */
const I18N = (() => {
  try {
    const node = document.getElementById("i18n-data");
    return JSON.parse(node ? node.textContent || "" : "");
  } catch {
    return { lang: "en", messages: {} };
  }
})();

export const LANG = I18N.lang;

/**
 * "{name}" placeholders are filled from vars.
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 */
function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (vars && k in vars ? String(vars[k]) : m));
}

/**
 * @param {string} msg
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function t(msg, vars) {
  const s = I18N.messages[msg];
  return fill(typeof s === "string" ? s : msg, vars);
}

/**
 * Plural forms: every language served has the rule n != 1 (the catalogs' Plural-Forms).
 * @param {string} one
 * @param {string} other
 * @param {number} n
 * @param {Record<string, unknown>} [vars]
 */
export function tn(one, other, n, vars) {
  const forms = I18N.messages[one];
  const text = Array.isArray(forms) ? forms[n === 1 ? 0 : 1] : n === 1 ? one : other;
  return fill(text, { n, ...(vars || {}) });
}

/** @type {Record<string, string>} */
const COLOUR_WORDS = { R: "Red", B: "Blue", Y: "Yellow", G: "Green" };

/** @param {string} c a colour letter */
export function colourName(c) {
  return t(COLOUR_WORDS[c] || c);
}

/** @param {string} text said to screen readers (politely) */
export function announce(text) {
  let live = document.getElementById("live");
  if (!live) {
    live = document.createElement("div");
    live.id = "live";
    live.className = "sr-only";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    document.body.append(live);
  }
  if (!text) return;
  // a change of text is what screen readers announce: clear, then set on the next frame
  const region = live;
  region.textContent = "";
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

const COOKIE = "sorry_lang";

/** @param {string} lang */
function setCookie(lang) {
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax`;
}

/**
 * The language menu: the choice is remembered twice, a cookie (the server reads it) and
 * localStorage (if the cookie was cleared, it is restored from there once). Returns false
 * when the page is reloading in the remembered language.
 */
export function initLanguage() {
  announce("");
  let kept = null;
  try {
    kept = localStorage.getItem("sorry:lang");
  } catch {
    /* private mode */
  }
  if (kept && /^[a-z]{2}$/.test(kept) && kept !== LANG && !/(^|;\s*)sorry_lang=/.test(document.cookie)) {
    setCookie(kept);
    location.reload();
    return false;
  }
  const menu = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-menu"));
  if (menu) {
    menu.addEventListener("change", () => {
      setCookie(menu.value);
      try {
        localStorage.setItem("sorry:lang", menu.value);
      } catch {
        /* private mode */
      }
      location.reload();
    });
  }
  return true;
}
