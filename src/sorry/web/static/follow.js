// @ts-check
// The page follows the game on a small screen: at the start, and when the turn comes to the
// player, the turn banner and the board come into view if the player had scrolled away (to
// the waiting room's panels, the chat, the log). Never while they type.

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

/** Bring the banner and the board into view (unless they are, or the player is typing). */
export function bringBoardIntoView() {
  const active = document.activeElement;
  if (active && active.matches("input:not([type=checkbox]):not([type=range]), textarea, select")) return;
  if (boardInView()) return;
  const banner = document.getElementById("banner");
  if (banner) banner.scrollIntoView({ block: "start", behavior: reduced() ? "auto" : "smooth" });
}
