// @ts-check
// The chat next to the board where the screen has no room for it beside the board (a phone,
// upright or on its side; a tablet held upright): a "Chat" button in the turn banner opens
// the chat as a drawer over the page, with the number of messages that came while it was
// closed; opening it clears the number. Where the chat has its place beside the board (a
// wide screen) the page is as before. The layout is chat_drawer.css's; NARROW is its query.

import { $, el } from "./panels.js";
import { t, tn } from "./i18n.js";

const NARROW = "(orientation: portrait), (max-height: 500px)";

const state = { open: false, unread: 0 };

/** Is the chat a drawer here (the screen's shape), rather than a panel beside the board? */
export function chatIsDrawer() {
  return matchMedia(NARROW).matches;
}

/** A speech bubble (the button's word shows only where there is room for it). */
function bubble() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "icon");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z");
  svg.append(path);
  return svg;
}

/** The button's words and number. */
function show() {
  const button = $("chat-open");
  const badge = $("chat-badge");
  badge.textContent = state.unread > 99 ? "99+" : String(state.unread);
  badge.hidden = state.unread === 0;
  button.setAttribute("aria-expanded", state.open ? "true" : "false");
  // what a screen reader says (the word and the number seen are hidden from it)
  $("chat-said").textContent = state.unread ? tn("Chat: {n} new message", "Chat: {n} new messages", state.unread) : t("Chat");
  $("chat-panel").classList.toggle("open", state.open);
  $("chat-backdrop").hidden = !state.open;
  document.body.dataset.chatUnread = String(state.unread);
  document.body.dataset.chatOpen = state.open ? "yes" : "no";
}

function open() {
  state.open = true;
  state.unread = 0;
  $("chat-peek").textContent = "";
  show();
  const input = /** @type {HTMLInputElement} */ ($("chat-input"));
  const form = $("chat-form");
  // the message field if the chat is on, else the log (it takes the focus: tabindex 0)
  (form.hidden ? $("chat-log") : input).focus({ preventScroll: true });
}

/** @param {boolean} [refocus] the focus back to the button (closed by a key or the close button) */
function close(refocus = true) {
  if (!state.open) return;
  state.open = false;
  show();
  if (refocus && chatIsDrawer()) $("chat-open").focus({ preventScroll: true });
}

/**
 * A chat message came: counted while the drawer is closed (and is a drawer).
 * @param {boolean} counts someone else's message, not muted
 */
export function chatArrived(counts) {
  if (!counts || state.open || !chatIsDrawer() || !document.getElementById("chat-open")) return;
  state.unread += 1;
  show();
}

/** The button in the banner, the close button in the chat, the backdrop. */
export function initChatDrawer() {
  const button = el(
    "button",
    { id: "chat-open", type: "button", class: "chat-open", "aria-controls": "chat-panel", "aria-expanded": "false", onclick: () => (state.open ? close() : open()) },
    bubble(),
    el("span", { class: "chat-word", "aria-hidden": "true", text: t("Chat") }),
    el("span", { id: "chat-badge", class: "chat-badge", "aria-hidden": "true", hidden: true }),
    el("span", { id: "chat-peek", class: "chat-peek", "aria-hidden": "true" }),
    el("span", { id: "chat-said", class: "sr-only" }),
  );
  $("status-line").after(button);
  const panel = $("chat-panel");
  panel.prepend(el("button", { type: "button", class: "chat-close", "aria-label": t("Close the chat"), text: "×", onclick: () => close() }));
  const backdrop = el("div", { id: "chat-backdrop", class: "chat-backdrop", hidden: true, onclick: () => close(false) });
  panel.after(backdrop);
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && state.open) {
      ev.stopPropagation();
      close();
    }
  });
  // a reaction (shown a moment above the chat, main.js) seen on the button while the drawer
  // is closed: its emoji, for as long as it is shown (screen readers hear it from main.js)
  const reaction = document.getElementById("reaction");
  if (reaction) {
    new MutationObserver(() => {
      const text = reaction.textContent || "";
      $("chat-peek").textContent = state.open ? "" : text.split(" ").pop() || "";
    }).observe(reaction, { childList: true, characterData: true, subtree: true });
  }
  // turned to a shape where the chat has its place: no drawer left open over it
  matchMedia(NARROW).addEventListener("change", () => {
    if (!chatIsDrawer()) close(false);
  });
  show();
}
