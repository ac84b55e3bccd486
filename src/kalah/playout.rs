//! Random Kalah games for the stats job, the board held in one 128-bit word seen from the player
//! to move: a sowing is a few word additions, the game the same as the typed engines play.

use crate::game::{draw_word, pick, Ending, EventTotals, Verdict};
use crate::playout::{moves_hash_step, Row, MOVES_HASH_START};

use super::engines::{AGAIN, CAP, CAPTURE, EMPTY_OPPOSITE, KALAH_COUNTED_EVENTS, ROW_EMPTY, SOW};
use super::variant::{EndTest, Sweep, Variant, MAX_PITS};
use super::Side;

/// A byte of 1 in each of the 16 bytes of a word.
const ONES: u128 = u128::MAX / 0xff;
/// The high bit of each byte.
const HIGHS: u128 = ONES << 7;

/// Multiplied by a word with one bit at the bottom of each of its eight bytes, gathers those
/// bits into the top byte, in order.
const GATHER: u64 = 0x0102_0408_1020_4080;

/// For each set of non-empty pits (bit i for pit i): how many there are, then the pit of each
/// from the mover's left.
const PITS: [[u8; 8]; 64] = {
    let mut table = [[0u8; 8]; 64];
    let mut mask = 0;
    while mask < 64 {
        let (mut bit, mut n) = (0, 0);
        while bit < 6 {
            if mask >> bit & 1 == 1 {
                table[mask][1 + n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        table[mask][0] = n as u8;
        mask += 1;
    }
    table
};

/// `n` bytes of 1 from the lowest (0 to 16).
#[inline(always)]
fn ones(n: usize) -> u128 {
    ONES_TABLE[n]
}

/// [`ones`] of 0 to 16, looked up rather than branched on.
const ONES_TABLE: [u128; 17] = {
    let mut table = [0u128; 17];
    let mut n = 1;
    while n <= 16 {
        table[n] = ONES >> (8 * (16 - n));
        n += 1;
    }
    table
};

/// Games [`RandomGames::play_range`] plays side by side.
pub const LANES: usize = 4;

/// A game under way: the board from the player to move's side, and its counts.
#[derive(Clone, Copy, Debug)]
pub struct Lane {
    x: u128,
    mover: Side,
    keys: [u32; 2],
    game: u64,
    /// The clause that ended the game, once it is over.
    end: Option<&'static str>,
    c: Counts,
}

impl Lane {
    /// Whether the game is over or cut at `max_plies`.
    #[inline(always)]
    fn done(&self, max_plies: u32) -> bool {
        self.end.is_some() || self.c.plies >= max_plies
    }
}

/// A random game's counts, beyond its final board.
#[derive(Clone, Copy, Debug)]
struct Counts {
    plies: u32,
    moves_hash: u64,
    captured: [u32; 2],
    extra_turns: u32,
    captures: u32,
    opposite_empty: u32,
}

/// Random games of one reading on the word board.
#[derive(Clone, Copy, Debug)]
pub struct RandomGames {
    variant: Variant,
    /// Pits a row.
    m: usize,
    /// The mover's row (bytes 0..m).
    row: u128,
    /// The places of one lap: every place but the opponent's store (bytes 0..2m+1).
    lap: u128,
    /// Bits of one side's half of the ring (its pits and store): 8(m+1).
    half: u32,
    /// The ring's 2m+2 bytes.
    ring: u128,
}

impl RandomGames {
    /// Random games under `variant`.
    pub fn new(variant: Variant) -> RandomGames {
        let m = usize::from(variant.pits);
        RandomGames {
            variant,
            m,
            row: ones(m) * 0xff,
            lap: ones(2 * m + 1),
            half: 8 * (m as u32 + 1),
            ring: ones(2 * m + 2) * 0xff,
        }
    }

    /// The word seen from the other player: the halves of the ring of 2m+2 bytes swapped.
    #[inline(always)]
    fn turn(&self, x: u128) -> u128 {
        ((x >> self.half) | (x << self.half)) & self.ring
    }

    /// Game `game` of `seed` played at random to its end or `max_plies` plies: its games.csv row
    /// and clause events, as the typed engines give them.
    pub fn play(&self, seed: u64, game: u64, max_plies: u32) -> (Row, EventTotals) {
        let p = self.playout(seed, game, max_plies);
        (p.row(), p.events())
    }

    /// Game `game` of `seed` played at random to its end or `max_plies` plies.
    pub fn playout(&self, seed: u64, game: u64, max_plies: u32) -> Playout {
        let mut lane = self.start(seed, game);
        while !lane.done(max_plies) {
            self.step(&mut lane);
        }
        self.finish(lane)
    }

    /// Games `games` of `seed`, given to `each` in game order: [`RandomGames::playout`] of each,
    /// [`LANES`] games played a ply at a time side by side, so that the processor overlaps
    /// their plies.
    pub fn play_range(
        &self,
        seed: u64,
        games: std::ops::Range<u64>,
        max_plies: u32,
        each: &mut dyn FnMut(Playout),
    ) {
        let first = games.start;
        let mut done: Vec<Option<Playout>> = Vec::new();
        done.resize_with((games.end - games.start) as usize, || None);
        let mut next = games.clone();
        let mut lanes: [Option<Lane>; LANES] = std::array::from_fn(|_| None);
        for lane in &mut lanes {
            *lane = next.next().map(|g| self.start(seed, g));
        }
        let mut emitted = 0;
        while lanes.iter().any(Option::is_some) {
            for slot in &mut lanes {
                let Some(lane) = slot else { continue };
                if lane.done(max_plies) {
                    let game = lane.game;
                    let finished =
                        std::mem::replace(slot, next.next().map(|g| self.start(seed, g)));
                    if let Some(lane) = finished {
                        done[(game - first) as usize] = Some(self.finish(lane));
                    }
                } else {
                    self.step(lane);
                }
            }
            // Hand on the games finished in order so far.
            while let Some(Some(_)) = done.get(emitted) {
                if let Some(p) = done[emitted].take() {
                    each(p);
                }
                emitted += 1;
            }
        }
    }

    /// Game `game` of `seed` at its start.
    fn start(&self, seed: u64, game: u64) -> Lane {
        let m = self.m;
        // Kalah(m,n): n seeds in every pit, South to move.
        let x = (ones(m) | ones(m) << (8 * (m + 1))) * u128::from(self.variant.seeds);
        Lane {
            x,
            mover: Side::South,
            keys: crate::game::game_keys(seed, game),
            game,
            end: self.end(x),
            c: Counts {
                plies: 0,
                moves_hash: MOVES_HASH_START,
                captured: [0; 2],
                extra_turns: 0,
                captures: 0,
                opposite_empty: 0,
            },
        }
    }

    /// One random ply of `lane`'s game, which is not over.
    #[inline(always)]
    fn step(&self, lane: &mut Lane) {
        let x = lane.x;
        // The k-th non-empty pit of the mover's row, k drawn as the typed engines draw it.
        let full = ((((x & !HIGHS) + !HIGHS) | x) & HIGHS & self.row) as u64;
        let pits = &PITS[((full >> 7).wrapping_mul(GATHER) >> 56) as usize & 63];
        let k = pick(draw_word(lane.keys, lane.c.plies), u32::from(pits[0]));
        self.play_pit(lane, usize::from(pits[1 + k as usize]));
    }

    /// The mover of `lane`'s game, which is not over, sows its non-empty pit `pit` (0 to m-1
    /// from its left).
    #[inline(always)]
    pub(crate) fn play_pit(&self, lane: &mut Lane, pit: usize) {
        let c = &mut lane.c;
        c.moves_hash = moves_hash_step(c.moves_hash, pit as u8);
        let (mut x, extra) = self.sow(lane.x, pit, lane.mover, c);
        c.plies += 1;
        if !extra {
            x = self.turn(x);
            lane.mover = lane.mover.opponent();
        }
        lane.x = x;
        let plies = c.plies;
        lane.end = self.end(x).or_else(|| {
            // spec: kalah K.4.4 the ply cap, after the ply that reaches it
            self.variant
                .ply_cap
                .filter(|&cap| plies >= cap)
                .map(|_| "K.4.4")
        });
    }

    /// Game `game` of `seed` at its start, then `opening` random plies, stopping short of a
    /// ply that would end the game.
    pub(crate) fn opened(&self, seed: u64, game: u64, opening: u32) -> Lane {
        let mut lane = self.start(seed, game);
        while !lane.done(opening) {
            let mut next = lane;
            self.step(&mut next);
            if next.end.is_some() {
                break;
            }
            lane = next;
        }
        lane
    }

    /// Who won `lane`'s game, or a draw, once it is over.
    pub(crate) fn verdict(&self, lane: &Lane) -> Option<Verdict> {
        lane.end?;
        self.finish(*lane).row().ending.map(|e| e.verdict)
    }

    /// The observation of `lane`'s game (`Kalah::observation`'s 15 numbers) and the pits its
    /// mover may sow (none once it is over); the player to move (0 South, 1 North).
    pub(crate) fn observe(&self, lane: &Lane, obs: &mut [f32], mask: &mut [bool]) -> u8 {
        let m = self.m;
        let south = if lane.mover == Side::South {
            lane.x
        } else {
            self.turn(lane.x)
        };
        let bytes = south.to_le_bytes();
        const W: usize = MAX_PITS as usize;
        let (obs, mask): (&mut [f32; 2 * W + 3], &mut [bool; W]) =
            match (obs.try_into(), mask.try_into()) {
                (Ok(o), Ok(k)) => (o, k),
                _ => return lane.mover.index() as u8,
            };
        for i in 0..W {
            // Pits past the m of a smaller board read 0.
            let (s, n) = if i < m {
                (bytes[i], bytes[m + 1 + i])
            } else {
                (0, 0)
            };
            obs[i] = f32::from(s);
            obs[W + i] = f32::from(n);
        }
        obs[2 * W] = f32::from(bytes[m]);
        obs[2 * W + 1] = f32::from(bytes[2 * m + 1]);
        obs[2 * W + 2] = lane.mover.index() as f32;
        let mine = lane.x.to_le_bytes();
        let open = lane.end.is_none();
        for (i, legal) in mask.iter_mut().enumerate() {
            *legal = open && i < m && mine[i] > 0;
        }
        lane.mover.index() as u8
    }

    /// Plies played in `lane`'s game.
    pub(crate) fn plies(lane: &Lane) -> u32 {
        lane.c.plies
    }

    /// The word after the mover sows `pit`, and whether the mover moves again.
    #[inline(always)]
    fn sow(&self, mut x: u128, pit: usize, mover: Side, c: &mut Counts) -> (u128, bool) {
        let m = self.m;
        let cycle = 2 * m + 1;
        let seeds = ((x >> (8 * pit)) & 0xff) as usize;
        x &= !(0xffu128 << (8 * pit));
        let mut k = seeds;
        if k >= cycle {
            // Whole laps: one seed in every place but the opponent's store.
            let laps = seeds / cycle;
            x += self.lap * laps as u128;
            k -= laps * cycle;
        }
        let last = if pit + k < cycle {
            x += ones(k) << (8 * (pit + 1));
            pit + k
        } else {
            x += ones(cycle - 1 - pit) << (8 * (pit + 1));
            x += ones(pit + k + 1 - cycle);
            pit + k - cycle
        };
        if last == m {
            c.extra_turns += 1;
            return (x, true);
        }
        if last < m && (x >> (8 * last)) & 0xff == 1 {
            let opposite = 2 * m - last;
            let taken = ((x >> (8 * opposite)) & 0xff) as u32;
            if taken == 0 {
                c.opposite_empty += 1;
            } else {
                c.captures += 1;
            }
            if taken > 0 || self.variant.empty_capture {
                x &= !((0xffu128 << (8 * opposite)) | (0xffu128 << (8 * last)));
                x += u128::from(taken + 1) << (8 * m);
                c.captured[mover.index()] += taken + 1;
            }
        }
        (x, false)
    }

    /// The clause that ends the game at `x` (the player to move's view), if one does.
    #[inline(always)]
    fn end(&self, x: u128) -> Option<&'static str> {
        let mine = x & self.row == 0;
        let theirs = (x >> self.half) & self.row == 0;
        let ended = match self.variant.end {
            EndTest::EitherRowEmpty => mine || theirs,
            EndTest::MoverStarved => mine,
        };
        ended.then_some("K.4.1")
    }

    /// The playout of a game that stopped.
    fn finish(&self, lane: Lane) -> Playout {
        let Lane {
            x,
            mover,
            end,
            c,
            game,
            ..
        } = lane;
        // South's view.
        let south = if mover == Side::South {
            x
        } else {
            self.turn(x)
        };
        let ring = south.to_le_bytes()[..PLACES]
            .try_into()
            .expect("a word holds the largest ring");
        Playout::new(
            &self.variant,
            Playout {
                game,
                plies: c.plies,
                ring,
                to_move: mover,
                end,
                scores: [0; 2],
                captured: c.captured,
                moves_hash: c.moves_hash,
                extra_turns: c.extra_turns,
                captures: c.captures,
                opposite_empty: c.opposite_empty,
            },
        )
    }
}

/// Places on the largest ring, Kalah(6,n): 2 x 6 pits and 2 stores.
pub const PLACES: usize = 2 * super::variant::MAX_PITS as usize + 2;

/// A random game that stopped, as every path of the batch engine and the word board give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The game's index in the numbering of its seed (its random draws depend on it).
    pub game: u64,
    /// Plies played.
    pub plies: u32,
    /// The board from South's side: South's pits 0..m, South's store m, North's pits
    /// m+1..=2m, North's store 2m+1 (the places past 2m+1 hold 0).
    pub ring: [u8; PLACES],
    /// The player to move at the end.
    pub to_move: Side,
    /// The clause that ended the game (spec: kalah K.4.1, K.4.4); `None` when cut at the limit.
    pub end: Option<&'static str>,
    /// South's and North's scores (the seeds left swept as the reading says, once it ended).
    pub scores: [u32; 2],
    /// Seeds each side took by captures, the capturing seed included (K.3.1).
    pub captured: [u32; 2],
    /// The games.csv `moves_hash` of the moves played.
    pub moves_hash: u64,
    /// Plies whose last seed fell in the mover's store (K.2.4).
    pub extra_turns: u32,
    /// Plies that captured seeds (K.3.1).
    pub captures: u32,
    /// Plies whose last seed fell in an empty pit of the mover facing an empty pit (K.3.2).
    pub opposite_empty: u32,
}

impl Playout {
    /// `p` with its scores worked out from its board and ending under `variant`.
    pub(crate) fn new(variant: &Variant, p: Playout) -> Playout {
        let m = usize::from(variant.pits);
        let row = |side: usize| -> u32 {
            let first = side * (m + 1);
            p.ring[first..first + m].iter().map(|&s| u32::from(s)).sum()
        };
        let rows = [row(0), row(1)];
        let stores = [u32::from(p.ring[m]), u32::from(p.ring[2 * m + 1])];
        // spec: kalah K.4.2 where the seeds left go
        let scores = match (p.end, variant.sweep) {
            (None, _) | (Some(_), Sweep::None) => stores,
            (Some(_), Sweep::ToOwner) => [stores[0] + rows[0], stores[1] + rows[1]],
            (Some(_), Sweep::ToEmptier) if rows[0] == 0 => [stores[0] + rows[1], stores[1]],
            (Some(_), Sweep::ToEmptier) if rows[1] == 0 => [stores[0], stores[1] + rows[0]],
            (Some(_), Sweep::ToEmptier) => stores,
        };
        Playout { scores, ..p }
    }

    /// The games.csv row of this game, as the typed engines give it.
    pub fn row(&self) -> Row {
        let scores = self.scores;
        let ending = self.end.map(|clause| Ending {
            verdict: match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Verdict::Win(Side::South),
                std::cmp::Ordering::Less => Verdict::Win(Side::North),
                std::cmp::Ordering::Equal => Verdict::Draw,
            },
            clause,
        });
        Row {
            game: self.game,
            plies: self.plies,
            ending,
            seeds_captured: self.captured,
            // The playout loop counts every ply of a game without stages in the first.
            stage_plies: [self.plies, 0],
            scores,
            moves_hash: self.moves_hash,
            ..Row::default()
        }
    }

    /// The clause events of this game, as the typed engines count them.
    pub fn events(&self) -> EventTotals {
        let mut events = EventTotals::new(KALAH_COUNTED_EVENTS);
        events.add_at(SOW, u64::from(self.plies));
        events.add_at(AGAIN, u64::from(self.extra_turns));
        events.add_at(CAPTURE, u64::from(self.captures));
        events.add_at(EMPTY_OPPOSITE, u64::from(self.opposite_empty));
        match self.end {
            Some("K.4.1") => events.add_at(ROW_EMPTY, 1),
            Some("K.4.4") => events.add_at(CAP, 1),
            Some(clause) => events.add(clause, 1),
            None => {}
        }
        events
    }
}
