//! The reference and optimized Bao engines behind the typed [`Game`], with the clause events
//! both report.

use super::board::{Board, Hand, Pit, Side};
use super::fast::{FastMove, FastPlay, FastPos, FastRules, FastState, NO_PIT, PLUS, RIGHT};
use super::notation::{Move, MoveKind};
use super::position::{Position, Setup, Stage};
use super::rules::{IllegalMove, Rules};
use crate::game::{clause_index, Draw, Ending, Events, Game, Ply, PlyFacts, Silent, Verdict};

/// A position of the optimized engine from a validated position.
pub fn to_fast(p: &Position) -> FastPos {
    let mut b = [0u8; 32];
    for side in Side::BOTH {
        for pit in Pit::all() {
            b[side.index() * 16 + pit.ring()] = p.board().get(side, pit);
        }
    }
    FastPos {
        pits: b,
        stores: [p.store(Side::South), p.store(Side::North)],
        houses: u8::from(p.house_owned(Side::South)) | (u8::from(p.house_owned(Side::North)) << 1),
        to_move: p.to_move().index() as u8,
        blocked: p.blocked().map_or(NO_PIT, |pit| pit.ring() as u8),
    }
}

/// The setup of an optimized-engine position (validate with `Position::from_setup`).
pub fn from_fast(f: &FastPos) -> Setup {
    let mut board = Board::empty();
    for side in Side::BOTH {
        for pit in Pit::all() {
            board.set(side, pit, f.pits[side.index() * 16 + pit.ring()]);
        }
    }
    Setup {
        board,
        stores: f.stores,
        house_owned: [f.houses & 1 != 0, f.houses & 2 != 0],
        to_move: if f.to_move == 0 {
            Side::South
        } else {
            Side::North
        },
        blocked: (f.blocked != NO_PIT).then(|| Pit::from_ring(usize::from(f.blocked))),
    }
}

/// The notation of an optimized-engine move.
pub fn fast_move_notation(side: Side, mv: u8, kind: MoveKind) -> String {
    let m = Move {
        pit: Pit::from_ring(usize::from(mv & 15)),
        hand: if mv & RIGHT != 0 {
            Hand::Right
        } else {
            Hand::Left
        },
        play_house: mv & PLUS != 0,
    };
    m.notation(side, kind)
}

/// The clause events both Bao engines report: every step the reference engine's trace logs, from
/// the start of a move (2.1.2, 2.2.1, 2.3, 2.3.2, 3.3, 3.4, 3.5, 3.5.1) through its sowings (1.3),
/// relays (1.6), harvests (1.4.2, 1.6.1) and their kichwas (1.4.4, 1.4.5, 2.2.2, 4.1), the house
/// (3.2, 4.2.1.1, 4.2.1.2, 4.2.2.2) to how it ends (1.2.1, 1.5.4, 1.5.6, 1.6.2, 4.2.2.3.1,
/// 4.2.2.3.2, 5.2) and the kutakatia it leaves (5.1).
pub static BAO_COUNTED_EVENTS: &[&str] = &[
    "1.2.1",
    "1.3",
    "1.4.2",
    "1.4.4",
    "1.4.5",
    "1.5.4",
    "1.5.6",
    "1.6",
    "1.6.1",
    "1.6.2",
    "2.1.2",
    "2.2.1",
    "2.2.2",
    "2.3",
    "2.3.2",
    "3.2",
    "3.3",
    "3.4",
    "3.5",
    "3.5.1",
    "4.1",
    "4.2.1.1",
    "4.2.1.2",
    "4.2.2.2",
    "4.2.2.3.1",
    "4.2.2.3.2",
    "5.1",
    "5.2",
];

/// The optimized engine's byte of a move.
pub fn to_fast_move(mv: Move) -> FastMove {
    mv.pit.ring() as u8
        | if mv.hand == Hand::Right { RIGHT } else { 0 }
        | if mv.play_house { PLUS } else { 0 }
}

/// The move of an optimized-engine byte.
#[inline]
pub fn from_fast_move(mv: FastMove) -> Move {
    Move {
        pit: Pit::from_ring(usize::from(mv & 15)),
        hand: if mv & RIGHT != 0 {
            Hand::Right
        } else {
            Hand::Left
        },
        play_house: mv & PLUS != 0,
    }
}

fn side_of(to_move: u8) -> Side {
    if to_move == 0 {
        Side::South
    } else {
        Side::North
    }
}

impl Game for Rules {
    type State = Position;
    type Move = Move;

    fn game_name(&self) -> &'static str {
        "bao"
    }

    fn observe(&self, s: &Self::State) -> Option<Vec<f32>> {
        let p = crate::registry::EngineOf::<crate::bao::Bao>::position(self, s).ok()?;
        Some(<crate::bao::Bao as crate::registry::Mancala>::observation(
            &p,
        ))
    }

    fn action_id(&self, mv: Move) -> Option<u32> {
        Some(crate::game::Action::action(mv))
    }

    fn move_code(&self, mv: Move) -> u8 {
        to_fast_move(mv)
    }

    fn state_from_text(&self, text: &str) -> Result<Position, String> {
        super::position_text::parse(text).map_err(|e| e.to_string())
    }

    fn start(&self) -> Position {
        Position::start()
    }

    fn to_move(&self, s: &Position) -> Side {
        s.to_move()
    }

    fn legal_moves(&self, s: &Position, out: &mut Vec<Move>) {
        out.clear();
        out.extend(Rules::legal_moves(self, s));
    }

    fn play(&self, s: &Position, mv: Move) -> Result<Ply<Position>, Silent> {
        let played = match Rules::play(self, s, mv) {
            Ok(played) => played,
            Err(IllegalMove::RulesSilent { clause, .. }) => return Err(Silent(clause)),
            Err(e) => panic!("a legal move must play: {e}"),
        };
        let me = s.to_move();
        let them = me.opponent();
        let after = &played.position;
        let facts = PlyFacts {
            seeds_captured: s.board().side_total(them) - after.board().side_total(them),
            harvests: played.captures,
            sown: played.sown,
            houses_lost: Side::BOTH
                .iter()
                .filter(|&&side| s.house_owned(side) && !after.house_owned(side))
                .count() as u32,
            mtaji: s.stage() == Stage::Mtaji,
            undefined: played.undefined.len() as u32,
            events: Events::of_trace(
                BAO_COUNTED_EVENTS,
                played.trace.iter().map(|step| step.clause),
                1,
            ),
        };
        Ok(Ply {
            state: played.position,
            facts,
        })
    }

    fn ending(&self, s: &Position) -> Option<Ending> {
        self.outcome(s).map(|o| Ending {
            verdict: Verdict::Win(o.winner),
            clause: o.clause,
        })
    }

    fn play_random(
        &self,
        s: &mut Position,
        draw: Draw,
    ) -> Option<Result<(Move, PlyFacts), Silent>> {
        let legal = Rules::legal_moves(self, s);
        if legal.is_empty() {
            return None;
        }
        // The optimized engine's draw (`FastRules::random_move_with`): slots drawn until one
        // holds a legal move.
        let (starts, twins) = self.draw_slots(s);
        let per = if twins { 2 } else { 1 };
        let mut attempt = 0;
        loop {
            let slot = draw.below(starts.len() * per, attempt);
            attempt += 1;
            let mv = Move {
                play_house: twins && slot % per == 1,
                ..starts[slot / per]
            };
            if legal.contains(&mv) {
                return Some(self.play_in_place(s, mv).map(|facts| (mv, facts)));
            }
        }
    }

    fn counted_events(&self) -> &'static [&'static str] {
        BAO_COUNTED_EVENTS
    }

    fn notation(&self, s: &Position, mv: Move) -> String {
        Rules::notation(self, s, mv).unwrap_or_else(|e| format!("?{e}"))
    }

    fn scores(&self, s: &Position) -> [u32; 2] {
        Side::BOTH.map(|side| s.board().side_total(side))
    }

    fn key(&self, s: &Position) -> u64 {
        key_of(&to_fast(s))
    }

    fn evaluate(&self, s: &Position) -> i32 {
        evaluation(&to_fast(s))
    }
}

/// Seeds on `side`'s 16 pits.
#[inline]
fn side_seeds(p: &FastPos, side: usize) -> u32 {
    // Pits summed pairwise in ever wider lanes (a lane of k pits holds at most 255k).
    let ring = u128::from_le_bytes(p.pits[side * 16..side * 16 + 16].try_into().unwrap());
    let pairs = (ring & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff)
        + (ring >> 8 & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff);
    let quads = (pairs & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff)
        + (pairs >> 16 & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff);
    let total = (quads as u64) + ((quads >> 64) as u64);
    ((total & 0xffff_ffff) + (total >> 32)) as u32
}

/// The Zobrist key of a position: its 32 pits, 2 stores, houses, mover and kutakatia-ed pit.
fn key_of(p: &FastPos) -> u64 {
    let mut cells = [0u8; 37];
    cells[..32].copy_from_slice(&p.pits);
    cells[32..].copy_from_slice(&[p.stores[0], p.stores[1], p.houses, p.to_move, p.blocked]);
    crate::zobrist::key(&cells)
}

/// Seeds in `side`'s front row.
fn front_seeds(p: &FastPos, side: usize) -> i32 {
    p.pits[side * 16..side * 16 + 8]
        .iter()
        .map(|&s| i32::from(s))
        .sum()
}

/// The evaluation of a position from South's side: four points per seed a player holds (on
/// its side or in its store), one more per seed in its front row, which harvests and is the
/// row a player must keep filled (1.2.1).
fn evaluation(p: &FastPos) -> i32 {
    let held = |side: usize| side_seeds(p, side) as i32 + i32::from(p.stores[side]);
    4 * (held(0) - held(1)) + front_seeds(p, 0) - front_seeds(p, 1)
}

/// The index of a clause in [`BAO_COUNTED_EVENTS`], at compile time.
macro_rules! at {
    ($clause:literal) => {
        const { clause_index(BAO_COUNTED_EVENTS, $clause) }
    };
}

impl FastRules {
    /// What an optimized-engine move did, in the typed interface's figures.
    fn facts(before: &FastPos, mv: FastMove, played: &FastPlay) -> PlyFacts {
        let mut facts = PlyFacts::default();
        FastRules::facts_into(before, mv, played, &mut facts);
        facts
    }

    /// [`FastRules::facts`] written into `out` (overwritten).
    #[inline(always)]
    fn facts_into(before: &FastPos, mv: FastMove, played: &FastPlay, out: &mut PlyFacts) {
        let me = usize::from(before.to_move);
        let after = &played.state.pos;
        let kunamua = before.stores[me] > 0;
        // A kunamua kutakata whose store seed lifts the owned house from five to six: a point
        // the sources leave open (rules.rs, spec: bao 2.1.2); a kutakatia's duration is the other.
        let house_of_five = kunamua
            && played.harvests == 0
            && usize::from(mv & 15) == 4
            && before.houses & (1 << me) != 0
            && before.pits[me * 16 + 4] == 5;
        out.seeds_captured = side_seeds(before, 1 - me) - side_seeds(after, 1 - me);
        out.harvests = played.harvests;
        out.sown = played.sown;
        out.houses_lost = (before.houses & !after.houses).count_ones();
        out.mtaji = !kunamua;
        out.undefined = u32::from(house_of_five) + u32::from(after.blocked != NO_PIT);
        {
            let events = &mut out.events;
            events.reset(BAO_COUNTED_EVENTS);
            let path = played.path;
            let harvests = played.harvests;
            // How the move ended; a move that ends the game logs 1.2.1 as its end and as the
            // game's (rules.rs).
            let end = match played.end {
                "1.2.1" => at!("1.2.1"),
                "1.5.4" => at!("1.5.4"),
                "1.5.6" => at!("1.5.6"),
                "1.6.2" => at!("1.6.2"),
                "4.2.2.3.1" => at!("4.2.2.3.1"),
                "4.2.2.3.2" => at!("4.2.2.3.2"),
                "5.2" => at!("5.2"),
                _ => usize::MAX,
            };
            match end {
                usize::MAX => events.add(played.end, 1),
                _ => events.add_at(end, if end == at!("1.2.1") { 2 } else { 1 }),
            }
            // How it started: the store seed of kunamua (2.1.2), then a harvest (2.2.1), the
            // house tax (2.3.2, 4.2.2.2) or a kutakata (2.3, once more for its pick-up); in
            // mtaji the pick-up (3.3), then a harvest (3.4) or a kutakata from the front
            // (3.5) or back row (3.5.1).
            if kunamua {
                events.add_at(at!("2.1.2"), 1);
                if harvests > 0 {
                    events.add_at(at!("2.2.1"), 1);
                } else if path.tax {
                    events.add_at(at!("2.3.2"), 1);
                    events.add_at(at!("4.2.2.2"), 1);
                } else {
                    events.add_at(at!("2.3"), 1 + u32::from(path.sowings > 0));
                }
            } else {
                events.add_at(at!("3.3"), 1);
                let start = if harvests > 0 {
                    at!("3.4")
                } else if mv & 15 >= 8 {
                    at!("3.5.1")
                } else {
                    at!("3.5")
                };
                events.add_at(start, 1);
            }
            events.add_at(at!("1.3"), path.sowings);
            events.add_at(at!("1.6"), path.relays);
            // The first harvest of a move (1.4.2) and those that follow it (1.6.1), and the
            // kichwa each is sown from: at a left (1.4.5) or right (4.1) kichwa or kimbi, the
            // player's choice (2.2.2), or the direction of the move (1.4.4).
            events.add_at(at!("1.4.2"), harvests.min(1));
            events.add_at(at!("1.6.1"), harvests.saturating_sub(1));
            let ends = path.left_end_harvests + path.right_end_harvests + path.chosen_kichwas;
            events.add_at(at!("1.4.5"), path.left_end_harvests);
            events.add_at(at!("4.1"), path.right_end_harvests);
            events.add_at(at!("2.2.2"), path.chosen_kichwas);
            events.add_at(at!("1.4.4"), harvests - ends);
            events.add_at(at!("4.2.1.2"), u32::from(played.house_played));
            // spec: bao 5.1 the move kutakatia-ed a pit of the opponent
            events.add_at(at!("5.1"), u32::from(after.blocked != NO_PIT));
            // Houses lost at the first mtaji harvest (3.2, under the reading that ends them
            // there) and by being emptied or harvested (4.2.1.1).
            let lost = (before.houses & !after.houses).count_ones();
            events.add_at(at!("3.2"), path.houses_lost_at_mtaji_harvest);
            events.add_at(at!("4.2.1.1"), lost - path.houses_lost_at_mtaji_harvest);
        }
    }
}

impl Game for FastRules {
    type State = FastState;
    type Move = Move;

    fn game_name(&self) -> &'static str {
        "bao"
    }

    fn observe(&self, s: &Self::State) -> Option<Vec<f32>> {
        let p = crate::registry::EngineOf::<crate::bao::Bao>::position(self, s).ok()?;
        Some(<crate::bao::Bao as crate::registry::Mancala>::observation(
            &p,
        ))
    }

    fn action_id(&self, mv: Move) -> Option<u32> {
        Some(crate::game::Action::action(mv))
    }

    fn move_code(&self, mv: Move) -> u8 {
        to_fast_move(mv)
    }

    fn state_from_text(&self, text: &str) -> Result<FastState, String> {
        let p = super::position_text::parse(text).map_err(|e| e.to_string())?;
        Ok(FastState::new(to_fast(&p)))
    }

    fn start(&self) -> FastState {
        FastState::new(FastRules::start())
    }

    fn to_move(&self, s: &FastState) -> Side {
        side_of(s.pos.to_move)
    }

    fn legal_moves(&self, s: &FastState, out: &mut Vec<Move>) {
        out.clear();
        let list = FastRules::legal_moves(self, &s.pos);
        out.extend(list.moves[..list.len].iter().map(|&m| from_fast_move(m)));
    }

    fn play(&self, s: &FastState, mv: Move) -> Result<Ply<FastState>, Silent> {
        let fast = to_fast_move(mv);
        let played = self.play_state(s, fast);
        Ok(Ply {
            facts: FastRules::facts(&s.pos, fast, &played),
            state: played.state,
        })
    }

    fn ending(&self, s: &FastState) -> Option<Ending> {
        self.outcome(&s.pos).map(|o| Ending {
            verdict: Verdict::Win(side_of(o.winner)),
            clause: o.clause,
        })
    }

    fn successors(&self, s: &FastState, out: &mut Vec<(Move, Result<Ply<FastState>, Silent>)>) {
        out.clear();
        FastRules::successors(self, s, |mv, played| {
            let facts = FastRules::facts(&s.pos, mv, &played);
            out.push((
                from_fast_move(mv),
                Ok(Ply {
                    state: played.state,
                    facts,
                }),
            ));
        });
    }

    fn gains(&self, s: &FastState, out: &mut Vec<(Move, Option<u32>)>) {
        out.clear();
        let them = 1 - usize::from(s.pos.to_move);
        let before = side_seeds(&s.pos, them);
        FastRules::successors(self, s, |mv, played| {
            let gain = before - side_seeds(&played.state.pos, them);
            out.push((from_fast_move(mv), Some(gain)));
        });
    }

    fn max_capture(&self, s: &FastState) -> Option<u32> {
        self.max_harvest(s)
    }

    #[inline]
    fn play_random(
        &self,
        s: &mut FastState,
        draw: Draw,
    ) -> Option<Result<(Move, PlyFacts), Silent>> {
        let mut facts = PlyFacts::default();
        let mv = self.play_random_into(s, draw, &mut facts)?;
        Some(mv.map(|mv| (mv, facts)))
    }

    #[inline]
    fn play_random_into(
        &self,
        s: &mut FastState,
        draw: Draw,
        facts: &mut PlyFacts,
    ) -> Option<Result<Move, Silent>> {
        let (mv, played) = self.random_move_with(s, |n, attempt| draw.below(n, attempt))?;
        FastRules::facts_into(&s.pos, mv, &played, facts);
        *s = played.state;
        Some(Ok(from_fast_move(mv)))
    }

    fn counted_events(&self) -> &'static [&'static str] {
        BAO_COUNTED_EVENTS
    }

    fn notation(&self, s: &FastState, mv: Move) -> String {
        let list = FastRules::legal_moves(self, &s.pos);
        let fast = to_fast_move(mv);
        let kind = (0..list.len)
            .find(|&i| list.moves[i] == fast)
            .map_or(MoveKind::Capture, |i| list.kinds[i]);
        fast_move_notation(side_of(s.pos.to_move), fast, kind)
    }

    fn scores(&self, s: &FastState) -> [u32; 2] {
        [side_seeds(&s.pos, 0), side_seeds(&s.pos, 1)]
    }

    fn key(&self, s: &FastState) -> u64 {
        key_of(&s.pos)
    }

    fn evaluate(&self, s: &FastState) -> i32 {
        evaluation(&s.pos)
    }
}
