"""The game objects: moves, positions, traces and errors, worked by hand from the rules."""

import copy
import pickle
import re

import numpy as np
import pytest

import mancala_lab
from mancala_lab import bao, kalah, oware


@pytest.mark.parametrize("engine", ["optimized", "reference"])
def test_an_oware_move_by_hand(engine):
    # At the start every South pit holds 4 seeds: all six are legal; C's four seeds go to D, E, F
    # and North's a (spec/oware.md, O.2.3).
    s = oware.Game(engine=engine).new_initial_state()
    assert s.engine() == engine
    assert s.legal_moves() == ["A", "B", "C", "D", "E", "F"]
    assert s.to_move() == "South"
    assert s.explain("C") == ["[oware O.2.3] sow 4 from C, last seed in a"]
    s.play("C")
    assert s.position_text() == (
        "to_move: North\nscores: 0 0\nnorth: 4 4 4 4 4 5\nsouth: 4 4 0 5 5 5\n")
    assert str(s) == s.position_text()
    assert s.moves() == ["C"]
    assert s.legal_moves() == ["a", "b", "c", "d", "e", "f"]
    assert not s.is_over() and s.winner() is None and s.end_clause() is None
    assert s.scores() == (0, 0)


@pytest.mark.parametrize("engine", ["optimized", "reference"])
def test_a_kalah_move_by_hand(engine):
    # Kalah(6,4): C's four seeds go to D, E, F and South's store, so South moves again
    # (spec/kalah.md, K.2.1 and K.2.4); then F's five seeds go to the store and North's a-d,
    # and the turn passes.
    s = kalah.Game(engine=engine).new_initial_state()
    assert s.legal_moves() == ["A", "B", "C", "D", "E", "F"]
    assert s.explain("C") == ["[kalah K.2.1] sow 4 from C, last seed in South's store",
                              "[kalah K.2.4] South moves again"]
    s.play("C")
    assert s.position_text() == (
        "to_move: South\nscores: 1 0\nnorth: 4 4 4 4 4 4\nsouth: 4 4 0 5 5 5\n")
    s.play("F")
    assert s.position_text() == (
        "to_move: North\nscores: 2 0\nnorth: 4 4 5 5 5 5\nsouth: 4 4 0 5 5 0\n")
    assert s.observation().tolist() == [4, 4, 0, 5, 5, 0, 5, 5, 5, 5, 4, 4, 2, 0, 1]
    small = kalah.Game(variant="empty-capture:pits=3,seeds=2", engine=engine)
    assert small.new_initial_state().legal_moves() == ["A", "B", "C"]


def test_an_illegal_move_is_a_value_error_and_changes_nothing():
    s = oware.Game().new_initial_state()
    with pytest.raises(ValueError, match=r"move 'a' is not legal here \(legal: A B C D E F\)"):
        s.play("a")
    assert s.moves() == [] and s.to_move() == "South"
    with pytest.raises(ValueError):
        s.explain("Z")


def test_bad_readings_are_value_errors():
    with pytest.raises(ValueError, match="unknown Bao variant 'nope'"):
        bao.Game(variant="nope")
    with pytest.raises(ValueError, match="infinite"):
        bao.Game(infinite="sometimes")
    with pytest.raises(ValueError, match="engine"):
        oware.Game(engine="fast")
    with pytest.raises(ValueError):
        oware.Game(variant="strict", engine="optimized")
    # A reading only the reference engine plays gets it.
    assert oware.Game(variant="strict").engine == "reference"
    assert bao.Game(infinite="sown:500").engine == "optimized"


def test_arguments_that_are_not_text_are_named():
    s = bao.Game().new_initial_state()
    for call, says in [
        (lambda: bao.Game(variant=5), "variant: expected a reading's name, a str, not int"),
        (lambda: bao.Game(infinite=3), "infinite: expected 'exact' or 'sown:N', a str, not int"),
        (lambda: oware.Game(engine=1), "engine: expected 'optimized' or 'reference', a str"),
        (lambda: s.play(3), "move: expected the move's notation, a str, not int"),
        (lambda: s.explain(b"A6<*"), "move: expected the move's notation, a str, not bytes"),
        (lambda: s.svg(2.0), "move: expected the move's notation, a str, not float"),
    ]:
        with pytest.raises(TypeError, match=says):
            call()
    assert s.moves() == []


def test_a_lone_carriage_return_in_a_position_is_refused():
    # A comment before a lone CR would swallow the kutakatia line after it: the position
    # would lose its kutakatia and list A6 as playable.
    text = ("to_move: South\nstores: 22 22\nhouses: owned owned\nb: 0 0 0 0 0 0 0 0\n"
            "a: 0 2 2 6 0 0 0 0\nA: 0 0 0 0 6 2 2 0\nB: 0 0 0 0 0 0 0 0 # back\rkutakatia: A6\n")
    with pytest.raises(ValueError, match="line 7, column 26: a carriage return that ends no line"):
        bao.Game().state_from_text(text)
    assert bao.Game().state_from_text(text.replace("\r", "\n")).legal_moves() == ["A7<*", "A7>*"]


def test_a_clone_is_independent():
    s = bao.Game().new_initial_state()
    first = s.legal_moves()[0]
    for c in (s.clone(), copy.copy(s), copy.deepcopy(s)):
        c.play(first)
        assert c.moves() == [first]
    assert s.moves() == []


def test_a_game_from_a_position_text():
    g = oware.Game()
    s = g.new_initial_state()
    s.play("C")
    t = g.state_from_text(s.position_text())
    assert t.position_text() == s.position_text() and t.moves() == []
    # a received a fifth seed from C: it sows b to f.
    assert t.explain("a") == ["[oware O.2.3] sow 5 from a, last seed in f"]
    with pytest.raises(ValueError, match="position"):
        g.state_from_text("north: 1 2 3")


def test_a_bao_game_plays_to_its_end_on_both_engines():
    # The two engines, move for move: the same legal moves, positions and ending.
    a = bao.Game(engine="reference").new_initial_state()
    b = bao.Game(engine="optimized").new_initial_state()
    ply = 0
    while not a.is_over():
        moves = a.legal_moves()
        assert moves == b.legal_moves()
        assert a.position_text() == b.position_text()
        mv = moves[(ply * 7) % len(moves)]
        if ply % 25 == 0:
            assert a.explain(mv) and a.explain(mv)[-1].startswith("[bao ")
        a.play(mv)
        b.play(mv)
        ply += 1
        assert ply < 2000
    assert b.is_over() and a.winner() == b.winner() in ("South", "North")
    assert a.end_clause() == b.end_clause()
    assert a.legal_moves() == []


@pytest.mark.parametrize("engine", ["optimized", "reference"])
def test_a_pickled_state_is_the_same_game(engine):
    s = oware.Game(engine=engine).new_initial_state()
    s.play("C")
    t = pickle.loads(pickle.dumps(s))
    assert t.engine() == engine and t.moves() == ["C"]
    assert t.position_text() == (
        "to_move: North\nscores: 0 0\nnorth: 4 4 4 4 4 5\nsouth: 4 4 0 5 5 5\n")
    # From a position: the start text travels with the moves.
    u = oware.Game(engine=engine).state_from_text(t.position_text())
    u.play("a")
    v = pickle.loads(pickle.dumps(u))
    assert v.moves() == ["a"] and str(v) == str(u)


def test_a_pickled_bao_state_keeps_its_reading():
    s = bao.Game(variant="literal-en", infinite="sown:500").new_initial_state()
    s.play(s.legal_moves()[0])
    t = pickle.loads(pickle.dumps(s))
    assert t.moves() == s.moves() and str(t) == str(s)
    assert pickle.loads(pickle.dumps(t)).__reduce__()[1][:3] == ("bao", "literal-en", "sown:500")


def test_a_pickle_with_an_illegal_move_is_refused():
    s = oware.Game().new_initial_state()
    cls, args, _ = s.__reduce__()
    t = cls(*args)
    with pytest.raises(ValueError, match="not legal"):
        t.__setstate__(["a"])


def test_the_diagram_shows_the_position_and_the_move():
    s = oware.Game().new_initial_state()
    board = s.svg()
    assert re.search(r">\s*South to move\s*<", board)
    assert sorted(int(t) for t in re.findall(r">\s*(\d+)\s*<", board)[:12]) == [4] * 12
    move = s.svg("C")
    assert re.search(r">\s*South plays C\s*<", move)
    assert "[oware O.2.3] sow 4 from C, last seed in a" in move
    assert s.moves() == []
    with pytest.raises(ValueError, match="not legal"):
        s.svg("a")
    # Bao: the start position, South to move in the kunamua stage (bao 1.5).
    b = bao.Game().new_initial_state()
    assert "South to move (kunamua stage)" in b.svg()


def test_bad_action_ids_and_pickled_moves_are_named():
    s = oware.Game().new_initial_state()
    for bad in (-1, 6, 2**63):
        with pytest.raises(ValueError, match=f"action {bad}: expected an action id 0 to 5"):
            s.play_action(bad)
    for bad in (2.0, True, "2", None):
        with pytest.raises(TypeError, match="action: expected an action id, an int"):
            s.play_action(bad)

    class Odd:
        def __index__(self):
            return "2"
    with pytest.raises(TypeError, match="action: its __index__ gave a str"):
        s.play_action(Odd())
    s.play_action(np.int64(2))   # a numpy integer is an int: South's C
    assert s.moves() == ["C"]
    cls, args, _ = s.__reduce__()
    for bad in ("C", 3, None, [1]):
        with pytest.raises(TypeError, match="state: expected the list of the moves played"):
            cls(*args).__setstate__(bad)


def test_a_byte_order_mark_before_a_position_is_no_part_of_it():
    text = oware.Game().new_initial_state().position_text()
    s = oware.Game().state_from_text("\ufeff" + text)
    assert s.position_text() == text
