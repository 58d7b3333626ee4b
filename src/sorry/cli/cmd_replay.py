"""``sorry replay FILE``: step through a recorded game in the terminal.

Interactive commands (one per line): ``n`` or Enter next turn, ``p`` previous turn, ``j N`` jump
to turn N, ``f``/``l`` first/last turn, ``b`` the full board, ``q`` quit, ``h`` help.
``--to N`` prints turn N and exits, ``--print`` prints every turn (for scripts and tests).
Turn N is the game after N moves (passes and discards count as moves; in the points variant
with the hand refilled after it, and turn 0 shows the deal).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from ..board import COLOUR_LETTERS, HOME, SAFE_BASE, START, TRACK_LEN, colour_name
from ..cards import card_name, parse_card
from ..describe import describe
from ..errors import SorryError
from ..i18n import N_, _
from ..position import Position
from ..record import GameRecord, Step
from . import CliError

HELP = N_("n/Enter next · p previous · j N jump to turn N · f first · l last · b board · q quit")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help=_("step through a recorded game (forward, back, jump to a turn)"),
        description=_("Step through a game record turn by turn. {keys}.").format(keys=_(HELP)),
    )
    p.add_argument("file", metavar="FILE", help=_("a game record (sorry record / play --save)"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--to", type=int, metavar="N", help=_("print turn N and exit"))
    mode.add_argument("--print", action="store_true", help=_("print every turn and exit"))
    p.add_argument("--board", action="store_true", help=_("draw the full board at each turn"))
    p.add_argument(
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help=_("ANSI colours on the full board (default: on a terminal unless NO_COLOR is set)"),
    )
    p.set_defaults(func=run)


@dataclass(frozen=True, slots=True)
class Frame:
    """The game after ``turn`` moves: what happened last and what the table looks like."""

    turn: int
    events: tuple[Step, ...]  # the draws and the move that led here
    position: str
    hands: tuple[tuple[int, tuple[int, ...]], ...]  # points: each colour's hand
    draw_count: int
    discard_count: int
    result: str | None  # at the end
    said: tuple[str, ...] = ()  # each move of ``events`` as a sentence


def frames(record: GameRecord) -> list[Frame]:
    """Frame 0 (the start) and one frame after each move."""
    game = record.start()
    out: list[Frame] = []
    pending: list[Step] = []
    said: list[str] = []

    def snap() -> None:
        hands = tuple((c, tuple(game.hands[c])) for c in game.colours) if game.rules.points else ()
        out.append(
            Frame(
                game.turn,
                tuple(pending),
                game.position_string(),
                hands,
                len(game.draw_pile),
                len(game.discard_pile),
                None,
                tuple(said),
            )
        )
        pending.clear()
        said.clear()

    # Standard and teams: a frame right after each move, so the card drawn for a move shows
    # with it. Points: after each move and the refill that follows it (frame 0: the deal).
    points = record.rules.points
    due = points
    if not points:
        snap()
    for n, step in enumerate(record.steps, 1):
        if due and step.move is not None:
            snap()
            due = False
        try:
            if step.resign:  # shown with the next move (or with the last one, at the end)
                colour = COLOUR_LETTERS.index(step.colour)
                game.resign(colour)
                said.append(_("{colour} resigns").format(colour=colour_name(colour)))
            elif step.draw is not None:
                game.draw(parse_card(step.draw))
            else:
                assert step.move is not None
                said.append(describe(game, game.listed_move(step.move)))
                game.push(step.move)
        except SorryError as exc:
            raise CliError(
                _("step {n} ({step}) cannot be re-played: {error} (see sorry verify)").format(
                    n=n, step=step, error=exc
                )
            ) from None
        pending.append(step)
        if step.move is not None:
            if points:
                due = True
            else:
                snap()
    if not due and out and any(s.resign for s in pending):  # the game ended resigned
        before = out.pop()
        pending[:0] = before.events
        said[:0] = before.said
        snap()
    if due or not out:
        snap()
    last = out[-1]
    end = record.result.describe() if game.is_over() else None
    out[-1] = Frame(
        last.turn,
        last.events,
        last.position,
        last.hands,
        last.draw_count,
        last.discard_count,
        end,
        last.said,
    )
    return out


def compact_board(position: str | Position) -> str:
    """The track on one line (a letter per pawn, ``.`` for an empty square, ``|`` between the
    sides) and START, Safety Zone and HOME per colour on another.

    >>> print(compact_board("R:S,S,4,s2 Y:12,33,40,H R"))
        0              15              30              45
    [....R.......Y..|...............|...Y......Y....|...............]
    R S2 .R... H0  Y S0 ..... H1
    """
    pos = Position.parse(position) if isinstance(position, str) else position
    track = ["."] * TRACK_LEN
    zones = []
    for c, locs in enumerate(pos.pawns):
        if locs is None:
            continue
        letter = COLOUR_LETTERS[c]
        zone = ["."] * 5
        for loc in locs:
            if loc < TRACK_LEN:
                track[loc] = letter
            elif SAFE_BASE < loc < HOME:
                zone[loc - SAFE_BASE - 1] = letter
        zones.append(f"{letter} S{locs.count(START)} {''.join(zone)} H{locs.count(HOME)}")
    sides = "|".join("".join(track[15 * s : 15 * s + 15]) for s in range(4))
    ruler = "    0              15              30              45"
    return f"{ruler}\n[{sides}]\n" + "  ".join(zones)


def show(frame: Frame, total: int, full_board: bool, colour: bool) -> str:
    lines = [_("Turn {turn}/{total}").format(turn=frame.turn, total=total)]
    by: dict[str, list[str]] = {}  # consecutive draws, by colour
    said = iter(frame.said)
    for s in (*frame.events, None):
        if s is not None and s.draw is not None:
            by.setdefault(s.colour, []).append(s.draw)
            continue
        if by:
            drawn = "  ".join(f"{c} {','.join(v)}" for c, v in by.items())
            lines.append("  " + _("drawn: {cards}").format(cards=drawn))
            by = {}
        if s is not None:
            words = next(said, "")
            notation = f"resign:{s.colour}" if s.resign else s.move
            lines.append("  " + _("{move} [{notation}]").format(move=words, notation=notation))
    lines.append(f"  {frame.position}")
    if full_board:
        from ..textboard import render

        lines.append(render(frame.position, colour=colour))
    else:
        lines.append(compact_board(frame.position))
    if frame.hands:
        hands = "  ".join(
            f"{COLOUR_LETTERS[c]} {','.join(card_name(x) for x in h) or '-'}"
            for c, h in frame.hands
        )
        lines.append("  " + _("hands: {hands}").format(hands=hands))
    lines.append(
        "  "
        + _("draw pile {draw} · discards {discards}").format(
            draw=frame.draw_count, discards=frame.discard_count
        )
    )
    if frame.result:
        lines.append("  " + _("End: {result}").format(result=frame.result))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    record = GameRecord.load(args.file)
    all_frames = frames(record)
    total = len(all_frames) - 1
    colour = args.colour == "always" or (
        args.colour == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )

    def out(k: int) -> None:
        print(show(all_frames[k], total, args.board, colour), flush=True)

    if args.to is not None:
        if not 0 <= args.to <= total:
            raise CliError(
                _("turn {turn} is not in this game (turns 0 to {total})").format(
                    turn=args.to, total=total
                )
            )
        out(args.to)
        return 0
    if args.print:
        for k in range(total + 1):
            if k:
                print()
            out(k)
        return 0
    return interact(all_frames, total, args.board, colour)


def interact(all_frames: list[Frame], total: int, board: bool, colour: bool) -> int:
    k = 0
    print(_(HELP))
    print(show(all_frames[k], total, board, colour))
    while True:
        try:
            line = input("replay> " if sys.stdin.isatty() else "")
        except EOFError:
            return 0
        words = line.strip().lower().split()
        cmd = words[0] if words else "n"
        if cmd in ("q", "quit", "exit"):
            return 0
        if cmd in ("h", "help", "?"):
            print(_(HELP))
            continue
        if cmd in ("n", "next"):
            if k == total:
                print(_("(the last turn)"))
                continue
            k += 1
        elif cmd in ("p", "prev", "back"):
            if k == 0:
                print(_("(the start)"))
                continue
            k -= 1
        elif cmd in ("f", "first"):
            k = 0
        elif cmd in ("l", "last"):
            k = total
        elif cmd == "b":
            board = not board
        elif cmd in ("j", "jump") or cmd.isdigit():
            arg = words[1] if cmd in ("j", "jump") and len(words) > 1 else cmd
            if not arg.isdigit() or not 0 <= int(arg) <= total:
                print(_("jump to which turn? j N with N from 0 to {total}").format(total=total))
                continue
            k = int(arg)
        else:
            print(
                _("unknown command {command!r}: {keys}").format(command=line.strip(), keys=_(HELP))
            )
            continue
        print(show(all_frames[k], total, board, colour))
