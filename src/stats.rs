//! Batch statistics: one row per game (games.csv), clause counts (clauses.csv) and aggregates with
//! 95% confidence intervals (summary.csv). Game i draws from ChaCha8 stream i of the master seed,
//! so results do not depend on the thread count.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::bao::trace::Event;
use crate::bao::{
    IllegalMove, Move, Played as BaoPlayed, Position, Rules as BaoRules, Side, Stage,
};
use crate::oware::rules::Verdict as OwareVerdict;
use crate::oware::{Rules as OwareRules, Variant as OwareVariant};

/// How moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among the legal moves.
    Random,
    /// The move capturing the most seeds now; ties broken at random.
    Greedy,
    /// Two-ply search: the move maximising seeds captured now minus the opponent's best capture in
    /// reply (a move that wins at once scores highest); ties at random.
    Search,
}

impl std::str::FromStr for Policy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "search" => Ok(Policy::Search),
            _ => Err(format!(
                "unknown policy '{s}' (known: random, greedy, search)"
            )),
        }
    }
}

impl Policy {
    /// The policy's name as written in the CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
            Policy::Search => "search",
        }
    }
}

/// Clause id → times it fired.
pub type ClauseCounts = BTreeMap<String, u64>;

/// The RNG of game `index`.
pub fn game_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Picks among `scores` (one per move) by `policy`.
fn choose(policy: Policy, scores: &[i64], rng: &mut ChaCha8Rng) -> usize {
    match policy {
        Policy::Random => rng.gen_range(0..scores.len()),
        Policy::Greedy | Policy::Search => {
            let best = *scores.iter().max().expect("non-empty");
            let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == best).collect();
            ties[rng.gen_range(0..ties.len())]
        }
    }
}

/// One Bao game in games.csv.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaoRow {
    /// Game index (also its RNG stream).
    pub game: u64,
    /// Rule reading.
    pub variant: String,
    /// Move policy.
    pub policy: String,
    /// Plies played.
    pub plies: u32,
    /// South, North, or none (ply limit).
    pub winner: String,
    /// Clause that ended the game, or `ply-limit`.
    pub end_clause: String,
    /// Harvests by South.
    pub captures_south: u32,
    /// Harvests by North.
    pub captures_north: u32,
    /// Plies in the kunamua stage.
    pub kunamua_plies: u32,
    /// Plies in the mtaji stage.
    pub mtaji_plies: u32,
    /// Houses lost during the game.
    pub house_events: u32,
    /// Sowings of the longest move (by seeds sown).
    pub longest_move_sowings: u32,
    /// Seeds sown by the longest move.
    pub longest_move_seeds: u32,
    /// Candidate moves rejected as infinite over the game.
    pub infinite_moves_met: u32,
    /// Moves that relied on a reading of a silent or conflicting clause (`Played::undefined`).
    pub undefined_cases: u32,
}

/// Plays a legal move, or names the clause it reaches that the reading leaves open.
fn play_or_silent(rules: &BaoRules, pos: &Position, mv: Move) -> Result<BaoPlayed, &'static str> {
    match rules.play(pos, mv) {
        Ok(played) => Ok(played),
        Err(IllegalMove::RulesSilent { clause, .. }) => Err(clause),
        Err(e) => panic!("a listed move must play: {e}"),
    }
}

/// Plays Bao game `index`; returns its row and the clause counts of its moves.
pub fn bao_game(
    rules: &BaoRules,
    variant: &str,
    policy: Policy,
    seed: u64,
    index: u64,
    max_plies: u32,
) -> (BaoRow, ClauseCounts) {
    let mut rng = game_rng(seed, index);
    let mut counts = ClauseCounts::new();
    let mut row = BaoRow {
        game: index,
        variant: variant.to_string(),
        policy: policy.name().to_string(),
        plies: 0,
        winner: "none".into(),
        end_clause: "ply-limit".into(),
        captures_south: 0,
        captures_north: 0,
        kunamua_plies: 0,
        mtaji_plies: 0,
        house_events: 0,
        longest_move_sowings: 0,
        longest_move_seeds: 0,
        infinite_moves_met: 0,
        undefined_cases: 0,
    };
    let mut pos = Position::start();
    while row.plies < max_plies {
        let (moves, infinite) = rules.legal_moves_and_infinite(&pos);
        row.infinite_moves_met += infinite as u32;
        if moves.is_empty() {
            break;
        }
        let mover = pos.to_move();
        let them = mover.opponent();
        let chosen = match policy {
            Policy::Random => play_or_silent(rules, &pos, moves[rng.gen_range(0..moves.len())]),
            Policy::Greedy | Policy::Search => {
                let played: Vec<_> = moves
                    .iter()
                    .map(|&m| play_or_silent(rules, &pos, m))
                    .collect();
                // Seeds captured by a move: what the loser's side gives up.
                let gain = |before: &Position, after: &Position, loser: Side| {
                    i64::from(before.board().side_total(loser))
                        - i64::from(after.board().side_total(loser))
                };
                let scores: Vec<i64> = played
                    .iter()
                    .map(|p| {
                        // A move the rules leave open has no known result: no gain.
                        let Ok(p) = p else { return 0 };
                        let now = gain(&pos, &p.position, them);
                        if policy == Policy::Greedy {
                            return now;
                        }
                        if let Some(out) = rules.outcome(&p.position) {
                            return if out.winner == mover { 1000 } else { -1000 };
                        }
                        let reply = rules
                            .legal_moves(&p.position)
                            .iter()
                            .map(|&r| match play_or_silent(rules, &p.position, r) {
                                Ok(after) => gain(&p.position, &after.position, mover),
                                Err(_) => 0,
                            })
                            .max()
                            .unwrap_or(0);
                        now - reply
                    })
                    .collect();
                let i = choose(policy, &scores, &mut rng);
                played.into_iter().nth(i).expect("index")
            }
        };
        let chosen = match chosen {
            Ok(played) => played,
            Err(clause) => {
                // The reading leaves this point open: the game stops here, undecided.
                row.end_clause = format!("silent:{clause}");
                *counts.entry(row.end_clause.clone()).or_default() += 1;
                return (row, counts);
            }
        };
        match pos.stage() {
            Stage::Kunamua => row.kunamua_plies += 1,
            Stage::Mtaji => row.mtaji_plies += 1,
        }
        if mover == Side::South {
            row.captures_south += chosen.captures;
        } else {
            row.captures_north += chosen.captures;
        }
        let sowings = chosen
            .trace
            .iter()
            .filter(|s| matches!(s.event, Event::Sow { .. }))
            .count() as u32;
        if chosen.sown > row.longest_move_seeds {
            row.longest_move_seeds = chosen.sown;
            row.longest_move_sowings = sowings;
        }
        row.undefined_cases += chosen.undefined.len() as u32;
        for step in &chosen.trace {
            *counts.entry(step.clause.to_string()).or_default() += 1;
            if matches!(step.event, Event::HouseLost { .. }) {
                row.house_events += 1;
            }
        }
        pos = chosen.position;
        row.plies += 1;
    }
    if let Some(out) = rules.outcome(&pos) {
        row.winner = out.winner.to_string();
        row.end_clause = out.clause.to_string();
        *counts.entry(out.clause.to_string()).or_default() += 1;
    }
    (row, counts)
}

/// One Oware game in games.csv.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwareRow {
    /// Game index (also its RNG stream).
    pub game: u64,
    /// Rule reading.
    pub variant: String,
    /// Move policy.
    pub policy: String,
    /// Plies played.
    pub plies: u32,
    /// South, North, draw, or none (ply limit).
    pub winner: String,
    /// Clause that ended the game, or `ply-limit`.
    pub end_clause: String,
    /// Seeds captured by South during play.
    pub captured_south: u32,
    /// Seeds captured by North during play.
    pub captured_north: u32,
    /// Final score of South.
    pub final_south: u8,
    /// Final score of North.
    pub final_north: u8,
    /// Moves that captured.
    pub capturing_moves: u32,
    /// Ends decided by a reading where the sheet is silent (O.4.2 with seeds on both rows, O.6.2).
    pub undefined_cases: u32,
}

/// Plays Oware game `index`; returns its row and clause counts.
pub fn oware_game(
    variant: OwareVariant,
    name: &str,
    policy: Policy,
    seed: u64,
    index: u64,
    max_plies: u32,
) -> (OwareRow, ClauseCounts) {
    let rules = OwareRules::new(variant);
    let mut rng = game_rng(seed, index);
    let mut counts = ClauseCounts::new();
    let mut g = rules.new_game();
    let mut row = OwareRow {
        game: index,
        variant: name.to_string(),
        policy: policy.name().to_string(),
        plies: 0,
        winner: "none".into(),
        end_clause: "ply-limit".into(),
        captured_south: 0,
        captured_north: 0,
        final_south: 0,
        final_north: 0,
        capturing_moves: 0,
        undefined_cases: 0,
    };
    while row.plies < max_plies {
        let moves = rules.legal_moves(&g);
        if moves.is_empty() {
            break;
        }
        let mover = g.position().to_move();
        let played: Vec<_> = moves
            .iter()
            .map(|&m| rules.play(&g, m).expect("legal"))
            .collect();
        let scores: Vec<i64> = played
            .iter()
            .map(|p| {
                let now = i64::from(p.captured);
                if policy != Policy::Search {
                    return now;
                }
                if let Some(out) = p.game.outcome() {
                    return match out.winner {
                        Some(w) if w == mover => 1000,
                        Some(_) => -1000,
                        None => 0,
                    };
                }
                let reply = rules
                    .legal_moves(&p.game)
                    .iter()
                    .map(|&r| i64::from(rules.play(&p.game, r).expect("legal").captured))
                    .max()
                    .unwrap_or(0);
                now - reply
            })
            .collect();
        let chosen = played
            .into_iter()
            .nth(choose(policy, &scores, &mut rng))
            .expect("index");
        if chosen.captured > 0 {
            row.capturing_moves += 1;
        }
        row.undefined_cases += chosen.undefined.len() as u32;
        match mover {
            Side::South => row.captured_south += u32::from(chosen.captured),
            Side::North => row.captured_north += u32::from(chosen.captured),
        }
        for step in &chosen.trace {
            *counts.entry(step.clause.to_string()).or_default() += 1;
        }
        g = chosen.game;
        row.plies += 1;
    }
    if let Some(out) = g.outcome() {
        if out.verdict == OwareVerdict::RulesSilent {
            // The reading leaves this point open: the game stopped undecided.
            row.end_clause = format!("silent:{}", out.clause);
        } else {
            row.winner = out.winner.map_or("draw".to_string(), |w| w.to_string());
            row.end_clause = out.clause.to_string();
        }
    }
    row.final_south = g.position().score(Side::South);
    row.final_north = g.position().score(Side::North);
    (row, counts)
}

/// A rate with its 95% Wilson score interval.
pub fn wilson(successes: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let (k, n) = (successes as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// A mean with its 95% normal-approximation interval.
pub fn mean_ci(values: &[f64]) -> (f64, f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    let var = if values.len() > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

/// A mean with its 95% normal-approximation interval, from the count, sum and sum of squares of
/// integer values (exact sums, so the result does not depend on the order they were added in).
pub fn mean_ci_of_sums(n: u64, sum: u128, sum_sq: u128) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = sum as f64 / n as f64;
    // (n * sum_sq - sum^2) / (n (n - 1)), the sample variance, with the numerator exact.
    let var = if n > 1 {
        (u128::from(n) * sum_sq - sum * sum) as f64 / (n as f64 * (n - 1) as f64)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (var / n as f64).sqrt();
    (mean, mean - half, mean + half)
}

/// Running totals of whole random games: results, plies and final scores, as integer sums so that
/// the totals do not depend on the order the games were added in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games added.
    pub games: u64,
    /// South wins, North wins, draws, games cut at the ply limit.
    pub results: [u64; 4],
    /// Sum of plies.
    pub plies: u128,
    /// Sum of the squares of plies.
    pub plies_sq: u128,
    /// The most plies of a game.
    pub max_plies: u32,
    /// Sum of the final scores of South and North.
    pub scores: [u64; 2],
    /// Games by the clause that ended them.
    pub ends: BTreeMap<&'static str, u64>,
}

impl Tally {
    /// Adds a game: its plies, result (0 South, 1 North, 2 draw, `None` cut), final scores and
    /// the clause that ended it (empty when cut).
    pub fn add(&mut self, plies: u32, result: Option<u8>, scores: [u8; 2], end: &'static str) {
        self.games += 1;
        if !end.is_empty() {
            *self.ends.entry(end).or_default() += 1;
        }
        self.results[usize::from(result.map_or(3, |r| r.min(2)))] += 1;
        self.plies += u128::from(plies);
        self.plies_sq += u128::from(plies) * u128::from(plies);
        self.max_plies = self.max_plies.max(plies);
        for (sum, s) in self.scores.iter_mut().zip(scores) {
            *sum += u64::from(s);
        }
    }

    /// Mean plies with its 95% interval.
    pub fn mean_plies(&self) -> (f64, f64, f64) {
        mean_ci_of_sums(self.games, self.plies, self.plies_sq)
    }
}

/// One line of summary.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// What is measured.
    pub metric: String,
    /// Its value (a rate 0–1, a mean or a count).
    pub value: f64,
    /// Lower end of the 95% interval.
    pub ci_low: f64,
    /// Upper end of the 95% interval.
    pub ci_high: f64,
}

/// Aggregates over games given as (winner, end clause, plies).
pub fn summarize(games: &[(String, String, u32)]) -> Vec<SummaryRow> {
    let n = games.len() as u64;
    let row = |metric: String, (value, ci_low, ci_high): (f64, f64, f64)| SummaryRow {
        metric,
        value,
        ci_low,
        ci_high,
    };
    let mut out = vec![row("games".into(), (n as f64, n as f64, n as f64))];
    for who in ["South", "North", "draw", "none"] {
        let k = games.iter().filter(|g| g.0 == who).count() as u64;
        let name = if who == "none" {
            "unfinished_rate".to_string()
        } else {
            format!("{}_win_rate", who.to_lowercase())
        };
        let name = if who == "draw" {
            "draw_rate".to_string()
        } else {
            name
        };
        out.push(row(name, wilson(k, n)));
    }
    let plies: Vec<f64> = games.iter().map(|g| f64::from(g.2)).collect();
    out.push(row("mean_plies".into(), mean_ci(&plies)));
    let mut clauses: BTreeMap<&str, u64> = BTreeMap::new();
    for g in games {
        *clauses.entry(g.1.as_str()).or_default() += 1;
    }
    for (clause, k) in clauses {
        out.push(row(format!("ended_by_{clause}"), wilson(k, n)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_the_textbook_values() {
        // 50 of 100: 0.5 with a 95% Wilson interval of about [0.4038, 0.5962].
        let (p, lo, hi) = wilson(50, 100);
        assert_eq!(p, 0.5);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 10: upper end 0.2775.
        let (_, lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn cutoff_study_replays_the_stats_games() {
        // Same stream, same random choices: the same games, and the longest move offered is at
        // least the longest move played.
        let rules = BaoRules::default();
        for i in 0..20 {
            let (row, _) = bao_game(&rules, "default", Policy::Random, 4, i, 2000);
            let rec = bao_cutoff_game(&rules, 4, i, 2000);
            assert_eq!(rec.plies, row.plies, "game {i}");
            assert_eq!(rec.infinite_candidates, row.infinite_moves_met, "game {i}");
            assert!(rec.longest_legal_move >= row.longest_move_seeds, "game {i}");
        }
    }

    #[test]
    fn mean_interval_from_sums_of_known_sample() {
        // 1..=5 again, as count 5, sum 15, sum of squares 55.
        let (m, lo, hi) = mean_ci_of_sums(5, 15, 55);
        assert!((m - 3.0).abs() < 1e-12);
        assert!((hi - m - 1.3859).abs() < 1e-4 && (m - lo - 1.3859).abs() < 1e-4);
        assert_eq!(mean_ci_of_sums(1, 7, 49), (7.0, 7.0, 7.0));
        assert_eq!(mean_ci_of_sums(0, 0, 0), (0.0, 0.0, 0.0));
    }

    #[test]
    fn tallies_count_results_and_plies() {
        let mut t = Tally::default();
        t.add(10, Some(0), [30, 18], "O.6.1");
        t.add(20, Some(1), [10, 38], "O.6.1");
        t.add(30, Some(2), [24, 24], "O.5.2");
        t.add(40, None, [5, 6], "");
        assert_eq!(t.results, [1, 1, 1, 1]);
        assert_eq!(
            t.ends.iter().map(|(&c, &n)| (c, n)).collect::<Vec<_>>(),
            [("O.5.2", 1), ("O.6.1", 2)]
        );
        assert_eq!(
            (t.games, t.plies, t.plies_sq, t.max_plies),
            (4, 100, 3000, 40)
        );
        assert_eq!(t.scores, [69, 86]);
        assert!((t.mean_plies().0 - 25.0).abs() < 1e-12);
    }

    #[test]
    fn mean_interval_of_known_sample() {
        // 1..=5: mean 3, sample sd 1.5811, half width 1.96 * 1.5811 / sqrt(5) = 1.3859.
        let (m, lo, hi) = mean_ci(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(m, 3.0);
        assert!((hi - m - 1.3859).abs() < 1e-3 && (m - lo - 1.3859).abs() < 1e-3);
    }
}

/// Per game, for the cut-off study: the most seeds any legal (finite) move sowed at any position,
/// and how many candidate moves were infinite, under exact detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutoffRecord {
    /// The largest `sown` of a legal move offered anywhere in the game.
    pub longest_legal_move: u32,
    /// Candidate moves refused as infinite over the game.
    pub infinite_candidates: u32,
    /// Plies played.
    pub plies: u32,
}

/// Plays random Bao game `index` with exact detection, recording what a seed-count cut-off needs.
pub fn bao_cutoff_game(rules: &BaoRules, seed: u64, index: u64, max_plies: u32) -> CutoffRecord {
    let mut rng = game_rng(seed, index);
    let mut rec = CutoffRecord {
        longest_legal_move: 0,
        infinite_candidates: 0,
        plies: 0,
    };
    let mut pos = Position::start();
    while rec.plies < max_plies {
        let (moves, infinite) = rules.legal_moves_and_infinite(&pos);
        rec.infinite_candidates += infinite as u32;
        if moves.is_empty() {
            break;
        }
        let played: Vec<_> = moves
            .iter()
            .map(|&m| rules.play(&pos, m).expect("legal"))
            .collect();
        rec.longest_legal_move = rec
            .longest_legal_move
            .max(played.iter().map(|p| p.sown).max().unwrap_or(0));
        pos = played[rng.gen_range(0..played.len())].position.clone();
        rec.plies += 1;
    }
    rec
}
