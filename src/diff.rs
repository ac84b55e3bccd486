//! The differential checker: two engines of one game play the same moves in lock step, and every
//! ply the legal move sets, the positions and the results are compared.
//! A byte stream chooses the moves (each byte picks `legal[b % len]`), so any byte string is a game.

use std::fmt;

use crate::engine::Engine;

/// The first place two engines disagree, with everything needed to replay it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Plies played before the disagreement showed.
    pub ply: usize,
    /// The moves from the start (or the given position) up to it, in canonical notation.
    pub moves: Vec<String>,
    /// The position before the last move (or the current one when the moves are empty), as text.
    pub before: String,
    /// What differed: `legal moves`, `position`, `result` or `play`.
    pub what: &'static str,
    /// The first engine's name and view.
    pub first: (String, String),
    /// The second engine's name and view.
    pub second: (String, String),
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "engines disagree on the {} after {} plies",
            self.what, self.ply
        )?;
        writeln!(f, "moves: {}", self.moves.join(" "))?;
        writeln!(f, "position before the last move:")?;
        write!(f, "{}", self.before)?;
        writeln!(f, "{}: {}", self.first.0, self.first.1)?;
        write!(f, "{}: {}", self.second.0, self.second.1)
    }
}

impl Divergence {
    /// The case in the format of `tests/regressions/`, ready to save there.
    pub fn regression_case(&self, game: &str, variant: &str) -> String {
        let last = self
            .moves
            .last()
            .map_or(String::new(), |m| format!("moves: {m}\n"));
        format!(
            "# {} vs {}: {} differ\ngame: {game}\nvariant: {variant}\nposition:\n{}end\n{last}",
            self.first.0, self.second.0, self.what, self.before
        )
    }
}

/// Plays the game `bytes` choose in both engines from `start_a`/`start_b`; returns the plies played
/// (the game ended, or the bytes ran out after `max_plies`) or the first divergence.
pub fn lockstep<A: Engine, B: Engine>(
    a: &A,
    b: &B,
    mut sa: A::State,
    mut sb: B::State,
    bytes: &[u8],
    max_plies: usize,
) -> Result<usize, Box<Divergence>> {
    let mut moves: Vec<String> = Vec::new();
    let mut before = a.position_text(&sa);
    let diverge =
        |ply: usize, moves: &[String], before: &str, what: &'static str, va: String, vb: String| {
            Box::new(Divergence {
                ply,
                moves: moves.to_vec(),
                before: before.to_string(),
                what,
                first: (a.name(), va),
                second: (b.name(), vb),
            })
        };
    for ply in 0..=max_plies {
        let (pa, pb) = (a.position_text(&sa), b.position_text(&sb));
        if pa != pb {
            return Err(diverge(ply, &moves, &before, "position", pa, pb));
        }
        let ((la, ra), (lb, rb)) = (a.legal_and_result(&sa), b.legal_and_result(&sb));
        if ra != rb {
            return Err(diverge(
                ply,
                &moves,
                &before,
                "result",
                format!("{ra:?}"),
                format!("{rb:?}"),
            ));
        }
        if la != lb {
            return Err(diverge(
                ply,
                &moves,
                &before,
                "legal moves",
                la.join(" "),
                lb.join(" "),
            ));
        }
        if la.is_empty() || ply == max_plies || bytes.is_empty() {
            return Ok(ply);
        }
        let mv = la[usize::from(bytes[ply % bytes.len()]) % la.len()].clone();
        before = pa;
        moves.push(mv.clone());
        match (a.play(&sa, &mv), b.play(&sb, &mv)) {
            (Ok(na), Ok(nb)) => {
                sa = na;
                sb = nb;
            }
            (ra, rb) => {
                let va = ra.map(|_| "played".to_string()).unwrap_or_else(|e| e);
                let vb = rb.map(|_| "played".to_string()).unwrap_or_else(|e| e);
                return Err(diverge(ply + 1, &moves, &before, "play", va, vb));
            }
        }
    }
    Ok(max_plies)
}
