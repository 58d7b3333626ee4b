"""The compiled game loop, written once: every game the compiled engine plays goes through
:func:`play_on` (``simulate``'s whole games, the searches' rollouts, the vector environment,
the analysis' rollouts and the learned network's games).

A game is a :class:`~sorry.fast._kernel.Table` (its scalars ``G``: who is to move, the turns
played, the winner, over), played by the policies of a :class:`~sorry.fast._kernel.Book` with
the scratch of a :class:`~sorry.fast._kernel.Work`. :func:`play_on` plays turns (the kernel's
``begin_turn``, the seat's policy, ``end_turn``) until the game is over, ``limit`` moves have
been played, or a seat whose policy is ``POLICY_OUTSIDE`` has a decision: it then stops with
that seat's moves listed in ``Work.mv`` and the caller plays its choice with :func:`play_choice`
(the vector environment's agent, the learned network).

It sits above the policies it dispatches to (:mod:`sorry.fast._policy`'s medium bot), which
sit above the kernel's rules (:mod:`sorry.fast._kernel`).
"""

from __future__ import annotations

from typing import Any

from . import _kernel as K, _policy as PO
from ._kernel import (  # read as globals: simulate's hook recompiles this module with its own
    Book,
    Ints,
    Moves,
    State,
    Table,
    Work,
    begin_turn,
    below,
    choose,
    end_turn,
    ijit,
    jit,
    pjit,
    prange,
)

#: what stopped :func:`play_on`
STOP_OVER = 0  # the game is over (won, or cut by the turn limit)
STOP_DECISION = 1  # a POLICY_OUTSIDE seat is to move: its moves are in Work.mv[:G[G_N]]
STOP_LIMIT = 2  # ``limit`` moves were played


@ijit
def decide(pol: int, T: Table, B: Book, M: Work, colour: int, n: int) -> Any:
    """The move policy ``pol`` picks for ``colour`` among M.mv[:n] (its stream: rng[1 + colour])."""
    if pol == K.POLICY_RANDOM:
        return below(T.rng, 1 + colour, n)
    if pol == K.POLICY_MEDIUM:
        return PO.medium(T.S, B, M, colour, n, T.rng, 1 + colour, T.hands[colour])
    return choose(pol, T.S, B.slide, B.P, colour, M.mv, n, T.rng, M.W)


@ijit
def play_on(T: Table, B: Book, M: Work, limit: int) -> int:
    """Play the game on from T.G (the colour to move, the turns played) until it is over
    (STOP_OVER), a POLICY_OUTSIDE seat has a decision (STOP_DECISION: its moves listed in M.mv,
    G[G_N] of them, the card in G[G_CARD]) or ``limit`` moves were played (STOP_LIMIT; -1: no
    limit). M.trace[t] = (card, moves listed, choice) of move t while t < len(M.trace)."""
    G = T.G
    trace = M.trace
    to_move = G[K.G_TO_MOVE]
    turn = G[K.G_TURN]
    ntrace = trace.shape[0]
    played = 0
    while True:
        if played == limit:
            G[K.G_TO_MOVE] = to_move
            G[K.G_TURN] = turn
            return STOP_LIMIT
        card, n = begin_turn(T, B, M, to_move)
        pol = B.pols[to_move]
        if pol == K.POLICY_OUTSIDE:
            G[K.G_TO_MOVE] = to_move
            G[K.G_TURN] = turn
            G[K.G_N] = n
            G[K.G_CARD] = card
            return STOP_DECISION
        idx = decide(pol, T, B, M, to_move, n)
        if turn < ntrace:
            trace[turn, 0] = M.mv[idx, K.M_CARD]
            trace[turn, 1] = n
            trace[turn, 2] = idx
        mover = to_move
        to_move, turn, winner, over = end_turn(T, B, to_move, turn, M.mv, idx)
        played += 1
        if over:
            over_at(G, mover, turn, winner)
            return STOP_OVER


@ijit
def over_at(G: Ints, mover: int, turn: int, winner: int) -> None:
    """G of a game that is over: the colour that moved last, the turns, the winner."""
    G[K.G_TO_MOVE] = mover
    G[K.G_TURN] = turn
    G[K.G_WINNER] = winner
    G[K.G_OVER] = 1
    G[K.G_N] = 0
    G[K.G_CARD] = 0


@ijit
def play_choice(T: Table, B: Book, mv: Moves, idx: int) -> bool:
    """Play move ``idx`` of mv, decided outside the loop, for the colour to move (T.G) and end
    its turn; returns whether the game is over."""
    G = T.G
    mover = G[K.G_TO_MOVE]
    to_move, turn, winner, over = end_turn(T, B, mover, G[K.G_TURN], mv, idx)
    if over:
        over_at(G, mover, turn, winner)
    else:
        G[K.G_TO_MOVE] = to_move
        G[K.G_TURN] = turn
    return bool(over)


@jit
def play_game(seed: Any, T: Table, B: Book, M: Work, out: Ints, final: State) -> None:
    """Play one game from ``seed`` (as Game(rules, players, seed)) to its end, colour c playing
    B.pols[c]: out = [winner colour or -1, turns, first colour, decisions, score R, B, Y, G];
    final = the state at the end (``_kernel.finish_game``); M.trace: its first moves. rng[0]
    is the deck's stream (Rng(seed)); rng[1 + c] is the policy stream of colour c, seeded with
    derive_seed(seed, 1000 + c) as in sorry.sim (see policy_seed)."""
    K.new_game(seed, T, B)
    play_on(T, B, M, -1)
    K.finish_game(T, B, out, final)


@pjit
def play_batch(seeds: Ints, B: Book, nchunks: int, trace: Ints, out: Ints, final: Any) -> None:
    """Play game k from seeds[k] for every k, in ``nchunks`` parallel chunks; trace is game
    0's."""
    ngames = seeds.shape[0]
    P, slide, cols, after, pols, hitm, E = B  # the chunks' Books are built from the arrays
    for ch in prange(nchunks):
        lo = ngames * ch // nchunks
        hi = ngames * (ch + 1) // nchunks
        Bc = Book(P, slide, cols, after, pols, hitm, E)
        T = K.new_table()
        M = K.new_work()
        for g in range(lo, hi):
            play_game(seeds[g], T, Bc, K.with_trace(M, trace) if g == 0 else M, out[g], final[g])


__all__ = ["STOP_DECISION", "STOP_LIMIT", "STOP_OVER", "decide", "play_choice", "play_on"]
