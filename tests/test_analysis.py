"""The after-game analysis (sorry.analysis): the account adds up exactly in every variant, each
term means what docs/analysis.md says, decisions in the points variant are judged from the
decider's view, and bad input is refused as `sorry verify` would."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from analysis_helpers import NONCE, record, replace_step
from engine_helpers import play_out
from sorry import Game, Rules
from sorry.analysis import (
    THRESHOLDS,
    Analysis,
    AnalysisError,
    PlayoutEstimator,
    analyse,
    label_of,
)
from sorry.analysis.account import REFINE_FROM, ZEROS, Decision, Option
from sorry.analysis.calibration import ProgressEstimator, naive_values
from sorry.analysis.estimator import CompiledEstimator, result_values
from sorry.cards import card_name, parse_card
from sorry.moves import Move
from sorry.record import Commitment, GameRecord, RecordError, verify

VARIANTS = [("standard", 2), ("standard", 3), ("teams", 4), ("points", 2), ("points", 3)]


@cache
def quick(variant: str, players: int) -> Analysis:
    """Analysed with the naive estimator: instant, and enough to test the bookkeeping."""
    return analyse(record(variant, players), estimator=ProgressEstimator())


# -- the account ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_the_account_adds_up_exactly(variant: str, players: int) -> None:
    a = quick(variant, players)
    assert len(a.players) == players
    for p in a.players:
        assert p.start + p.luck + p.decisions == p.result  # fractions: exact
        # the player's own moves and the others' moves: every term, each counted once
        assert p.start + p.luck + p.own_decisions + p.others_decisions == p.result
        assert p.own_decisions == sum(d.term[p.colour] for d in a.decisions if d.colour == p.colour)
    winners = {"RBYG".index(w) for w in a.record.result.winners}
    for p in a.players:
        assert p.result == (1 if p.colour in winners else 0)


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_the_terms_telescope_along_the_graph(variant: str, players: int) -> None:
    """Every draw's luck and every decision's term is the step between consecutive points of
    the graph: before the draw -> after it -> after the move."""
    a = quick(variant, players)
    by_step = {(p.step, p.kind): p.values for p in a.points}
    assert a.points[0].kind == "start"
    assert len(a.decisions) == a.record.result.turns
    previous = a.points[0].values
    events = sorted([*a.draws, *a.decisions], key=lambda e: (e.step, hasattr(e, "move")))
    for ev in events:
        assert ev.before == previous
        kind = "move" if hasattr(ev, "move") else "draw"
        assert by_step[(ev.step, kind)] == ev.after
        previous = ev.after
    assert previous == result_values(a.record.replay())


def test_real_rollouts_add_up_and_mean_what_they_say() -> None:
    """With real (pure-Python) rollouts: the account is exact, each draw's value before it is
    the average over the cards that could have come, a move the reference player would have
    made, when it has that one move, has a decision term of exactly 0 (one of several moves
    it finds equally good is measured against their average, and is never an error), and
    the equity lost is against the best option, labelled
    only beyond the threshold and its own uncertainty."""
    rec = record("standard", 2, seed=9, levels=("easy", "random"))
    a = analyse(rec, estimator=PlayoutEstimator(), rollouts=2)
    for p in a.players:
        assert p.start + p.luck + p.decisions == p.result
        assert p.luck_se > 0 and p.own_decisions_se >= 0 and p.start_se > 0
        # the luck is the result less the start and the decisions: their uncertainty
        assert p.luck_se**2 == pytest.approx(p.start_se**2 + p.decisions_se**2)
        assert p.decisions_se**2 == pytest.approx(p.own_decisions_se**2 + p.others_decisions_se**2)
    assert sum(p.start for p in a.players) == 1
    for d in a.draws:
        assert d.colour is not None and d.card is not None
        avg = [sum((p * v[c] for _card, p, v in d.outcomes), Fraction(0)) for c in range(4)]
        assert tuple(avg) == d.before
        assert sum(p for _c, p, _v in d.outcomes) == 1
        assert card_name(d.card) in {card_name(c) for c, _p, _v in d.outcomes}
    same = [x for x in a.decisions if x.move == x.reference and x.ties == 1]
    assert same and all(x.term == (0, 0, 0, 0) and x.term_var == (0, 0, 0, 0) for x in same)
    # the easy bot's ties: measured against their average (the policy's expected value)
    tied = [x for x in a.decisions if x.free and x.ties > 1]
    assert tied and all(x.move == x.reference and max(x.term_var) > 0 for x in tied)
    differ = [x for x in a.decisions if x.move != x.reference]
    assert differ and all(not x.free and max(x.term_var) > 0 for x in differ)
    easy = PlayoutEstimator()
    for x in a.decisions:
        best = max(o.value[x.colour] for o in x.options)
        assert x.judged(x.best) == best
        gap = best - x.judged(x.move)
        if x.free:  # the policy finds the move as good as its own: nothing lost
            assert x.move == x.reference and x.equity_lost == 0 and x.measured is None
            assert x.move in easy.reference_moves(a.record.replay(x.step - 1))
            continue
        assert (x.measured is not None) == (gap >= REFINE_FROM)
        if x.measured is None:  # the first measure is the judgement
            assert x.equity_lost == pytest.approx(gap)
            assert x.label is None
        else:  # measured again (other worlds, more rollouts): that is the judgement
            assert x.equity_lost == pytest.approx(max(0.0, x.measured[1] - x.measured[0]))
            assert x.loss_se is not None
            beyond = x.equity_lost > 1.96 * x.loss_se
            assert (x.label is not None) == (
                x.real and beyond and x.equity_lost >= THRESHOLDS[-1][1]
            )
        assert x.equity_lost >= 0
    assert any(x.measured is not None for x in a.decisions)


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_the_value_before_a_draw_is_the_average_over_the_cards(variant: str, players: int) -> None:
    a = quick(variant, players)
    for d in a.draws:
        expected = sum((p * (v[0] - d.before[0]) for _c, p, v in d.outcomes), Fraction(0))
        assert expected == 0


def test_a_loss_is_an_error_only_beyond_its_uncertainty() -> None:
    """Labels need the loss past the threshold AND past 1.96 standard errors of its (second)
    measure; moves measured as equal lose nothing; the policy's own ties are free."""
    g = Game.from_position("R:10,20,S,S Y:30,40,S,S R", card=7)
    m0, m1 = g.legal_moves[:2]
    opts = (Option(m0, (0.5, 0, 0.5, 0)), Option(m1, (0.56, 0, 0.44, 0)))
    base = Decision(1, 0, 0, 7, m0, m0, m1, ZEROS, ZEROS, opts, (0,), False)

    def with_(**kw: object) -> Decision:
        return dataclasses.replace(base, **kw)  # type: ignore[arg-type]

    assert with_(measured=(0.50, 0.56), measured_var=0.01**2).label == "mistake"
    assert with_(measured=(0.50, 0.56), measured_var=0.04**2).label is None  # within noise
    assert with_(measured=(0.50, 0.50), measured_var=0.0).label is None  # equal: no loss
    assert with_(measured=(0.52, 0.50), measured_var=0.0).equity_lost == 0
    free = with_(measured=None, free=True)
    assert free.equity_lost == 0 and free.label is None
    # the first measure alone (no second one) never labels
    assert with_().equity_lost == pytest.approx(0.06) and with_().label is None


def test_the_moves_that_mattered_are_two_lists() -> None:
    a = analyse(record("standard", 2, levels=("easy", "random")), estimator=ProgressEstimator())
    decisions = a.key_decisions(10)
    assert decisions and all(d.term[d.colour] != 0 for d in decisions)
    sizes = [abs(d.term[d.colour]) for d in decisions]
    assert sizes == sorted(sizes, reverse=True)
    lucky, unlucky = a.key_draws(5)
    assert lucky and unlucky
    assert all(d.colour is not None and d.luck[d.colour] > 0 for d in lucky)
    assert all(d.colour is not None and d.luck[d.colour] < 0 for d in unlucky)
    for d in lucky + unlucky:
        # the draw's line with the move actually played: the luck and that move's own term
        move = next(x for x in a.decisions if x.step == d.step + 1)
        assert d.with_move == tuple(d.luck[c] + move.term[c] for c in range(4))


def test_labels_follow_the_thresholds() -> None:
    assert label_of(0.0) is None
    assert label_of(0.029) is None
    assert label_of(0.03) == "inaccuracy"
    assert label_of(0.06) == "mistake"
    assert label_of(0.12) == "blunder"
    assert label_of(0.5) == "blunder"
    a = quick("standard", 2)
    for p in a.players:
        own = [d for d in a.decisions if d.colour == p.colour]
        assert p.real_decisions == sum(1 for d in own if d.real)
        assert sum(p.labels.values()) == sum(1 for d in own if d.label)
        if p.accuracy is not None:
            assert 0 <= p.accuracy <= 1


def test_teams_share_their_side() -> None:
    a = quick("teams", 4)
    assert a.sides == ((0, 2), (1, 3))
    for pt in a.points:
        assert pt.values[0] == pt.values[2] and pt.values[1] == pt.values[3]
        assert float(pt.values[0] + pt.values[1]) == pytest.approx(1)
    red, _blue, yellow, _green = a.players
    assert red.luck == yellow.luck and red.decisions == yellow.decisions
    assert (
        red.own_luck + yellow.own_luck + sum(d.luck[0] for d in a.draws if d.colour in (1, 3))
        == red.luck
    )


def test_a_decisions_cards_are_dealt_once() -> None:
    """The nodes after each card and its reference move are made once per decision: the
    account's line and the second measure value the same nodes again without asking for the
    reference move again, and get the same values as from nodes made afresh."""
    from sorry.analysis.account import Children, chance_values

    class Counting(ProgressEstimator):
        calls = 0

        def reference_move(self, game: Game) -> Any:
            Counting.calls += 1
            return super().reference_move(game)

    est = Counting()
    game = Game(Rules(), players=2, seed=5)
    game.draw(game.draw_pile[-1])
    nodes = []
    for m in game.legal_moves:
        g = game.copy(stack=False)
        g.push(m)
        nodes.append(g)
    children: Children = {}
    first = chance_values(est, nodes, 4, 1, children)
    made = Counting.calls
    assert made == sum(len(n.chance_fractions()) for n in nodes) == len(children)
    again = chance_values(est, nodes[:2], 32, 2, children)
    assert Counting.calls == made  # no reference move asked for again
    fresh = chance_values(est, nodes[:2], 32, 2)
    assert [v.value for v in again] == [v.value for v in fresh] == [v.value for v in first[:2]]
    # a whole analysis asks for each card's reference move once per move and decision
    Counting.calls = 0
    rec = record("standard", 2, seed=9, levels=("medium", "easy"))
    a = analyse(rec, estimator=est)
    game = rec.start()
    most = 0
    for step in rec.steps:
        if step.is_draw:
            game.draw(parse_card(str(step.draw)))
            continue
        for m in game.legal_moves:
            g = game.copy(stack=False)
            g.push(m)
            most += 0 if g.is_over() else len(g.chance_fractions())
        game.push(Move.parse(str(step.move)))
    assert any(d.move != d.reference for d in a.decisions)  # the line was measured
    # (and the start's cards, and the reference move of a decision whose move is not its tie)
    assert 0 < Counting.calls <= most + 11 + len(a.decisions)


def test_the_accounts_line_pools_both_measures() -> None:
    """A term measured twice (every move's first measure, then the move played and the
    reference move again in other worlds) is the mean of all the rollouts, card by card,
    each weighted by its rollouts; its variance is the two measures' own, each paired world
    by world within its call."""
    from sorry.analysis.account import chance_values, pooled

    rec = record("standard", 2, seed=9, levels=("medium", "easy"))
    game = rec.replay()
    while True:  # back to the last decision with two or more moves whose nodes go on
        game.pop()
        if not game.is_chance() and len(game.legal_moves) > 1:
            nodes = []
            for m in game.legal_moves[:2]:
                g = game.copy(stack=False)
                g.push(m)
                nodes.append(g)
            # (six kinds of card or more: each card gets the rollouts asked for)
            if not any(g.is_over() or len(g.chance_fractions()) < 6 for g in nodes):
                break
    est = PlayoutEstimator()
    a = chance_values(est, nodes, 2, 1)
    b = chance_values(est, nodes, 6, 2)
    x, y = pooled(a[0], b[0]), pooled(a[1], b[1])
    for one, two, both in ((a[0], b[0], x), (a[1], b[1], y)):
        for (_c1, _p1, va), (_c, _p, vb), (_c2, _p2, v) in zip(
            one.outcomes, two.outcomes, both.outcomes, strict=True
        ):
            assert v == tuple((2 * s + 6 * t) / 8 for s, t in zip(va, vb, strict=True))
        assert both.value == tuple(
            sum((p * v[c] for _card, p, v in both.outcomes), Fraction(0)) for c in range(4)
        )
        for c in range(4):
            assert both.variance(c) == pytest.approx(
                one.variance(c) / 16 + two.variance(c) * 9 / 16
            )
    red = nodes[0].to_move
    for c in range(4):
        assert x.diff_variance(y, c) == pytest.approx(
            a[0].diff_variance(a[1], c) / 16 + b[0].diff_variance(b[1], c) * 9 / 16
        )
    assert x.diff_variance(y, red) < x.variance(red) + y.variance(red)  # the same worlds


def test_moves_only_judged_get_a_share_of_the_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every legal move is valued, but only the move played and the policy's equal moves (the
    account's line) with every rollout: a move only judged gets LIGHT_SHARE times fewer (it
    is measured again before it is called better than the move played)."""
    from sorry.analysis import account

    seen: list[tuple[int, str]] = []  # each node valued: its rollouts and its position
    real = account.chance_values

    def spy(est: Any, nodes: Any, rollouts: int, seed: int, children: Any = None) -> Any:
        seen.extend((rollouts, str(g.position())) for g in nodes)
        return real(est, nodes, rollouts, seed, children)

    monkeypatch.setattr(account, "chance_values", spy)
    rec = record("standard", 2, seed=9, levels=("medium", "easy"))
    est = ProgressEstimator()
    game = rec.start()
    light = 0
    for step in rec.steps:
        if step.is_draw:
            game.draw(parse_card(str(step.draw)))
            continue
        chosen = account._listed(game, Move.parse(str(step.move)))
        ties = set(est.reference_moves(game))
        seen.clear()
        account._value_node(game, chosen, 0, est, 8, 1, 1)
        first = {}  # each position's first valuation (the line and the second measure follow)
        for n, pos in seen:
            first.setdefault(pos, n)
        for m in game.legal_moves:
            g = game.copy(stack=False)
            g.push(m)
            judged_only = m != chosen and m not in ties
            assert first[str(g.position())] == (8 // account.LIGHT_SHARE if judged_only else 8)
            light += judged_only
        game.push(chosen)
    assert light > 0


def test_the_analysis_is_deterministic() -> None:
    """The same record and seed give the same analysis (a fresh estimator each time)."""
    rec = record("points", 2, seed=3)
    one = analyse(rec, estimator=CompiledEstimator(), rollouts=2, worlds=2, seed=3)
    two = analyse(rec, estimator=CompiledEstimator(), rollouts=2, worlds=2, seed=3)
    assert one.points == two.points and one.decisions == two.decisions
    other = analyse(rec, estimator=CompiledEstimator(), rollouts=2, worlds=2, seed=4)
    assert other.points != one.points


def test_swings_are_the_largest_steps() -> None:
    a = quick("standard", 2)
    swings = a.swings(3)
    assert len(swings) == 3
    sizes = [abs(s.delta) for s in swings]
    assert sizes == sorted(sizes, reverse=True)
    every = [max(abs(d.luck[0]), abs(d.luck[2])) for d in a.draws] + [
        max(abs(d.term[0]), abs(d.term[2])) for d in a.decisions
    ]
    assert sizes[0] == max(every)


# -- hidden information (points) -------------------------------------------------------------------
def test_points_decisions_are_judged_from_the_deciders_view() -> None:
    """Two games that look the same to the mover (its hand, the discards, the board) but differ
    in the other player's hidden hand get the same judgement of every move."""
    rules = Rules(variant="points")
    g = Game(rules, players=2, seed=21)
    while g.is_chance():
        g.draw()
    mover = g.to_move
    other = next(c for c in g.colours if c != mover)
    swapped = g.copy()
    hidden = swapped.hands[other]
    for k, card in enumerate(swapped.draw_pile):
        if card != hidden[0]:
            swapped.draw_pile[k], hidden[0] = hidden[0], card
            break
    assert swapped.hands[other] != g.hands[other]
    assert swapped.view(mover) == g.view(mover)
    moves = g.legal_moves
    est = PlayoutEstimator()
    one = est.view_values(g, moves, rollouts=2, worlds=3, seed=5)
    two = est.view_values(swapped, moves, rollouts=2, worlds=3, seed=5)
    assert one == two
    a = quick("points", 2)
    assert a.hidden_information and all(d.from_view for d in a.decisions)
    assert a.worlds is not None


def test_points_rollouts_add_up() -> None:
    a = analyse(record("points", 2, seed=3), estimator=PlayoutEstimator(), rollouts=1, worlds=1)
    for p in a.players:
        assert p.start + p.luck + p.decisions == p.result
    assert a.draws[0].colour is None  # the deal is one step
    assert all(d.colour is not None for d in a.draws[1:])


def test_the_naive_estimate_sums_to_one() -> None:
    rec = record("standard", 3)
    g = rec.replay(40)
    v = naive_values(g)
    assert sum(v) == pytest.approx(1)
    assert all(v[c] > 0 for c in g.colours)


# -- bad input -------------------------------------------------------------------------------------
def test_a_record_that_does_not_verify_is_refused() -> None:
    rec = record("standard", 2)
    n = next(i for i, s in enumerate(rec.steps, 1) if s.is_draw and i > 10)
    other = "5" if rec.steps[n - 1].draw != "5" else "4"
    bad = replace_step(rec, n, draw=other)
    problem = verify(bad)
    assert not problem.ok
    with pytest.raises(AnalysisError, match="does not verify") as exc:
        analyse(bad, estimator=ProgressEstimator())
    assert str(problem) in str(exc.value)


def test_an_unfinished_game_is_refused() -> None:
    rules = Rules(turn_limit=10)
    g = Game(rules, players=2, seed=1)
    c = Commitment.for_game(g, NONCE)
    rec = GameRecord.from_game(play_out(g), commitment=c)
    assert verify(rec).ok
    with pytest.raises(AnalysisError, match="not finished"):
        analyse(rec, estimator=ProgressEstimator())
    live = Game(players=2, seed=1)
    live.draw()
    with pytest.raises(AnalysisError, match="not over"):
        analyse(live, estimator=ProgressEstimator())


def test_not_a_record_is_refused() -> None:
    with pytest.raises(RecordError):
        GameRecord.from_json('{"format": "sorry-game"}')


def test_the_json_form_is_the_same_in_every_language() -> None:
    """The numbers are computed once; the words are added per language from the record."""
    from sorry.analysis import report
    from sorry.i18n import using

    a = quick("standard", 2)
    bare = report.to_dict(a, describe_moves=False)
    assert all(d["text"] is None for d in bare["decisions"])
    english = report.localise(bare, a.record)
    with using("el"):
        greek = report.localise(bare, a.record)
    assert english["decisions"][5]["text"] != greek["decisions"][5]["text"]
    # a bot is named by its level, in the reader's language
    assert [p["label"] for p in english["players"]] == ["Red (easy)", "Yellow (easy)"]
    assert greek["players"][0]["label"] == "Κόκκινο (εύκολο)"
    strip = ("text", "short", "best_text", "label", "words")

    def numbers(data: dict[str, object]) -> object:
        def clean(x: object) -> object:
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items() if k not in strip}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x

        return clean({k: v for k, v in data.items() if k not in ("summary", "method")})

    assert numbers(english) == numbers(greek) == numbers(bare)
    assert report.to_dict(a) == english


def test_the_reference_value_is_the_average_of_the_policys_equal_moves() -> None:
    """Where the policy finds several moves equally good (it draws among them at random), the
    reference value is their average: playing either of two such moves is worth half their
    difference, the two terms cancel exactly (the same worlds), neither is an error; where
    the policy has one move and it is played, the term is exactly 0."""
    from sorry.analysis.account import _value_node

    est = PlayoutEstimator()
    game = Game.from_position("R:5,20,S,S Y:S,S,S,S R", card=3)
    a, b = game.legal_moves
    assert set(est.reference_moves(game)) == {a, b}
    va = _value_node(game, a, 0, est, 4, 1, seed=3)
    vb = _value_node(game, b, 0, est, 4, 1, seed=3)
    for v in (va, vb):
        assert v.free and v.ties == 2 and v.measured is None
        assert v.before == va.before  # the same average whichever was played
    red = 0
    term_a = va.after[red] - va.before[red]
    term_b = vb.after[red] - vb.before[red]
    assert term_a + term_b == 0
    assert term_a == (va.after[red] - vb.after[red]) / 2
    assert term_a != 0 and max(va.term_var) > 0
    one = Game.from_position("R:5,H,H,H Y:S,S,S,S R", card=3)
    (only,) = est.reference_moves(one)
    v = _value_node(one, only, 0, est, 4, 1, seed=3)
    assert v.ties == 1 and v.before == v.after and v.term_var == (0, 0, 0, 0)


def test_mean_value_pairs_with_values_of_the_same_call() -> None:
    """The average of values of one call keeps their worlds: its difference with one of them
    has the variance of the paired rows (0 against itself), the cards' outcomes averaged."""
    from sorry.analysis.account import chance_values, mean_value

    est = PlayoutEstimator()
    game = Game.from_position("R:5,20,S,S Y:S,S,S,S R", card=3)
    nodes = []
    for m in game.legal_moves:
        g = game.copy(stack=False)
        g.push(m)
        nodes.append(g)
    x, y = chance_values(est, nodes, 3, seed=1)
    m = mean_value([x, y])
    assert m.value == tuple((p + q) / 2 for p, q in zip(x.value, y.value, strict=True))
    assert mean_value([x]) is x
    assert m.diff_variance(x, 0) == pytest.approx(x.diff_variance(y, 0) / 4)
    assert mean_value([x, x]).diff_variance(x, 0) == 0
    for (c1, _p1, v1), (c2, _p, v2), (c3, _q, v3) in zip(
        m.outcomes, x.outcomes, y.outcomes, strict=True
    ):
        assert c1 == c2 == c3 and v1 == tuple((s + t) / 2 for s, t in zip(v2, v3, strict=True))
