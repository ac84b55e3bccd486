//! The typed game interface: one trait over every engine of every game (state, move, legal moves,
//! play, ending), the counter-based move draws, and the one typed ending shared by both games.

use std::fmt;

use crate::side::Side;

/// How a finished game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// This player won.
    Win(Side),
    /// Neither: equal scores.
    Draw,
    /// The game stopped at a point the reading leaves open: the rules decide nothing.
    RulesSilent,
}

/// The end of a game: the verdict and the clause that ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// Who won, a draw, or rules silent.
    pub verdict: Verdict,
    /// The clause id (e.g. `1.2.1`, `O.6.1`).
    pub clause: &'static str,
}

impl Ending {
    /// The `winner` column: `South`, `North`, `draw`, or `none` (rules silent).
    pub fn winner(self) -> &'static str {
        match self.verdict {
            Verdict::Win(Side::South) => "South",
            Verdict::Win(Side::North) => "North",
            Verdict::Draw => "draw",
            Verdict::RulesSilent => "none",
        }
    }

    /// The `end_clause` column: the clause, or `silent:<clause>` where the rules are silent.
    pub fn end_clause(self) -> String {
        self.end_clause_parts().concat()
    }

    /// The `end_clause` column in two parts to be written one after the other: `silent:` or
    /// nothing, then the clause.
    pub fn end_clause_parts(self) -> [&'static str; 2] {
        match self.verdict {
            Verdict::RulesSilent => ["silent:", self.clause],
            _ => ["", self.clause],
        }
    }
}

/// What one ply did, in the figures a policy or a games.csv row needs. Fields a game does not
/// have stay 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyFacts {
    /// Seeds the mover took from the opponent (Bao: seeds harvested; Oware: seeds captured).
    pub seeds_captured: u32,
    /// Bao: harvests made (each takes one pit).
    pub harvests: u32,
    /// Seeds sown by the move (Bao: store seed included).
    pub sown: u32,
    /// Bao: houses lost by either player during the move.
    pub houses_lost: u32,
    /// Bao: the move was played in the mtaji stage.
    pub mtaji: bool,
    /// Points of the move where the sources are silent or disagree and the reading decided.
    pub undefined: u32,
    /// The clause events the move passed, by clause id (what an engine reports: see
    /// [`Game::counted_events`]).
    pub events: Events,
}

/// Most clauses a game's event list may name.
pub const MAX_EVENT_CLAUSES: usize = 32;

/// Clause events by clause id: counts over a game's list of counted clauses (see
/// [`Game::counted_events`]), and any other clause reported kept apart, so nothing is lost.
/// [`Events`] counts one move's events, [`EventTotals`] sums them over games.
#[derive(Clone, Debug)]
pub struct ClauseCounts<T> {
    clauses: &'static [&'static str],
    counts: [T; MAX_EVENT_CLAUSES],
    other: Vec<(&'static str, T)>,
}

/// The clause events of one move.
pub type Events = ClauseCounts<u32>;

/// Clause events summed over moves and games.
pub type EventTotals = ClauseCounts<u64>;

/// A count of clause events.
pub trait Count: Copy + Default + PartialOrd + std::ops::AddAssign + std::fmt::Debug {}
impl Count for u32 {}
impl Count for u64 {}

impl<T: Count> Default for ClauseCounts<T> {
    fn default() -> ClauseCounts<T> {
        ClauseCounts::new(&[])
    }
}

/// The index of `clause` in `clauses`, for [`ClauseCounts::add_at`]; evaluated in a `const`
/// block, a clause missing from the list fails the build.
pub const fn clause_index(clauses: &[&str], clause: &str) -> usize {
    let mut i = 0;
    while i < clauses.len() {
        let (a, b) = (clauses[i].as_bytes(), clause.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("the clause is not in the list");
}

impl<T: Count> ClauseCounts<T> {
    /// No events yet, counted over `clauses` (at most [`MAX_EVENT_CLAUSES`]; a game's list is a
    /// `static`, so lists are told apart by address).
    pub fn new(clauses: &'static [&'static str]) -> ClauseCounts<T> {
        assert!(clauses.len() <= MAX_EVENT_CLAUSES, "too many clauses");
        ClauseCounts {
            clauses,
            counts: [T::default(); MAX_EVENT_CLAUSES],
            other: Vec::new(),
        }
    }

    /// The events of a trace, one per clause id given, counted over `clauses`.
    pub fn of_trace(
        clauses: &'static [&'static str],
        trace: impl IntoIterator<Item = &'static str>,
        one: T,
    ) -> ClauseCounts<T> {
        let mut events = ClauseCounts::new(clauses);
        for clause in trace {
            events.add(clause, one);
        }
        events
    }

    /// No events any more, counted over `clauses` from now on (see [`ClauseCounts::new`]).
    #[inline]
    pub fn reset(&mut self, clauses: &'static [&'static str]) {
        debug_assert!(clauses.len() <= MAX_EVENT_CLAUSES, "too many clauses");
        self.clauses = clauses;
        self.counts = [T::default(); MAX_EVENT_CLAUSES];
        self.other.clear();
    }

    /// Counts `n` more events of the clause at `index` of the list (see [`clause_index`]).
    #[inline]
    pub fn add_at(&mut self, index: usize, n: T) {
        debug_assert!(index < self.clauses.len());
        self.counts[index] += n;
    }

    /// Counts `n` more events of `clause`.
    #[inline]
    pub fn add(&mut self, clause: &'static str, n: T) {
        if n == T::default() {
            return;
        }
        if let Some(i) = self.clauses.iter().position(|&c| c == clause) {
            self.counts[i] += n;
        } else if let Some(e) = self.other.iter_mut().find(|e| e.0 == clause) {
            e.1 += n;
        } else {
            self.other.push((clause, n));
        }
    }

    /// Adds every event of `other`.
    pub fn merge<U: Count + Into<T>>(&mut self, other: &ClauseCounts<U>) {
        if self.clauses.is_empty() && self.other.is_empty() {
            self.clauses = other.clauses;
        }
        if std::ptr::eq(self.clauses, other.clauses) {
            // Counts past the list's length are never set.
            let n = self.clauses.len();
            for (a, &b) in self.counts[..n].iter_mut().zip(&other.counts[..n]) {
                *a += b.into();
            }
            for &(clause, n) in &other.other {
                self.add(clause, n.into());
            }
        } else {
            for (clause, n) in other.iter() {
                self.add(clause, n.into());
            }
        }
    }

    /// The clauses with events and their counts, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, T)> + '_ {
        self.clauses
            .iter()
            .copied()
            .zip(self.counts.iter().copied())
            .filter(|&(_, n)| n > T::default())
            .chain(self.other.iter().copied())
    }

    /// Keeps only the clauses `keep` accepts.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        for (c, n) in self.clauses.iter().zip(self.counts.iter_mut()) {
            if !keep(c) {
                *n = T::default();
            }
        }
        self.other.retain(|(c, _)| keep(c));
    }

    /// The counts as a sorted map.
    pub fn sorted(&self) -> std::collections::BTreeMap<&'static str, T> {
        let mut map = std::collections::BTreeMap::new();
        for (c, n) in self.iter() {
            *map.entry(c).or_default() += n;
        }
        map
    }
}

impl<T: Count> PartialEq for ClauseCounts<T> {
    fn eq(&self, other: &ClauseCounts<T>) -> bool {
        self.sorted() == other.sorted()
    }
}

impl<T: Count> Eq for ClauseCounts<T> {}

/// A ply played: the state reached and what happened.
#[derive(Clone, Debug)]
pub struct Ply<S> {
    /// The state after the move.
    pub state: S,
    /// What the move did.
    pub facts: PlyFacts,
}

/// A move the reading cannot finish: it reaches a point the rules leave open (the clause id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Silent(pub &'static str);

/// Why [`Game::play_checked`] did not play a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over (by this clause).
    #[error("the game is over ({0})")]
    GameOver(&'static str),
    /// The move is not among the legal moves of the position.
    #[error("the move is not legal here")]
    Illegal,
    /// The move reaches a point the reading leaves open (this clause).
    #[error("the move reaches a point the rules leave open ({0})")]
    Silent(&'static str),
}

/// A move as an action id: the stable integer of a move for front ends such as OpenSpiel
/// (docs/python.md).
pub trait Action: Copy {
    /// How many action ids the game has (ids are `0..COUNT`).
    const COUNT: u32;
    /// The move's id.
    fn action(self) -> u32;
}

/// One engine of one game under one rule reading, seen through typed states and moves.
/// Every engine of a game uses the same `Move` type, so engines can be run side by side.
pub trait Game: Sync {
    /// A game state (position plus whatever history the rules need).
    type State: Clone + Send + Sync;
    /// A move, small and `Copy`.
    type Move: Copy + Eq + fmt::Debug + Send;

    /// The game's name, as in clause ids and on the command line (e.g. `oware`).
    fn game_name(&self) -> &'static str;
    /// The start of a game.
    fn start(&self) -> Self::State;
    /// The player to move.
    fn to_move(&self, s: &Self::State) -> Side;
    /// The legal moves in the game's canonical order, written into `out` (cleared first); empty
    /// when the game is over.
    fn legal_moves(&self, s: &Self::State, out: &mut Vec<Self::Move>);
    /// Plays a legal move, trusting its caller (an engine may panic on an illegal one, or play
    /// it anyhow); `Err` names the clause the reading leaves open if the move reaches it. A move
    /// from outside is played with [`Game::play_checked`].
    fn play(&self, s: &Self::State, mv: Self::Move) -> Result<Ply<Self::State>, Silent>;
    /// Plays `mv` if it is legal in `s`, or says why not: the game is over, the move is not
    /// among the legal moves, or it reaches a point the reading leaves open. Never panics.
    fn play_checked(&self, s: &Self::State, mv: Self::Move) -> Result<Ply<Self::State>, PlayError> {
        if let Some(ending) = self.ending(s) {
            return Err(PlayError::GameOver(ending.clause));
        }
        let mut legal = Vec::new();
        self.legal_moves(s, &mut legal);
        if !legal.contains(&mv) {
            return Err(PlayError::Illegal);
        }
        self.play(s, mv)
            .map_err(|Silent(clause)| PlayError::Silent(clause))
    }
    /// The ending, once the game is over (no legal move, or a rule ended it).
    fn ending(&self, s: &Self::State) -> Option<Ending>;
    /// For a game over by its history, not its position alone (a repetition): the seeds each
    /// side had captured before that end, any sweep left out (the endgame databases count the
    /// seeds then on the board as shared evenly); `None` otherwise, and for every game by default.
    fn history_end(&self, _s: &Self::State) -> Option<[u32; 2]> {
        None
    }
    /// The game's observation of `s` (docs/python.md, the vector environments'), for policies
    /// learned on it; `None` where the engine has none.
    fn observe(&self, _s: &Self::State) -> Option<Vec<f32>> {
        None
    }
    /// The action id of `mv` (docs/python.md); `None` where the engine has none.
    fn action_id(&self, _mv: Self::Move) -> Option<u32> {
        None
    }
    /// The byte a move adds to a game's `moves_hash` (see [`crate::playout::moves_hash_step`]):
    /// Bao the move's ring index (bits 0-3), hand (bit 4: `>`) and house play (bit 5: `+`);
    /// Oware the pit, 0 to 5 from the mover's left.
    fn move_code(&self, mv: Self::Move) -> u8;
    /// The state of a position written in the game's position text (docs/formats.md), with the
    /// player to move as the text says; or why the text is not one.
    fn state_from_text(&self, text: &str) -> Result<Self::State, String>;
    /// Plays a legal move in place; on `Err` (the move reaches a point the reading leaves open)
    /// `s` is unchanged.
    fn play_in_place(&self, s: &mut Self::State, mv: Self::Move) -> Result<PlyFacts, Silent> {
        let ply = self.play(s, mv)?;
        *s = ply.state;
        Ok(ply.facts)
    }
    /// Draws a uniformly random legal move with `draw` and plays it in place; `None` when there is
    /// none. Every engine of a game draws the same move from the same `draw` (the game defines
    /// how).
    fn play_random(
        &self,
        s: &mut Self::State,
        draw: Draw,
    ) -> Option<Result<(Self::Move, PlyFacts), Silent>>;
    /// [`Game::play_random`] writing what the ply did into `facts` (overwritten) rather than
    /// returning it: the playout loop's form, which copies no facts per ply.
    fn play_random_into(
        &self,
        s: &mut Self::State,
        draw: Draw,
        facts: &mut PlyFacts,
    ) -> Option<Result<Self::Move, Silent>> {
        Some(self.play_random(s, draw)?.map(|(mv, f)| {
            *facts = f;
            mv
        }))
    }
    /// Every legal move with the ply it gives, in canonical order, written into `out` (cleared
    /// first). Engines that find the plies while listing the moves override this.
    #[allow(clippy::type_complexity)]
    fn successors(
        &self,
        s: &Self::State,
        out: &mut Vec<(Self::Move, Result<Ply<Self::State>, Silent>)>,
    ) {
        let mut moves = Vec::new();
        self.legal_moves(s, &mut moves);
        out.clear();
        out.extend(moves.into_iter().map(|mv| (mv, self.play(s, mv))));
    }
    /// Every legal move with the seeds it captures (`None`: a move the rules leave open), in
    /// canonical order, written into `out` (cleared first); the plies themselves are not kept.
    fn gains(&self, s: &Self::State, out: &mut Vec<(Self::Move, Option<u32>)>) {
        let mut all = Vec::new();
        self.successors(s, &mut all);
        out.clear();
        out.extend(
            all.into_iter()
                .map(|(mv, ply)| (mv, ply.ok().map(|p| p.facts.seeds_captured))),
        );
    }
    /// The most seeds one legal move of `s` captures (a move the rules leave open: 0); `None`
    /// when no move is legal.
    fn max_capture(&self, s: &Self::State) -> Option<u32> {
        let mut all = Vec::new();
        self.successors(s, &mut all);
        all.iter()
            .map(|(_, ply)| ply.as_ref().map_or(0, |p| p.facts.seeds_captured))
            .max()
    }
    /// For a two-ply search: the seeds `mv` captures and the most seeds a reply then captures,
    /// when the engine can tell cheaply that the game goes on; `None` asks the caller to play it.
    fn capture_and_best_reply(&self, _s: &Self::State, _mv: Self::Move) -> Option<(u32, u32)> {
        None
    }
    /// The clause ids whose events this game's engines all report in [`PlyFacts::events`] (the
    /// reference engines' traces hold more; those are kept only where this list names them).
    fn counted_events(&self) -> &'static [&'static str];
    /// The counted events that no position of this game can fire, each with the reason (so that
    /// a count of 0 for them reads as "cannot", not "did not happen").
    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// The move in the game's canonical notation.
    fn notation(&self, s: &Self::State, mv: Self::Move) -> String;
    /// The final scores (Oware: seeds taken, after any sweep; Bao: seeds on each side).
    fn scores(&self, s: &Self::State) -> [u32; 2];
    /// The Zobrist key of the position in `s` ([`crate::zobrist`]), the same for every engine of
    /// the game; a repetition history is left out.
    fn key(&self, s: &Self::State) -> u64;
    /// A static evaluation of `s` from South's point of view (more is better for South): by
    /// default South's score minus North's; a game may weigh more terms.
    fn evaluate(&self, s: &Self::State) -> i32 {
        let [south, north] = self.scores(s);
        south as i32 - north as i32
    }
    /// The game's moves as the endgame databases play them on this engine ([`crate::retro`]),
    /// and whether its play can go round in circles; or why it has none (Bao, an open reading).
    fn retro(&self) -> Result<(Box<dyn crate::retro::Retro>, bool), String> {
        Err(format!("{} has no endgame databases", self.game_name()))
    }
    /// The pits of `s` as the databases see them, the mover's row first; `None` without them.
    fn board(&self, _s: &Self::State) -> Option<crate::retro::Board> {
        None
    }
    /// The state at `board` (the mover's row first): South to move, nothing won, no history;
    /// `None` for a game without databases.
    fn board_state(&self, _board: &crate::retro::Board) -> Option<Self::State> {
        None
    }
}

/// Move-path count to `depth` plies from `s` (a game over, or a move the reading leaves open,
/// ends a path early and counts nothing further): the same function for every engine.
pub fn perft<G: Game>(game: &G, s: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        let mut moves = Vec::new();
        game.legal_moves(s, &mut moves);
        return moves.len() as u64;
    }
    let mut plies = Vec::new();
    game.successors(s, &mut plies);
    plies
        .iter()
        .map(|(_, ply)| ply.as_ref().map_or(0, |p| perft(game, &p.state, depth - 1)))
        .sum()
}

/// The random words of one ply of one game: a counter-based function of (seed, game, ply,
/// attempt), so a game index names one game whatever the engine, thread, shard or vector lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    keys: [u32; 2],
    ply: u32,
}

impl Draw {
    /// The draws of ply `ply` of the game with `keys` ([`game_keys`]).
    pub fn new(keys: [u32; 2], ply: u32) -> Draw {
        Draw { keys, ply }
    }

    /// The `attempt`-th random word of this ply (attempt 0 is the batch engine's word).
    #[inline(always)]
    pub fn word(self, attempt: u32) -> u32 {
        let w = draw_word(self.keys, self.ply);
        if attempt == 0 {
            w
        } else {
            fmix32(w ^ fmix32(attempt.wrapping_mul(GOLDEN)))
        }
    }

    /// A number below `n` (1 to 2^24) from the `attempt`-th word.
    #[inline(always)]
    pub fn below(self, n: usize, attempt: u32) -> usize {
        pick(self.word(attempt), n as u32) as usize
    }
}

/// The two 32-bit keys of game `game` under `seed` (distinct for distinct games: a bijection).
pub fn game_keys(seed: u64, game: u64) -> [u32; 2] {
    let z = splitmix64(splitmix64(seed) ^ game);
    [z as u32, (z >> 32) as u32]
}

/// The random word a game with `keys` draws first at ply `ply`.
#[inline(always)]
pub fn draw_word(keys: [u32; 2], ply: u32) -> u32 {
    fmix32(fmix32(keys[0].wrapping_add(ply.wrapping_mul(GOLDEN))) ^ keys[1])
}

/// Which of `count` (1 to 2^24) choices a draw of `word` picks: the top 24 bits scaled to `count`
/// (off from uniform by less than `count` in 16 million).
#[inline(always)]
pub fn pick(word: u32, count: u32) -> u32 {
    (((word >> 8) as u64 * count as u64) >> 24) as u32
}

/// The golden-ratio step between the plies' counters.
pub(crate) const GOLDEN: u32 = 0x9e37_79b9;

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline(always)]
pub(crate) fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_covers_every_choice_evenly() {
        // Words spread evenly over 2^32 pick each of 6 choices 1/6 of the time.
        let mut hits = [0u32; 6];
        for i in 0..6000u32 {
            hits[pick(i.wrapping_mul(715_827_883), 6) as usize] += 1;
        }
        assert!(hits.iter().all(|&h| (900..=1100).contains(&h)), "{hits:?}");
        assert_eq!(pick(u32::MAX, 6), 5);
        assert_eq!(pick(0, 6), 0);
    }

    #[test]
    fn draws_differ_by_game_ply_and_attempt() {
        let (a, b) = (game_keys(1, 0), game_keys(1, 1));
        assert_ne!(a, b);
        let d = Draw::new(a, 3);
        assert_eq!(d.word(0), draw_word(a, 3));
        assert_ne!(d.word(1), d.word(0));
        assert_ne!(d.word(1), d.word(2));
        assert_ne!(Draw::new(a, 4).word(0), d.word(0));
    }
}
