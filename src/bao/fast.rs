//! The optimized Bao engine: a packed 32-byte board, a relay step as one table load and one add,
//! moves as bytes in a fixed array, cycle checks on a kutakata's ring up to a turn (`Turned`).
//! It shares no rule code with `rules.rs`; `mancala-lab diff` holds the two to the same answers.

use std::collections::HashSet;

use super::notation::MoveKind;
use super::variant::{HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant};

/// No kutakatia-ed pit.
pub const NO_PIT: u8 = 255;
const HOUSE: usize = 4;

/// A position of the optimized engine. Pits are `b[side * 16 + ring]`, ring 0–7 = front pits 1–8,
/// ring 8–15 = back pits 8–1 (clockwise order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
// Aligned so that copying a position moves whole words (50,000 bounded playouts: 0.39 s to
// 0.35 s).
#[repr(C, align(8))]
pub struct FastPos {
    /// Seeds per pit: South's ring in bytes 0–15, North's in 16–31 (ring index order, A1 first).
    pub pits: [u8; 32],
    /// Stores of South and North.
    pub stores: [u8; 2],
    /// Bit 0: South owns its house; bit 1: North does.
    pub houses: u8,
    /// 0 South, 1 North.
    pub to_move: u8,
    /// Ring index of the mover's kutakatia-ed pit, or [`NO_PIT`].
    pub blocked: u8,
}

/// A move as a byte: bits 0–3 the ring index, bit 4 the hand (1 = `>`), bit 5 play the house.
pub type FastMove = u8;
/// Bit of a move: the hand is `>`.
pub const RIGHT: u8 = 16;
/// Bit of a move: `+`, play the house.
pub const PLUS: u8 = 32;

/// Up to 64 legal moves (16 pits × 2 hands × house choice), without allocation.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    /// The moves, the first `len` valid.
    pub moves: [FastMove; 64],
    /// Their kinds.
    pub kinds: [MoveKind; 64],
    /// How many.
    pub len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [0; 64],
            kinds: [MoveKind::Capture; 64],
            len: 0,
        }
    }

    fn push(&mut self, m: FastMove, k: MoveKind) {
        self.moves[self.len] = m;
        self.kinds[self.len] = k;
        self.len += 1;
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    Capture,
    Kutakata,
    Tax,
}

/// The result of running one move.
struct MoveRun {
    pos: FastPos,
    infinite: bool,
    decision: bool,
    captures: u32,
    sown: u32,
    /// The harvesting starts of the player to move in `pos`, when the kutakatia test worked
    /// them out (so the next ply need not).
    next_captures: Option<u32>,
    /// The clause that ended the move (as the reference engine's trace names it).
    end: &'static str,
    /// The move went on through the owned house at a house decision.
    house_played: bool,
    /// The steps of the move, counted.
    path: MovePath,
}

/// The steps of a move, counted as the reference engine's trace logs them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovePath {
    /// Sowings (1.3): the first, one per harvest and one per relay.
    pub sowings: u32,
    /// Relay sowings, kuendelea (1.6).
    pub relays: u32,
    /// Harvests made at the left kichwa or kimbi, sown from the left kichwa (1.4.5).
    pub left_end_harvests: u32,
    /// Harvests made at the right kichwa or kimbi, sown from the right kichwa (4.1).
    pub right_end_harvests: u32,
    /// Kunamua harvests whose kichwa the player chose, the move having no direction yet (2.2.2).
    pub chosen_kichwas: u32,
    /// Houses lost at the first mtaji harvest (3.2), under the reading that ends them there.
    pub houses_lost_at_mtaji_harvest: u32,
    /// The move paid the house tax (2.3.2).
    pub tax: bool,
}

/// A position with, when the move that reached it worked them out, the mover's harvesting starts
/// (so the next draw need not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastState {
    /// The position.
    pub pos: FastPos,
    known_captures: Option<u32>,
}

impl FastState {
    /// A state that knows nothing beyond its position.
    pub fn new(pos: FastPos) -> FastState {
        FastState {
            pos,
            known_captures: None,
        }
    }
}

/// A move played by the optimized engine: the state reached and what the move did.
#[derive(Clone, Copy, Debug)]
pub struct FastPlay {
    /// The state after the move.
    pub state: FastState,
    /// Seeds sown (store seed included).
    pub sown: u32,
    /// Harvests made.
    pub harvests: u32,
    /// The clause that ended the move, as the reference engine's trace names it (1.2.1, 1.5.4,
    /// 1.6.2, 4.2.2.3.1, 4.2.2.3.2, 5.2).
    pub end: &'static str,
    /// The move played the owned house at a house decision (`+`, 4.2.1.2).
    pub house_played: bool,
    /// The steps of the move, counted.
    pub path: MovePath,
}

impl FastPlay {
    fn of(ran: MoveRun) -> FastPlay {
        FastPlay {
            state: FastState {
                pos: ran.pos,
                known_captures: ran.next_captures,
            },
            sown: ran.sown,
            harvests: ran.captures,
            end: ran.end,
            house_played: ran.house_played,
            path: ran.path,
        }
    }
}

/// The end of a game: winner (0/1) and the clause id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastOutcome {
    /// 0 South, 1 North.
    pub winner: u8,
    /// The clause that ended the game.
    pub clause: &'static str,
}

/// A reading the optimized engine refuses rather than silently playing differently.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the optimized Bao engine does not support {0}; use the reference engine")]
pub struct Unsupported(pub &'static str);

/// The optimized engine for one reading: every [`Variant`] choice except leaving a point open.
#[derive(Clone, Copy, Debug)]
pub struct FastRules {
    variant: Variant,
}

#[inline]
fn step(ring: usize, cw: bool, n: usize) -> usize {
    if cw {
        (ring + n) & 15
    } else {
        (ring + 16 * 4 - (n & 15)) & 15
    }
}

#[inline]
fn hand_cw(ring: usize, right: bool) -> bool {
    // Front row: '>' is clockwise; back row: '<' is.
    (ring < 8) == right
}

#[inline]
fn front_empty(b: &[u8; 32], side: usize) -> bool {
    b[side * 16..side * 16 + 8].iter().all(|&s| s == 0)
}

/// Opponent front ring facing front ring `r`.
#[inline]
fn facing(r: usize) -> usize {
    7 - r
}

/// The in-move state of a harvesting move: both rings, house bits, the pit the last sowing ended
/// in, the direction.
type InMove = (u128, u128, u8, usize, bool);

/// Relay sowings of a harvesting move made before its cycle test starts.
const UNCHECKED_RELAYS: u32 = 16;

/// Relay sowings after which a move starts keeping landmarks: ordinary moves allocate nothing.
const LANDMARKS_AFTER: u64 = 1 << 16;

/// A state that can be a landmark: about one state in 2,000, picked by the state alone.
trait Landmark: Copy + Eq + std::hash::Hash {
    /// A state no move reaches (a ring of 255-seed pits).
    const NEVER: Self;
    /// A cheap first test, inline on every step past [`LANDMARKS_AFTER`].
    fn maybe_landmark(&self) -> bool;
    /// The rest of the test, out of line, on the states that pass the first.
    fn landmark(&self) -> bool;
}

/// `bits` high zero bits of a multiplicative hash of `x` (one state in `2^bits`).
#[inline(always)]
fn rare_hash(x: u128, bits: u32) -> bool {
    (x as u64 ^ (x >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits) == 0
}

// Landmarks of a harvesting move: the sowing ended in ring 0 and the hash of the state has seven
// high zero bits.
impl Landmark for InMove {
    const NEVER: Self = (u128::MAX, 0, 0, 0, false);
    fn maybe_landmark(&self) -> bool {
        self.3 == 0
    }
    fn landmark(&self) -> bool {
        rare_hash(
            self.0 ^ self.1.rotate_left(37) ^ (u128::from(self.2) << 120) ^ u128::from(self.4),
            7,
        )
    }
}

/// The in-move state of a kutakata with no pit that stops it (no kutakatia-ed pit, the house no
/// longer owned), up to a turn of the ring: the ring turned so that the pit the last sowing ended
/// in is ring index 0. Such a relay sowing treats all 16 pits alike, so a state that comes back
/// turned by `t` pits comes back turned by `2t`, `3t`, … pits the same number of steps later,
/// and after 16 such returns as itself: the sowing is endless. Long cycles are made of such turns
/// (a turned state comes back 2 to 16 times sooner than the state itself), which is what makes
/// them cheap to prove.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Turned(u128);

// Landmarks of a turned state: eleven high zero bits of its hash (one in 2,048), all inline.
impl Landmark for Turned {
    const NEVER: Self = Turned(u128::MAX);
    fn maybe_landmark(&self) -> bool {
        rare_hash(self.0, 11)
    }
    fn landmark(&self) -> bool {
        true
    }
}

/// One byte per pit in every lane of a ring.
const ONES: u128 = u128::from_le_bytes([1; 16]);

/// The 16 pits of `side` as one number, ring index `r` in byte `r`.
#[inline]
fn load_ring(b: &[u8; 32], side: usize) -> u128 {
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&b[side * 16..side * 16 + 16]);
    u128::from_le_bytes(bytes)
}

/// The board of South's ring `south` and North's ring `north`, put together from the rings in
/// registers: writing a position's bytes one by one and reading them back whole, as a copy of
/// the position does, stalls the processor (measured: about 8% of a random Bao ply).
#[inline(always)]
fn rings_to_pits(south: u128, north: u128) -> [u8; 32] {
    let mut b = [0u8; 32];
    b[..16].copy_from_slice(&south.to_le_bytes());
    b[16..].copy_from_slice(&north.to_le_bytes());
    b
}

/// Seeds in ring index `i`.
#[inline]
fn pit(ring: u128, i: usize) -> u8 {
    (ring >> (8 * i)) as u8
}

/// Empties ring index `i`, returning its seeds.
#[inline]
fn take(ring: &mut u128, i: usize) -> u8 {
    let seeds = pit(*ring, i);
    *ring &= !(0xff << (8 * i));
    seeds
}

/// Sows `n` seeds starting in `first` itself: whole laps at once, then one mask for the rest.
/// Returns the last ring index sown. No pit can overflow: the board holds 64 seeds.
#[inline]
fn sow_ring(ring: &mut u128, first: usize, n: usize, cw: bool) -> usize {
    *ring += (n / 16) as u128 * ONES;
    let rest = n % 16;
    if rest == 0 {
        return step(first, cw, 15);
    }
    let run = ONES & ((1u128 << (8 * rest)) - 1);
    // The pits sown form the run [low, low + rest) of the ring, read clockwise.
    let (low, last) = if cw {
        (first, (first + rest - 1) & 15)
    } else {
        let low = (first + 16 - (rest - 1)) & 15;
        (low, low)
    };
    *ring += run.rotate_left(8 * low as u32);
    last
}

/// `RELAY[cw][e][n]`: what emptying ring index `e` of its `n` seeds and sowing them from the next
/// pit in direction `cw` adds to a ring (wrapping), so a relay step is one load and one add.
static RELAY: [[[u128; 65]; 16]; 2] = relay_table();

const fn relay_table() -> [[[u128; 65]; 16]; 2] {
    let mut t = [[[0u128; 65]; 16]; 2];
    let mut dir = 0;
    while dir < 2 {
        let mut e = 0;
        while e < 16 {
            let mut n = 0;
            while n <= 64 {
                let mut add = [0u8; 16];
                let mut k = 1;
                while k <= n {
                    let to = if dir == 1 {
                        (e + k) & 15
                    } else {
                        (e + 16 * 5 - k) & 15
                    };
                    add[to] += 1;
                    k += 1;
                }
                t[dir][e][n] = u128::from_le_bytes(add).wrapping_sub((n as u128) << (8 * e));
                n += 1;
            }
            e += 1;
        }
        dir += 1;
    }
    t
}

/// Empties ring index `e` and sows its `n` seeds from the next pit on (`n` at most 64).
#[inline(always)]
fn relay(ring: u128, e: usize, n: u8, cw: bool) -> u128 {
    ring.wrapping_add(RELAY[usize::from(cw)][e][usize::from(n)])
}

/// Proves a relay sowing endless: Brent's check (constant memory) on every state, and past
/// [`LANDMARKS_AFTER`] steps landmark states too, which catch a long cycle about one cycle length
/// after it starts instead of up to two more. The landmark set is touched out of line, on about
/// one state in 2,000, so the per-step work is a comparison and a counter.
struct CycleCheck<S> {
    snapshot: S,
    power: u64,
    since_snapshot: u64,
    landmarks: Option<HashSet<S>>,
}

impl<S: Landmark> CycleCheck<S> {
    fn new() -> CycleCheck<S> {
        CycleCheck {
            snapshot: S::NEVER,
            power: 1,
            since_snapshot: 0,
            landmarks: None,
        }
    }

    /// Whether `state` proves the sowing endless (it repeats an earlier one); then records it.
    #[inline(always)]
    fn repeats(&mut self, state: S) -> bool {
        if self.snapshot == state {
            return true;
        }
        self.since_snapshot += 1;
        if self.since_snapshot == self.power {
            self.snapshot = state;
            self.power *= 2;
            self.since_snapshot = 0;
        }
        // Past LANDMARKS_AFTER steps the power of two has grown beyond it.
        self.power > LANDMARKS_AFTER
            && state.maybe_landmark()
            && landmark_seen(&mut self.landmarks, state)
    }
}

/// Whether `state` is a landmark already in `set`; then records it. Takes only the set, so the
/// Brent fields of the caller's check never leave registers.
#[cold]
#[inline(never)]
fn landmark_seen<S: Landmark>(set: &mut Option<HashSet<S>>, state: S) -> bool {
    state.landmark() && !set.get_or_insert_with(HashSet::new).insert(state)
}

/// A move in progress: both rings in registers, one byte per pit, and what the move did so far.
struct InPlay {
    side: usize,
    kunamua: bool,
    /// The reading ends both houses at the first mtaji harvest (3.2).
    ends_houses_at_harvest: bool,
    mine: u128,
    theirs: u128,
    houses: u8,
    sown: u32,
    captures: u32,
    /// The move runs clockwise.
    cw: bool,
    /// A harvest emptied the opponent's front row (1.2.1).
    over: bool,
    path: MovePath,
}

impl InPlay {
    /// Empties own ring `ring` (the house's ownership with it) and sows its seeds on; the pit
    /// the sowing ended in.
    #[inline(always)]
    fn pick_up_and_sow(&mut self, ring: usize, my_bit: u8) -> usize {
        let n = usize::from(take(&mut self.mine, ring));
        if ring == HOUSE {
            self.houses &= !my_bit;
        }
        self.sown += n as u32;
        self.path.sowings += 1;
        sow_ring(&mut self.mine, step(ring, self.cw, 1), n, self.cw)
    }

    /// The harvest at front ring `at`: takes the facing pit and sows it from the kichwa the rules
    /// give (`dir`: the move's direction; `None` in kunamua before one is chosen, when the `right`
    /// hand picks the kichwa); the pit the sowing ended in.
    #[inline(always)]
    fn harvest(&mut self, at: usize, dir: Option<bool>, right: bool) -> usize {
        let f = facing(at);
        let seeds = take(&mut self.theirs, f);
        self.captures += 1;
        if f == HOUSE {
            self.houses &= !(1 << (1 - self.side));
        }
        if !self.kunamua && self.ends_houses_at_harvest {
            self.path.houses_lost_at_mtaji_harvest += self.houses.count_ones();
            self.houses = 0;
        }
        self.path.sowings += 1;
        let (k, c) = if at <= 1 {
            self.path.left_end_harvests += 1;
            (0, true)
        } else if at >= 6 {
            self.path.right_end_harvests += 1;
            (7, false)
        } else {
            match dir {
                Some(d) => (if d { 0 } else { 7 }, d),
                None => {
                    self.path.chosen_kichwas += 1;
                    (if right { 7 } else { 0 }, !right)
                }
            }
        };
        // The opponent's front row is the low eight bytes of their ring.
        self.over = self.theirs as u64 == 0;
        self.sown += u32::from(seeds);
        self.cw = c;
        sow_ring(&mut self.mine, k, usize::from(seeds), c)
    }

    /// A capture move from the end `e` of its first sowing on: harvests, kuendelea and the house
    /// decision (`plus`: play the house); the clause that ended it, whether it proved infinite,
    /// and whether the house was up for a decision.
    #[inline(always)]
    fn capture_relays(
        &mut self,
        mut e: usize,
        plus: bool,
        limit: u32,
    ) -> (&'static str, bool, bool) {
        let my_bit = 1u8 << self.side;
        let mut decision = false;
        let mut cycle = CycleCheck::<InMove>::new();
        loop {
            if self.over {
                return ("1.2.1", false, decision);
            }
            let here = pit(self.mine, e);
            if here == 1 {
                return ("1.5.4", false, decision);
            }
            if e < 8 && pit(self.theirs, facing(e)) > 0 {
                e = self.harvest(e, Some(self.cw), false);
                continue;
            }
            if e == HOUSE && self.houses & my_bit != 0 && here >= 6 {
                decision = true;
                if !plus {
                    return ("4.2.2.3.2", false, decision);
                }
            }
            // A move's first relays are not tested for a cycle: an endless sowing is proved the
            // same, a few relays later, and the common short move skips the test.
            if self.sown > limit
                || (self.path.relays >= UNCHECKED_RELAYS
                    && cycle.repeats((self.mine, self.theirs, self.houses, e, self.cw)))
            {
                return ("1.5.6", true, decision);
            }
            if e == HOUSE {
                self.houses &= !my_bit;
            }
            self.mine = relay(self.mine, e, here, self.cw);
            self.sown += u32::from(here);
            self.path.relays += 1;
            self.path.sowings += 1;
            e = step(e, self.cw, usize::from(here));
        }
    }

    /// A kutakata from the end `e` of its first sowing on (kuendelea until the move stops); the
    /// clause that ended it and whether it proved infinite.
    #[inline(always)]
    fn kutakata_relays(&mut self, e: usize, blocked: u8, limit: u32) -> (&'static str, bool) {
        let my_bit = 1u8 << self.side;
        let mut k = Kutakata {
            mine: self.mine,
            owned: self.houses & my_bit != 0,
            sown: self.sown,
            relays: 0,
            infinite: false,
            end: KutakataEnd::Infinite,
        };
        if self.cw {
            k.relays::<true>(e, blocked, limit);
        } else {
            k.relays::<false>(e, blocked, limit);
        }
        self.mine = k.mine;
        self.sown = k.sown;
        self.path.relays = k.relays;
        self.path.sowings += k.relays;
        if !k.owned {
            self.houses &= !my_bit;
        }
        let end = match k.end {
            KutakataEnd::EmptyPit => "1.5.4",
            KutakataEnd::Blocked => "5.2",
            KutakataEnd::House if self.kunamua => "4.2.2.3.1",
            KutakataEnd::House => "1.6.2",
            KutakataEnd::Infinite => "1.5.6",
        };
        (end, k.infinite)
    }
}

/// The relay sowing of a kutakata: it never touches the opponent's ring, so it runs in a loop of
/// its own with few live values.
struct Kutakata {
    mine: u128,
    /// The mover still owns the house.
    owned: bool,
    sown: u32,
    /// Relay sowings made.
    relays: u32,
    infinite: bool,
    /// How the sowing ended.
    end: KutakataEnd,
}

/// How a kutakata's relay sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KutakataEnd {
    /// In an empty pit (1.5.4).
    EmptyPit,
    /// In the kutakatia-ed pit (5.2).
    Blocked,
    /// In the owned house with six or more (4.2.2.3.1 in kunamua, 1.6.2 in mtaji).
    House,
    /// Never: the sowing is infinite (1.5.6).
    Infinite,
}

impl Kutakata {
    /// Relays from ring index `e`, where the last sowing ended, in direction `CW`.
    #[inline(never)]
    fn relays<const CW: bool>(&mut self, mut e: usize, blocked: u8, limit: u32) {
        let (mut mine, mut owned) = (self.mine, self.owned);
        // Counted wide: an endless sowing can pass 2^32 seeds before it is proved.
        let (mut sown, limit) = (u64::from(self.sown), u64::from(limit));
        let mut relays = 0u64;
        // The pits where a sowing can stop on an occupied pit: the kutakatia-ed one, and the
        // house while owned; the common step tests one bit for both.
        let blocked_bit = 1u32.checked_shl(u32::from(blocked)).unwrap_or(0) & 0xffff;
        let mut special = blocked_bit | u32::from(owned) << HOUSE;
        let mut here = pit(mine, e);
        debug_assert!(here > 0, "a sowing ends in a pit it sowed");
        // While a pit can stop the sowing on an occupied pit, the sowing cannot be endless: no
        // sowing empties that pit (ending there ends the sowing, or the house's ownership), and
        // the seeds sown run on around the ring, so every 16 of them pass it once and it gains
        // one; with 64 seeds on the board this stage sows fewer than 16 × 65 seeds.
        let phase_start = sown;
        while special != 0 {
            debug_assert!(sown - phase_start < 16 * 65);
            debug_assert_eq!(here, pit(mine, e));
            if here == 1 {
                self.end = KutakataEnd::EmptyPit;
                self.done(mine, owned, sown, relays);
                return;
            }
            if special >> e & 1 != 0 {
                if usize::from(blocked) == e || (e == HOUSE && owned && here >= 6) {
                    self.end = if usize::from(blocked) == e {
                        KutakataEnd::Blocked
                    } else {
                        KutakataEnd::House
                    };
                    self.done(mine, owned, sown, relays);
                    return;
                }
                if e == HOUSE {
                    // Emptying the house ends its ownership; with no kutakatia-ed pit nothing
                    // stops the sowing on an occupied pit any more.
                    owned = false;
                    special = blocked_bit;
                    if special == 0 {
                        break;
                    }
                }
            }
            if sown > limit {
                self.infinite = true;
                self.end = KutakataEnd::Infinite;
                self.done(mine, owned, sown, relays);
                return;
            }
            sown += u64::from(here);
            (mine, e, here) = relay_step::<CW>(mine, e, here);
            relays += 1;
        }
        // No pit stops the sowing any more: the state after the stop test decides the rest of the
        // sowing, so its repetition, up to a turn of the ring, proves the sowing endless.
        let mut cycle = CycleCheck::<Turned>::new();
        loop {
            debug_assert_eq!(here, pit(mine, e));
            if here == 1 {
                self.end = KutakataEnd::EmptyPit;
                break;
            }
            if sown > limit || cycle.repeats(Turned(mine.rotate_right(8 * e as u32))) {
                self.infinite = true;
                self.end = KutakataEnd::Infinite;
                break;
            }
            sown += u64::from(here);
            (mine, e, here) = relay_step::<CW>(mine, e, here);
            relays += 1;
        }
        self.done(mine, owned, sown, relays);
    }

    /// Stores the state where the sowing stopped.
    #[inline(always)]
    fn done(&mut self, mine: u128, owned: bool, sown: u64, relays: u64) {
        self.sown = u32::try_from(sown).unwrap_or(u32::MAX);
        self.relays = u32::try_from(relays).unwrap_or(u32::MAX);
        (self.mine, self.owned) = (mine, owned);
    }
}

/// One relay step of a kutakata: empties ring index `e` of its `here` seeds and sows them on in
/// direction `CW`; returns the ring, the pit the sowing ended in and its seeds.
#[inline(always)]
fn relay_step<const CW: bool>(mine: u128, e: usize, here: u8) -> (u128, usize, u8) {
    // The next pit's seeds are read from the ring before this relay is added: the table load is
    // then off the chain from one step to the next. The last pit sown gets one seed per lap
    // begun; with whole laps only it is the emptied pit itself.
    let next = step(e, CW, usize::from(here));
    let (laps, rest) = (here / 16, here % 16);
    let next_here = if rest == 0 {
        laps
    } else {
        pit(mine, next) + laps + 1
    };
    (relay(mine, e, here, CW), next, next_here)
}

/// The harvests open to `side`: the starts that harvest, as a bit mask (bit `2 * ring + 1` for the
/// `>` hand, `2 * ring` for `<`), and the opponent pits they would harvest first (bit `t`:
/// opponent ring `t`).
fn captures(b: &[u8; 32], side: usize, kunamua: bool) -> (u32, u8) {
    let front = |s: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&b[s * 16..s * 16 + 8]);
        u64::from_le_bytes(bytes)
    };
    // Byte r of `facing_them` is the opponent pit facing front ring r (a byte swap).
    let (mine, facing_them) = (front(side), front(1 - side).swap_bytes());
    // Bit r: front ring r and the pit facing it are both occupied (branch-free: which starts
    // harvest is a coin toss for the branch predictor).
    let hot = u32::from(bytes_at_least(mine, 1) & bytes_at_least(facing_them, 1));
    if kunamua {
        // Kichwa and kimbi fix the kichwa: left pits 1-2 use '<' (bits 0 and 2), right pits 7-8
        // use '>' (bits 13 and 15); pits 3-6 take either hand.
        const HANDS: u32 = 0b10_10_11_11_11_11_01_01;
        return (both_hands(hot) & HANDS, (hot as u8).reverse_bits());
    }
    // All 16 pits at once, one byte each: a pit of n seeds, 2 <= n <= 15, sown from ring index r
    // ends in ring index r + n clockwise and r - n anticlockwise (mod 16); it harvests when that
    // pit is hot. Every byte stays below 128, so no byte carries into the next.
    let ring = load_ring(b, side);
    let valid = at_least(ring, 2) & !at_least(ring, 16);
    let cw_end = (ring + RING_INDEX) & LOW_NIBBLES;
    let ccw_end = ((RING_INDEX | TOP_BITS) - ring) & LOW_NIBBLES;
    let (mut cw, mut ccw, mut ends) = (0u128, 0u128, 0u32);
    let mut targets = hot;
    while targets != 0 {
        let t = targets.trailing_zeros();
        let here = ONES * u128::from(t);
        let (to_cw, to_ccw) = (
            zero_bytes(cw_end ^ here) & valid,
            zero_bytes(ccw_end ^ here) & valid,
        );
        (cw, ccw) = (cw | to_cw, ccw | to_ccw);
        ends |= u32::from(to_cw | to_ccw != 0) << t;
        targets &= targets - 1;
    }
    let (cw, ccw) = (top_bits(cw), top_bits(ccw));
    // The `>` hand sows clockwise from the front row and anticlockwise from the back row.
    let (right, left) = ((cw & 0xff) | (ccw & 0xff00), (ccw & 0xff) | (cw & 0xff00));
    let starts = spread(right) << 1 | spread(left);
    (starts, (ends as u8).reverse_bits())
}

/// Byte r is r.
const RING_INDEX: u128 =
    u128::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
/// The low four bits of every byte.
const LOW_NIBBLES: u128 = ONES * 0x0f;
/// The top bit of every byte.
const TOP_BITS: u128 = ONES * 0x80;

/// The top bit of each byte of `x` (every byte below 128) set when the byte is at least `k`
/// (1 <= k <= 128).
#[inline(always)]
fn at_least(x: u128, k: u8) -> u128 {
    (x + ONES * u128::from(128 - k)) & TOP_BITS
}

/// The top bit of each byte of `x` (every byte below 128) set when the byte is zero.
#[inline(always)]
fn zero_bytes(x: u128) -> u128 {
    !(x + ONES * 0x7f) & TOP_BITS
}

/// The top bits of the 16 bytes of `x` as a 16-bit mask (byte r to bit r).
#[inline(always)]
fn top_bits(x: u128) -> u32 {
    let half = |h: u64| ((h >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    half(x as u64) | half((x >> 64) as u64) << 8
}

/// Bit i set when byte i of `x` is at least `k` (1 ≤ k ≤ 128); every byte is below 128 (a board
/// holds 64 seeds).
#[inline(always)]
fn bytes_at_least(x: u64, k: u8) -> u8 {
    // A byte below 128 is at least k exactly when adding 128 - k sets its top bit.
    let add = u64::from(128 - k) * 0x0101_0101_0101_0101;
    let tops = (x + add) & 0x8080_8080_8080_8080;
    ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The move of start bit `i` of a start mask (bit `2 * ring + 1` for the `>` hand, `2 * ring`
/// for `<`).
#[inline(always)]
fn start_move(i: u32) -> FastMove {
    (i / 2) as u8 | if i % 2 == 1 { RIGHT } else { 0 }
}

/// Bit r of a 16-bit mask moved to bit 2r.
#[inline(always)]
fn spread(x: u32) -> u32 {
    let mut x = x & 0xffff;
    x = (x | x << 8) & 0x00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333;
    (x | x << 1) & 0x5555_5555
}

/// Bit r of a 16-bit mask spread to bits 2r and 2r + 1 (both hands of ring r).
#[inline(always)]
fn both_hands(x: u32) -> u32 {
    let x = spread(x);
    x | x << 1
}

/// What the start rules need to know of a position, worked out once for all its starts.
struct Mover {
    side: usize,
    kunamua: bool,
    /// The harvesting starts of the mover ([`captures`]).
    captures: u32,
    owned: bool,
}

impl Mover {
    fn of(p: &FastPos) -> Mover {
        Mover::with(p, None)
    }

    /// The facts of `p`, given its harvesting starts if they are known already.
    #[inline(always)]
    fn with(p: &FastPos, known_captures: Option<u32>) -> Mover {
        let side = usize::from(p.to_move);
        let kunamua = p.stores[side] > 0;
        Mover {
            side,
            kunamua,
            captures: known_captures.unwrap_or_else(|| captures(&p.pits, side, kunamua).0),
            owned: p.houses & (1 << side) != 0,
        }
    }
}

impl FastRules {
    /// The optimized engine for `variant`, or why it cannot play it.
    pub fn new(variant: Variant) -> Result<FastRules, Unsupported> {
        if !variant.open_points().is_empty() {
            return Err(Unsupported(
                "readings that leave a point open (preset strict): it has no 'rules silent' outcome",
            ));
        }
        Ok(FastRules { variant })
    }

    /// The reading this engine plays.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start position.
    pub fn start() -> FastPos {
        let mut b = [0u8; 32];
        for side in 0..2 {
            b[side * 16 + 4] = 6;
            b[side * 16 + 5] = 2;
            b[side * 16 + 6] = 2;
        }
        FastPos {
            pits: b,
            stores: [22, 22],
            houses: 3,
            to_move: 0,
            blocked: NO_PIT,
        }
    }

    /// The starts the start rules allow in `p` (infinite moves not struck off yet), as a bit mask:
    /// bit `2 * ring + 1` for the `>` hand, `2 * ring` for `<`.
    #[inline(always)]
    fn starts(&self, p: &FastPos, f: &Mover) -> u32 {
        if f.captures != 0 {
            // Where a harvest is possible, the starts are exactly the harvesting ones.
            f.captures
        } else {
            self.kutakata_starts(p, f)
        }
    }

    /// The start rule that an allowed start from ring `ring` follows.
    #[inline(always)]
    fn start_kind(p: &FastPos, f: &Mover, ring: usize) -> Start {
        if f.captures != 0 {
            Start::Capture
        } else if f.kunamua && f.owned && ring == HOUSE && p.pits[f.side * 16 + HOUSE] >= 6 {
            Start::Tax
        } else {
            Start::Kutakata
        }
    }

    /// The start rule that `mv` follows, or `None` when the start rules forbid its start.
    fn classify(&self, p: &FastPos, f: &Mover, mv: FastMove) -> Option<Start> {
        let ring = usize::from(mv & 15);
        let bit = 2 * ring + usize::from(mv & RIGHT != 0);
        (self.starts(p, f) >> bit & 1 != 0).then(|| Self::start_kind(p, f, ring))
    }

    /// [`Self::starts`] in a position without harvests, worked out for all rings at once.
    #[inline(always)]
    fn kutakata_starts(&self, p: &FastPos, f: &Mover) -> u32 {
        debug_assert_eq!(f.captures, 0);
        let me = f.side * 16;
        let half = |at: usize| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&p.pits[at..at + 8]);
            u64::from_le_bytes(bytes)
        };
        let (front, back) = (half(me), half(me + 8));
        let rings =
            |k: u8| u32::from(bytes_at_least(front, k)) | u32::from(bytes_at_least(back, k)) << 8;
        let blocked = 1u32.checked_shl(u32::from(p.blocked)).unwrap_or(0);
        // Some front pit holds more than one seed.
        let over_one = rings(2) & 0xff != 0;
        let mut taxable = false;
        let mut cand = if f.kunamua {
            // Front pits with seeds whose facing pit is empty (a capture pit sown towards the
            // wrong kichwa is no start).
            let facing_them = half((1 - f.side) * 16).swap_bytes();
            let mut cand = rings(1) & 0xff & !u32::from(bytes_at_least(facing_them, 1));
            if f.owned && p.pits[me + HOUSE] >= 6 {
                // The owned house with six or more is taxed, and only when it is the one filled
                // pit; it is no kutakata start.
                taxable = cand & !blocked & (1 << HOUSE) != 0;
                cand &= !(1 << HOUSE);
            }
            if !f.owned && over_one {
                cand &= !(rings(1) & !rings(2));
            }
            cand
        } else if over_one {
            rings(2) & 0xff
        } else {
            rings(2)
        };
        cand &= !blocked;
        let mut starts = both_hands(cand);
        if (rings(1) & 0xff).count_ones() == 1 {
            // The one filled front pit may not be sown off the row from a kichwa: ring 0 `<`
            // (bit 0), ring 7 `>` (bit 15).
            starts &= !(cand & 1) | !1;
            starts &= !((cand >> 7 & 1) << 15);
            if taxable {
                starts |= 0b11 << (2 * HOUSE);
            }
        }
        starts
    }

    fn run(&self, p: &FastPos, mv: FastMove, start: Start) -> MoveRun {
        let side = usize::from(p.to_move);
        let mut m = InPlay {
            side,
            kunamua: p.stores[side] > 0,
            ends_houses_at_harvest: self.variant.house_loss
                == HouseLoss::EmptiedOrFirstMtajiCapture,
            mine: load_ring(&p.pits, side),
            theirs: load_ring(&p.pits, 1 - side),
            houses: p.houses,
            sown: 0,
            captures: 0,
            cw: false,
            over: false,
            path: MovePath {
                tax: start == Start::Tax,
                ..MovePath::default()
            },
        };
        let mut stores = p.stores;
        let (end, stopped) = self.first_sowing(&mut m, &mut stores, mv, start);
        let limit = match self.variant.infinite_moves {
            InfiniteMoves::Exact => u32::MAX,
            InfiniteMoves::SownLimit(n) => n,
        };
        let (move_end, infinite, decision) = match (end, start) {
            (None, _) => (stopped, false, false),
            (Some(e), Start::Capture) => {
                let (move_end, infinite, decision) = m.capture_relays(e, mv & PLUS != 0, limit);
                (move_end, infinite, decision)
            }
            (Some(e), _) => {
                let (move_end, infinite) = m.kutakata_relays(e, p.blocked, limit);
                (move_end, infinite, false)
            }
        };
        let infinite = infinite || m.sown > limit;
        // The position is built once, from the rings in registers (see `rings_to_pits`).
        let (south, north) = if side == 0 {
            (m.mine, m.theirs)
        } else {
            (m.theirs, m.mine)
        };
        let pits = rings_to_pits(south, north);
        let to_move = 1 - p.to_move;
        let (blocked, next_captures) = if start != Start::Capture && !m.over && !infinite {
            let (blocked, mover_captures) = self.kutakatia(&pits, &stores, m.houses, to_move);
            (blocked, Some(mover_captures))
        } else {
            (NO_PIT, None)
        };
        MoveRun {
            pos: FastPos {
                pits,
                stores,
                houses: m.houses,
                to_move,
                blocked,
            },
            infinite,
            decision,
            captures: m.captures,
            sown: m.sown,
            next_captures,
            end: move_end,
            house_played: decision && mv & PLUS != 0,
            path: m.path,
        }
    }

    /// The start of a move up to the end of its first sowing: the pit it ended in, or `None` and
    /// the clause that ended the move there.
    #[inline(always)]
    fn first_sowing(
        &self,
        m: &mut InPlay,
        stores: &mut [u8; 2],
        mv: FastMove,
        start: Start,
    ) -> (Option<usize>, &'static str) {
        let ring = usize::from(mv & 15);
        let right = mv & RIGHT != 0;
        let my_bit = 1u8 << m.side;
        if !m.kunamua {
            m.cw = hand_cw(ring, right);
            let e = m.pick_up_and_sow(ring, my_bit);
            return if start == Start::Capture {
                (Some(m.harvest(e, Some(m.cw), right)), "")
            } else {
                (Some(e), "")
            };
        }
        stores[m.side] -= 1;
        m.mine += 1 << (8 * ring);
        m.sown += 1;
        match start {
            Start::Capture => (Some(m.harvest(ring, None, right)), ""),
            Start::Tax => {
                m.mine -= 2 << (8 * HOUSE);
                m.cw = right;
                let first = if right { HOUSE + 1 } else { HOUSE - 1 };
                m.sown += 2;
                m.path.sowings += 1;
                (Some(sow_ring(&mut m.mine, first, 2, m.cw)), "")
            }
            Start::Kutakata => {
                m.cw = right;
                let house_stop = ring == HOUSE
                    && m.houses & my_bit != 0
                    && pit(m.mine, HOUSE) >= 6
                    && self.variant.store_seed_into_house == StoreSeedIntoHouse::Stop;
                if house_stop {
                    (None, "4.2.2.3.1")
                } else {
                    (Some(m.pick_up_and_sow(ring, my_bit)), "")
                }
            }
        }
    }

    /// The kutakatia-ed pit of the player to move in `q`, just after the opponent's kutakata, and
    /// that player's harvesting starts (worked out on the way).
    fn kutakatia(&self, pits: &[u8; 32], stores: &[u8; 2], houses: u8, to_move: u8) -> (u8, u32) {
        let y = usize::from(to_move);
        let x = 1 - y;
        let mine = captures(pits, y, stores[y] > 0).0;
        if mine != 0 {
            return (NO_PIT, mine);
        }
        let threats = captures(pits, x, stores[x] > 0).1;
        if threats.count_ones() != 1 {
            return (NO_PIT, mine);
        }
        let t = threats.trailing_zeros() as usize;
        let yb = &pits[y * 16..y * 16 + 8];
        let owned = houses & (1 << y) != 0;
        let exempt_house = match self.variant.house_kutakatia {
            HouseKutakatia::ExemptWhileOwned => owned,
            HouseKutakatia::ExemptWhileOwnedWithSix => owned && yb[HOUSE] >= 6,
        };
        let only_occupied = yb.iter().enumerate().all(|(i, &s)| i == t || s == 0);
        let only_full = yb[t] > 1 && yb.iter().enumerate().all(|(i, &s)| i == t || s <= 1);
        if (t == HOUSE && exempt_house) || only_occupied || only_full {
            (NO_PIT, mine)
        } else {
            (t as u8, mine)
        }
    }

    /// The legal moves of `p` with their kinds, in canonical order (front 1–8, back 1–8, `<` first).
    pub fn legal_moves(&self, p: &FastPos) -> MoveList {
        let mut list = MoveList::new();
        self.each_legal(&FastState::new(*p), |mv, kind, _| list.push(mv, kind));
        list
    }

    /// Every legal move of `s` with what it does, in canonical order (each move run once).
    pub fn successors(&self, s: &FastState, mut each: impl FnMut(FastMove, FastPlay)) {
        self.each_legal(s, |mv, _, ran| each(mv, FastPlay::of(ran)));
    }

    /// The most seeds a legal move of `s` harvests, `None` when no move is legal. Harvests are
    /// compulsory (1.4.1), so without one every legal move is a kutakata that harvests nothing
    /// (1.5.3): then moves are run only until one is finite (not infinite, 1.5.6).
    pub fn max_harvest(&self, s: &FastState) -> Option<u32> {
        let p = &s.pos;
        if front_empty(&p.pits, 0) || front_empty(&p.pits, 1) {
            return None;
        }
        let facts = Mover::with(p, s.known_captures);
        let them = 1 - usize::from(p.to_move);
        let seeds = |q: &FastPos| -> u32 {
            q.pits[them * 16..them * 16 + 16]
                .iter()
                .map(|&n| u32::from(n))
                .sum()
        };
        if facts.captures != 0 {
            let before = seeds(p);
            let mut best = None;
            self.each_legal(s, |_, _, ran| {
                best = best.max(Some(before - seeds(&ran.pos)))
            });
            return best;
        }
        let allowed = self.starts(p, &facts);
        for ring in (0..8).chain((8..16).rev()) {
            for right in [false, true] {
                if allowed >> (2 * ring + usize::from(right)) & 1 == 0 {
                    continue;
                }
                let mv = ring as u8 | if right { RIGHT } else { 0 };
                if !self.run(p, mv, Self::start_kind(p, &facts, ring)).infinite {
                    return Some(0);
                }
            }
        }
        None
    }

    /// Calls `each` with every legal move of `s`, its kind and its run, in canonical order.
    fn each_legal(&self, s: &FastState, mut each: impl FnMut(FastMove, MoveKind, MoveRun)) {
        let p = &s.pos;
        if front_empty(&p.pits, 0) || front_empty(&p.pits, 1) {
            return;
        }
        let facts = Mover::with(p, s.known_captures);
        let allowed = self.starts(p, &facts);
        for ring in (0..8).chain((8..16).rev()) {
            for right in [false, true] {
                if allowed >> (2 * ring + usize::from(right)) & 1 == 0 {
                    continue;
                }
                let start = Self::start_kind(p, &facts, ring);
                let mv = ring as u8 | if right { RIGHT } else { 0 };
                let ran = self.run(p, mv, start);
                let kind = match start {
                    Start::Capture => MoveKind::Capture,
                    _ if ran.pos.blocked != NO_PIT => MoveKind::Kutakatia,
                    _ => MoveKind::Kutakata,
                };
                let decision = ran.decision;
                if !ran.infinite {
                    each(mv, kind, ran);
                }
                if decision {
                    let plus = self.run(p, mv | PLUS, start);
                    if !plus.infinite {
                        each(mv | PLUS, kind, plus);
                    }
                }
            }
        }
    }

    /// Plays a legal move and returns the new position, seeds sown and harvests made.
    pub fn play(&self, p: &FastPos, mv: FastMove) -> (FastPos, u32, u32) {
        let start = self
            .classify(p, &Mover::of(p), mv)
            .expect("play takes a legal move");
        let ran = self.run(p, mv, start);
        (ran.pos, ran.sown, ran.captures)
    }

    /// Plays `mv` if it is legal (the same test as [`Self::legal_moves`], for this start only).
    pub fn play_checked(&self, p: &FastPos, mv: FastMove) -> Option<(FastPos, u32, u32)> {
        if front_empty(&p.pits, 0) || front_empty(&p.pits, 1) {
            return None;
        }
        let start = self.classify(p, &Mover::of(p), mv)?;
        let ran = self.run(p, mv, start);
        // The `+` twin is legal where the plain move reaches the house decision; both runs agree
        // on reaching it, since they differ only there.
        (!ran.infinite && (mv & PLUS == 0 || ran.decision)).then_some((
            ran.pos,
            ran.sown,
            ran.captures,
        ))
    }

    /// The result if the game is over.
    pub fn outcome(&self, p: &FastPos) -> Option<FastOutcome> {
        for side in 0..2u8 {
            if front_empty(&p.pits, usize::from(side)) {
                return Some(FastOutcome {
                    winner: 1 - side,
                    clause: "1.2.1",
                });
            }
        }
        if self.legal_moves(p).len > 0 {
            return None;
        }
        let side = usize::from(p.to_move);
        let clause = if self.starts(p, &Mover::of(p)) != 0 {
            "1.5.6"
        } else if p.stores[side] == 0 {
            "3.3.2"
        } else {
            "1.2.2"
        };
        Some(FastOutcome {
            winner: 1 - p.to_move,
            clause,
        })
    }
}

impl FastRules {
    /// Plays one game of uniformly random legal moves from the start, listing every legal move
    /// each ply; returns (plies, winner or 2).
    pub fn random_playout_listed<R: rand::Rng>(&self, rng: &mut R, max_plies: u32) -> (u32, u8) {
        let mut p = FastRules::start();
        for ply in 0..max_plies {
            let list = self.legal_moves(&p);
            if list.len == 0 {
                let winner = self.outcome(&p).map_or(2, |o| o.winner);
                return (ply, winner);
            }
            let mv = list.moves[rng.gen_range(0..list.len)];
            p = self.play(&p, mv).0;
        }
        (max_plies, 2)
    }

    /// Plays the game with `keys` ([`crate::game::game_keys`]) from the start, each ply's move
    /// drawn by [`Self::random_move_with`] with that ply's [`crate::game::Draw`] (the stats job's
    /// games), without the stats job's bookkeeping; returns (plies, winner or 2).
    pub fn random_playout(&self, keys: [u32; 2], max_plies: u32) -> (u32, u8) {
        let mut s = FastState::new(FastRules::start());
        for ply in 0..max_plies {
            let draw = crate::game::Draw::new(keys, ply);
            match self.random_move_with(&s, |n, attempt| draw.below(n, attempt)) {
                Some((_, played)) => s = played.state,
                None => {
                    let winner = self.outcome(&s.pos).map_or(2, |o| o.winner);
                    return (ply, winner);
                }
            }
        }
        (max_plies, 2)
    }

    /// A uniformly random legal move of `p` and the position it gives, or `None` when there is
    /// none. Only the moves drawn are simulated: a move is drawn among every start (a harvesting
    /// start with the house owned also as its `+` twin, the only moves that can meet the house
    /// decision), and one that is infinite, or a `+` twin without a house decision, is struck off
    /// and the draw repeated, so each legal move is equally likely without listing them all.
    pub fn random_move<R: rand::Rng>(
        &self,
        p: &FastPos,
        rng: &mut R,
    ) -> Option<(FastMove, FastPos)> {
        self.draw(p, None, |n| rng.gen_range(0..n))
            .map(|(mv, ran)| (mv, ran.pos))
    }

    /// [`Self::random_move`] with the slot drawn at attempt `a` given by `pick(slots, a)`, from a
    /// state that may know its harvesting starts; the move and what it did.
    #[inline]
    pub fn random_move_with(
        &self,
        s: &FastState,
        mut pick: impl FnMut(usize, u32) -> usize,
    ) -> Option<(FastMove, FastPlay)> {
        let mut attempt = 0u32;
        self.draw(&s.pos, s.known_captures, |n| {
            let slot = pick(n, attempt);
            attempt = attempt.wrapping_add(1);
            slot
        })
        .map(|(mv, ran)| (mv, FastPlay::of(ran)))
    }

    /// Plays a legal move from a state and says what it did.
    pub fn play_state(&self, s: &FastState, mv: FastMove) -> FastPlay {
        let facts = Mover::with(&s.pos, s.known_captures);
        let start = self
            .classify(&s.pos, &facts, mv)
            .expect("play takes a legal move");
        FastPlay::of(self.run(&s.pos, mv, start))
    }

    /// [`Self::random_move`], given `p`'s harvesting starts if they are known, and giving those
    /// of the position reached when the move worked them out.
    #[inline(always)]
    fn draw(
        &self,
        p: &FastPos,
        known_captures: Option<u32>,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Option<(FastMove, MoveRun)> {
        if front_empty(&p.pits, 0) || front_empty(&p.pits, 1) {
            return None;
        }
        let facts = Mover::with(p, known_captures);
        let starts = self.starts(p, &facts);
        // Slot k draws the start of the (k / per_start)-th set bit of `starts`, plainly or, when
        // k is odd and starts have twins, as its `+` twin. A house decision needs a harvest and
        // the house owned from the start (it is never regained).
        let twins = facts.captures != 0 && facts.owned;
        let per_start = if twins { 2 } else { 1 };
        let all = starts.count_ones() as usize * per_start;
        let mut left = all;
        // Bit i: the start of the i-th set bit is infinite (`struck_plain`), its `+` twin is
        // infinite or no legal move (`struck_plus`).
        let (mut struck_plain, mut struck_plus) = (0u32, 0u32);
        while left > 0 {
            let k = pick(all);
            let (i, plus) = (k / per_start, twins && k % 2 == 1);
            let struck = if plus { struck_plus } else { struck_plain };
            if struck >> i & 1 != 0 {
                continue;
            }
            let mut bits = starts;
            for _ in 0..i {
                bits &= bits - 1;
            }
            let mv = start_move(bits.trailing_zeros());
            let start = Self::start_kind(p, &facts, usize::from(mv & 15));
            let mv = if plus { mv | PLUS } else { mv };
            let ran = self.run(p, mv, start);
            if twins && !ran.decision && struck_plus >> i & 1 == 0 {
                struck_plus |= 1 << i;
                left -= 1;
                if plus {
                    continue;
                }
            }
            if ran.infinite {
                if plus {
                    struck_plus |= 1 << i;
                } else {
                    struck_plain |= 1 << i;
                }
                left -= 1;
                continue;
            }
            return Some((mv, ran));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// How a kutakata's relay sowing ends, worked out seed by seed with every state kept: the
    /// ring, whether it was proved endless (by the first state to come back) and the seeds sown;
    /// `None` past `cap` relay steps.
    fn plain_relays(
        mut ring: [u8; 16],
        mut e: usize,
        mut owned: bool,
        blocked: u8,
        cw: bool,
        cap: usize,
    ) -> Option<([u8; 16], bool, u64)> {
        let mut seen = HashSet::new();
        let mut sown = 0;
        for _ in 0..cap {
            let here = ring[e];
            if here == 1 || usize::from(blocked) == e {
                return Some((ring, false, sown));
            }
            if e == HOUSE && owned {
                if here >= 6 {
                    return Some((ring, false, sown));
                }
                owned = false;
            }
            if !seen.insert((ring, e, owned)) {
                return Some((ring, true, sown));
            }
            sown += u64::from(here);
            ring[e] = 0;
            for _ in 0..here {
                e = if cw { (e + 1) % 16 } else { (e + 15) % 16 };
                ring[e] += 1;
            }
        }
        None
    }

    /// The harvesting starts of `side` worked out pit by pit and seed by seed: a start is a pit
    /// of 2 to 15 seeds (mtaji) whose sowing, one seed at a time, ends in an occupied front pit
    /// facing an occupied one; in kunamua a seed from the store goes into an occupied front pit
    /// facing an occupied one, the kichwa fixed at the two pits of each end.
    fn plain_captures(b: &[u8; 32], side: usize, kunamua: bool) -> (u32, u8) {
        let hot = |r: usize| r < 8 && b[side * 16 + r] > 0 && b[(1 - side) * 16 + 7 - r] > 0;
        let (mut starts, mut first) = (0u32, 0u8);
        for r in 0..16 {
            for right in [false, true] {
                let end = if kunamua {
                    let fixed = (r <= 1 && right) || ((6..8).contains(&r) && !right);
                    (r < 8 && !fixed).then_some(r)
                } else {
                    let n = usize::from(b[side * 16 + r]);
                    let cw = (r < 8) == right;
                    let mut e = r;
                    for _ in 0..n {
                        e = if cw { (e + 1) % 16 } else { (e + 15) % 16 };
                    }
                    (2..=15).contains(&n).then_some(e)
                };
                if let Some(e) = end.filter(|&e| hot(e)) {
                    starts |= 1 << (2 * r + usize::from(right));
                    first |= 1 << (7 - e);
                }
            }
        }
        (starts, first)
    }

    /// [`captures`] (all pits at once, one byte each) against the pit-by-pit simulation on random
    /// boards of up to 64 seeds, some crowded into few pits.
    #[test]
    fn captures_agree_with_a_pit_by_pit_simulation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for case in 0..20_000 {
            // The seeds go into a few pits picked at random (crowded boards: pits past 15 seeds)
            // or into any pit.
            let mut b = [0u8; 32];
            let few: Vec<usize> = (0..rng.gen_range(1..=6))
                .map(|_| rng.gen_range(0..32))
                .collect();
            for _ in 0..rng.gen_range(0..=64) {
                let at = if case % 2 == 0 {
                    few[rng.gen_range(0..few.len())]
                } else {
                    rng.gen_range(0..32)
                };
                b[at] += 1;
            }
            for side in 0..2 {
                for kunamua in [false, true] {
                    assert_eq!(
                        captures(&b, side, kunamua),
                        plain_captures(&b, side, kunamua),
                        "board {b:?}, side {side}, kunamua {kunamua}"
                    );
                }
            }
        }
    }

    /// `Kutakata::relays` (turned states, no check while a pit can stop the sowing) against the
    /// plain simulation on random rings, some with a kutakatia-ed pit or the house owned, and on
    /// endless ones found among them.
    #[test]
    fn relays_agree_with_a_seed_by_seed_simulation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut checked, mut endless) = (0, 0);
        while endless < 12 {
            let mut ring = [0u8; 16];
            for _ in 0..rng.gen_range(4..=64) {
                ring[rng.gen_range(0..16)] += 1;
            }
            // The last pit sown holds a seed at least.
            let e = rng.gen_range(0..16);
            if ring[e] == 0 {
                continue;
            }
            let owned = rng.gen_bool(0.3);
            let blocked = if rng.gen_bool(0.3) {
                rng.gen_range(0..16)
            } else {
                NO_PIT
            };
            let cw = rng.gen_bool(0.5);
            let Some((want, infinite, plain_sown)) =
                plain_relays(ring, e, owned, blocked, cw, 200_000)
            else {
                continue;
            };
            let mut k = Kutakata {
                mine: u128::from_le_bytes(ring),
                owned,
                sown: 0,
                relays: 0,
                infinite: false,
                end: KutakataEnd::Infinite,
            };
            if cw {
                k.relays::<true>(e, blocked, u32::MAX);
            } else {
                k.relays::<false>(e, blocked, u32::MAX);
            }
            let case = format!("ring {ring:?}, end {e}, owned {owned}, blocked {blocked}, cw {cw}");
            assert_eq!(k.infinite, infinite, "{case}");
            if !infinite {
                assert_eq!(k.mine.to_le_bytes(), want, "{case}");
            } else {
                endless += 1;
                // A proof takes at most a few times the seeds of the first repetition.
                assert!(u64::from(k.sown) <= 4 * plain_sown + 64, "{case}");
            }
            checked += 1;
        }
        assert!(checked > 1_000, "only {checked} rings");
    }

    /// experiments/long-infinite-move: the in-move state of North's `a1<` first comes back after
    /// 236,384,975 relay sowings (an independent ring simulation, in that README), so a proof by
    /// the state itself sows over 4 × 10^8 seeds (two or more a sowing); its turned state comes
    /// back far sooner.
    #[test]
    fn the_long_infinite_move_is_proved_by_its_turned_state() {
        let text = include_str!("../../experiments/long-infinite-move/position.txt");
        let p = super::super::engines::to_fast(&super::super::position_text::parse(text).unwrap());
        let rules = FastRules::new(Variant::DEFAULT).unwrap();
        let f = Mover::of(&p);
        let starts = rules.starts(&p, &f);
        let mut proofs = Vec::new();
        for bit in (0..32).filter(|b| starts >> b & 1 != 0) {
            let mv = start_move(bit);
            let ran = rules.run(&p, mv, FastRules::start_kind(&p, &f, usize::from(mv & 15)));
            if ran.infinite {
                proofs.push((mv, ran.sown));
            }
        }
        // a1< for North: ring 0, the `<` hand.
        assert_eq!(proofs.len(), 1, "{proofs:?}");
        assert_eq!(proofs[0].0, 0);
        assert!(proofs[0].1 < 100_000_000, "{proofs:?}");
    }
}
