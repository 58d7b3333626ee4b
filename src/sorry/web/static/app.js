// Sorry! in the browser. No framework, nothing loaded from the internet.
// The server is authoritative: this page only shows what it is sent and sends back one of the
// legal moves it was given, with the sequence number it saw.
"use strict";

const COLOURS = ["R", "B", "Y", "G"];
// Colour names in the page's language (t() and colourName() come from i18n.js).
const NAMES = { R: colourName("R"), B: colourName("B"), Y: colourName("Y"), G: colourName("G") };
const FILL = { R: "#d64541", B: "#3b7dd8", Y: "#e8c12e", G: "#3aa655" };
const DARK = { R: "#7a1f1c", B: "#1b3f73", Y: "#7a6200", G: "#1a5a2a" };
const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: r.statusText }));
  // the server's errors are English; the ones a player can meet are in the page's catalog
  if (!r.ok) throw new Error(t(data.error || r.statusText));
  return data;
}

// ---------------------------------------------------------------------------------- lobby
async function lobbyPage() {
  $("lobby-page").hidden = false;
  const meta = await api("/api/meta");
  const variant = $("variant");
  for (const v of meta.variants) variant.append(el("option", { value: v, text: t(v) }));
  const opts = $("options");
  for (const [name, values] of Object.entries(meta.options)) {
    if (name === "turn_limit") continue;
    const sel = el("select", { "data-option": name });
    for (const v of values) sel.append(el("option", { value: v, text: t(v) }));
    opts.append(el("label", { text: t(name) + " " }, sel));
  }
  const seats = $("seat-choices");
  const defaults = { R: "me", B: "none", Y: "bot:" + meta.bot_levels[0], G: "none" };
  for (const c of COLOURS) {
    const sel = el("select", { id: "seat-" + c });
    sel.append(el("option", { value: "none", text: t("not playing") }));
    sel.append(el("option", { value: "me", text: t("me") }));
    sel.append(el("option", { value: "invite", text: t("invite a person") }));
    sel.append(el("option", { value: "open", text: t("open seat (lobby)") }));
    for (const lv of meta.bot_levels) sel.append(el("option", { value: "bot:" + lv, text: t("bot: {level}", { level: t(lv) }) }));
    sel.value = defaults[c];
    seats.append(el("label", { class: "c-" + c, text: NAMES[c] + " " }, sel));
  }
  $("create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("create-error").textContent = "";
    const body = { name: $("game-name").value, variant: variant.value, public: $("public").checked,
      options: {}, seats: [] };
    const defaultsOpt = {};
    for (const sel of opts.querySelectorAll("select")) {
      if (sel.selectedIndex !== 0) body.options[sel.dataset.option] = sel.value;
      defaultsOpt[sel.dataset.option] = sel.value;
    }
    let me = null;
    for (const c of COLOURS) {
      const v = $("seat-" + c).value;
      if (v === "none") continue;
      if (v === "me") { if (me) { $("create-error").textContent = t("choose 'me' once"); return; } me = c; }
      if (v.startsWith("bot:")) body.seats.push({ colour: c, kind: "bot", level: v.slice(4) });
      else body.seats.push({ colour: c, kind: v === "open" ? "open" : "invite" });
    }
    try {
      const res = await api("/api/games", body);
      const list = $("invite-links");
      list.innerHTML = "";
      let mine = res.url;
      for (const s of res.seats) {
        if (!s.link) continue;
        if (s.colour === me) { mine = s.link; continue; }
        list.append(el("li", {}, el("span", { class: "c-" + s.colour, text: NAMES[s.colour] + ": " }),
          el("input", { value: s.link, readonly: "", size: "60", class: "invite-link", "data-colour": s.colour })));
      }
      $("go-to-game").href = mine;
      $("created").hidden = false;
      if (!list.children.length) location.href = mine;
    } catch (e) { $("create-error").textContent = e.message; }
  });
  const lobby = await api("/api/games");
  const ul = $("lobby-list");
  ul.innerHTML = "";
  if (!lobby.games.length) ul.append(el("li", { text: t("No public games yet.") }));
  for (const g of lobby.games) {
    const open = g.seats.filter((s) => s.open && !s.claimed).map((s) => NAMES[s.colour]);
    const what = g.status === "over" ? t("finished — replay") : open.length ? t("open: {seats}", { seats: open.join(", ") }) : t("watch");
    ul.append(el("li", {}, el("a", { href: "/g/" + g.id, text: g.name }),
      document.createTextNode(` (${t(g.variant)}, ${what})`)));
  }
}

// ---------------------------------------------------------------------------------- game
const G = {
  id: null, seat: null, token: null, ws: null, state: null, geo: null, pawns: {}, filter: null,
  cardFilter: null, showAll: false, retry: 0, log: [], replay: null, replayAt: 0,
};

function creds() {
  try { return JSON.parse(localStorage.getItem("sorry:" + G.id) || "null"); } catch (e) { return null; }
}
function saveCreds(c) { localStorage.setItem("sorry:" + G.id, JSON.stringify(c)); }

async function gamePage(id) {
  G.id = id;
  $("game-page").hidden = false;
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("seat") && frag.get("token")) {
    saveCreds({ seat: frag.get("seat"), token: frag.get("token"), joined: false });
    history.replaceState(null, "", location.pathname);  // keep the secret off the screen
  }
  const [svg, geo] = await Promise.all([fetch("/api/board.svg").then((r) => r.text()), api("/api/board")]);
  G.geo = geo;
  $("board").innerHTML = svg;
  const board = $("board").querySelector("svg");
  for (const id of ["targets", "pawn-layer"]) {
    const layer = document.createElementNS(SVGNS, "g");
    layer.id = id;
    board.append(layer);
  }
  $("hint-btn").addEventListener("click", () => send({ type: "hint", seq: G.state.seq }));
  $("all-btn").addEventListener("click", () => { G.filter = null; G.cardFilter = null; renderMoves(); });
  $("replay-btn").addEventListener("click", startReplay);
  $("rematch-btn").addEventListener("click", rematch);
  $("next-game").addEventListener("click", goNext);
  $("replay-prev").addEventListener("click", () => showFrame(G.replayAt - 1));
  $("replay-next").addEventListener("click", () => showFrame(G.replayAt + 1));
  $("download").href = `/api/games/${id}/record`;
  $("name-input").value = localStorage.getItem("sorry:name") || "";
  const summary = await api("/api/games/" + id);
  $("subtitle").textContent = `${summary.name} — ${t(summary.variant)}` + (summary.options ? ` (${summary.options})` : "");
  const c = creds();
  if (c && c.joined) { G.seat = c.seat; G.token = c.token; connect(); return; }
  showJoin(summary, c);
  if (!c) connect();  // watch while deciding
}

function showJoin(summary, c) {
  const box = $("join-buttons");
  box.innerHTML = "";
  $("join").hidden = false;
  const join = async (seat, token) => {
    const name = $("name-input").value.trim() || t("Player");
    localStorage.setItem("sorry:name", name);
    try {
      const res = await api(`/api/games/${G.id}/join`, { seat, name, token });
      saveCreds({ seat, token: res.token, joined: true });
      G.seat = seat; G.token = res.token;
      $("join").hidden = true;
      if (G.ws) G.ws.close(); else connect();
    } catch (e) { $("join-error").textContent = e.message; }
  };
  if (c) {
    $("join-title").textContent = t("You are invited to play {colour}", { colour: NAMES[c.seat] });
    box.append(el("button", { id: "join-btn", type: "button", text: t("Join as {colour}", { colour: NAMES[c.seat] }),
      onclick: () => join(c.seat, c.token) }));
    return;
  }
  $("join-title").textContent = t("Watching. Take an open seat?");
  for (const s of summary.seats) {
    if (s.open && !s.claimed) {
      box.append(el("button", { type: "button", class: "take-seat", "data-colour": s.colour,
        text: t("Play {colour}", { colour: NAMES[s.colour] }), onclick: () => join(s.colour, undefined) }));
    }
  }
  if (!box.children.length) $("join").hidden = true;
}

function send(msg) {
  if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify(msg));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${G.id}`);
  G.ws = ws;
  ws.onopen = () => {
    G.retry = 0;
    ws.send(JSON.stringify(G.seat ? { type: "hello", seat: G.seat, token: G.token } : { type: "hello" }));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (G.ws !== ws) return;
    G.ws = null;
    $("status").textContent = t("Disconnected — reconnecting…");
    setTimeout(connect, Math.min(5000, 300 * 2 ** G.retry++));
  };
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      document.body.dataset.role = m.role;
      break;
    case "state":
      if (m.log) { G.log = m.log; renderLog(); } else if (m.last && (!G.log.length || G.log[G.log.length - 1].seq < m.last.seq)) {
        G.log.push(m.last); renderLog();
        announce(logLine(m.last));
      }
      applyState(m);
      break;
    case "seats":
      if (G.state) { G.state.seats = m.seats; renderSeats(); }
      break;
    case "accepted":
      $("notice").textContent = "";
      break;
    case "rejected":
      $("notice").textContent = t("Not accepted: {reason}", { reason: reasonText(m.code, m.reason) });
      if (m.resync) send({ type: "resync" });
      break;
    case "hint":
      $("hint").textContent = t("Hint: {text}", { text: m.text });
      for (const b of $("moves").querySelectorAll("button")) if (b.dataset.move === m.move) b.classList.add("hinted");
      break;
    case "error":
      $("notice").textContent = reasonText(m.code, m.error);
      if (m.code === "bad_token") { localStorage.removeItem("sorry:" + G.id); G.seat = null; }
      break;
  }
}

// The server's reasons, by code, in the page's language (its English text otherwise).
function reasonText(code, english) {
  const words = {
    stale: "the game had moved on: look again",
    game_over: "the game is over",
    not_your_turn: "it is not your turn",
    illegal: "that move is not one of the legal moves",
    server_error: "the move could not be saved: try again",
    rate_limited: "too many messages: slow down",
    bad_token: "wrong seat or token",
    no_game: "no such game",
  }[code];
  return words ? t(words) : english;
}

function applyState(m) {
  const prev = G.state;
  G.state = m;
  if (!prev || prev.seq !== m.seq) { G.filter = null; G.cardFilter = null; $("hint").textContent = ""; }
  const v = m.view;
  document.body.dataset.seq = m.seq;
  document.body.dataset.status = m.status;
  document.body.dataset.toMove = v.to_move;
  if (G.replay === null) placePawns(v.pawns, m.last && prev && m.last.seq === m.seq ? m.last.paths : []);
  renderStatus();
  renderSeats();
  renderMoves();
  if (m.commitment) $("commitment").textContent = t("Shuffle commitment: {digest}…", { digest: m.commitment.slice(0, 16) });
  if (m.status === "over") {
    $("over-panel").hidden = false;
    const s = v.scores ? Object.entries(v.scores).map(([c, p]) => `${NAMES[c]} ${p}`).join(", ") : "";
    renderMatch(m);
    $("scores").textContent = (v.winners.length ? t("Winner: {names}", { names: v.winners.map((c) => NAMES[c]).join(" + ") }) : t("Unfinished")) + (s ? t(" — scores: {scores}", { scores: s }) : "");
  }
}

function renderMatch(m) {
  const t = m.match;
  const wins = Object.entries(t.wins).map(([c, n]) => `${NAMES[c]} ${n}`).join(", ");
  const points = Object.entries(t.points).map(([c, n]) => `${NAMES[c]} ${n}`).join(", ");
  $("match").textContent = tn("Match: {n} game played", "Match: {n} games played", t.games) +
    (wins ? window.t(" — wins: {wins}", { wins }) : "") + (points ? window.t(" — points: {points}", { points }) : "");
  $("rematch-btn").hidden = !G.seat || !!m.next_game;
  const next = $("next-game");
  next.hidden = !m.next_game;
  if (m.next_game) next.href = "/g/" + m.next_game;
}

function goNext(ev) {
  ev.preventDefault();
  const id = G.state.next_game;
  const c = creds();
  // the seat's token is the same in every game of the match
  if (c) localStorage.setItem("sorry:" + id, JSON.stringify({ ...c, joined: true }));
  location.href = "/g/" + id;
}

async function rematch() {
  const c = creds();
  try {
    await api(`/api/games/${G.id}/rematch`, { seat: c.seat, token: c.token });
  } catch (e) { $("notice").textContent = e.message; }
}

function renderStatus() {
  const m = G.state, v = m.view;
  let text;
  if (m.status === "over") text = v.winners.length ? t("{names} won!", { names: v.winners.map((c) => NAMES[c]).join(" + ") }) : t("Game over");
  else if (G.seat && v.to_move === G.seat) text = t("Your turn");
  else text = t("{colour} to move", { colour: NAMES[v.to_move] });
  $("status").textContent = text + (G.seat ? t(" — you are {colour}", { colour: NAMES[G.seat] }) : t(" — watching"));
  $("status").className = "c-" + v.to_move;
  $("card").innerHTML = "";
  if (v.card) $("card").append(el("span", { class: "card big", id: "current-card", "aria-label": t("Card: {card}", { card: cardName(v.card) }), text: cardName(v.card) }));
  $("card").append(el("span", { text: " " + tn("{n} card to draw", "{n} cards to draw", v.draw_count) }));
  const hand = $("hand");
  hand.innerHTML = "";
  if (v.hand.length) {
    hand.append(el("span", { text: t("Your hand: ") }));
    for (const c of v.hand) {
      hand.append(el("button", { type: "button", class: "card" + (G.cardFilter === c ? " selected" : ""), "data-card": c, text: cardName(c),
        "aria-pressed": G.cardFilter === c ? "true" : "false",
        onclick: () => { G.cardFilter = G.cardFilter === c ? null : c; renderStatus(); renderMoves(); } }));
    }
  }
}

function renderSeats() {
  const box = $("seats");
  box.innerHTML = "";
  for (const s of G.state.seats) {
    // a bot's name is its level, said in the page's language
    const bits = [s.kind === "bot" ? t("bot: {level}", { level: t(s.level) }) : s.name];
    if (s.kind !== "bot" && !s.claimed) bits.push(s.open ? t("(open seat)") : t("(invited)"));
    else if (s.kind !== "bot" && !s.connected) bits.push(t("(away)"));
    if (s.bot_playing) bits.push(t("— a bot is playing for them"));
    const hs = G.state.view.hand_sizes[s.colour];
    if (G.state.view.variant === "points") bits.push(tn("{n} card", "{n} cards", hs));
    box.append(el("div", { class: "seat" + (G.state.view.to_move === s.colour ? " to-move" : "") },
      el("span", { class: "dot bg-" + s.colour }), el("span", { class: "c-" + s.colour, text: NAMES[s.colour] + ": " }),
      document.createTextNode(bits.join(" "))));
  }
}

function movesShown() {
  let moves = G.state.view.legal_moves;
  if (G.cardFilter) moves = moves.filter((m) => m.card === G.cardFilter || (m.kind === "discard" && m.move === "discard:" + G.cardFilter));
  if (G.filter) moves = moves.filter((m) => m.paths.some((p) => p[0] === G.filter.colour && p[1] === G.filter.loc));
  return moves;
}

function renderMoves() {
  const box = $("moves");
  box.innerHTML = "";
  clearTargets();
  const v = G.state.view;
  const mine = G.seat && v.to_move === G.seat && G.state.status === "playing";
  $("hint-btn").disabled = !mine;
  $("move-panel").hidden = !G.seat;
  for (const pawn of Object.values(G.pawns).flat()) pawn.el.classList.remove("movable", "selected");
  if (!mine || G.replay !== null) return;
  const movable = new Set(v.legal_moves.flatMap((m) => m.paths.slice(0, 1).map((p) => p[0] + ":" + p[1])));
  for (const m of v.legal_moves) if (m.kind === "split") for (const p of m.paths) movable.add(p[0] + ":" + p[1]);
  for (const [c, list] of Object.entries(G.pawns)) {
    for (const p of list) {
      const canMove = movable.has(c + ":" + p.loc);
      if (canMove) p.el.classList.add("movable");
      // movable pawns are buttons for the keyboard too (Tab, then Enter or Space)
      p.el.setAttribute("role", canMove ? "button" : "img");
      if (canMove) p.el.setAttribute("tabindex", "0"); else p.el.removeAttribute("tabindex");
      p.el.setAttribute("aria-label", canMove ? t("{colour} pawn on {place}, can move", { colour: NAMES[c], place: pawnPlace(p.loc) }) : pawnLabel(c, p.loc));
      if (G.filter && G.filter.colour === c && G.filter.loc === p.loc) p.el.classList.add("selected");
    }
  }
  for (const m of movesShown()) {
    const b = el("button", { type: "button", "data-move": m.move, text: m.text });
    b.addEventListener("click", () => { box.querySelectorAll("button").forEach((x) => (x.disabled = true)); send({ type: "move", seq: G.state.seq, move: m.move }); });
    b.addEventListener("mouseenter", () => showTargets(m));
    b.addEventListener("focus", () => showTargets(m));
    b.addEventListener("mouseleave", clearTargets);
    box.append(b);
  }
}

function clearTargets() { const t = document.getElementById("targets"); if (t) t.innerHTML = ""; }

function showTargets(m) {
  clearTargets();
  const t = document.getElementById("targets");
  for (const [c, , to] of m.paths) {
    const [x, y] = locXY(c, to, 0);
    const r = document.createElementNS(SVGNS, "circle");
    r.setAttribute("class", "target");
    r.setAttribute("cx", x); r.setAttribute("cy", y); r.setAttribute("r", 18);
    t.append(r);
  }
}

function locXY(c, loc, slot) {
  const g = G.geo;
  if (loc === "S") return g.start[c][slot % 4];
  if (loc === "H") return g.home[c][slot % 4];
  if (loc[0] === "s") return g.safety[c][Number(loc.slice(1)) - 1];
  return g.track[Number(loc)];
}

function pawnLabel(c, loc) {
  const colour = NAMES[c];
  if (loc === "S") return t("{colour} pawn in START", { colour });
  if (loc === "H") return t("{colour} pawn at HOME", { colour });
  if (loc[0] === "s") return t("{colour} pawn on Safety Zone square {k}", { colour, k: loc.slice(1) });
  return t("{colour} pawn on square {square}", { colour, square: loc });
}

function cardName(c) { return c === "S" ? t("Sorry!") : c; }

function pawnPlace(loc) {
  if (loc === "S") return t("START");
  if (loc === "H") return t("HOME");
  if (loc[0] === "s") return t("Safety {n}", { n: loc.slice(1) });
  return loc;
}

function makePawn(c) {
  const g = document.createElementNS(SVGNS, "g");
  g.setAttribute("class", `pawn pawn-${c}`);
  g.setAttribute("role", "img");
  g.dataset.colour = c;
  const circle = document.createElementNS(SVGNS, "circle");
  circle.setAttribute("r", 13); circle.setAttribute("fill", FILL[c]);
  circle.setAttribute("stroke", DARK[c]); circle.setAttribute("stroke-width", 2);
  const t = document.createElementNS(SVGNS, "text");
  t.setAttribute("text-anchor", "middle"); t.setAttribute("dominant-baseline", "central");
  t.setAttribute("font-size", 14); t.setAttribute("font-weight", "bold"); t.setAttribute("fill", "#fff");
  t.setAttribute("font-family", "sans-serif");
  t.textContent = c;
  g.append(circle, t);
  g.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); g.dispatchEvent(new MouseEvent("click")); }
  });
  g.addEventListener("click", () => {
    const p = G.pawns[c].find((q) => q.el === g);
    G.filter = G.filter && G.filter.colour === c && G.filter.loc === p.loc ? null : { colour: c, loc: p.loc };
    renderMoves();
  });
  document.getElementById("pawn-layer").append(g);
  return g;
}

// Match pawn elements to the new locations: first along the paths of the last move (so the
// right pawn is animated), then those that did not move, then the rest.
function placePawns(pawns, paths) {
  for (const [c, locs] of Object.entries(pawns)) {
    if (!G.pawns[c]) G.pawns[c] = locs.map((loc) => ({ el: makePawn(c), loc }));
    const els = G.pawns[c];
    const remaining = [...locs];
    const assigned = new Map();
    const take = (loc) => { const i = remaining.indexOf(loc); if (i >= 0) { remaining.splice(i, 1); return true; } return false; };
    for (const [pc, from, to] of paths || []) {
      if (pc !== c) continue;
      const p = els.find((q) => !assigned.has(q) && q.loc === from);
      if (p && take(to)) assigned.set(p, to);
    }
    for (const p of els) if (!assigned.has(p) && take(p.loc)) assigned.set(p, p.loc);
    for (const p of els) if (!assigned.has(p)) assigned.set(p, remaining.shift());
    const slots = {};
    for (const p of els) {
      p.loc = assigned.get(p);
      const slot = slots[p.loc] || 0;
      slots[p.loc] = slot + 1;
      const [x, y] = locXY(c, p.loc, slot);
      p.el.setAttribute("transform", `translate(${x} ${y})`);
      p.el.style.transform = `translate(${x}px, ${y}px)`;
      p.el.dataset.loc = p.loc;
      p.el.setAttribute("aria-label", pawnLabel(c, p.loc));
    }
  }
}

function logLine(e) {
  const who = e.actor === "bot" ? t(" (bot)") : e.actor === "takeover" ? t(" (bot for player)") : "";
  const card = e.card && G.state?.view.variant !== "points" ? `[${cardName(e.card)}] ` : "";
  return `${NAMES[e.colour]}${who}: ${card}${e.text}`;
}

function renderLog() {
  const ol = $("log");
  ol.innerHTML = "";
  for (const e of G.log) {
    ol.append(el("li", { class: "c-" + e.colour, "data-seq": e.seq, text: logLine(e) }));
  }
  ol.scrollTop = ol.scrollHeight;
}

async function startReplay() {
  const data = await api(`/api/games/${G.id}/replay`);
  G.replay = data.frames;
  $("replay-prev").disabled = false;
  $("replay-next").disabled = false;
  showFrame(0);
}

function showFrame(i) {
  if (!G.replay) return;
  i = Math.max(0, Math.min(G.replay.length - 1, i));
  const prevAt = G.replayAt;
  G.replayAt = i;
  const f = G.replay[i];
  const forward = i === prevAt + 1 && f.entry;
  placePawns(f.view.pawns, forward ? f.entry.paths : []);
  $("replay-pos").textContent = `${i} / ${G.replay.length - 1}` + (f.entry ? ` — ${NAMES[f.entry.colour]}: ${f.entry.text}` : "");
  document.body.dataset.replayAt = i;
}

// ---------------------------------------------------------------------------------- start
const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]{1,32})$/);
if (match) gamePage(match[1]); else lobbyPage();
