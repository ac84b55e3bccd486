//! The optimized Bao engine: a packed 32-byte board, sowing by whole laps at once, moves as bytes
//! in a fixed array, Brent's cycle check with constant memory. It shares no rule code with
//! `rules.rs`; the differential checker (`mancala-lab diff`) holds the two to the same answers.

use super::variant::{HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant};

/// No kutakatia-ed pit.
pub const NONE: u8 = 255;
const HOUSE: usize = 4;

/// A position of the optimized engine. Pits are `b[side * 16 + ring]`, ring 0–7 = front pits 1–8,
/// ring 8–15 = back pits 8–1 (clockwise order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FastPos {
    /// Seeds per pit.
    pub b: [u8; 32],
    /// Stores of South and North.
    pub stores: [u8; 2],
    /// Bit 0: South owns its house; bit 1: North does.
    pub houses: u8,
    /// 0 South, 1 North.
    pub to_move: u8,
    /// Ring index of the mover's kutakatia-ed pit, or [`NONE`].
    pub blocked: u8,
}

/// A move as a byte: bits 0–3 the ring index, bit 4 the hand (1 = `>`), bit 5 play the house.
pub type FastMove = u8;
/// Bit of a move: the hand is `>`.
pub const RIGHT: u8 = 16;
/// Bit of a move: `+`, play the house.
pub const PLUS: u8 = 32;

/// What a legal move is: 0 capture, 1 kutakata, 2 kutakata that kutakatia-s.
pub type FastKind = u8;

/// Up to 64 legal moves (16 pits × 2 hands × house choice), without allocation.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    /// The moves, the first `len` valid.
    pub moves: [FastMove; 64],
    /// Their kinds.
    pub kinds: [FastKind; 64],
    /// How many.
    pub len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [0; 64],
            kinds: [0; 64],
            len: 0,
        }
    }

    fn push(&mut self, m: FastMove, k: FastKind) {
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
struct Ran {
    pos: FastPos,
    infinite: bool,
    decision: bool,
    captures: u32,
    sown: u32,
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

/// The capture target (opponent ring) of a start, if the start harvests.
#[inline]
fn capture_target(
    b: &[u8; 32],
    side: usize,
    kunamua: bool,
    ring: usize,
    right: bool,
) -> Option<usize> {
    let me = side * 16;
    let them = (1 - side) * 16;
    if kunamua {
        if ring >= 8 || b[me + ring] == 0 || b[them + facing(ring)] == 0 {
            return None;
        }
        // Kichwa and kimbi fix the kichwa: left pits 1-2 use '<', right pits 7-8 use '>'.
        if (ring <= 1 && right) || (ring >= 6 && !right) {
            return None;
        }
        Some(facing(ring))
    } else {
        let n = usize::from(b[me + ring]);
        if !(2..=15).contains(&n) {
            return None;
        }
        let end = step(ring, hand_cw(ring, right), n);
        (end < 8 && b[me + end] > 0 && b[them + facing(end)] > 0).then(|| facing(end))
    }
}

/// The opponent pits `side` could harvest first, as a ring bit mask, and whether any capture exists.
fn capture_targets(b: &[u8; 32], side: usize, kunamua: bool) -> u8 {
    let mut mask = 0u8;
    for ring in 0..16 {
        for right in [false, true] {
            if let Some(t) = capture_target(b, side, kunamua, ring, right) {
                mask |= 1 << t;
            }
        }
    }
    mask
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

    /// The start position.
    pub fn start() -> FastPos {
        let mut b = [0u8; 32];
        for side in 0..2 {
            b[side * 16 + 4] = 6;
            b[side * 16 + 5] = 2;
            b[side * 16 + 6] = 2;
        }
        FastPos {
            b,
            stores: [22, 22],
            houses: 3,
            to_move: 0,
            blocked: NONE,
        }
    }

    fn classify(&self, p: &FastPos, ring: usize, right: bool, any_capture: bool) -> Option<Start> {
        let side = usize::from(p.to_move);
        let me = side * 16;
        let kunamua = p.stores[side] > 0;
        let n = p.b[me + ring];
        if kunamua && (ring >= 8 || n == 0) {
            return None;
        }
        if !kunamua && n < 2 {
            return None;
        }
        if capture_target(&p.b, side, kunamua, ring, right).is_some() {
            return Some(Start::Capture);
        }
        if any_capture {
            return None;
        }
        if kunamua && p.b[(1 - side) * 16 + facing(ring)] > 0 {
            return None; // a capture pit sown towards the wrong kichwa
        }
        let front = &p.b[me..me + 8];
        let over_one = front.iter().filter(|&&s| s > 1).count();
        if !kunamua && ring >= 8 && over_one > 0 {
            return None;
        }
        if usize::from(p.blocked) == ring {
            return None;
        }
        let filled = front.iter().filter(|&&s| s > 0).count();
        let only = filled == 1 && ring < 8 && front[ring] > 0;
        let owned = p.houses & (1 << side) != 0;
        if kunamua {
            if ring == HOUSE && owned && n >= 6 {
                return only.then_some(Start::Tax);
            }
            if !owned && n == 1 && over_one > 0 {
                return None;
            }
        }
        let cw = hand_cw(ring, right);
        if only && ((ring == 0 && !cw) || (ring == 7 && cw)) {
            return None;
        }
        Some(Start::Kutakata)
    }

    /// Sows `n` seeds of `side` starting in `first` itself; returns the last ring.
    #[inline]
    fn sow(b: &mut [u8; 32], side: usize, first: usize, n: usize, cw: bool) -> usize {
        let me = side * 16;
        let laps = (n / 16) as u8;
        if laps > 0 {
            for s in &mut b[me..me + 16] {
                *s += laps;
            }
        }
        let rest = n % 16;
        let mut r = first;
        for i in 0..rest {
            if i > 0 {
                r = if cw { (r + 1) & 15 } else { (r + 15) & 15 };
            }
            b[me + r] += 1;
        }
        if rest == 0 {
            step(first, cw, 15)
        } else {
            r
        }
    }

    fn run(&self, p: &FastPos, mv: FastMove, start: Start) -> Ran {
        let side = usize::from(p.to_move);
        let me = side * 16;
        let them = (1 - side) * 16;
        let ring = usize::from(mv & 15);
        let right = mv & RIGHT != 0;
        let plus = mv & PLUS != 0;
        let kunamua = p.stores[side] > 0;
        let capture_move = start == Start::Capture;
        let mut q = *p;
        q.blocked = NONE;
        let mut sown = 0u32;
        let mut captures = 0u32;
        let mut decision = false;
        let mut over = false;
        let my_bit = 1u8 << side;
        let mut cw;
        let mut end: Option<usize>;

        // The harvest at front ring `at`: take the facing pit, sow it from the right kichwa.
        macro_rules! harvest {
            ($at:expr, $dir:expr) => {{
                let at: usize = $at;
                let f = facing(at);
                let seeds = std::mem::replace(&mut q.b[them + f], 0);
                captures += 1;
                if f == HOUSE {
                    q.houses &= !(1 << (1 - side));
                }
                if !kunamua && self.variant.house_loss == HouseLoss::EmptiedOrFirstMtajiCapture {
                    q.houses = 0;
                }
                let (k, c) = if at <= 1 {
                    (0, true)
                } else if at >= 6 {
                    (7, false)
                } else {
                    match $dir {
                        Some(d) => (if d { 0 } else { 7 }, d),
                        None => (if right { 7 } else { 0 }, !right),
                    }
                };
                over = front_empty(&q.b, 1 - side);
                sown += u32::from(seeds);
                cw = c;
                FastRules::sow(&mut q.b, side, k, usize::from(seeds), c)
            }};
        }

        if kunamua {
            q.stores[side] -= 1;
            q.b[me + ring] += 1;
            sown += 1;
            match start {
                Start::Capture => {
                    end = Some(harvest!(ring, None::<bool>));
                }
                Start::Tax => {
                    q.b[me + HOUSE] -= 2;
                    cw = right;
                    let first = if right { HOUSE + 1 } else { HOUSE - 1 };
                    sown += 2;
                    end = Some(FastRules::sow(&mut q.b, side, first, 2, cw));
                }
                Start::Kutakata => {
                    cw = right;
                    let house_stop = ring == HOUSE
                        && q.houses & my_bit != 0
                        && q.b[me + HOUSE] >= 6
                        && self.variant.store_seed_into_house == StoreSeedIntoHouse::Stop;
                    if house_stop {
                        end = None;
                    } else {
                        let n = usize::from(std::mem::replace(&mut q.b[me + ring], 0));
                        if ring == HOUSE {
                            q.houses &= !my_bit;
                        }
                        sown += n as u32;
                        end = Some(FastRules::sow(&mut q.b, side, step(ring, cw, 1), n, cw));
                    }
                }
            }
        } else {
            cw = hand_cw(ring, right);
            let n = usize::from(std::mem::replace(&mut q.b[me + ring], 0));
            if ring == HOUSE {
                q.houses &= !my_bit;
            }
            sown += n as u32;
            let e = FastRules::sow(&mut q.b, side, step(ring, cw, 1), n, cw);
            end = Some(if capture_move {
                harvest!(e, Some(cw))
            } else {
                e
            });
        }

        let limit = match self.variant.infinite_moves {
            InfiniteMoves::Exact => u32::MAX,
            InfiniteMoves::SownLimit(n) => n,
        };
        let mut snapshot: Option<([u8; 32], u8, usize, bool)> = None;
        let (mut power, mut lam) = (1u64, 0u64);
        let mut infinite = false;
        while let Some(e) = end {
            if over {
                break;
            }
            let here = q.b[me + e];
            if here == 1 {
                break;
            }
            if capture_move && e < 8 && q.b[them + facing(e)] > 0 {
                end = Some(harvest!(e, Some(cw)));
                continue;
            }
            if !capture_move && usize::from(p.blocked) == e {
                break;
            }
            if e == HOUSE && q.houses & my_bit != 0 && here >= 6 {
                if !capture_move {
                    break;
                }
                decision = true;
                if !plus {
                    break;
                }
            }
            let state = (q.b, q.houses, e, cw);
            if snapshot == Some(state) || sown > limit {
                infinite = true;
                break;
            }
            lam += 1;
            if lam == power {
                snapshot = Some(state);
                power *= 2;
                lam = 0;
            }
            let n = usize::from(std::mem::replace(&mut q.b[me + e], 0));
            if e == HOUSE {
                q.houses &= !my_bit;
            }
            sown += n as u32;
            end = Some(FastRules::sow(&mut q.b, side, step(e, cw, 1), n, cw));
        }
        infinite |= sown > limit;
        q.to_move = 1 - p.to_move;
        if !capture_move && !over && !infinite {
            q.blocked = self.kutakatia(&q);
        }
        Ran {
            pos: q,
            infinite,
            decision,
            captures,
            sown,
        }
    }

    /// The kutakatia-ed pit of the player to move in `q`, just after the opponent's kutakata.
    fn kutakatia(&self, q: &FastPos) -> u8 {
        let y = usize::from(q.to_move);
        let x = 1 - y;
        if capture_targets(&q.b, y, q.stores[y] > 0) != 0 {
            return NONE;
        }
        let threats = capture_targets(&q.b, x, q.stores[x] > 0);
        if threats.count_ones() != 1 {
            return NONE;
        }
        let t = threats.trailing_zeros() as usize;
        let yb = &q.b[y * 16..y * 16 + 8];
        let owned = q.houses & (1 << y) != 0;
        let exempt_house = match self.variant.house_kutakatia {
            HouseKutakatia::ExemptWhileOwned => owned,
            HouseKutakatia::ExemptWhileOwnedWithSix => owned && yb[HOUSE] >= 6,
        };
        let only_occupied = yb.iter().enumerate().all(|(i, &s)| i == t || s == 0);
        let only_full = yb[t] > 1 && yb.iter().enumerate().all(|(i, &s)| i == t || s <= 1);
        if (t == HOUSE && exempt_house) || only_occupied || only_full {
            NONE
        } else {
            t as u8
        }
    }

    /// The legal moves of `p` with their kinds, in canonical order (front 1–8, back 1–8, `<` first).
    pub fn legal_moves(&self, p: &FastPos) -> MoveList {
        let mut list = MoveList::new();
        if front_empty(&p.b, 0) || front_empty(&p.b, 1) {
            return list;
        }
        let side = usize::from(p.to_move);
        let any_capture = capture_targets(&p.b, side, p.stores[side] > 0) != 0;
        for ring in (0..8).chain((8..16).rev()) {
            for right in [false, true] {
                let Some(start) = self.classify(p, ring, right, any_capture) else {
                    continue;
                };
                let mv = ring as u8 | if right { RIGHT } else { 0 };
                let ran = self.run(p, mv, start);
                let kind = match start {
                    Start::Capture => 0,
                    _ if ran.pos.blocked != NONE => 2,
                    _ => 1,
                };
                if !ran.infinite {
                    list.push(mv, kind);
                }
                if ran.decision {
                    let plus = self.run(p, mv | PLUS, start);
                    if !plus.infinite {
                        list.push(mv | PLUS, kind);
                    }
                }
            }
        }
        list
    }

    /// Plays a legal move and returns the new position, seeds sown and harvests made.
    pub fn play(&self, p: &FastPos, mv: FastMove) -> (FastPos, u32, u32) {
        let side = usize::from(p.to_move);
        let any_capture = capture_targets(&p.b, side, p.stores[side] > 0) != 0;
        let ring = usize::from(mv & 15);
        let start = self
            .classify(p, ring, mv & RIGHT != 0, any_capture)
            .expect("play takes a legal move");
        let ran = self.run(p, mv, start);
        (ran.pos, ran.sown, ran.captures)
    }

    /// The result if the game is over.
    pub fn outcome(&self, p: &FastPos) -> Option<FastOutcome> {
        for side in 0..2u8 {
            if front_empty(&p.b, usize::from(side)) {
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
        let any_capture = capture_targets(&p.b, side, p.stores[side] > 0) != 0;
        let any_start = (0..16).any(|r| {
            [false, true]
                .iter()
                .any(|&h| self.classify(p, r, h, any_capture).is_some())
        });
        let clause = if any_start {
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

    /// Move-path count to `depth` (terminal positions end a path).
    pub fn perft(&self, p: &FastPos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let list = self.legal_moves(p);
        if depth == 1 {
            return list.len as u64;
        }
        list.moves[..list.len]
            .iter()
            .map(|&m| self.perft(&self.play(p, m).0, depth - 1))
            .sum()
    }
}

impl FastRules {
    /// Plays one game of uniformly random legal moves from the start; returns (plies, winner or 2).
    pub fn random_playout<R: rand::Rng>(&self, rng: &mut R, max_plies: u32) -> (u32, u8) {
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
}
