//! Random playouts with the reference engine, reproducible from one seed whatever the thread count.
//! Game `i` draws from its own ChaCha8 stream `i` of the master seed; results come back in index order.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::board::Side;
use super::notation::MoveKind;
use super::position::{Position, Stage};
use super::rules::Rules;

/// What one random game did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Plies played.
    pub plies: u32,
    /// The winner, or `None` when the ply limit stopped the game.
    pub winner: Option<Side>,
    /// The clause that ended the game (`None` at the ply limit).
    pub clause: Option<&'static str>,
    /// Plies played in the kunamua stage.
    pub kunamua_plies: u32,
    /// Harvests made by South and North.
    pub captures: [u32; 2],
    /// The most seeds sown in one move.
    pub longest_move: u32,
    /// Kutakatia-ing moves played.
    pub kutakatia: u32,
}

/// Plays one game of uniformly random legal moves from the start position.
pub fn random_game(rules: &Rules, seed: u64, index: u64, max_plies: u32) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut pos = Position::start();
    let mut record = GameRecord {
        plies: 0,
        winner: None,
        clause: None,
        kunamua_plies: 0,
        captures: [0; 2],
        longest_move: 0,
        kutakatia: 0,
    };
    while record.plies < max_plies {
        let moves = rules.legal_moves(&pos);
        if moves.is_empty() {
            let outcome = rules
                .outcome(&pos)
                .expect("no legal move means the game is over");
            record.winner = Some(outcome.winner);
            record.clause = Some(outcome.clause);
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        let mover = pos.to_move();
        if pos.stage() == Stage::Kunamua {
            record.kunamua_plies += 1;
        }
        let played = rules.play(&pos, mv).expect("legal moves play");
        record.plies += 1;
        record.captures[mover.index()] += played.captures;
        record.longest_move = record.longest_move.max(played.sown);
        if played.kind == MoveKind::Kutakatia {
            record.kutakatia += 1;
        }
        pos = played.position;
    }
    if record.winner.is_none() {
        if let Some(outcome) = rules.outcome(&pos) {
            record.winner = Some(outcome.winner);
            record.clause = Some(outcome.clause);
        }
    }
    record
}

/// Plays `games` random games in parallel; the result is the same for any number of threads.
pub fn random_games(rules: &Rules, seed: u64, games: u64, max_plies: u32) -> Vec<GameRecord> {
    (0..games)
        .into_par_iter()
        .map(|i| random_game(rules, seed, i, max_plies))
        .collect()
}

/// Aggregates of a batch of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Games won by South and North.
    pub wins: [usize; 2],
    /// Games stopped by the ply limit.
    pub unfinished: usize,
    /// Mean plies per game.
    pub mean_plies: f64,
    /// Longest game in plies.
    pub max_plies: u32,
    /// Most seeds sown in one move over all games.
    pub longest_move: u32,
    /// How games ended: clause id and count, sorted by clause.
    pub endings: Vec<(&'static str, usize)>,
}

impl Summary {
    /// Summarises `records`.
    pub fn of(records: &[GameRecord]) -> Summary {
        let mut wins = [0; 2];
        let mut endings: Vec<(&'static str, usize)> = Vec::new();
        for r in records {
            if let Some(w) = r.winner {
                wins[w.index()] += 1;
            }
            let clause = r.clause.unwrap_or("ply-limit");
            match endings.iter_mut().find(|(c, _)| *c == clause) {
                Some(entry) => entry.1 += 1,
                None => endings.push((clause, 1)),
            }
        }
        endings.sort();
        let total: u64 = records.iter().map(|r| u64::from(r.plies)).sum();
        Summary {
            games: records.len(),
            wins,
            unfinished: records.iter().filter(|r| r.winner.is_none()).count(),
            mean_plies: if records.is_empty() {
                0.0
            } else {
                total as f64 / records.len() as f64
            },
            max_plies: records.iter().map(|r| r.plies).max().unwrap_or(0),
            longest_move: records.iter().map(|r| r.longest_move).max().unwrap_or(0),
            endings,
        }
    }
}
