// @ts-check
// The page's language. The server puts the catalog of the script's strings in
// <script id="i18n-data" type="application/json"> (the language chosen by the cookie the menu
// sets, else the browser's Accept-Language): t() and tn() look strings up there; announce()
// speaks to screen readers through a polite live region.

/**
 * @typedef {Record<string, string>} Forms a word's forms by name ("gen": "του Κίτρινου")
 * @typedef {{words: Record<string, Forms>, square: Forms, squares: Record<string, Forms>}} FormTable
 * @typedef {{"-": string[]} & Record<string, Record<string, string> | string[]>} SquareTable
 * @type {{lang: string, messages: Record<string, string | string[]>, forms?: FormTable, squares?: SquareTable}}
 */
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
 * The form `name` of a word the page inserts (a colour, START, HOME, a bot level, a square's
 * number), from the language's table of forms (docs/i18n.md); the word itself when it has none.
 * A capital first letter ("Gen") capitalises the form, for the start of a sentence.
 * @param {string} text
 * @param {string} name
 */
function form(text, name) {
  const table = I18N.forms;
  const key = name.toLowerCase();
  let found = table ? (table.words[text] || {})[key] : undefined;
  if (found === undefined && table) {
    // a word with a tag after it ("Vermell (bot)"): the word's form, then the tag
    const word = Object.keys(table.words).find((w) => text.startsWith(w + " "));
    const head = word === undefined ? undefined : table.words[word][key];
    if (word !== undefined && head !== undefined) found = head + text.slice(word.length);
  }
  if (found === undefined && table && /^\d+$/.test(text)) {
    const own = (table.squares[text] || {})[key];
    const template = own !== undefined ? own : table.square[key];
    found = template === undefined ? undefined : template.replace("{n}", text);
  }
  const out = found === undefined ? text : found;
  return name[0] === key[0] ? out : out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * "{name}" placeholders are filled from vars; "[gen]{name}" (a form asked for) with that
 * form of the word given (of each word, for a Series).
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 */
function fill(text, vars) {
  return text.replace(/(?:\[([A-Za-z][a-z_]+)\])?\{(\w+)\}/g, (m, f, k) => {
    if (!vars || !(k in vars)) return m;
    const v = vars[k];
    if (!f) return String(v);
    if (v instanceof Series) return v.form(f);
    return form(String(v), f);
  });
}

/** Words said together (a team: "Red and Green"); a form of it is that form of each word. */
export class Series {
  /** @param {string[]} words */
  constructor(words) {
    this.words = words;
  }

  /** @param {string[]} items */
  static join(items) {
    let text = items[0] || "";
    for (let i = 1; i < items.length; i++) {
      text = i < items.length - 1 ? t("{items}, {item}", { items: text, item: items[i] }) : t("{first} and {second}", { first: text, second: items[i] });
    }
    return text;
  }

  toString() {
    return Series.join(this.words);
  }

  /** @param {string} name a form's name ("Gen": capitalised, the first word only) */
  form(name) {
    const rest = name[0].toLowerCase() + name.slice(1);
    return Series.join(this.words.map((w, i) => form(w, i === 0 ? name : rest)));
  }
}

/**
 * Colours said together (a team), in the catalog's words for a list; a message may ask for a
 * form of each ("[gen]{names}").
 * @param {string[]} words the colours' names (colourName)
 */
export function series(words) {
  return new Series(words);
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

/**
 * A track square the way a player sees the board ("4 squares before your Safety Zone", "2
 * squares after Yellow's START": sorry.describe.square_words, sent by the server in the
 * page's language); null for START, HOME and Safety Zone squares (the move's words name them).
 * @param {string} loc a location as the server names it ("31", "s2", "H")
 * @param {string | null} [seat] the player looking (their own landmarks are "your")
 */
export function squareWords(loc, seat) {
  const table = I18N.squares;
  if (!table || !/^\d+$/.test(loc)) return null;
  const own = seat ? /** @type {Record<string, string> | undefined} */ (table[seat]) : undefined;
  return (own && own[loc]) || table["-"][Number(loc)] || null;
}

/**
 * Where a move takes the player's pawns, in those words (both squares of a split 7); "" when
 * no pawn ends on the track.
 * @param {string[][] | undefined} movers [colour, from, to] of each pawn the player moves
 * @param {string | null} [seat]
 */
export function whereWords(movers, seat) {
  const said = (movers || []).map((p) => squareWords(p[2], seat)).filter((w) => w);
  if (said.length === 2) return t("{first}; {second}", { first: said[0], second: said[1] });
  return said[0] || "";
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
