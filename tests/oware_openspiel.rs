//! Conformance with OpenSpiel's `oware`: replays 1,000 random games recorded from OpenSpiel
//! (experiments/openspiel/dump_games.py) under the `abapa` preset and requires agreement at every
//! ply: the legal move set before the move, both scores after it, and the final result.

mod openspiel_records;

use mancala_lab::oware::{Game, Move, Rules, Side, Variant};
use openspiel_records::Replay;

const GAMES: &str = include_str!("data/openspiel_oware_1000.txt");

#[test]
fn abapa_agrees_with_openspiel_on_every_ply() {
    let (games, plies) = check_file(GAMES);
    assert_eq!(games, 1000);
    assert!(plies > 50_000, "{plies}");
}

/// Also checks a freshly generated file when `OWARE_OPENSPIEL_FILE` names one (CI's live run).
#[test]
fn abapa_agrees_with_a_live_openspiel_run_if_given() {
    if let Some(path) = std::env::var("OWARE_OPENSPIEL_FILE")
        .ok()
        .filter(|p| !p.is_empty())
    {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (games, _) = check_file(&text);
        assert!(games > 0, "{path} holds no game");
    }
}

/// Replays every game of a dump file under the `abapa` preset; returns (games, plies).
fn check_file(data: &str) -> (usize, usize) {
    openspiel_records::check(&Oware(Rules::new(Variant::ABAPA)), data)
}

/// Our reference engine as the records replay it.
struct Oware(Rules);

impl Replay for Oware {
    type State = Game;

    fn start(&self) -> Game {
        self.0.new_game()
    }

    fn legal_mask(&self, g: &Game) -> u8 {
        self.0.legal_moves(g).iter().map(|m| 1u8 << m.pit).sum()
    }

    fn to_move(&self, g: &Game) -> Side {
        g.position().to_move()
    }

    fn play(&self, g: &Game, letter: char) -> Result<Game, String> {
        let (_, mv) = Move::from_letter(letter).ok_or("not a move letter")?;
        self.0
            .play(g, mv)
            .map(|played| played.game)
            .map_err(|e| e.to_string())
    }

    fn scores(&self, g: &Game) -> [u8; 2] {
        [Side::South, Side::North].map(|side| g.position().score(side))
    }

    fn result(&self, g: &Game) -> Option<([u8; 2], Option<Side>)> {
        g.outcome().map(|o| (o.scores, o.winner))
    }
}
