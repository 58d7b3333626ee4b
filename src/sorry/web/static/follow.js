// @ts-check
// The page follows the game on a small screen: at the start, and when the turn comes to the
// player, the turn banner and the board come into view if the player had scrolled away (to
// the waiting room's panels, the chat, the log); where the panels beside the board scroll by
// themselves (a landscape phone, a desktop), the panel of the turn (the prompt, the hand in
// the points variant, the buttons) comes into view there too. Never while they type.

const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Are the turn banner and most of the board on screen? */
export function boardInView() {
  const board = document.querySelector("#board svg");
  const banner = document.getElementById("banner");
  if (!board || !banner) return true;
  const r = board.getBoundingClientRect();
  const seen = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
  const b = banner.getBoundingClientRect();
  return seen >= 0.8 * Math.min(r.height, window.innerHeight) && b.top >= 0 && b.bottom <= window.innerHeight;
}

/** Is the panel of the turn (#actions) on screen in the column beside the board, when that
 * column scrolls by itself (true when it does not, or the panel is hidden)? */
export function actionsInView() {
  const side = document.getElementById("side");
  const actions = document.getElementById("actions");
  if (!side || !actions || actions.hidden || side.scrollHeight <= side.clientHeight + 1) return true;
  const s = side.getBoundingClientRect();
  const a = actions.getBoundingClientRect();
  return a.top >= s.top - 1 && Math.min(a.bottom, a.top + s.height) <= s.bottom + 1;
}

/** Bring the banner and the board into view (unless they are, or the player is typing), and
 * in a column that scrolls beside the board, the panel of the turn. */
export function bringBoardIntoView() {
  const active = document.activeElement;
  if (active && active.matches("input:not([type=checkbox]):not([type=range]), textarea, select")) return;
  const behavior = reduced() ? "auto" : "smooth";
  if (!actionsInView()) {
    const side = /** @type {HTMLElement} */ (document.getElementById("side"));
    const actions = /** @type {HTMLElement} */ (document.getElementById("actions"));
    const top = side.scrollTop + actions.getBoundingClientRect().top - side.getBoundingClientRect().top;
    side.scrollTo({ top: Math.max(0, top - 4), behavior });
  }
  if (boardInView()) return;
  const banner = document.getElementById("banner");
  if (banner) banner.scrollIntoView({ block: "start", behavior });
}
