// @ts-check
// The players' pages: /account (log in, create an account, settings), /u/NAME (a profile:
// ratings with their graph, luck over many games, games, invitations, recent opponents) and
// /leaderboard. One render per page from the API's JSON; names and every text from the server
// are set as text, never HTML.
import { t, tn, initLanguage } from "./i18n.js";

const VARIANTS = ["standard", "teams", "points"];

/** @param {string} id */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el;
}

/** @param {string} id */
function input(id) {
  return /** @type {HTMLInputElement} */ ($(id));
}

/** The session: {account: {name} | null, csrf}. */
let session = { account: /** @type {{name: string} | null} */ (null), csrf: "" };

/**
 * A JSON request; state-changing ones carry the session's CSRF token.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @returns {Promise<{ok: boolean, status: number, data: any}>}
 */
async function api(method, url, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && session.csrf) headers["X-CSRF-Token"] = session.csrf;
  const r = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  return { ok: r.ok, status: r.status, data };
}

/** @param {{data: any}} r */
function errorText(r) {
  return r.data && typeof r.data.error === "string" ? t(r.data.error) : t("Something went wrong.");
}

/** @param {string} variant */
function variantName(variant) {
  return t(variant);
}

/**
 * @param {HTMLElement} box
 * @param {string} chosen
 * @param {(v: string) => void} pick
 */
function tabs(box, chosen, pick) {
  box.replaceChildren(
    ...VARIANTS.map((v) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = variantName(v);
      b.setAttribute("aria-pressed", String(v === chosen));
      b.addEventListener("click", () => pick(v));
      return b;
    }),
  );
}

/** @param {string} name */
function profileLink(name) {
  const a = document.createElement("a");
  a.href = `/u/${encodeURIComponent(name)}`;
  a.textContent = name;
  return a;
}

/**
 * @param {string} text
 * @param {() => void} onClick
 */
function button(text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

// -- /account ---------------------------------------------------------------------------------
async function showAccount() {
  $("account-page").hidden = false;
  const me = session.account;
  $("login-panel").hidden = me !== null;
  $("settings").hidden = me === null;
  if (me) {
    $("settings-title").textContent = me.name;
    /** @type {HTMLAnchorElement} */ ($("my-profile")).href = `/u/${encodeURIComponent(me.name)}`;
    const r = await api("GET", "/api/account");
    if (r.ok && r.data) {
      input("webhook").value = r.data.webhook || "";
      input("email").value = r.data.email || "";
      renderBlocked(r.data.blocked || []);
    }
  }
}

/** @param {string[]} names */
function renderBlocked(names) {
  const list = $("blocked");
  if (!names.length) {
    const li = document.createElement("li");
    li.textContent = t("Nobody.");
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(
    ...names.map((name) => {
      const li = document.createElement("li");
      li.append(
        profileLink(name),
        button(t("Unblock {name}", { name }), async () => {
          const r = await api("POST", "/api/account/block", { name, blocked: false });
          if (r.ok) renderBlocked(names.filter((n) => n !== name));
        }),
      );
      return li;
    }),
  );
}

/**
 * @param {string} formId
 * @param {string} errorId
 * @param {string} url
 * @param {string} nameId
 * @param {string} passwordId
 */
function sessionForm(formId, errorId, url, nameId, passwordId) {
  $(formId).addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await api("POST", url, { name: input(nameId).value, password: input(passwordId).value });
    if (!r.ok) {
      $(errorId).textContent = errorText(r);
      return;
    }
    session = { account: { name: r.data.name }, csrf: r.data.csrf };
    const back = new URLSearchParams(location.search).get("next");
    location.assign(back && back.startsWith("/") && !back.startsWith("//") ? back : `/u/${encodeURIComponent(r.data.name)}`);
  });
}

function wireAccount() {
  sessionForm("login-form", "login-error", "/api/session", "login-name", "login-password");
  sessionForm("register-form", "register-error", "/api/accounts", "register-name", "register-password");
  $("logout").addEventListener("click", async () => {
    await api("DELETE", "/api/session");
    location.assign("/account");
  });
  $("notify-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await api("POST", "/api/account/notifications", {
      webhook: input("webhook").value || null,
      email: input("email").value || null,
    });
    $("notify-status").textContent = r.ok ? t("Saved.") : errorText(r);
  });
  $("password-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await api("POST", "/api/account/password", {
      old: input("old-password").value,
      new: input("new-password").value,
    });
    $("password-status").textContent = r.ok ? t("Password changed. Your other sessions have ended.") : errorText(r);
  });
  $("delete-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await api("DELETE", "/api/account", { password: input("delete-password").value });
    if (r.ok) location.assign("/");
    else $("delete-error").textContent = errorText(r);
  });
}

// -- /u/NAME ------------------------------------------------------------------------------------
/**
 * @param {any} p the player's JSON
 * @param {string} variant
 */
function renderRating(p, variant) {
  tabs($("variant-tabs"), variant, (v) => renderRating(p, v));
  const r = p.ratings[variant];
  const line = $("rating-line");
  const img = /** @type {HTMLImageElement} */ ($("rating-graph"));
  if (!r) {
    line.textContent = t("No rated game in this variant yet.");
    img.hidden = true;
    return;
  }
  const strong = document.createElement("strong");
  strong.textContent = String(r.rating);
  const rest = document.createTextNode(" " + tn("± {interval}, {n} rated game", "± {interval}, {n} rated games", r.games, { interval: r.interval }));
  const parts = /** @type {Node[]} */ ([strong, rest]);
  if (r.provisional) {
    const note = document.createElement("span");
    note.className = "provisional";
    note.textContent = t("Provisional: the interval is still wide.");
    parts.push(document.createElement("br"), note);
  }
  line.replaceChildren(...parts);
  img.hidden = false;
  img.src = `/api/players/${encodeURIComponent(p.name)}/rating.svg?variant=${variant}`;
  img.alt = t("Rating over time: now {rating}", { rating: r.rating });
}

/** @param {any} g one game of the profile */
function gameItem(g) {
  const li = document.createElement("li");
  const what = document.createElement("span");
  what.className = "what";
  const title = document.createElement("strong");
  title.textContent = g.name || t("Game");
  const kind = document.createElement("span");
  kind.className = "muted";
  kind.textContent = " " + (g.rated ? t("{variant}, rated", { variant: variantName(g.variant) }) : variantName(g.variant));
  what.append(title, kind);
  li.append(what);
  const status = document.createElement("span");
  if (g.status === "over") {
    status.textContent = g.resigned ? t("resigned") : g.won === true ? t("won") : g.won === false ? t("lost") : t("Game over");
    if (typeof g.delta === "number") {
      const d = document.createElement("span");
      d.className = g.delta >= 0 ? "delta-up" : "delta-down";
      d.textContent = ` ${g.delta >= 0 ? "+" : "−"}${Math.abs(g.delta)}`;
      status.append(d);
    }
  } else {
    status.textContent = g.your_turn ? t("your turn") : t("playing");
    if (g.your_turn) status.className = "your-turn";
  }
  li.append(status);
  const open = document.createElement("a");
  open.href = `/g/${encodeURIComponent(g.id)}`;
  open.textContent = g.status === "over" ? t("Replay and analysis") : t("Open");
  li.append(open);
  return li;
}

/** @param {any} p */
function renderActions(p) {
  const box = $("profile-actions");
  box.replaceChildren();
  const me = session.account;
  if (!me || me.name === p.name) return;
  const invite = document.createElement("a");
  invite.className = "button primary";
  invite.href = `/?invite=${encodeURIComponent(p.name)}`;
  invite.textContent = t("Invite to a game");
  let blocked = !!p.blocked_by_you;
  const block = button(blocked ? t("Unblock {name}", { name: p.name }) : t("Block {name}", { name: p.name }), async () => {
    const r = await api("POST", "/api/account/block", { name: p.name, blocked: !blocked });
    if (!r.ok) return;
    blocked = !blocked;
    block.textContent = blocked ? t("Unblock {name}", { name: p.name }) : t("Block {name}", { name: p.name });
  });
  box.append(invite, block);
}

/** @param {string} name */
async function showProfile(name) {
  $("profile-page").hidden = false;
  const r = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  if (!r.ok) {
    $("profile-name").textContent = t("No player has that name.");
    return;
  }
  const p = r.data;
  document.title = `${p.name} · ${t("Sorry!")}`;
  $("profile-name").textContent = p.name;
  const turn = $("your-turn");
  turn.hidden = !p.your_turn;
  turn.textContent = tn("Your turn in {n} game", "Your turn in {n} games", p.your_turn || 0);
  const best = VARIANTS.find((v) => p.ratings[v]) || "standard";
  renderRating(p, best);
  $("luck-line").textContent = p.luck ? p.luck.sentence : t("The luck of the cards shows here once a game is analysed.");
  $("luck-chance").textContent = p.luck && p.luck.chance ? p.luck.chance : "";
  $("games").replaceChildren(...p.games.map(gameItem));
  if (!p.games.length) {
    const li = document.createElement("li");
    li.textContent = t("No games yet.");
    $("games").append(li);
  }
  renderActions(p);
  const invitations = p.invitations || [];
  $("invitations-panel").hidden = !invitations.length;
  $("invitations").replaceChildren(
    ...invitations.map((/** @type {string} */ id) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/g/${encodeURIComponent(id)}`;
      a.textContent = t("Open the game you are invited to");
      li.append(a);
      return li;
    }),
  );
  const opponents = p.recent_opponents || [];
  $("opponents-panel").hidden = !opponents.length;
  $("opponents").replaceChildren(
    ...opponents.map((/** @type {string} */ n) => {
      const li = document.createElement("li");
      const invite = document.createElement("a");
      invite.href = `/?invite=${encodeURIComponent(n)}`;
      invite.textContent = t("Invite {name}", { name: n });
      li.append(profileLink(n), invite);
      return li;
    }),
  );
}

// -- /leaderboard -----------------------------------------------------------------------------
/** @param {string} variant */
async function showLeaderboard(variant) {
  $("leaderboard-page").hidden = false;
  tabs($("board-tabs"), variant, (v) => {
    history.replaceState(null, "", `/leaderboard?variant=${v}`);
    showLeaderboard(v);
  });
  const r = await api("GET", `/api/leaderboard?variant=${variant}`);
  const rows = r.ok ? r.data.players : [];
  $("board-caption").textContent = variantName(variant);
  $("board-rows").replaceChildren(
    ...rows.map((/** @type {any} */ p, /** @type {number} */ i) => {
      const tr = document.createElement("tr");
      const cells = [String(i + 1), "", `${p.rating} ± ${p.interval}`, String(p.games)];
      cells.forEach((c, k) => {
        const td = document.createElement("td");
        if (k === 1) td.append(profileLink(p.name));
        else td.textContent = c;
        tr.append(td);
      });
      return tr;
    }),
  );
  if (!rows.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 4;
    td.textContent = t("Nobody has a settled rating in this variant yet.");
    tr.append(td);
    $("board-rows").append(tr);
  }
  const prov = r.ok ? r.data.provisional : [];
  $("provisional").replaceChildren(
    ...prov.map((/** @type {any} */ p) => {
      const li = document.createElement("li");
      const figure = document.createElement("span");
      figure.textContent = tn("{rating} ± {interval}, {n} game", "{rating} ± {interval}, {n} games", p.games, { rating: p.rating, interval: p.interval });
      li.append(profileLink(p.name), figure);
      return li;
    }),
  );
}

async function main() {
  if (!initLanguage()) return;
  const s = await api("GET", "/api/session");
  if (s.ok && s.data) session = { account: s.data.account, csrf: s.data.csrf || "" };
  const nav = $("nav-account");
  nav.textContent = session.account ? session.account.name : t("Log in");
  wireAccount();
  const path = location.pathname;
  if (path.startsWith("/u/")) await showProfile(decodeURIComponent(path.slice(3)));
  else if (path === "/leaderboard") {
    const v = new URLSearchParams(location.search).get("variant") || "standard";
    await showLeaderboard(VARIANTS.includes(v) ? v : "standard");
  } else await showAccount();
  document.body.dataset.ready = "yes";
}

main();
