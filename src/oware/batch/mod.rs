//! Many Oware random playouts at once: one game per byte lane of a vector (64 lanes with AVX-512,
//! 32 with AVX2, 16 on the portable path), the board seen from the mover, the repetition rule
//! through a per-lane filter and a ring of past boards.
//!
//! The moves are drawn from a counter-based random function of (seed, game, ply), so each game is
//! the same whichever path, lane, batch or thread plays it, and [`scalar_playout`] replays it on
//! the optimized scalar engine ([`super::fast`]). [`BatchPath`] says which paths a processor runs.

use std::ops::Range;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub mod check;
mod lanes;
mod portable;

pub use crate::batch::{BatchPath, PathError, PATH_VARIABLE};

use super::fast::{FastRules, Unsupported, SELECT};
use super::variant::Variant;

use super::{Game, Rules, Side};

/// The outcome of one random playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Playout {
    /// The game's index in the batch's numbering (its random draws depend on it).
    pub game: u64,
    /// Plies played.
    pub plies: u32,
    /// South's and North's scores at the end (with the seeds swept to their owners when the
    /// ending rule does so).
    pub scores: [u8; 2],
    /// 0 South won, 1 North won, 2 draw; `None` when the game was cut at the ply limit.
    pub result: Option<u8>,
    /// Seeds left in pits A..F, a..f.
    pub pits: [u8; 12],
    /// The clause that ended the game (spec: oware O.4.2, O.5.2, O.6.1, O.6.2); empty when cut.
    pub end: &'static str,
    /// Seeds each side took from its own row when the game ended (0 without a sweep).
    pub swept: [u8; 2],
    /// What the moves did, for the clause events.
    pub events: PlayoutEvents,
}

/// The clause events of a playout beyond its plies (one sowing each, O.2.3) and its ending, and
/// the hash of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PlayoutEvents {
    /// The games.csv `moves_hash` of the moves so far ([`crate::playout::moves_hash_step`]).
    pub moves_hash: u64,
    /// Sowings of 12 seeds or more, which skip the emptied pit (O.2.4).
    pub laps: u32,
    /// Moves that captured (O.3.1).
    pub capturing_moves: u32,
    /// Pits captured (O.3.1 for the last, O.3.2 for those before it).
    pub pits_captured: u32,
    /// Grand slams that captured nothing (O.4.1).
    pub empty_slams: u32,
}

impl Default for PlayoutEvents {
    /// A playout before its first move.
    fn default() -> PlayoutEvents {
        PlayoutEvents {
            moves_hash: crate::playout::MOVES_HASH_START,
            laps: 0,
            capturing_moves: 0,
            pits_captured: 0,
            empty_slams: 0,
        }
    }
}

impl PlayoutEvents {
    /// Counts what sowing `sown` did.
    fn add(&mut self, sown: super::fast::SowEvents) {
        self.laps += u32::from(sown.lap);
        self.capturing_moves += u32::from(sown.pits_captured > 0);
        self.pits_captured += u32::from(sown.pits_captured);
        self.empty_slams += u32::from(sown.empty_slam);
    }
}

pub use crate::game::{draw_word, game_keys, pick};

/// Game `game` played on the scalar optimized engine with the batch's draws.
pub fn scalar_playout(rules: &FastRules, seed: u64, game: u64, max_plies: u32) -> Playout {
    let mut g = rules.start();
    let keys = game_keys(seed, game);
    finish_scalar(
        rules,
        &mut g,
        keys,
        game,
        0,
        max_plies,
        PlayoutEvents::default(),
    )
}

/// Plays `g`, at ply `ply` of game `game`, to its end or the ply limit.
fn finish_scalar(
    rules: &FastRules,
    g: &mut super::fast::FastGame,
    keys: [u32; 2],
    game: u64,
    mut ply: u32,
    max_plies: u32,
    mut events: PlayoutEvents,
) -> Playout {
    loop {
        let mask = rules.legal_mask(g);
        if mask == 0 || ply >= max_plies {
            return Playout {
                game,
                plies: ply,
                scores: g.scores(),
                result: g.result,
                pits: g.pits(),
                end: if g.result.is_some() { g.end_clause } else { "" },
                swept: g.swept,
                events,
            };
        }
        let k = pick(draw_word(keys, ply), mask.count_ones());
        let pit = SELECT[usize::from(mask)][k as usize];
        events.moves_hash = crate::playout::moves_hash_step(events.moves_hash, pit);
        events.add(rules.sow_events(g, pit));
        rules.play(g, pit);
        ply += 1;
    }
}

/// Game `game` played on the reference engine with the batch's draws (for checking the others).
pub fn reference_playout(rules: &Rules, seed: u64, game: u64, max_plies: u32) -> Playout {
    let (g, moves) = reference_game(rules, seed, game, max_plies);
    let p = g.position();
    // The seeds swept at the end: the final scores less those captured in play.
    let mut captured = [0u8; 2];
    let mut events = PlayoutEvents::default();
    let mut replay = rules.new_game();
    for &letter in &moves {
        let side = replay.position().to_move();
        let (_, mv) = super::Move::from_letter(letter).expect("a move played");
        events.moves_hash = crate::playout::moves_hash_step(events.moves_hash, mv.pit);
        let played = rules.play(&replay, mv).expect("a move played");
        captured[side.index()] += played.captured;
        for step in &played.trace {
            match step.clause {
                "O.2.4" => events.laps += 1,
                "O.3.1" => {
                    events.capturing_moves += 1;
                    events.pits_captured += 1;
                }
                "O.3.2" => events.pits_captured += 1,
                "O.4.1" => events.empty_slams += 1,
                _ => {}
            }
        }
        replay = played.game;
    }
    let scores = [p.score(Side::South), p.score(Side::North)];
    Playout {
        events,
        swept: [scores[0] - captured[0], scores[1] - captured[1]],
        game,
        plies: moves.len() as u32,
        scores: [p.score(Side::South), p.score(Side::North)],
        result: g.outcome().map(|o| match o.winner {
            Some(Side::South) => 0,
            Some(Side::North) => 1,
            None => 2,
        }),
        pits: p.pits(),
        end: g.outcome().map_or("", |o| o.clause),
    }
}

/// Game `game` on the reference engine with the batch's draws, to its end or `max_plies` plies:
/// the game reached and the moves played, in notation (spec: oware O.7.1).
pub fn reference_game(rules: &Rules, seed: u64, game: u64, max_plies: u32) -> (Game, Vec<char>) {
    let keys = game_keys(seed, game);
    let mut g: Game = rules.new_game();
    let mut played = Vec::new();
    loop {
        let moves = rules.legal_moves(&g);
        let ply = played.len() as u32;
        if moves.is_empty() || ply >= max_plies {
            return (g, played);
        }
        let mv = moves[pick(draw_word(keys, ply), moves.len() as u32) as usize];
        played.push(mv.letter(g.position().to_move()));
        g = rules.play(&g, mv).expect("a listed move is legal").game;
    }
}

/// Random playouts of one reading, many games at a time.
#[derive(Clone, Debug)]
pub struct Batch {
    rules: FastRules,
    variant: Variant,
    seed: u64,
    max_plies: u32,
    /// Steps of past boards kept per lane (a power of two); a lane that goes longer without a
    /// capture is handed to the scalar engine with its history.
    ring: usize,
    /// The path that plays (one this processor runs).
    path: BatchPath,
}

/// What a batch did besides playing (for tests and reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchStats {
    /// Vector steps (each a ply in every lane).
    pub steps: u64,
    /// Games handed to the scalar engine after too long without a capture.
    pub handed_over: u64,
    /// Filter hits that needed the boards compared.
    pub filter_hits: u64,
}

impl BatchStats {
    /// Adds the figures of another batch.
    pub fn add(&mut self, other: BatchStats) {
        self.steps += other.steps;
        self.handed_over += other.handed_over;
        self.filter_hits += other.filter_hits;
    }
}

impl Batch {
    /// A batch for `variant`: random draws from `seed`, games cut after `max_plies` plies, on
    /// the path [`BatchPath::chosen`] gives. Plays every reading the optimized engine plays (all
    /// but those leaving a point open).
    pub fn new(variant: Variant, seed: u64, max_plies: u32) -> Result<Batch, Unsupported> {
        let rules = FastRules::new(variant)?;
        Ok(Batch {
            rules,
            variant,
            seed,
            max_plies,
            ring: 512,
            path: BatchPath::chosen(),
        })
    }

    /// Keeps `steps` past boards per lane (rounded up to a power of two, at least 4).
    pub fn with_ring(mut self, steps: usize) -> Batch {
        self.ring = steps.max(4).next_power_of_two();
        self
    }

    /// Plays on `path`; an error if this processor cannot run it.
    pub fn with_path(mut self, path: BatchPath) -> Result<Batch, PathError> {
        if !path.available() {
            return Err(PathError::Unavailable(path));
        }
        self.path = path;
        Ok(self)
    }

    /// Plays with the scalar engine even where a vector path could run.
    pub fn scalar_only(mut self) -> Batch {
        self.path = BatchPath::Scalar;
        self
    }

    /// The path `play` takes.
    pub fn path(&self) -> BatchPath {
        // A lane plays its first ply before it checks the limit, so a zero limit stays scalar.
        if self.max_plies == 0 {
            BatchPath::Scalar
        } else {
            self.path
        }
    }

    /// Whether `play` will use a vector path.
    pub fn uses_vectors(&self) -> bool {
        self.path() != BatchPath::Scalar
    }

    /// Plays games `games`, calling `each` with every finished playout (in the order they finish).
    pub fn play(&self, games: Range<u64>, mut each: impl FnMut(Playout)) -> BatchStats {
        match self.path() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `with_path` and `BatchPath::chosen` take only paths the processor runs.
            BatchPath::Avx512 => unsafe {
                lanes::play::<{ avx512::LANES }, avx512::Avx512>(self, games, &mut each)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            BatchPath::Avx2 => unsafe {
                lanes::play::<{ avx2::LANES }, avx2::Avx2>(self, games, &mut each)
            },
            // SAFETY: the portable path needs nothing of the processor.
            BatchPath::Portable => unsafe {
                lanes::play::<{ portable::PORTABLE_LANES }, portable::Portable>(
                    self, games, &mut each,
                )
            },
            _ => {
                for game in games {
                    each(scalar_playout(&self.rules, self.seed, game, self.max_plies));
                }
                BatchStats::default()
            }
        }
    }
}

impl Playout {
    /// The clause events of this playout, as the reference engine's trace counts them.
    pub fn events(&self) -> crate::game::EventTotals {
        let mut events = crate::game::EventTotals::new(super::engines::OWARE_COUNTED_EVENTS);
        let e = &self.events;
        events.add_at(super::engines::at!("O.2.3"), u64::from(self.plies));
        events.add_at(super::engines::at!("O.2.4"), u64::from(e.laps));
        events.add_at(super::engines::at!("O.3.1"), u64::from(e.capturing_moves));
        events.add_at(
            super::engines::at!("O.3.2"),
            u64::from(e.pits_captured - e.capturing_moves),
        );
        events.add_at(super::engines::at!("O.4.1"), u64::from(e.empty_slams));
        if self.result.is_some() {
            events.add(self.end, 1);
        }
        events
    }

    /// The games.csv row of this playout (the same row the typed engines give for this game).
    pub fn row(&self) -> crate::playout::Row {
        use crate::game::{Ending, Verdict};
        let ending = self.result.map(|r| Ending {
            verdict: match r {
                0 => Verdict::Win(Side::South),
                1 => Verdict::Win(Side::North),
                _ => Verdict::Draw,
            },
            clause: self.end,
        });
        let undefined = super::engines::undefined_end(self.end, self.swept);
        crate::playout::Row {
            game: self.game,
            plies: self.plies,
            ending,
            seeds_captured: [0, 1].map(|i| u32::from(self.scores[i] - self.swept[i])),
            scores: self.scores.map(u32::from),
            undefined_cases: undefined,
            moves_hash: self.events.moves_hash,
            ..Default::default()
        }
    }
}
