//! The reference and optimized Kalah engines behind the typed [`crate::game::Game`], with the
//! clause events both report.

use super::fast::{FastPly, FastRules, FastState};
use super::notation::Move;
use super::position::Position;
use super::rules::{Outcome, Rules, State};
use super::variant::Variant;
use super::Side;
use crate::game::{Draw, Ending, Events, Ply, PlyFacts, Silent, Verdict};

/// Every clause event of the Kalah rules: both engines report all of them.
pub static KALAH_COUNTED_EVENTS: &[&str] = &["K.2.1", "K.2.4", "K.3.1", "K.3.2", "K.4.1", "K.4.4"];

/// Why a reading without a ply cap never fires K.4.4.
static NO_CAP: &[(&str, &str)] = &[(
    "K.4.4",
    "the reading sets no ply cap (`cap=none`), so only K.4.1 ends a game",
)];

/// The events `variant` can never fire, with the reason.
fn kalah_events_that_cannot_fire(variant: &Variant) -> &'static [(&'static str, &'static str)] {
    if variant.ply_cap.is_none() {
        NO_CAP
    } else {
        &[]
    }
}

/// The typed ending of an outcome.
fn ending_of(outcome: Outcome) -> Ending {
    Ending {
        verdict: match outcome.winner {
            Some(side) => Verdict::Win(side),
            None => Verdict::Draw,
        },
        clause: outcome.clause,
    }
}

/// The Zobrist key of a position: both rows (padded to 6 pits), both stores and the mover.
fn key_of(rows: [&[u8]; 2], stores: [u8; 2], mover: Side) -> u64 {
    let mut cells = [0u8; 15];
    for (i, row) in rows.into_iter().enumerate() {
        cells[6 * i..6 * i + row.len()].copy_from_slice(row);
    }
    cells[12..14].copy_from_slice(&stores);
    cells[14] = mover.index() as u8;
    crate::zobrist::key(&cells)
}

/// The scores: the final ones once the game is over, the stores before.
fn scores_of(stores: [u8; 2], outcome: Option<Outcome>) -> [u32; 2] {
    outcome.map_or(stores, |o| o.scores).map(u32::from)
}

impl crate::game::Game for Rules {
    type State = State;
    type Move = Move;

    fn game_name(&self) -> &'static str {
        "kalah"
    }

    fn observe(&self, s: &Self::State) -> Option<Vec<f32>> {
        let p = crate::registry::EngineOf::<crate::kalah::Kalah>::position(self, s).ok()?;
        Some(<crate::kalah::Kalah as crate::registry::Mancala>::observation(&p))
    }

    fn action_id(&self, mv: Move) -> Option<u32> {
        Some(crate::game::Action::action(mv))
    }

    fn move_code(&self, mv: Move) -> u8 {
        mv.pit
    }

    fn state_from_text(&self, text: &str) -> Result<State, String> {
        let p = Position::parse(text, &self.variant).map_err(|e| e.to_string())?;
        Ok(self.state_from(p))
    }

    fn retro(&self) -> Result<(Box<dyn crate::retro::Retro>, bool), String> {
        Ok((
            Box::new(super::retro::ReferenceRetro::new(self.variant)),
            false,
        ))
    }

    fn board(&self, s: &State) -> Option<crate::retro::Board> {
        Some(super::retro::board_of(s.position()))
    }

    fn board_state(&self, board: &crate::retro::Board) -> Option<State> {
        let m = usize::from(self.variant.pits);
        Some(self.state_from(super::retro::position_of(board, m)))
    }

    fn start(&self) -> State {
        self.new_game()
    }

    fn to_move(&self, s: &State) -> Side {
        s.position().to_move()
    }

    fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        out.extend(Rules::legal_moves(self, s));
    }

    fn play(&self, s: &State, mv: Move) -> Result<Ply<State>, Silent> {
        let played = Rules::play(self, s, mv).expect("a legal move plays");
        let facts = PlyFacts {
            seeds_captured: u32::from(played.captured),
            events: Events::of_trace(
                KALAH_COUNTED_EVENTS,
                played.trace.iter().map(|step| step.clause),
                1,
            ),
            ..PlyFacts::default()
        };
        Ok(Ply {
            state: played.state,
            facts,
        })
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        s.outcome().map(ending_of)
    }

    fn play_random(&self, s: &mut State, draw: Draw) -> Option<Result<(Move, PlyFacts), Silent>> {
        // The k-th legal move, k drawn uniformly.
        let legal = Rules::legal_moves(self, s);
        let mv = *legal.get(draw.below(legal.len().max(1), 0))?;
        Some(self.play_in_place(s, mv).map(|facts| (mv, facts)))
    }

    fn counted_events(&self) -> &'static [&'static str] {
        KALAH_COUNTED_EVENTS
    }

    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)] {
        kalah_events_that_cannot_fire(&self.variant)
    }

    fn notation(&self, s: &State, mv: Move) -> String {
        mv.letter(s.position().to_move()).to_string()
    }

    fn scores(&self, s: &State) -> [u32; 2] {
        let p = s.position();
        scores_of(Side::BOTH.map(|side| p.store(side)), s.outcome())
    }

    fn key(&self, s: &State) -> u64 {
        let p = s.position();
        let stores = Side::BOTH.map(|side| p.store(side));
        key_of(Side::BOTH.map(|side| p.row(side)), stores, p.to_move())
    }
}

/// Event indices of the optimized engine's plies and the word board's games (fixed at compile
/// time).
pub(super) const SOW: usize = crate::game::clause_index(KALAH_COUNTED_EVENTS, "K.2.1");
pub(super) const AGAIN: usize = crate::game::clause_index(KALAH_COUNTED_EVENTS, "K.2.4");
pub(super) const CAPTURE: usize = crate::game::clause_index(KALAH_COUNTED_EVENTS, "K.3.1");
pub(super) const EMPTY_OPPOSITE: usize = crate::game::clause_index(KALAH_COUNTED_EVENTS, "K.3.2");
pub(super) const ROW_EMPTY: usize = crate::game::clause_index(KALAH_COUNTED_EVENTS, "K.4.1");
pub(super) const CAP: usize = crate::game::clause_index(KALAH_COUNTED_EVENTS, "K.4.4");

impl FastRules {
    /// The facts of a ply that did `ply` and left `state`, in the reference engine's terms.
    fn facts(&self, ply: FastPly, state: &FastState, facts: &mut PlyFacts) {
        facts.seeds_captured = u32::from(ply.captured);
        let events = &mut facts.events;
        events.reset(KALAH_COUNTED_EVENTS);
        events.add_at(SOW, 1);
        if ply.extra_turn {
            events.add_at(AGAIN, 1);
        }
        if ply.opposite_empty {
            events.add_at(EMPTY_OPPOSITE, 1);
        } else if ply.captured > 0 {
            events.add_at(CAPTURE, 1);
        }
        match state.outcome().map(|o| o.clause) {
            Some("K.4.1") => events.add_at(ROW_EMPTY, 1),
            Some(_) => events.add_at(CAP, 1),
            None => {}
        }
    }
}

impl crate::game::Game for FastRules {
    type State = FastState;
    type Move = Move;

    fn game_name(&self) -> &'static str {
        "kalah"
    }

    fn observe(&self, s: &Self::State) -> Option<Vec<f32>> {
        let p = crate::registry::EngineOf::<crate::kalah::Kalah>::position(self, s).ok()?;
        Some(<crate::kalah::Kalah as crate::registry::Mancala>::observation(&p))
    }

    fn action_id(&self, mv: Move) -> Option<u32> {
        Some(crate::game::Action::action(mv))
    }

    fn move_code(&self, mv: Move) -> u8 {
        mv.pit
    }

    fn state_from_text(&self, text: &str) -> Result<FastState, String> {
        let p = Position::parse(text, &self.variant()).map_err(|e| e.to_string())?;
        Ok(self.from_position(&p))
    }

    fn retro(&self) -> Result<(Box<dyn crate::retro::Retro>, bool), String> {
        Ok((
            Box::new(super::retro::FastRetro::new(self.variant())),
            false,
        ))
    }

    fn board(&self, s: &FastState) -> Option<crate::retro::Board> {
        // Not `position`: a board of the databases holds fewer seeds than the reading's start.
        let m = usize::from(self.variant().pits);
        let mut pits = [0; 12];
        pits[..m].copy_from_slice(self.row_and_store(s, Side::South).0);
        pits[m..2 * m].copy_from_slice(self.row_and_store(s, Side::North).0);
        Some(crate::retro::mover_first(&pits, m, s.to_move()))
    }

    fn board_state(&self, board: &crate::retro::Board) -> Option<FastState> {
        let m = usize::from(self.variant().pits);
        Some(self.from_position(&super::retro::position_of(board, m)))
    }

    fn start(&self) -> FastState {
        self.new_game()
    }

    fn to_move(&self, s: &FastState) -> Side {
        s.to_move()
    }

    fn legal_moves(&self, s: &FastState, out: &mut Vec<Move>) {
        FastRules::legal_moves(self, s, out);
    }

    fn play(&self, s: &FastState, mv: Move) -> Result<Ply<FastState>, Silent> {
        let mut state = *s;
        let mut facts = PlyFacts::default();
        let ply = FastRules::play(self, &mut state, mv);
        self.facts(ply, &state, &mut facts);
        Ok(Ply { state, facts })
    }

    fn play_in_place(&self, s: &mut FastState, mv: Move) -> Result<PlyFacts, Silent> {
        let mut facts = PlyFacts::default();
        let ply = FastRules::play(self, s, mv);
        self.facts(ply, s, &mut facts);
        Ok(facts)
    }

    fn ending(&self, s: &FastState) -> Option<Ending> {
        s.outcome().map(ending_of)
    }

    fn play_random(
        &self,
        s: &mut FastState,
        draw: Draw,
    ) -> Option<Result<(Move, PlyFacts), Silent>> {
        let mut facts = PlyFacts::default();
        let mv = self.play_random_into(s, draw, &mut facts)?.ok()?;
        Some(Ok((mv, facts)))
    }

    fn play_random_into(
        &self,
        s: &mut FastState,
        draw: Draw,
        facts: &mut PlyFacts,
    ) -> Option<Result<Move, Silent>> {
        // The k-th non-empty pit from the mover's left, k drawn uniformly: the reference's draw.
        if s.outcome().is_some() {
            return None;
        }
        let mut legal = [Move { pit: 0 }; 6];
        let mut n = 0;
        for pit in 0..self.variant().pits {
            if self.mover_pit(s, pit) > 0 {
                legal[n] = Move { pit };
                n += 1;
            }
        }
        let mv = legal[draw.below(n.max(1), 0)];
        let ply = FastRules::play(self, s, mv);
        self.facts(ply, s, facts);
        Some(Ok(mv))
    }

    fn counted_events(&self) -> &'static [&'static str] {
        KALAH_COUNTED_EVENTS
    }

    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)] {
        kalah_events_that_cannot_fire(&self.variant())
    }

    fn notation(&self, s: &FastState, mv: Move) -> String {
        mv.letter(s.to_move()).to_string()
    }

    fn scores(&self, s: &FastState) -> [u32; 2] {
        let stores = Side::BOTH.map(|side| self.row_and_store(s, side).1);
        scores_of(stores, s.outcome())
    }

    fn key(&self, s: &FastState) -> u64 {
        let [south, north] = Side::BOTH.map(|side| self.row_and_store(s, side));
        key_of([south.0, north.0], [south.1, north.1], s.to_move())
    }
}
