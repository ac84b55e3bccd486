//! Many Oware random playouts at once: one game per byte lane of 64-byte AVX-512 vectors, the board
//! seen from the mover, the repetition rule through a per-lane filter and a ring of past boards.
//!
//! The moves are drawn from a counter-based random function of (seed, game, ply), so each game is
//! the same whichever lane, batch or thread plays it, and [`scalar_playout`] replays it on the
//! optimized scalar engine ([`super::fast`]). Machines without AVX-512 (BW and VBMI) get that scalar
//! loop, with the same results.

use std::ops::Range;

use super::fast::{FastRules, Unsupported, SELECT};
use super::variant::{GrandSlam, Variant};

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

/// The clause events of a playout beyond its plies (one sowing each, O.2.3) and its ending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct PlayoutEvents {
    /// Sowings of 12 seeds or more, which skip the emptied pit (O.2.4).
    pub laps: u32,
    /// Moves that captured (O.3.1).
    pub capturing_moves: u32,
    /// Pits captured (O.3.1 for the last, O.3.2 for those before it).
    pub pits_captured: u32,
    /// Grand slams that captured nothing (O.4.1).
    pub empty_slams: u32,
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

use crate::game::GOLDEN;
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
    /// Use the vector engine when the processor has it.
    vector: bool,
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

impl Batch {
    /// A batch for `variant`: random draws from `seed`, games cut after `max_plies` plies.
    /// Plays every reading the optimized engine plays (all but those leaving a point open).
    pub fn new(variant: Variant, seed: u64, max_plies: u32) -> Result<Batch, Unsupported> {
        let rules = FastRules::new(variant)?;
        Ok(Batch {
            rules,
            variant,
            seed,
            max_plies,
            ring: 512,
            vector: true,
        })
    }

    /// Keeps `steps` past boards per lane (rounded up to a power of two, at least 4).
    pub fn with_ring(mut self, steps: usize) -> Batch {
        self.ring = steps.max(4).next_power_of_two();
        self
    }

    /// Plays with the scalar engine even where the vector engine could run.
    pub fn scalar_only(mut self) -> Batch {
        self.vector = false;
        self
    }

    /// Whether `play` will use the vector engine on this machine.
    pub fn uses_vectors(&self) -> bool {
        // A lane plays its first ply before it checks the limit, so a zero limit stays scalar.
        self.vector && self.max_plies > 0 && vector_engine_available()
    }

    /// Plays games `games`, calling `each` with every finished playout (in the order they finish).
    pub fn play(&self, games: Range<u64>, mut each: impl FnMut(Playout)) -> BatchStats {
        #[cfg(target_arch = "x86_64")]
        if self.uses_vectors() {
            // SAFETY: the processor has the features the vector engine is compiled for.
            return unsafe { avx512::play(self, games, &mut each) };
        }
        for game in games {
            each(scalar_playout(&self.rules, self.seed, game, self.max_plies));
        }
        BatchStats::default()
    }
}

/// Whether this processor runs the vector engine (AVX-512 F, BW and VBMI).
pub fn vector_engine_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::*;
    use crate::oware::variant::{FinalSweep, NoAllowedMove};
    use std::arch::x86_64::*;

    /// Lanes of a vector: one byte of a 512-bit register each, one bit of a `u64` lane mask.
    const LANES: usize = 64;

    /// 64 bytes, one per lane.
    #[derive(Clone, Copy)]
    #[repr(C, align(64))]
    struct Row([u8; 64]);

    // The engine reads a `Row` as one register and a lane mask as one `u64`.
    const _: () = assert!(LANES == 64 && std::mem::size_of::<Row>() == LANES);

    /// The lookup tables of a byte v < 64 (`vpermb`).
    #[derive(Clone, Copy)]
    enum Table {
        /// Full laps: v / 11.
        Laps,
        /// Seeds after the full laps: v % 11.
        Rest,
        /// 10 v for a pit v < 6 (the row of the pit-by-rest tables).
        Times10,
    }

    const fn byte_table(of: Table) -> Row {
        let mut t = [0u8; 64];
        let mut v = 0;
        while v < 64 {
            t[v] = match of {
                Table::Laps => v / 11,
                Table::Rest => v % 11,
                Table::Times10 if v < 6 => 10 * v,
                Table::Times10 => 0,
            } as u8;
            v += 1;
        }
        Row(t)
    }

    static QUOT: Row = byte_table(Table::Laps);
    static REM: Row = byte_table(Table::Rest);
    static TIMES10: Row = byte_table(Table::Times10);

    /// `EXTRA[i]` for i = 10 p + r (r 1–10; 0 for r = 0): the pits, seen from the mover, that get
    /// one seed more than the full laps when pit p sows a number of seeds leaving rest r: bits 0–7
    /// in the low table, 8–11 in the high one.
    static EXTRA: [Row; 2] = {
        let mut lo = [0u8; 64];
        let mut hi = [0u8; 64];
        let mut p = 0;
        while p < 6 {
            let mut r = 1;
            while r <= 10 {
                let mut mask = 0u16;
                let mut d = 1;
                while d <= r {
                    mask |= 1 << ((p + d) % 12);
                    d += 1;
                }
                lo[10 * p + r] = mask as u8;
                hi[10 * p + r] = (mask >> 8) as u8;
                r += 1;
            }
            p += 1;
        }
        [Row(lo), Row(hi)]
    };

    /// Zobrist bytes: `ZOBRIST[half][j][v]` for pit j (seen from the mover) holding v seeds, and
    /// `SOUTH[half]` for South to move; XORed they give a 16-bit key of the board.
    static ZOBRIST: [[Row; 12]; 2] = {
        let mut t = [[Row([0; 64]); 12]; 2];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut half = 0;
        while half < 2 {
            let mut j = 0;
            while j < 12 {
                let mut v = 0;
                while v < 64 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    t[half][j].0[v] = (x >> 24) as u8;
                    v += 1;
                }
                j += 1;
            }
            half += 1;
        }
        t
    };
    const SOUTH: [u8; 2] = [0x5b, 0xc6];

    /// The 16-bit key of a board (seen from the mover) for one lane.
    fn key_of(pits: &[u8; 12], south: bool) -> u16 {
        let mut k = [0u8; 2];
        for (half, byte) in k.iter_mut().enumerate() {
            for (j, &v) in pits.iter().enumerate() {
                *byte ^= ZOBRIST[half][j].0[usize::from(v)];
            }
            if south {
                *byte ^= SOUTH[half];
            }
        }
        u16::from_le_bytes(k)
    }

    /// Every lane's state between steps.
    struct Lanes {
        /// Seeds, seen from the mover: pits 0–5 the mover's row from its left, 6–11 the opponent's.
        pits: [Row; 12],
        /// Mover's and opponent's scores.
        scores: [Row; 2],
        /// Legal moves: bit l of `legal[i]` when lane l's mover may play pit i.
        legal: [u64; 6],
        /// Lane bit set when South moves.
        south: u64,
        /// Lane bit set when the lane plays a game of the range (else it idles).
        active: u64,
        /// Random counters: key 0 plus ply times the golden ratio, and key 1.
        ctr: [u32; LANES],
        key1: [u32; LANES],
        game: [u64; LANES],
        /// Step at which the lane's game started, and at which its last capture (or start) was.
        start: [u64; LANES],
        since: [u64; LANES],
        /// Per-lane filter of board keys since the last capture (1024 bits).
        filter: Vec<[u64; 16]>,
        /// What each lane's moves did so far, for the clause events.
        events: [PlayoutEvents; LANES],
        /// Past boards and keys by step (index step % ring).
        ring: Vec<[Row; 12]>,
        ring_key: Vec<[Row; 2]>,
    }

    /// Plays `games` on the vector engine.
    ///
    /// # Safety
    ///
    /// The processor must support AVX-512 F, BW and VBMI (`vector_engine_available`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn play(
        batch: &Batch,
        games: Range<u64>,
        each: &mut dyn FnMut(Playout),
    ) -> BatchStats {
        let first_south = batch.variant.first_player == Side::South;
        let start_key = key_of(&[4; 12], first_south);
        let mut lanes = Lanes {
            pits: [Row([4; 64]); 12],
            scores: [Row([0; 64]); 2],
            legal: [u64::MAX; 6],
            south: if first_south { u64::MAX } else { 0 },
            active: 0,
            ctr: [0; LANES],
            key1: [0; LANES],
            game: [u64::MAX; LANES],
            start: [0; LANES],
            since: [0; LANES],
            filter: vec![[0; 16]; LANES],
            events: [PlayoutEvents::default(); LANES],
            ring: vec![[Row([0; 64]); 12]; batch.ring],
            ring_key: vec![[Row([0; 64]); 2]; batch.ring],
        };
        let mut feed = Feed {
            next: games.start,
            end: games.end,
            start_key,
            each,
            stats: BatchStats::default(),
        };
        for l in 0..LANES {
            restart(batch, &mut lanes, l, 0, &mut feed);
        }
        let mut step = 0u64;
        let slams = match (batch.variant.grand_slam, batch.variant.no_allowed_move) {
            (GrandSlam::CapturesNothing, _) => Slams::Capture,
            (GrandSlam::Forbidden, NoAllowedMove::AllowGrandSlamWithoutCapture) => {
                Slams::PlayedWhenNothingElse
            }
            (GrandSlam::Forbidden, _) => Slams::Forbidden,
        };
        while lanes.active != 0 {
            let out = vector_step(&mut lanes, step, batch.ring, slams);
            step += 1;
            settle(batch, &mut lanes, step, out, &mut feed);
        }
        feed.stats.steps = step;
        feed.stats
    }

    /// Where the lanes' games come from and go: the next game of the range and its end, the key
    /// of the start position, what takes each finished playout, and the counts so far.
    struct Feed<'a> {
        next: u64,
        end: u64,
        start_key: u16,
        each: &'a mut dyn FnMut(Playout),
        stats: BatchStats,
    }

    /// Starts the next game of the range in lane `l` at step `step` (or idles the lane).
    fn restart(batch: &Batch, lanes: &mut Lanes, l: usize, step: u64, feed: &mut Feed) {
        let (next, end, start_key) = (&mut feed.next, feed.end, feed.start_key);
        let bit = 1u64 << l;
        let game = if *next < end {
            lanes.active |= bit;
            *next += 1;
            *next - 1
        } else {
            lanes.active &= !bit;
            u64::MAX
        };
        for row in lanes.pits.iter_mut() {
            row.0[l] = 4;
        }
        lanes.scores[0].0[l] = 0;
        lanes.scores[1].0[l] = 0;
        for m in lanes.legal.iter_mut() {
            *m |= bit;
        }
        if batch.variant.first_player == Side::South {
            lanes.south |= bit;
        } else {
            lanes.south &= !bit;
        }
        let keys = game_keys(batch.seed, game);
        lanes.ctr[l] = keys[0];
        lanes.key1[l] = keys[1];
        lanes.game[l] = game;
        lanes.start[l] = step;
        lanes.since[l] = step;
        lanes.filter[l] = [0; 16];
        lanes.events[l] = PlayoutEvents::default();
        insert(&mut lanes.filter[l], start_key);
        let slot = (step as usize) & (batch.ring - 1);
        let [lo, hi] = start_key.to_le_bytes();
        lanes.ring_key[slot][0].0[l] = lo;
        lanes.ring_key[slot][1].0[l] = hi;
    }

    /// Sets `key` in a lane filter; says whether it was set already.
    #[inline(always)]
    fn insert(filter: &mut [u64; 16], key: u16) -> bool {
        let word = &mut filter[usize::from((key >> 6) & 15)];
        let bit = 1u64 << (key & 63);
        let was = *word & bit != 0;
        *word |= bit;
        was
    }

    /// Lane masks a vector step hands to `settle`.
    struct StepOut {
        /// Lanes whose move captured.
        captured: u64,
        /// Lanes whose game ended by score (a side over 24, or 24 each).
        over: u64,
        /// Lanes whose new mover has no legal move.
        stuck: u64,
        /// Lanes whose sowing lapped the board (12 seeds or more).
        laps: u64,
        /// Per opponent pit (0–5 of that row), the lanes that captured it.
        taken: [u64; 6],
        /// Lanes that played a grand slam capturing nothing.
        empty_slams: u64,
    }

    /// What the reading does with grand slams.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Slams {
        /// Played, capturing nothing.
        Capture,
        /// Forbidden; when no other move is allowed the game ends.
        Forbidden,
        /// Forbidden unless no other move is allowed; then played, capturing nothing.
        PlayedWhenNothingElse,
    }

    /// The 64 bytes of a row, one per lane.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn load(r: &Row) -> __m512i {
        // SAFETY: `Row` is 64 bytes aligned to 64 (`repr(C, align(64))`), exactly what an aligned
        // 512-bit load reads.
        unsafe { _mm512_load_si512(r.0.as_ptr().cast()) }
    }

    /// Writes a vector to a row, one byte per lane.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn store(r: &mut Row, v: __m512i) {
        // SAFETY: as in `load`: 64 writable bytes aligned to 64.
        unsafe { _mm512_store_si512(r.0.as_mut_ptr().cast(), v) }
    }

    /// Sixteen 32-bit counters.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn load_words(w: &[u32; 16]) -> __m512i {
        // SAFETY: 16 words are the 64 bytes an unaligned 512-bit load reads.
        unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
    }

    /// Writes sixteen 32-bit counters.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn store_words(w: &mut [u32; 16], v: __m512i) {
        // SAFETY: 16 words are the 64 bytes an unaligned 512-bit store writes.
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) }
    }

    /// One byte in every lane.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn splat(b: u8) -> __m512i {
        _mm512_set1_epi8(b as i8)
    }

    /// One ply in every lane: record the board, draw and play a move, capture, turn the board to
    /// the new mover, work out its legal moves and the board keys.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn vector_step(lanes: &mut Lanes, step: u64, ring: usize, slams: Slams) -> StepOut {
        let slot = (step as usize) & (ring - 1);
        let mut pits = [_mm512_setzero_si512(); 12];
        for (j, v) in pits.iter_mut().enumerate() {
            *v = load(&lanes.pits[j]);
            store(&mut lanes.ring[slot][j], *v);
        }

        let k = draw(lanes);
        let (p, n) = kth_legal_pit(&lanes.legal, &pits, k);

        let last = sow(&mut pits, p, n);
        let (run, any_run, outside) = capture_run(&pits, last);
        // A run that would take every seed of the row is a grand slam: it captures nothing (the
        // readings that forbid grand slams never let one be played while it would capture).
        let captured = any_run & outside;
        let laps = _mm512_cmpge_epu8_mask(n, splat(12));
        let mut taken = [0u64; 6];
        let mut gain = _mm512_setzero_si512();
        for j in 6..12 {
            let take = run[j] & captured;
            taken[j - 6] = take;
            gain = _mm512_mask_add_epi8(gain, take, gain, pits[j]);
            pits[j] = _mm512_mask_mov_epi8(pits[j], take, _mm512_setzero_si512());
        }
        let mover_score = _mm512_add_epi8(load(&lanes.scores[0]), gain);
        let other_score = load(&lanes.scores[1]);

        // Turn the board to the new mover.
        let mut turned = [_mm512_setzero_si512(); 12];
        for j in 0..12 {
            turned[j] = pits[(j + 6) % 12];
            store(&mut lanes.pits[j], turned[j]);
        }
        store(&mut lanes.scores[0], other_score);
        store(&mut lanes.scores[1], mover_score);
        lanes.south = !lanes.south;

        // The new mover's legal moves: non-empty pits, and only those reaching the opponent when
        // the opponent's row is empty.
        let (mut opponent_has, mut opponent_keeps) = (0u64, 0u64);
        for v in &turned[6..] {
            opponent_has |= _mm512_test_epi8_mask(*v, *v);
            opponent_keeps |= _mm512_cmpge_epu8_mask(*v, splat(3));
        }
        let mut legal = [0u64; 6];
        for (i, v) in turned.iter().enumerate().take(6) {
            let reaches = _mm512_cmpge_epu8_mask(*v, splat(6 - i as u8));
            legal[i] = _mm512_test_epi8_mask(*v, *v) & (opponent_has | reaches);
        }
        // Where grand slams are forbidden and the opponent has no pit of 3 or more (which keeps
        // its seeds: a sown pit that held 3 holds 4), try every move for one.
        if slams != Slams::Capture && !opponent_keeps != 0 {
            let mut slam = [0u64; 6];
            for (i, s) in slam.iter_mut().enumerate() {
                let mut after = turned;
                let last = sow(&mut after, splat(i as u8), turned[i]);
                let (_, any_run, outside) = capture_run(&after, last);
                *s = legal[i] & any_run & !outside;
            }
            let mut allowed_any = 0u64;
            for (l, s) in legal.iter_mut().zip(slam) {
                *l &= !s;
                allowed_any |= *l;
            }
            if slams == Slams::PlayedWhenNothingElse {
                // No allowed move: the grand slams may be played, capturing nothing.
                for (l, s) in legal.iter_mut().zip(slam) {
                    *l |= s & !allowed_any;
                }
            }
        }
        lanes.legal = legal;
        let any = legal.iter().fold(0, |a, &l| a | l);
        let over = _mm512_cmpgt_epu8_mask(mover_score, splat(24))
            | _mm512_cmpgt_epu8_mask(other_score, splat(24))
            | (_mm512_cmpeq_epi8_mask(mover_score, splat(24))
                & _mm512_cmpeq_epi8_mask(other_score, splat(24)));

        // Board keys of the new boards, into the ring slot of the next step.
        let next_slot = ((step + 1) as usize) & (ring - 1);
        for half in 0..2 {
            let mut key = _mm512_maskz_mov_epi8(lanes.south, splat(SOUTH[half]));
            for (j, v) in turned.iter().enumerate() {
                key = _mm512_xor_si512(key, _mm512_permutexvar_epi8(*v, load(&ZOBRIST[half][j])));
            }
            store(&mut lanes.ring_key[next_slot][half], key);
        }
        StepOut {
            captured,
            over,
            stuck: !any,
            laps,
            taken,
            empty_slams: any_run & !outside,
        }
    }

    /// The draw of every lane: k uniform below the lane's legal move count, from its counter
    /// (advanced by one ply) and key, in 32-bit lanes (`game::draw_word`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn draw(lanes: &mut Lanes) -> __m512i {
        let one = splat(1);
        let mut count = _mm512_setzero_si512();
        for &legal in &lanes.legal {
            count = _mm512_mask_add_epi8(count, legal, count, one);
        }
        let golden = _mm512_set1_epi32(GOLDEN as i32);
        let mut ks = [_mm_setzero_si128(); 4];
        for (c, k) in ks.iter_mut().enumerate() {
            let counters: &mut [u32; 16] = (&mut lanes.ctr[16 * c..16 * c + 16])
                .try_into()
                .expect("four groups of 16 lanes");
            let ctr = load_words(counters);
            store_words(counters, _mm512_add_epi32(ctr, golden));
            let key1 = load_words(
                (&lanes.key1[16 * c..16 * c + 16])
                    .try_into()
                    .expect("four groups of 16 lanes"),
            );
            let word = fmix(_mm512_xor_si512(fmix(ctr), key1));
            let n = _mm512_cvtepu8_epi32(match c {
                0 => _mm512_extracti32x4_epi32::<0>(count),
                1 => _mm512_extracti32x4_epi32::<1>(count),
                2 => _mm512_extracti32x4_epi32::<2>(count),
                _ => _mm512_extracti32x4_epi32::<3>(count),
            });
            let k32 = _mm512_srli_epi32::<24>(_mm512_mullo_epi32(_mm512_srli_epi32::<8>(word), n));
            *k = _mm512_cvtepi32_epi8(k32);
        }
        let mut k = _mm512_castsi128_si512(ks[0]);
        k = _mm512_inserti32x4::<1>(k, ks[1]);
        k = _mm512_inserti32x4::<2>(k, ks[2]);
        _mm512_inserti32x4::<3>(k, ks[3])
    }

    /// In every lane, the `k`-th legal pit of the mover and its seeds.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn kth_legal_pit(legal: &[u64; 6], pits: &[__m512i; 12], k: __m512i) -> (__m512i, __m512i) {
        let one = splat(1);
        let (mut before, mut p, mut n) = (
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
        );
        for (i, &legal) in legal.iter().enumerate() {
            let chosen = legal & _mm512_cmpeq_epi8_mask(before, k);
            p = _mm512_mask_mov_epi8(p, chosen, splat(i as u8));
            n = _mm512_mask_mov_epi8(n, chosen, pits[i]);
            before = _mm512_mask_add_epi8(before, legal, before, one);
        }
        (p, n)
    }

    /// Sows, in every lane, the `n` seeds of the mover's pit `p` (both per lane): q full laps of
    /// the 11 other pits, then r more seeds from the next pit on. Returns the pit of the last seed.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn sow(pits: &mut [__m512i; 12], p: __m512i, n: __m512i) -> __m512i {
        let one = splat(1);
        let q = _mm512_permutexvar_epi8(n, load(&QUOT));
        let r = _mm512_permutexvar_epi8(n, load(&REM));
        let rest = _mm512_test_epi8_mask(r, r);
        let index = _mm512_maskz_add_epi8(rest, _mm512_permutexvar_epi8(p, load(&TIMES10)), r);
        let extra = [
            _mm512_permutexvar_epi8(index, load(&EXTRA[0])),
            _mm512_permutexvar_epi8(index, load(&EXTRA[1])),
        ];
        for (j, v) in pits.iter_mut().enumerate() {
            let gets = _mm512_test_epi8_mask(extra[j / 8], splat(1 << (j % 8)));
            let laps = _mm512_add_epi8(*v, q);
            *v = _mm512_mask_add_epi8(laps, gets, laps, one);
        }
        // The emptied pit gets nothing back.
        for (i, v) in pits.iter_mut().enumerate().take(6) {
            let emptied = _mm512_cmpeq_epi8_mask(p, splat(i as u8));
            *v = _mm512_mask_mov_epi8(*v, emptied, _mm512_setzero_si512());
        }
        // The last seed falls r pits on (11 when r = 0, the pit before the one emptied).
        let distance = _mm512_mask_mov_epi8(r, !rest, splat(11));
        let past = _mm512_add_epi8(p, distance);
        _mm512_min_epu8(past, _mm512_sub_epi8(past, splat(12)))
    }

    /// The capture run of a sowing that ended in pit `last`: from there back while pits hold 2 or
    /// 3, in the opponent's row. Returns the run's lanes per pit, the lanes with a run, and the
    /// lanes where the opponent's row holds seeds outside the run.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn capture_run(pits: &[__m512i; 12], last: __m512i) -> ([u64; 12], u64, u64) {
        let (mut run, mut alive, mut outside) = ([0u64; 12], 0u64, 0u64);
        for j in (6..12).rev() {
            let two_or_three =
                _mm512_cmpeq_epi8_mask(_mm512_and_si512(pits[j], splat(0xfe)), splat(2));
            alive = two_or_three & (alive | _mm512_cmpeq_epi8_mask(last, splat(j as u8)));
            run[j] = alive;
            outside |= _mm512_test_epi8_mask(pits[j], pits[j]) & !alive;
        }
        let any = run[6..].iter().fold(0, |a, &m| a | m);
        (run, any, outside)
    }

    /// The murmur3 finalizer in 32-bit lanes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn fmix(mut h: __m512i) -> __m512i {
        h = _mm512_xor_si512(h, _mm512_srli_epi32::<16>(h));
        h = _mm512_mullo_epi32(h, _mm512_set1_epi32(0x85eb_ca6bu32 as i32));
        h = _mm512_xor_si512(h, _mm512_srli_epi32::<13>(h));
        h = _mm512_mullo_epi32(h, _mm512_set1_epi32(0xc2b2_ae35u32 as i32));
        _mm512_xor_si512(h, _mm512_srli_epi32::<16>(h))
    }

    /// Lane `l`'s pits (seen from its mover) at ring slot `slot`, or now when `slot` is `None`.
    fn lane_pits(lanes: &Lanes, l: usize, slot: Option<usize>) -> [u8; 12] {
        let rows = match slot {
            Some(s) => &lanes.ring[s],
            None => &lanes.pits,
        };
        std::array::from_fn(|j| rows[j].0[l])
    }

    /// Lane `l`'s board key at ring slot `slot`.
    fn ring_key(lanes: &Lanes, slot: usize, l: usize) -> u16 {
        u16::from_le_bytes([lanes.ring_key[slot][0].0[l], lanes.ring_key[slot][1].0[l]])
    }

    /// Pits A..F a..f from pits seen from the mover.
    fn absolute(pits: [u8; 12], south: bool) -> [u8; 12] {
        if south {
            pits
        } else {
            std::array::from_fn(|j| pits[(j + 6) % 12])
        }
    }

    /// After a vector step: counts each lane's clause events, finds repetitions, and hands the
    /// lanes whose games ended (or reached the ply limit) to `feed`, restarting them.
    fn settle(batch: &Batch, lanes: &mut Lanes, step: u64, out: StepOut, feed: &mut Feed) {
        count_events(lanes, &out);
        let (repeated, handed_over) = repetitions(batch, lanes, step, out.captured, feed);
        let finished = (out.over | out.stuck | repeated) & !handed_over;
        // No game has reached the ply limit before that many steps.
        let cut = if step < u64::from(batch.max_plies) {
            0
        } else {
            let mut cut = 0u64;
            for l in 0..LANES {
                if step - lanes.start[l] >= u64::from(batch.max_plies) {
                    cut |= 1 << l;
                }
            }
            cut & !finished
        };
        let mut m = finished | cut;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if lanes.active & (1 << l) != 0 {
                let playout = finished_playout(batch, lanes, l, step, &out, repeated, cut);
                (feed.each)(playout);
            }
            restart(batch, lanes, l, step, feed);
        }
    }

    /// What this step's moves did, into each active lane's events.
    fn count_events(lanes: &mut Lanes, out: &StepOut) {
        let mut count = |mask: u64, field: fn(&mut PlayoutEvents) -> &mut u32| {
            let mut m = mask & lanes.active;
            while m != 0 {
                *field(&mut lanes.events[m.trailing_zeros() as usize]) += 1;
                m &= m - 1;
            }
        };
        count(out.laps, |e| &mut e.laps);
        count(out.captured, |e| &mut e.capturing_moves);
        count(out.empty_slams, |e| &mut e.empty_slams);
        for &take in &out.taken {
            count(take, |e| &mut e.pits_captured);
        }
    }

    /// The lanes whose position now occurs for the time that ends the game (O.6.2) since their
    /// last capture (a capture starts a new span), and the lanes whose span outgrew the ring of
    /// past boards: their games go to the scalar engine and the lanes restart.
    fn repetitions(
        batch: &Batch,
        lanes: &mut Lanes,
        step: u64,
        captured: u64,
        feed: &mut Feed,
    ) -> (u64, u64) {
        let ring = batch.ring;
        let slot = (step as usize) & (ring - 1);
        let occurrences = u32::from(batch.variant.cycle_end.applies_at());
        let mut m = captured;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            lanes.since[l] = step;
            lanes.filter[l] = [0; 16];
            let key = ring_key(lanes, slot, l);
            insert(&mut lanes.filter[l], key);
        }
        let (mut repeated, mut handed_over) = (0u64, 0u64);
        let mut m = !captured;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if step - lanes.since[l] >= ring as u64 - 1 {
                hand_over(batch, lanes, l, step, feed);
                restart(batch, lanes, l, step, feed);
                handed_over |= 1 << l;
                continue;
            }
            let key = ring_key(lanes, slot, l);
            if !insert(&mut lanes.filter[l], key) {
                continue;
            }
            feed.stats.filter_hits += 1;
            let now = lane_pits(lanes, l, None);
            let mut seen = 1;
            let mut t = step;
            while t >= lanes.since[l] + 2 {
                t -= 2;
                let s = (t as usize) & (ring - 1);
                if ring_key(lanes, s, l) == key && lane_pits(lanes, l, Some(s)) == now {
                    seen += 1;
                }
            }
            if seen >= occurrences {
                repeated |= 1 << l;
            }
        }
        (repeated, handed_over)
    }

    /// The playout of lane `l`, whose game ended at step `step` (or reached the ply limit: `cut`).
    fn finished_playout(
        batch: &Batch,
        lanes: &Lanes,
        l: usize,
        step: u64,
        out: &StepOut,
        repeated: u64,
        cut: u64,
    ) -> Playout {
        let bit = 1u64 << l;
        let south = lanes.south & bit != 0;
        let mut pits = absolute(lane_pits(lanes, l, None), south);
        let mine = [lanes.scores[0].0[l], lanes.scores[1].0[l]];
        let mut scores = if south { mine } else { [mine[1], mine[0]] };
        let clause = if cut & bit != 0 {
            ""
        } else if repeated & bit != 0 {
            "O.6.2"
        } else if out.over & bit != 0 {
            if scores[0] > 24 || scores[1] > 24 {
                "O.6.1"
            } else {
                "O.5.2"
            }
        } else {
            "O.4.2"
        };
        let mut swept = [0; 2];
        let result = if cut & bit != 0 {
            None
        } else {
            // Repetitions and stuck movers sweep; a score over 24 sweeps as the reading says; at
            // 24 each the rows are empty.
            let sweep = repeated & bit != 0
                || out.over & bit == 0
                || batch.variant.final_sweep == FinalSweep::EachTakesOwn;
            if sweep {
                swept = [pits[..6].iter().sum::<u8>(), pits[6..].iter().sum::<u8>()];
                scores[0] += swept[0];
                scores[1] += swept[1];
                pits = [0; 12];
            }
            Some(match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 2,
            })
        };
        Playout {
            game: lanes.game[l],
            plies: (step - lanes.start[l]) as u32,
            scores,
            result,
            pits,
            end: clause,
            swept,
            events: lanes.events[l],
        }
    }

    /// Hands lane `l`'s game (now at step `step`, too long without a capture for the ring) to the
    /// scalar engine with its boards since the last capture, and plays it out there.
    fn hand_over(batch: &Batch, lanes: &Lanes, l: usize, step: u64, feed: &mut Feed) {
        let bit = 1u64 << l;
        if lanes.active & bit == 0 {
            return;
        }
        feed.stats.handed_over += 1;
        let south_now = lanes.south & bit != 0;
        let mover = |t: u64| {
            // The mover alternates every step.
            let south = south_now ^ ((step - t) % 2 == 1);
            u8::from(!south)
        };
        let ring = batch.ring;
        let mut history: Vec<([u8; 12], u8)> = (lanes.since[l]..step)
            .map(|t| {
                let s = (t as usize) & (ring - 1);
                let m = mover(t);
                (absolute(lane_pits(lanes, l, Some(s)), m == 0), m)
            })
            .collect();
        history.push((absolute(lane_pits(lanes, l, None), south_now), mover(step)));
        let mine = [lanes.scores[0].0[l], lanes.scores[1].0[l]];
        let scores = if south_now { mine } else { [mine[1], mine[0]] };
        let mut g = batch.rules.game_with_history(&history, scores);
        let ply = (step - lanes.start[l]) as u32;
        (feed.each)(finish_scalar(
            &batch.rules,
            &mut g,
            game_keys(batch.seed, lanes.game[l]),
            lanes.game[l],
            ply,
            batch.max_plies,
            lanes.events[l],
        ));
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
            ..Default::default()
        }
    }
}
