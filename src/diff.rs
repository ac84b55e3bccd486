//! The differential checker: two engines of one game play the same moves in lock step, and every
//! ply the legal move sets, the positions and the results are compared.
//! A byte stream chooses the moves (each byte picks `legal[b % len]`), so any byte string is a game.

use std::fmt;

use crate::game::Game;
use crate::playout::EngineKind;
use crate::registry::{EngineOf, Mancala, RefState};

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

/// What one engine shows at a ply: its position as text, its legal moves and their notation,
/// and its result (worked out only where no move is legal: a game is over exactly then).
struct View<G: Game> {
    position: String,
    moves: Vec<G::Move>,
    notation: Vec<String>,
}

impl<G: Game> View<G> {
    fn of<M: Mancala>(g: &G, s: &G::State) -> View<G>
    where
        G: EngineOf<M>,
    {
        let position = match g.position(s) {
            Ok(p) => M::print(&p),
            Err(e) => format!("invalid position: {e}\n"),
        };
        let mut moves = Vec::new();
        g.legal_moves(s, &mut moves);
        let notation = moves.iter().map(|&m| g.notation(s, m)).collect();
        View {
            position,
            moves,
            notation,
        }
    }
}

/// The result of a game over, as a divergence shows it.
fn result<G: Game>(g: &G, s: &G::State) -> Option<String> {
    g.ending(s)
        .map(|e| format!("{} by {}", e.winner(), e.end_clause()))
}

/// The two engines of the game `M` under one reading, named in reports as
/// `<game>-reference/<label>` and `<game>-optimized/<label>`.
pub struct Engines<'a, M: Mancala> {
    /// The reference engine.
    pub reference: &'a M::Reference,
    /// The optimized engine.
    pub optimized: &'a M::Optimized,
    /// The reading's name in reports.
    pub label: &'a str,
}

impl<M: Mancala> Engines<'_, M> {
    /// The engine of `kind`'s name in reports.
    pub fn name(&self, kind: EngineKind) -> String {
        format!("{}-{}/{}", M::KIND.name(), kind.name(), self.label)
    }

    /// Both engines' states at the position `text`, or why either refuses it.
    pub fn states_at(&self, text: &str) -> Result<States<M>, String> {
        Ok((
            self.reference.state_from_text(text)?,
            self.optimized.state_from_text(text)?,
        ))
    }

    /// Both engines' states after `written` (the game's notation, as the reference engine reads
    /// it) from `states`: the reference engine reads the move, both play it.
    pub fn play_written(&self, states: &States<M>, written: &str) -> Result<States<M>, String> {
        let shown =
            M::play_written(self.reference, &states.0, written).map_err(|e| e.to_string())?;
        let ply = self
            .optimized
            .play(&states.1, shown.mv)
            .map_err(|s| format!("the optimized engine stops at {}", s.0))?;
        Ok((shown.state, ply.state))
    }
}

/// The states of both engines of the game `M`, reference then optimized.
pub type States<M> = (RefState<M>, <<M as Mancala>::Optimized as Game>::State);

/// Plays the game `bytes` choose in both engines from `states`; returns the plies played (the
/// game ended, or the bytes ran out after `max_plies`) or the first divergence.
pub fn lockstep<M: Mancala>(
    engines: &Engines<M>,
    states: States<M>,
    bytes: &[u8],
    max_plies: usize,
) -> Result<usize, Box<Divergence>> {
    let (a, b) = (engines.reference, engines.optimized);
    let (mut sa, mut sb) = states;
    let mut moves: Vec<String> = Vec::new();
    let mut before = View::<M::Reference>::of::<M>(a, &sa).position;
    let diverge = |ply: usize, moves: &[String], before: &str, what, va, vb| {
        Box::new(Divergence {
            ply,
            moves: moves.to_vec(),
            before: before.to_string(),
            what,
            first: (engines.name(EngineKind::Reference), va),
            second: (engines.name(EngineKind::Optimized), vb),
        })
    };
    for ply in 0..=max_plies {
        let va = View::<M::Reference>::of::<M>(a, &sa);
        let vb = View::<M::Optimized>::of::<M>(b, &sb);
        // The views of both engines differ in `what` at this ply.
        let differ = |what, va, vb| Err(diverge(ply, &moves, &before, what, va, vb));
        if va.position != vb.position {
            return differ("position", va.position, vb.position);
        }
        let over = va.moves.is_empty() || vb.moves.is_empty();
        let (ra, rb) = if over {
            (result(a, &sa), result(b, &sb))
        } else {
            (None, None)
        };
        if ra != rb {
            return differ("result", format!("{ra:?}"), format!("{rb:?}"));
        }
        if va.notation != vb.notation {
            return differ("legal moves", va.notation.join(" "), vb.notation.join(" "));
        }
        if over || ply == max_plies || bytes.is_empty() {
            return Ok(ply);
        }
        let i = usize::from(bytes[ply % bytes.len()]) % va.moves.len();
        before = va.position;
        moves.push(va.notation[i].clone());
        match (a.play(&sa, va.moves[i]), b.play(&sb, vb.moves[i])) {
            (Ok(na), Ok(nb)) => {
                sa = na.state;
                sb = nb.state;
            }
            (ra, rb) => {
                let shown = |r: Result<(), crate::game::Silent>| match r {
                    Ok(()) => "played".to_string(),
                    Err(s) => format!("stopped where the rules are silent ({})", s.0),
                };
                return Err(diverge(
                    ply + 1,
                    &moves,
                    &before,
                    "play",
                    shown(ra.map(drop)),
                    shown(rb.map(drop)),
                ));
            }
        }
    }
    Ok(max_plies)
}
