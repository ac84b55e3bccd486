//! The reference and optimized Oware engines behind the typed [`crate::game::Game`], with the
//! clause events both report.

use super::fast::{FastGame, FastRules, SowEvents, SELECT};
use super::game::Verdict as RulesVerdict;
use super::notation::Move;
use super::rules::Rules;
use super::variant::{GrandSlam, NoAllowedMove};
use super::{Game, Side, Variant};
use crate::game::{Draw, Ending, Events, Ply, PlyFacts, Silent, Verdict};

fn side_of(i: u8) -> Side {
    if i == 0 {
        Side::South
    } else {
        Side::North
    }
}

impl crate::game::Game for Rules {
    type State = Game;
    type Move = Move;

    fn game_name(&self) -> &'static str {
        "oware"
    }

    fn observe(&self, s: &Self::State) -> Option<Vec<f32>> {
        let p = crate::registry::EngineOf::<crate::oware::Oware>::position(self, s).ok()?;
        Some(<crate::oware::Oware as crate::registry::Mancala>::observation(&p))
    }

    fn action_id(&self, mv: Move) -> Option<u32> {
        Some(crate::game::Action::action(mv))
    }

    fn move_code(&self, mv: Move) -> u8 {
        mv.pit
    }

    fn state_from_text(&self, text: &str) -> Result<Game, String> {
        let p = super::Position::parse(text).map_err(|e| e.to_string())?;
        Ok(self.game_from(p))
    }

    fn retro(&self) -> Result<(Box<dyn crate::retro::Retro>, bool), String> {
        let r = super::retro::ReferenceRetro::new(self.variant).map_err(|e| e.to_string())?;
        Ok((Box::new(r), true))
    }

    fn board(&self, s: &Game) -> Option<crate::retro::Board> {
        let p = s.position();
        Some(crate::retro::mover_first(&p.pits(), 6, p.to_move()))
    }

    fn board_state(&self, board: &crate::retro::Board) -> Option<Game> {
        Some(self.game_from(super::retro::position_of(board)))
    }

    fn start(&self) -> Game {
        self.new_game()
    }

    fn to_move(&self, s: &Game) -> Side {
        s.position().to_move()
    }

    fn legal_moves(&self, s: &Game, out: &mut Vec<Move>) {
        out.clear();
        out.extend(Rules::legal_moves(self, s));
    }

    fn play(&self, s: &Game, mv: Move) -> Result<Ply<Game>, Silent> {
        let played = Rules::play(self, s, mv).expect("a legal move plays");
        let facts = PlyFacts {
            seeds_captured: u32::from(played.captured),
            undefined: played.undefined.len() as u32,
            events: Events::of_trace(
                OWARE_COUNTED_EVENTS,
                played.trace.iter().map(|step| step.clause),
                1,
            ),
            ..PlyFacts::default()
        };
        Ok(Ply {
            state: played.game,
            facts,
        })
    }

    fn ending(&self, s: &Game) -> Option<Ending> {
        s.outcome().map(|o| Ending {
            verdict: match (o.verdict, o.winner) {
                (RulesVerdict::RulesSilent, _) => Verdict::RulesSilent,
                (_, Some(side)) => Verdict::Win(side),
                (_, None) => Verdict::Draw,
            },
            clause: o.clause,
        })
    }

    fn history_end(&self, s: &Game) -> Option<[u32; 2]> {
        // The repetition rule, O.6.2: the last position since the last capture is the one before
        // the sweep.
        let before = s.since_capture.last()?;
        s.outcome()
            .filter(|o| o.clause == "O.6.2")
            .map(|_| [Side::South, Side::North].map(|side| u32::from(before.score(side))))
    }

    fn play_random(&self, s: &mut Game, draw: Draw) -> Option<Result<(Move, PlyFacts), Silent>> {
        // The k-th legal move, k drawn uniformly: the batch engine's draw.
        let legal = Rules::legal_moves(self, s);
        let mv = *legal.get(draw.below(legal.len().max(1), 0))?;
        Some(self.play_in_place(s, mv).map(|facts| (mv, facts)))
    }

    fn counted_events(&self) -> &'static [&'static str] {
        OWARE_COUNTED_EVENTS
    }

    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)] {
        oware_events_that_cannot_fire(&self.variant)
    }

    fn notation(&self, s: &Game, mv: Move) -> String {
        mv.letter(s.position().to_move()).to_string()
    }

    fn scores(&self, s: &Game) -> [u32; 2] {
        [Side::South, Side::North].map(|side| u32::from(s.position().score(side)))
    }

    fn key(&self, s: &Game) -> u64 {
        let p = s.position();
        let scores = [Side::South, Side::North].map(|side| p.score(side));
        key_of(p.pits(), scores, p.to_move().index() as u8)
    }
}

/// Every clause event of the Oware rules: both engines report all of them.
pub static OWARE_COUNTED_EVENTS: &[&str] = &[
    "O.2.3", "O.2.4", "O.3.1", "O.3.2", "O.4.1", "O.4.2", "O.5.2", "O.6.1", "O.6.2",
];

/// Why no Oware position can fire O.5.2 (under every reading).
const DRAW_AT_24_EACH: (&str, &str) = (
    "O.5.2",
    "24 captured each means all 48 seeds captured, and the capture that empties the board \
     takes the opponent's last seeds: a grand slam, which O.4.1 forbids or lets capture nothing \
     under every reading (spec/findings/oware.md, S10)",
);

/// Why no position fires O.4.1 (a grand slam played, capturing nothing) under a reading that
/// forbids the grand slam and never lets a forbidden one be played.
const GRAND_SLAM_PLAYED: (&str, &str) = (
    "O.4.1",
    "the event is a grand slam played and capturing nothing, and this reading forbids the \
     grand slam (grand_slam: Forbidden) without letting a forbidden one be played when no other \
     move is (no_allowed_move)",
);

/// The counted events no position can fire under `variant`, and why.
pub fn oware_events_that_cannot_fire(variant: &Variant) -> &'static [(&'static str, &'static str)] {
    static EVERY_READING: [(&str, &str); 1] = [DRAW_AT_24_EACH];
    static NO_GRAND_SLAM: [(&str, &str); 2] = [GRAND_SLAM_PLAYED, DRAW_AT_24_EACH];
    if variant.grand_slam == GrandSlam::Forbidden
        && variant.no_allowed_move != NoAllowedMove::AllowGrandSlamWithoutCapture
    {
        &NO_GRAND_SLAM
    } else {
        &EVERY_READING
    }
}

/// 1 when a game ended by `clause`, each side sweeping `swept`, ended where the sheet is silent
/// and the reading decided (O.6.2; O.4.2 with seeds on both rows), else 0: what `rules.rs`
/// reports as `Played::undefined`, worked out from the end alone.
pub fn undefined_end(clause: &str, swept: [u8; 2]) -> u32 {
    match clause {
        "O.6.2" => 1,
        "O.4.2" => u32::from(swept[0] > 0 && swept[1] > 0),
        _ => 0,
    }
}

/// The index of a clause in [`OWARE_COUNTED_EVENTS`], at compile time.
macro_rules! at {
    ($clause:literal) => {
        const { crate::game::clause_index($crate::oware::engines::OWARE_COUNTED_EVENTS, $clause) }
    };
}
pub(crate) use at;

/// The clause events of one sowing, as the reference engine's trace names them, written into
/// `events` (overwritten).
fn sow_clause_events(sown: SowEvents, events: &mut Events) {
    events.reset(OWARE_COUNTED_EVENTS);
    // spec: oware O.2.3 every move sows
    events.add_at(at!("O.2.3"), 1);
    events.add_at(at!("O.2.4"), u32::from(sown.lap));
    let pits = u32::from(sown.pits_captured);
    events.add_at(at!("O.3.1"), pits.min(1));
    events.add_at(at!("O.3.2"), pits.saturating_sub(1));
    events.add_at(at!("O.4.1"), u32::from(sown.empty_slam));
}

impl FastRules {
    /// Plays pit `pit` on a copy of `g` and says what the move did.
    fn ply(&self, g: &FastGame, pit: u8) -> Ply<FastGame> {
        let mut next = g.clone();
        let mut facts = PlyFacts::default();
        self.ply_in_place(&mut next, pit, &mut facts);
        Ply { state: next, facts }
    }

    /// Plays pit `pit` on `next` in place and writes what the move did into `facts`
    /// (overwritten).
    #[inline]
    fn ply_in_place(&self, next: &mut FastGame, pit: u8, facts: &mut PlyFacts) {
        let me = usize::from(next.to_move());
        let before = next.scores()[me];
        let sown = self.sow_events(next, pit);
        self.play(next, pit);
        sow_clause_events(sown, &mut facts.events);
        if next.result.is_some() {
            facts.events.add(next.end_clause, 1);
        }
        let gained = next.scores()[me] - before - next.swept[me];
        facts.seeds_captured = u32::from(gained);
        facts.undefined = undefined_end(next.end_clause, next.swept);
        (facts.harvests, facts.sown, facts.houses_lost, facts.mtaji) = (0, 0, 0, false);
    }
}

impl crate::game::Game for FastRules {
    type State = FastGame;
    type Move = Move;

    fn game_name(&self) -> &'static str {
        "oware"
    }

    fn observe(&self, s: &Self::State) -> Option<Vec<f32>> {
        let p = crate::registry::EngineOf::<crate::oware::Oware>::position(self, s).ok()?;
        Some(<crate::oware::Oware as crate::registry::Mancala>::observation(&p))
    }

    fn action_id(&self, mv: Move) -> Option<u32> {
        Some(crate::game::Action::action(mv))
    }

    fn move_code(&self, mv: Move) -> u8 {
        mv.pit
    }

    fn state_from_text(&self, text: &str) -> Result<FastGame, String> {
        let p = super::Position::parse(text).map_err(|e| e.to_string())?;
        let scores = [p.score(Side::South), p.score(Side::North)];
        Ok(self.game(p.pits(), scores, p.to_move().index() as u8))
    }

    fn retro(&self) -> Result<(Box<dyn crate::retro::Retro>, bool), String> {
        let r = super::retro::FastRetro::new(self.variant()).map_err(|e| e.to_string())?;
        Ok((Box::new(r), true))
    }

    fn board(&self, s: &FastGame) -> Option<crate::retro::Board> {
        Some(crate::retro::mover_first(
            &s.pits(),
            6,
            side_of(s.to_move()),
        ))
    }

    fn board_state(&self, board: &crate::retro::Board) -> Option<FastGame> {
        Some(self.game(*board, [0; 2], 0))
    }

    fn start(&self) -> FastGame {
        FastRules::start(self)
    }

    fn to_move(&self, s: &FastGame) -> Side {
        side_of(s.to_move())
    }

    fn legal_moves(&self, s: &FastGame, out: &mut Vec<Move>) {
        out.clear();
        let mask = self.legal_mask(s);
        out.extend(
            (0..6)
                .filter(|i| mask & (1 << i) != 0)
                .map(|pit| Move { pit }),
        );
    }

    fn play(&self, s: &FastGame, mv: Move) -> Result<Ply<FastGame>, Silent> {
        Ok(self.ply(s, mv.pit))
    }

    fn ending(&self, s: &FastGame) -> Option<Ending> {
        s.result.map(|r| Ending {
            verdict: match r {
                0 => Verdict::Win(Side::South),
                1 => Verdict::Win(Side::North),
                _ => Verdict::Draw,
            },
            clause: s.end_clause,
        })
    }

    fn history_end(&self, s: &FastGame) -> Option<[u32; 2]> {
        // The repetition rule, O.6.2: the scores less what the sweep gave.
        (s.result.is_some() && s.end_clause == "O.6.2").then(|| {
            let (scores, swept) = (s.scores(), s.swept);
            [0, 1].map(|i| u32::from(scores[i] - swept[i]))
        })
    }

    fn gains(&self, s: &FastGame, out: &mut Vec<(Move, Option<u32>)>) {
        out.clear();
        let mask = self.legal_mask(s);
        out.extend(
            (0..6)
                .filter(|pit| mask & (1 << pit) != 0)
                .map(|pit| (Move { pit }, Some(u32::from(self.captures(s, pit))))),
        );
    }

    fn capture_and_best_reply(&self, s: &FastGame, mv: Move) -> Option<(u32, u32)> {
        FastRules::capture_and_best_reply(self, s, mv.pit)
            .map(|(now, reply)| (u32::from(now), u32::from(reply)))
    }

    fn max_capture(&self, s: &FastGame) -> Option<u32> {
        let mask = self.legal_mask(s);
        (0..6)
            .filter(|pit| mask & (1 << pit) != 0)
            .map(|pit| u32::from(self.captures(s, pit)))
            .max()
    }

    fn play_in_place(&self, s: &mut FastGame, mv: Move) -> Result<PlyFacts, Silent> {
        let mut facts = PlyFacts::default();
        self.ply_in_place(s, mv.pit, &mut facts);
        Ok(facts)
    }

    fn play_random(
        &self,
        s: &mut FastGame,
        draw: Draw,
    ) -> Option<Result<(Move, PlyFacts), Silent>> {
        let mask = self.legal_mask(s);
        if mask == 0 {
            return None;
        }
        let mut facts = PlyFacts::default();
        let mv = self.play_random_into(s, draw, &mut facts)?;
        Some(mv.map(|mv| (mv, facts)))
    }

    #[inline]
    fn play_random_into(
        &self,
        s: &mut FastGame,
        draw: Draw,
        facts: &mut PlyFacts,
    ) -> Option<Result<Move, Silent>> {
        let mask = self.legal_mask(s);
        if mask == 0 {
            return None;
        }
        let k = draw.below(mask.count_ones() as usize, 0);
        let pit = SELECT[usize::from(mask)][k];
        self.ply_in_place(s, pit, facts);
        Some(Ok(Move { pit }))
    }

    fn counted_events(&self) -> &'static [&'static str] {
        OWARE_COUNTED_EVENTS
    }

    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)] {
        oware_events_that_cannot_fire(&self.variant())
    }

    fn notation(&self, s: &FastGame, mv: Move) -> String {
        mv.letter(side_of(s.to_move())).to_string()
    }

    fn scores(&self, s: &FastGame) -> [u32; 2] {
        s.scores().map(u32::from)
    }

    fn key(&self, s: &FastGame) -> u64 {
        key_of(s.pits(), s.scores(), s.to_move())
    }
}

/// The Zobrist key of a position: its 12 pits, 2 scores and mover (0 South, 1 North).
fn key_of(pits: [u8; 12], scores: [u8; 2], to_move: u8) -> u64 {
    let mut cells = [0u8; 15];
    cells[..12].copy_from_slice(&pits);
    cells[12..].copy_from_slice(&[scores[0], scores[1], to_move]);
    crate::zobrist::key(&cells)
}
