//! Conformance with OpenSpiel's `mancala` (Kalah): replays 1,000 random games recorded from
//! OpenSpiel (experiments/openspiel/dump_games.py --game kalah) under the default `openspiel`
//! reading and requires agreement at every ply: the player to move (an extra turn is the same
//! player's ply), the legal move set before the move, both stores after it, and the result.

mod openspiel_records;

use mancala_lab::kalah::{Move, Rules, Side, State, Variant};
use openspiel_records::Replay;

const GAMES: &str = include_str!("data/openspiel_kalah_1000.txt");

#[test]
fn the_openspiel_reading_agrees_with_openspiel_on_every_ply() {
    let (games, plies) = check_file(GAMES);
    assert_eq!(games, 1000);
    assert!(plies > 30_000, "{plies}");
}

/// Also checks a freshly generated file when `KALAH_OPENSPIEL_FILE` names one (CI's live run).
#[test]
fn the_openspiel_reading_agrees_with_a_live_openspiel_run_if_given() {
    if let Some(path) = std::env::var("KALAH_OPENSPIEL_FILE")
        .ok()
        .filter(|p| !p.is_empty())
    {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (games, _) = check_file(&text);
        assert!(games > 0, "{path} holds no game");
    }
}

/// Replays every game of a dump file under the `openspiel` reading; returns (games, plies).
fn check_file(data: &str) -> (usize, usize) {
    openspiel_records::check(&Kalah(Rules::new(Variant::OPENSPIEL)), data)
}

/// Our reference engine as the records replay it.
struct Kalah(Rules);

impl Replay for Kalah {
    type State = State;

    fn start(&self) -> State {
        self.0.new_game()
    }

    fn legal_mask(&self, s: &State) -> u8 {
        self.0.legal_moves(s).iter().map(|m| 1u8 << m.pit).sum()
    }

    fn to_move(&self, s: &State) -> Side {
        s.position().to_move()
    }

    fn play(&self, s: &State, letter: char) -> Result<State, String> {
        let (_, mv) = Move::from_letter(letter, 6).ok_or("not a move letter")?;
        self.0
            .play(s, mv)
            .map(|played| played.state)
            .map_err(|e| e.to_string())
    }

    fn scores(&self, s: &State) -> [u8; 2] {
        [Side::South, Side::North].map(|side| s.position().store(side))
    }

    fn result(&self, s: &State) -> Option<([u8; 2], Option<Side>)> {
        s.outcome().map(|o| (o.scores, o.winner))
    }
}
