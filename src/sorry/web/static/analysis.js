// @ts-check
// After the game (docs/analysis.md): the win-probability graph and the luck/skill table, for
// players and spectators alike. The server computes the analysis once per finished game and
// sends its numbers with the words in the page's language (GET /api/games/{id}/analysis;
// 202 with the progress while it works: the server holds each ask up to WAIT seconds and
// answers the moment the analysis is ready, and the page asks again at once); the page asks
// when the panel comes near the screen. The graph is drawn here, at the panel's width:
// point at a turn (or move along it with the arrow keys) to see its card and move and
// everyone's chances after it; click or tap it (Enter) to see it in the replay.

import { t, colourName, series, LANG } from "./i18n.js";
import { el } from "./panels.js";

const SVG = "http://www.w3.org/2000/svg";
/** The least time between two asks while the server works (ms). */
const POLL = 1500;
/** How long the server may hold an ask while it works (s): it answers as soon as it is done. */
const WAIT = 5;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 * @returns {SVGElement}
 */
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** @param {number} v a probability @returns {string} */
const pct = (v) => `${Math.round(v * 100)}%`;
/** @param {number} v a change of probability @returns {string} signed points */
function points(v) {
  const p = Math.round(v * 1000) / 10;
  return p === 0 ? "0.0" : (p > 0 ? "+" : "−") + Math.abs(p).toFixed(1);
}
/** The half-width of a 95% interval in points ("" when there is no uncertainty).
 * @param {number | undefined} se a standard error @returns {string} */
function interval(se) {
  return se ? "±" + (1.959964 * se * 100).toFixed(1) : "";
}
/** A table cell: a total and, under it, its 95% interval.
 * @param {number} v @param {number | undefined} se */
function cell(v, se) {
  const td = el("td", {}, el("span", { class: "ag-num", text: points(v) }));
  const half = interval(se);
  if (half) td.append(el("br"), el("span", { class: "ag-se", text: half }));
  return td;
}

/**
 * The end screen's analysis panel: created once per game page, updated on every render.
 */
export class EndAnalysis {
  /**
   * @param {string} gameId
   * @param {(frame: number) => void} jump opens the replay at a frame (frame i: after move i)
   */
  constructor(gameId, jump) {
    this.gameId = gameId;
    this.jump = jump;
    /** @type {any} the server's analysis */
    this.data = null;
    /** "idle" | "waiting" (for the panel to come into view) | "loading" | "ready" | "failed" */
    this.state = "idle";
    /** @type {number | null} the turn under the pointer or the keyboard's cursor (0-based) */
    this.cursor = null;
    /** @type {number | null} the replay's frame */
    this.replayAt = null;
    this.width = 0;
    this.status = el("p", { id: "analysis-status", class: "ag-status", role: "status" });
    this.graph = el("div", { id: "analysis-graph", class: "ag-graph" });
    this.turnText = el("p", { id: "analysis-turn", class: "ag-turn", "aria-live": "polite" });
    // said for the input at hand: a finger taps, a mouse points and clicks
    const hint = matchMedia("(pointer: coarse)").matches
      ? t("Tap a turn to see its card and move in the replay.")
      : t("Point at a turn to see its card and move; click it to see it in the replay.");
    this.turnText.append(el("span", { class: "ag-hint", text: hint }));
    this.legend = el("ul", { class: "ag-legend" });
    this.swings = el("ol", { id: "analysis-swings", class: "ag-swings" });
    this.swingsNote = el("p", { id: "analysis-swings-note", class: "ag-note" });
    this.draws = el("ol", { id: "analysis-draws", class: "ag-swings" });
    this.table = el("table", { id: "analysis-table", class: "ag-table" });
    this.words = el("ul", { id: "analysis-words", class: "ag-words" });
    this.method = el("div", { class: "ag-method" });
    this.body = el(
      "div",
      { class: "ag-body", hidden: true },
      el("h3", { text: t("Win probability over the game") }),
      this.graph,
      this.legend,
      this.turnText,
      el("div", { class: "ag-table-wrap" }, this.table),
      el("p", { class: "ag-note", text: t("±: the estimate's interval at 95%") }),
      this.words,
      el("h3", { text: t("Decisions that mattered") }),
      this.swings,
      this.swingsNote,
      el("h3", { text: t("The luckiest and unluckiest draws") }),
      this.draws,
      el("details", { class: "ag-how" }, el("summary", { text: t("How is this worked out?") }), this.method),
    );
    this.panel = el(
      "section",
      { id: "analysis-panel", class: "panel", hidden: true, "aria-labelledby": "analysis-title" },
      el("h2", { id: "analysis-title", text: t("After the game") }),
      this.status,
      this.body,
    );
    // under the end of the game and the replay's controls, above the players and the chat
    const after = document.getElementById("replay-panel") || document.getElementById("over-panel");
    if (after) after.after(this.panel);
    new ResizeObserver(() => {
      if (this.data && this.graph.clientWidth !== this.width) this.drawGraph();
    }).observe(this.graph);
  }

  /**
   * On every render of the page.
   * @param {boolean} over the game is over
   * @param {number | null} replayAt the replay's frame, if the replay is open
   */
  update(over, replayAt) {
    this.panel.hidden = !over;
    if (!over) return;
    if (this.state === "idle") {
      // asked for once the panel comes near the screen: the server works only for readers
      this.state = "waiting";
      const seen = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            seen.disconnect();
            this.load();
          }
        },
        { rootMargin: "0px 0px 50% 0px" },
      );
      seen.observe(this.panel);
    }
    if (replayAt !== this.replayAt) {
      this.replayAt = replayAt;
      this.drawMarkers();
    }
    document.body.dataset.analysis = this.state;
  }

  async load() {
    this.state = "loading";
    if (!this.status.textContent) this.status.textContent = t("Analysing the game…");
    let r;
    const asked = Date.now();
    try {
      r = await fetch(`/api/games/${this.gameId}/analysis?lang=${encodeURIComponent(LANG)}&wait=${WAIT}`);
    } catch {
      window.setTimeout(() => this.load(), 4 * POLL);
      return;
    }
    const body = await r.json().catch(() => ({ error: r.statusText }));
    if (r.status === 202 || r.status === 429) {
      if (body.total) this.status.textContent = t("Analysing the game: turn {done} of {total}…", { done: body.done, total: body.total });
      // a held ask comes back after WAIT seconds: ask again at once (a quick answer: after POLL)
      const again = r.status === 429 ? 4 * POLL : Math.max(0, POLL - (Date.now() - asked));
      window.setTimeout(() => this.load(), again);
      return;
    }
    if (!r.ok) {
      this.state = "failed";
      this.status.textContent = t("The analysis is not available: {reason}", { reason: t(body.error || r.statusText) });
      document.body.dataset.analysis = this.state;
      return;
    }
    this.data = body;
    this.state = "ready";
    this.status.textContent = "";
    this.status.hidden = true;
    this.body.hidden = false;
    this.drawLegend();
    this.drawSwings();
    this.drawTable();
    this.drawMethod();
    this.drawGraph();
    document.body.dataset.analysis = this.state;
  }

  /** The sides' names: a colour, or a team ("Red and Yellow"). @param {string[]} side */
  sideName(side) {
    return series(side.map((c) => colourName(c)));
  }

  /** The level of the bot every move is measured against, in the page's language. */
  referenceName() {
    return t(this.data.estimator.reference || this.data.estimator.policy);
  }

  // ---------------------------------------------------------------------------- the graph
  drawGraph() {
    const d = this.data;
    const w = Math.max(260, Math.round(this.graph.clientWidth || 340));
    this.width = this.graph.clientWidth;
    const h = w < 480 ? 180 : 220;
    // room above 100% for a luckiest draw's ▲ there, below 0% for an unluckiest ▼ (and the turns)
    const m = { left: 36, right: 8, top: 16, bottom: 24 };
    const pw = w - m.left - m.right;
    const ph = h - m.top - m.bottom;
    const turns = Math.max(1, d.result.turns);
    /** @param {number} x a turn (fractions: after the draw) */
    const X = (x) => m.left + (pw * x) / turns;
    /** @param {number} p */
    const Y = (p) => m.top + ph * (1 - p);
    this.geom = { X, Y, m, pw, ph, turns, w, h };
    const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "ag-svg", role: "slider", tabindex: 0 });
    root.setAttribute("aria-label", t("Win probability over the game"));
    root.setAttribute("aria-valuemin", "1");
    root.setAttribute("aria-valuemax", String(turns));
    // a slider has a value from the start (axe: aria-required-attr): the turn pointed at, else
    // the first, where the arrow keys begin
    root.setAttribute("aria-valuenow", String(this.cursor !== null ? this.cursor + 1 : 1));
    for (const q of [0, 0.25, 0.5, 0.75, 1]) {
      root.append(svg("line", { x1: m.left, x2: w - m.right, y1: Y(q), y2: Y(q), class: q === 0 || q === 1 ? "ag-grid" : "ag-grid mid" }));
      if (q !== 0.25 && q !== 0.75) root.append(svg("text", { x: m.left - 4, y: Y(q) + 4, class: "ag-axis", "text-anchor": "end" }, pct(q)));
    }
    const step = [5, 10, 20, 25, 50, 100, 200, 500].find((s) => turns / s <= Math.max(3, Math.floor(pw / 55))) || 1000;
    for (let x = 0; x <= turns; x += step) {
      root.append(svg("line", { x1: X(x), x2: X(x), y1: m.top + ph, y2: m.top + ph + 4, class: "ag-grid" }));
      root.append(svg("text", { x: X(x), y: h - 6, class: "ag-axis", "text-anchor": "middle" }, String(x)));
    }
    for (const side of d.sides) {
      const c = side[0];
      const pts = d.points.map((/** @type {any} */ p) => `${X(p.turn + (p.kind === "draw" ? 0.5 : 0)).toFixed(1)},${Y(p.values[c]).toFixed(1)}`);
      root.append(svg("polyline", { points: pts.join(" "), class: `ag-line ${c}`, "data-side": c }));
    }
    for (const mk of d.marks) {
      const x = X(mk.x);
      const y = Y(mk.y);
      if (mk.kind === "mistake" || mk.kind === "blunder") {
        root.append(svg("circle", { cx: x, cy: y, r: mk.kind === "blunder" ? 5 : 4, class: `ag-mark ag-${mk.kind}`, "data-step": mk.step }));
      } else {
        const s = mk.kind === "luckiest" ? 1 : -1;
        const cy = y - 9 * s;
        const corners = `${x},${cy - 6 * s} ${x - 5.5},${cy + 4 * s} ${x + 5.5},${cy + 4 * s}`;
        root.append(svg("polygon", { points: corners, class: `ag-mark ag-luck ${mk.colour}`, "data-step": mk.step }));
      }
    }
    this.cursorLine = svg("line", { y1: m.top, y2: m.top + ph, class: "ag-cursor", visibility: "hidden" });
    this.replayLine = svg("line", { y1: m.top, y2: m.top + ph, class: "ag-replay", visibility: "hidden" });
    root.append(this.cursorLine, this.replayLine);
    // one strip over the plot catches the pointer; the turn is read from its x
    const hit = svg("rect", { x: m.left, y: m.top, width: pw, height: ph, class: "ag-hit" });
    root.append(hit);
    /** @param {PointerEvent | MouseEvent} ev */
    const turnAt = (ev) => {
      const r = root.getBoundingClientRect();
      const x = ((ev.clientX - r.left) * w) / Math.max(1, r.width);
      return Math.max(0, Math.min(turns - 1, Math.floor(((x - m.left) / pw) * turns)));
    };
    hit.addEventListener("pointermove", (ev) => this.point(turnAt(/** @type {PointerEvent} */ (ev))));
    hit.addEventListener("click", (ev) => this.open(turnAt(/** @type {MouseEvent} */ (ev))));
    root.addEventListener("keydown", (ev) => {
      const e = /** @type {KeyboardEvent} */ (ev);
      const at = this.cursor ?? (this.replayAt !== null ? this.replayAt - 1 : -1);
      const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
      if (e.key in moves) this.point(Math.max(0, Math.min(turns - 1, at + moves[/** @type {keyof typeof moves} */ (e.key)])));
      else if (e.key === "Home") this.point(0);
      else if (e.key === "End") this.point(turns - 1);
      else if ((e.key === "Enter" || e.key === " ") && this.cursor !== null) this.open(this.cursor);
      else return;
      e.preventDefault();
    });
    this.graph.replaceChildren(root);
    this.svgRoot = root;
    this.drawMarkers();
  }

  /** The cursor and the replay's position on the graph. */
  drawMarkers() {
    const g = this.geom;
    if (!g || !this.cursorLine || !this.replayLine) return;
    const show = (/** @type {SVGElement} */ line, /** @type {number | null} */ x) => {
      line.setAttribute("visibility", x === null ? "hidden" : "visible");
      if (x !== null) {
        line.setAttribute("x1", String(g.X(x)));
        line.setAttribute("x2", String(g.X(x)));
      }
    };
    show(this.cursorLine, this.cursor === null ? null : this.cursor + 1);
    show(this.replayLine, this.replayAt);
  }

  /** Show turn ``turn`` (0-based): its card and move, and the chances after it. @param {number} turn */
  point(turn) {
    const d = this.data;
    if (!d) return;
    this.cursor = turn;
    const item = d.turns.find((/** @type {any} */ x) => x.turn === turn);
    const after = d.points.find((/** @type {any} */ p) => p.kind === "move" && p.turn === turn + 1) || d.points[d.points.length - 1];
    const chances = d.sides.map((/** @type {string[]} */ s) => t("{side} {chance}", { side: this.sideName(s), chance: pct(after.values[s[0]]) })).join(" · ");
    const text = t("Turn {turn}: {what}", { turn: turn + 1, what: item ? item.text : "" });
    this.turnText.replaceChildren(el("span", { text }), el("br"), el("span", { class: "ag-chances", text: chances }));
    this.turnText.dataset.turn = String(turn + 1);
    if (this.svgRoot) {
      this.svgRoot.setAttribute("aria-valuenow", String(turn + 1));
      this.svgRoot.setAttribute("aria-valuetext", text);
    }
    this.drawMarkers();
  }

  /** Open the replay at the position after turn ``turn``'s move. @param {number} turn */
  open(turn) {
    this.point(turn);
    this.jump(turn + 1);
  }

  // ---------------------------------------------------------------------------- the words
  drawLegend() {
    const d = this.data;
    const items = d.sides.map((/** @type {string[]} */ s) => el("li", { class: `ag-key ag-key-line ${s[0]}`, text: this.sideName(s) }));
    items.push(
      el("li", { class: "ag-key ag-key-mistake", text: t("mistake") }),
      el("li", { class: "ag-key ag-key-blunder", text: t("blunder") }),
      el("li", { class: "ag-key", text: "▲ " + t("luckiest draw") }),
      el("li", { class: "ag-key", text: "▼ " + t("unluckiest draw") }),
    );
    this.legend.replaceChildren(...items);
  }

  drawSwings() {
    const d = this.data;
    /** @param {any[]} items */
    const buttons = (items) =>
      items.map((/** @type {any} */ s) =>
        el("li", {}, el("button", { type: "button", class: "ag-swing", "data-turn": s.turn + 1, text: s.short || s.text, onclick: () => this.open(s.turn) })),
      );
    this.swings.replaceChildren(...buttons(d.key_decisions.slice(0, 3)));
    // a decision here is worth what it changed against the reference bot's move; the table's
    // mistakes count what a move lost against the best move: two numbers for one move
    this.swingsNote.hidden = !d.key_decisions.length;
    this.swingsNote.textContent = t("Each against the move the {policy} bot would have made; mistakes and blunders count what a move lost against the best move.", { policy: this.referenceName() });
    this.draws.replaceChildren(...buttons(d.luckiest_draws.slice(0, 2).concat(d.unluckiest_draws.slice(0, 2))));
    this.words.replaceChildren(...d.players.flatMap((/** @type {any} */ p) => p.words.map((/** @type {string} */ w) => el("li", { text: w }))));
  }

  drawTable() {
    const d = this.data;
    const head = el(
      "tr",
      {},
      el("th", { scope: "col", text: t("player") }),
      el("th", { scope: "col", text: t("luck") }),
      el("th", { scope: "col", text: t("own moves") }),
      el("th", { scope: "col", text: t("others' moves") }),
      el("th", { scope: "col", text: t("accuracy") }),
      // the three counts of the column, in the order of its cells
      el("th", { scope: "col", class: "ag-errors", text: t("inaccuracies · mistakes · blunders") }),
    );
    const rows = d.players.map((/** @type {any} */ p) =>
      el(
        "tr",
        { "data-colour": p.colour },
        el("th", { scope: "row", class: `ag-who ${p.colour}`, text: p.label }),
        cell(p.luck, p.luck_se),
        cell(p.own_decisions, p.own_decisions_se),
        cell(p.others_decisions, p.others_decisions_se),
        el("td", { text: p.accuracy === null ? "–" : pct(p.accuracy) }),
        el("td", { text: `${p.inaccuracies} · ${p.mistakes} · ${p.blunders}`, title: t("inaccuracies, mistakes, blunders") }),
      ),
    );
    this.table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  }

  drawMethod() {
    const d = this.data;
    const limits = Object.entries(d.thresholds)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map(([name, v]) => t("{label} from {points}", { label: t(name), points: String(Math.round(Number(v) * 100)) }))
      .join(", ");
    this.method.replaceChildren(
      el("p", { text: t("Luck: what the cards did, against the average card that could have come. Moves: every move against the move the {policy} bot would have made, a player's own moves and the others' apart. Start + luck + own moves + others' moves = the result (win 100%, loss 0%), for every player.", { policy: this.referenceName() }) }),
      el("p", { text: d.method }),
      el("p", { text: t("Thresholds (points of win probability lost): {limits}.", { limits }) }),
    );
  }
}
