//! Hunting rule inconsistencies, what every game's hunt shares: a finding with its witness and
//! frequency, and the report `mancala-lab inconsistencies` prints. Each game's hunt (positions
//! reached in random play where readings the sources allow lead to different play, where no clause
//! decides) is in its folder (`inconsistencies.rs`), run through [`crate::registry::Mancala`].

use crate::stats::wilson;

/// One kind of finding, with its first (earliest-ply) witness and how many games met it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Our id, e.g. `B-R1`.
    pub id: &'static str,
    /// The clauses involved.
    pub clauses: &'static str,
    /// What differs or is undecided.
    pub summary: &'static str,
    /// Games (of those played) in which it arose at least once.
    pub games: u64,
    /// Plies at which the witness arose, and the witness: position text and what differs.
    pub witness: Option<(usize, String)>,
    /// A witness built apart from random play, when random play may miss the finding.
    pub constructed: Option<Constructed>,
    /// Why no position can show the finding, when that is proved.
    pub impossible: Option<&'static str>,
}

/// A witness built by a search aimed at the finding rather than met in random play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constructed {
    /// Position text, what it shows, and how it was built.
    pub text: String,
    /// Whether the text gives the moves that reach the position from the start.
    pub reachable: bool,
}

/// A built witness that no longer shows its finding (the engine or the reading changed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the constructed witness of {id} no longer holds: {why}")]
pub struct WitnessError {
    /// The finding.
    pub id: &'static str,
    /// What failed.
    pub why: String,
}

impl Finding {
    pub(crate) fn new(id: &'static str, clauses: &'static str, summary: &'static str) -> Finding {
        Finding {
            id,
            clauses,
            summary,
            games: 0,
            witness: None,
            constructed: None,
            impossible: None,
        }
    }

    pub(crate) fn note(&mut self, seen: &mut bool, ply: usize, witness: impl FnOnce() -> String) {
        if !*seen {
            *seen = true;
            self.games += 1;
        }
        if self.witness.as_ref().is_none_or(|(p, _)| ply < *p) {
            self.witness = Some((ply, witness()));
        }
    }
}

/// The findings as a Markdown table with frequencies per 1,000 games (95% Wilson intervals), then
/// each witness: the earliest met in random play, one built by search, or why none can exist.
pub fn report(game: &str, games: u64, seed: u64, findings: &[Finding]) -> String {
    let mut out = format!(
        "Dynamic findings for {game}: {games} random games, seed {seed} \
         (`mancala-lab inconsistencies --game {game} --games {games} --seed {seed}`)\n\n\
         | id | clauses | finding | games with it | per 1,000 games | 95% interval | witness |\n\
         |---|---|---|---|---|---|---|\n"
    );
    for f in findings {
        let (rate, low, high) = wilson(f.games, games);
        let witness = match (&f.witness, &f.constructed, f.impossible) {
            (Some((ply, _)), _, _) => format!("random play, ply {ply}"),
            (None, Some(c), _) if c.reachable => "built, reachable from the start".to_string(),
            (None, Some(_), _) => "built".to_string(),
            (None, None, Some(_)) => "none can exist".to_string(),
            (None, None, None) => "none found".to_string(),
        };
        // A rate over no games is no number (as stats says it).
        let rate = if games == 0 {
            "none (no games)".to_string()
        } else {
            format!("{:.1}", 1000.0 * rate)
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {rate} | {:.1}–{:.1} | {witness} |\n",
            f.id,
            f.clauses,
            f.summary,
            f.games,
            1000.0 * low,
            1000.0 * high
        ));
    }
    for f in findings {
        if let Some((ply, w)) = &f.witness {
            out.push_str(&format!(
                "\n### {} witness (ply {ply})\n\n```\n{w}\n```\n",
                f.id
            ));
        }
        if let Some(c) = &f.constructed {
            out.push_str(&format!(
                "\n### {} witness (constructed)\n\n```\n{}\n```\n",
                f.id, c.text
            ));
        }
        if let Some(why) = f.impossible {
            out.push_str(&format!("\n### {}: no witness can exist\n\n{why}\n", f.id));
        }
    }
    out
}
