//! One playout loop for every engine of every game: plays game `i` of a seed under a policy and
//! sums it up as one games.csv row, the same row whichever engine plays it.

use std::sync::atomic::AtomicBool;

use crate::game::{game_keys, Draw, Ending, EventTotals, Game, PlyFacts, Verdict};
use crate::policy::{choose_into, Players, Policy, Scratch};
use crate::side::Side;

/// One game, as a games.csv row sums it up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// Game index: the game's draws are a function of (seed, game, ply).
    pub game: u64,
    /// Plies played.
    pub plies: u32,
    /// How the game ended; `None` when the ply limit stopped it.
    pub ending: Option<Ending>,
    /// Bao: harvests made by South and North.
    pub harvests: [u32; 2],
    /// Seeds taken from the opponent in play by South and North (Oware: before any final sweep).
    pub seeds_captured: [u32; 2],
    /// Bao: plies in the kunamua and mtaji stages.
    pub stage_plies: [u32; 2],
    /// Bao: houses lost during the game.
    pub houses_lost: u32,
    /// Bao: the most seeds one move sowed.
    pub longest_move_seeds: u32,
    /// Oware: final scores of South and North (after any sweep).
    pub scores: [u32; 2],
    /// Moves (Bao) or game ends (Oware) where the sources are silent or conflict and the reading
    /// decided.
    pub undefined_cases: u32,
    /// The hash of the game's moves ([`moves_hash_step`] from [`MOVES_HASH_START`]): games with
    /// the same moves have the same hash, so a study can count its distinct games.
    pub moves_hash: u64,
}

/// A game's `moves_hash` before its first move (FNV-1a's 64-bit offset basis).
pub const MOVES_HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// `hash` after a move whose [`Game::move_code`] is `code`: FNV-1a over the game's move codes,
/// one byte a move.
#[inline]
pub fn moves_hash_step(hash: u64, code: u8) -> u64 {
    (hash ^ u64::from(code)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The ply limit of every command that plays whole games, unless given: random, greedy and
/// searching games of both games end far sooner (the longest of 10^8 random Oware games: 490
/// plies; of 100,000 random Bao games: 327), so it only stops a game that would not end.
pub const DEFAULT_MAX_PLIES: u32 = 2000;

/// The `end_clause` of a game cut at the ply limit.
pub const PLY_LIMIT: &str = "ply-limit";

impl Row {
    /// The `winner` column: `South`, `North`, `draw`, or `none` (cut, or rules silent).
    pub fn winner(&self) -> &'static str {
        self.ending.map_or("none", |e| e.winner())
    }

    /// The `end_clause` column.
    pub fn end_clause(&self) -> String {
        self.end_clause_parts().concat()
    }

    /// The `end_clause` column in two parts written one after the other (no allocation).
    pub fn end_clause_parts(&self) -> [&'static str; 2] {
        self.ending
            .map_or(["", PLY_LIMIT], |e| e.end_clause_parts())
    }
}

/// Plays game `index` of `seed` with `players` on `engine` to its end or `max_plies` plies; the
/// row, and the clause events the engine reported for its moves; an error when a player cannot
/// play (the `perfect` policy without its databases).
pub fn play_game<G: Game>(
    engine: &G,
    players: impl Into<Players>,
    seed: u64,
    index: u64,
    max_plies: u32,
) -> Result<(Row, EventTotals), String> {
    let scratch = [Scratch::default(), Scratch::default()];
    play_game_with(
        engine,
        Play::new(players, max_plies),
        (seed, index),
        scratch,
    )
    .map(|played| played.expect("never stopped"))
}

/// How the games of a job are played: the players, the plies of random opening before they take
/// over, and the ply limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// South's and North's policies.
    pub players: Players,
    /// Plies played at random (the game's own draws, as `random` plays them) before the players
    /// choose: game `i` of a seed opens the same way whoever plays it.
    pub opening: u32,
    /// The ply limit: a game still on after this many plies is cut.
    pub max_plies: u32,
}

impl Play {
    /// `players` from the start position, cut at `max_plies`.
    pub fn new(players: impl Into<Players>, max_plies: u32) -> Play {
        Play {
            players: players.into(),
            opening: 0,
            max_plies,
        }
    }

    /// The policy of `side` at ply `ply`: random in the opening, then the player's.
    pub fn policy(&self, side: Side, ply: u32) -> Policy {
        if ply < self.opening {
            Policy::Random
        } else {
            self.players.of(side)
        }
    }
}

/// [`play_game`], given up (`Ok(None)`) as soon as `stop` is set: a search under way stops at
/// once.
pub fn play_game_until<G: Game>(
    engine: &G,
    play: Play,
    (seed, index): (u64, u64),
    stop: &'static AtomicBool,
) -> Result<Option<(Row, EventTotals)>, String> {
    let scratch = [Scratch::stopping_on(stop), Scratch::stopping_on(stop)];
    play_game_with(engine, play, (seed, index), scratch)
}

/// The playout loop; each side searches with its own scratch space (its own table and tree).
fn play_game_with<G: Game>(
    engine: &G,
    play: Play,
    (seed, index): (u64, u64),
    mut scratch: [Scratch<G>; 2],
) -> Result<Option<(Row, EventTotals)>, String> {
    let max_plies = play.max_plies;
    let keys = game_keys(seed, index);
    let mut row = Row {
        game: index,
        moves_hash: MOVES_HASH_START,
        ..Row::default()
    };
    let mut events = EventTotals::new(engine.counted_events());
    let mut state = engine.start();
    let mut stopped = None;
    // What the last ply did, overwritten ply by ply.
    let mut f = PlyFacts::default();
    while row.plies < max_plies {
        let side = engine.to_move(&state);
        let mover = side.index();
        let Some(choice) = choose_into(
            engine,
            play.policy(side, row.plies),
            &mut state,
            Draw::new(keys, row.plies),
            &mut scratch[mover],
            &mut f,
        ) else {
            // A policy that cannot play (no databases) gives no game, and says why.
            if let Some(why) = scratch[mover].failure() {
                return Err(why.to_string());
            }
            break;
        };
        if scratch[mover].stopped() {
            return Ok(None);
        }
        match choice {
            Ok(mv) => row.moves_hash = moves_hash_step(row.moves_hash, engine.move_code(mv)),
            Err(silent) => {
                // The reading leaves this point open: the game stops here, undecided.
                stopped = Some(Ending {
                    verdict: Verdict::RulesSilent,
                    clause: silent.0,
                });
                break;
            }
        }
        row.harvests[mover] += f.harvests;
        row.seeds_captured[mover] += f.seeds_captured;
        row.stage_plies[usize::from(f.mtaji)] += 1;
        row.houses_lost += f.houses_lost;
        row.longest_move_seeds = row.longest_move_seeds.max(f.sown);
        row.undefined_cases += f.undefined;
        events.merge(&f.events);
        row.plies += 1;
    }
    row.ending = stopped.or_else(|| engine.ending(&state));
    row.scores = engine.scores(&state);
    Ok(Some((row, events)))
}

/// Which engine of a game plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum EngineKind {
    /// The optimized engine (for Oware's random play, the batch engine on the fastest path the
    /// processor has: the same games on every path).
    Optimized,
    /// The reference engine, which reads like the rules and keeps a clause trace.
    Reference,
}

impl EngineKind {
    /// The name on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Optimized => "optimized",
            EngineKind::Reference => "reference",
        }
    }
}

/// What the playout loop asks of an engine beyond [`Game`]: which engine it is and, where it has
/// one, a faster way to play many random games at once (the same games, row for row).
pub trait Playouts: Game + Clone + Send + Sync + 'static {
    /// Which of its game's engines this is.
    const ENGINE: EngineKind;

    /// Plays games `games` of `seed` under `play` at once, giving each row and its events in game
    /// order, if the engine has a batch path for `play`; `false` (nothing played) when it has
    /// none, and the games are played one by one.
    fn play_batch(
        &self,
        _play: Play,
        _seed: u64,
        _games: std::ops::Range<u64>,
        _each: &mut dyn FnMut(Row, EventTotals),
    ) -> bool {
        false
    }

    /// Whether random players' games go to [`Playouts::play_batch`] (which wants many at once).
    fn batches_random_play(&self) -> bool {
        false
    }

    /// What plays the games, for reports: e.g. `oware optimized engine (32-lane AVX2 batch)`.
    fn describe(&self, _players: Players, _max_plies: u32) -> String {
        format!("{} {} engine", self.game_name(), Self::ENGINE.name())
    }
}

/// Plays games `games` of `seed` on `engine` as `play` says, one by one or as a batch where the
/// engine has one, stopped as soon as `stop` is set (the game under way is dropped: `each` never
/// sees it, nor any game after it). Whether every game was played.
fn play_all<G: Playouts>(
    engine: &G,
    play: Play,
    (seed, games): (u64, std::ops::Range<u64>),
    stop: &'static AtomicBool,
    each: &mut dyn FnMut(Row, EventTotals),
) -> Result<bool, String> {
    // Random players make any opening random play too: the batch's games.
    if play.players == Players::both(Policy::Random)
        && engine.play_batch(play, seed, games.clone(), each)
    {
        return Ok(true);
    }
    for i in games {
        match play_game_until(engine, play, (seed, i), stop)? {
            Some((row, events)) => each(row, events),
            None => return Ok(false),
        }
    }
    Ok(true)
}

/// An engine of any game under one reading, picked at run time (the registry's
/// [`crate::registry::engine`] makes one): plays whole games into rows.
pub trait PlayoutEngine: Send + Sync {
    /// Which of its game's engines this is.
    fn engine_kind(&self) -> EngineKind;

    /// Whether random players' games are played as batches (which want many games at once).
    fn batches_random_play(&self) -> bool;

    /// [`PlayoutEngine::play`], stopped as soon as `stop` is set: the game under way is dropped
    /// (`each` never sees it, nor any game after it). Whether every game was played; an error
    /// when a player cannot play (the `perfect` policy without its databases).
    fn play_until_dyn(
        &self,
        play: Play,
        run: (u64, std::ops::Range<u64>),
        stop: &'static AtomicBool,
        each: &mut dyn FnMut(Row, EventTotals),
    ) -> Result<bool, String>;

    /// The clause events every engine of this game reports.
    fn counted_events(&self) -> &'static [&'static str];

    /// The counted events no position of this game can fire, and why.
    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)];

    /// What plays the games, for reports: e.g. `oware optimized engine (32-lane AVX2 batch)`.
    fn describe(&self, players: Players, max_plies: u32) -> String;

    /// Whether this engine can play `players`: the `perfect` policy's databases are read here
    /// (once per process), and an error names what is missing.
    fn prepare(&self, players: Players) -> Result<(), String>;
}

impl<G: Playouts> PlayoutEngine for G {
    fn engine_kind(&self) -> EngineKind {
        G::ENGINE
    }

    fn prepare(&self, players: Players) -> Result<(), String> {
        if [players.south, players.north]
            .iter()
            .any(|p| matches!(p, Policy::Perfect(_)))
        {
            crate::policy::perfect::prepare(self)?;
        }
        for p in [players.south, players.north] {
            if let Policy::Net(settings) = p {
                crate::policy::net::check(self, settings)?;
            }
        }
        Ok(())
    }

    fn batches_random_play(&self) -> bool {
        Playouts::batches_random_play(self)
    }

    fn play_until_dyn(
        &self,
        play: Play,
        run: (u64, std::ops::Range<u64>),
        stop: &'static AtomicBool,
        each: &mut dyn FnMut(Row, EventTotals),
    ) -> Result<bool, String> {
        play_all(self, play, run, stop, each)
    }

    fn counted_events(&self) -> &'static [&'static str] {
        Game::counted_events(self)
    }

    fn events_that_cannot_fire(&self) -> &'static [(&'static str, &'static str)] {
        Game::events_that_cannot_fire(self)
    }

    fn describe(&self, players: Players, max_plies: u32) -> String {
        Playouts::describe(self, players, max_plies)
    }
}

impl dyn PlayoutEngine + '_ {
    /// Plays games `games` of `seed` as `play` says, calling `each` with every row and its
    /// clause events in game order.
    pub fn play(
        &self,
        play: Play,
        seed: u64,
        games: std::ops::Range<u64>,
        each: impl FnMut(Row, EventTotals),
    ) -> Result<(), String> {
        static NEVER: AtomicBool = AtomicBool::new(false);
        self.play_until(play, (seed, games), &NEVER, each)
            .map(|_| ())
    }

    /// [`PlayoutEngine::play`], stopped as soon as `stop` is set: the game under way is dropped
    /// (`each` never sees it, nor any game after it). Whether every game was played; an error,
    /// before any game, when a policy cannot play on this engine ([`PlayoutEngine::prepare`]).
    pub fn play_until(
        &self,
        play: Play,
        run: (u64, std::ops::Range<u64>),
        stop: &'static AtomicBool,
        mut each: impl FnMut(Row, EventTotals),
    ) -> Result<bool, String> {
        self.prepare(play.players)?;
        self.play_until_dyn(play, run, stop, &mut each)
    }

    /// The rows of games `games` of `seed` played as `play` says, in game order, the games
    /// shared among the threads of the current rayon pool: the rows [`PlayoutEngine::play`]
    /// gives, whatever the thread count.
    pub fn play_parallel(
        &self,
        play: Play,
        seed: u64,
        games: std::ops::Range<u64>,
    ) -> Result<Vec<Row>, String> {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Ok(self
            .play_parallel_until(play, seed, games, &NEVER)?
            .expect("never stopped"))
    }

    /// [`PlayoutEngine::play_parallel`], given up (`Ok(None)`) as soon as `stop` is set:
    /// searches under way stop at once.
    pub fn play_parallel_until(
        &self,
        play: Play,
        seed: u64,
        games: std::ops::Range<u64>,
        stop: &'static AtomicBool,
    ) -> Result<Option<Vec<Row>>, String> {
        use rayon::prelude::*;
        self.prepare(play.players)?;
        let random = play.players == Players::both(Policy::Random);
        let chunk: u64 = match () {
            _ if play.players.searches() => 1,
            _ if random && self.batches_random_play() => 65_536,
            _ => 256,
        };
        let n = games.end.saturating_sub(games.start);
        let parts: Vec<Option<Vec<Row>>> = (0..n.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let from = games.start + c * chunk;
                let part = from..(from + chunk).min(games.end);
                let mut rows = Vec::with_capacity((part.end - part.start) as usize);
                let whole =
                    self.play_until_dyn(play, (seed, part), stop, &mut |row, _| rows.push(row))?;
                Ok(whole.then_some(rows))
            })
            .collect::<Result<_, String>>()?;
        let parts: Option<Vec<Vec<Row>>> = parts.into_iter().collect();
        Ok(parts.map(|parts| parts.concat()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::GameKind;

    #[test]
    fn moves_hash_is_fnv_1a_of_the_move_codes() {
        // FNV-1a 64's published values: "" and "a" (0x61), "foobar".
        assert_eq!(MOVES_HASH_START, 0xcbf2_9ce4_8422_2325);
        assert_eq!(
            moves_hash_step(MOVES_HASH_START, 0x61),
            0xaf63_dc4c_8601_ec8c
        );
        let foobar = b"foobar"
            .iter()
            .fold(MOVES_HASH_START, |h, &b| moves_hash_step(h, b));
        assert_eq!(foobar, 0x8594_4171_f739_67e8);
    }

    /// The opening is random play on the game's own draws: any players cut at the end of the
    /// opening have played random's game so far, and a player after it plays its own game.
    #[test]
    fn an_opening_is_the_random_game_so_far() {
        let greedy = Players::both(Policy::Greedy);
        for game in GameKind::ALL {
            for kind in [EngineKind::Optimized, EngineKind::Reference] {
                let engine = crate::registry::engine(game, game.default_variant(), kind).unwrap();
                // As games.csv writes them (Oware's rows do not count stage plies, which the
                // batch engine leaves at 0).
                let rows = |play: Play| {
                    let mut rows = String::new();
                    engine
                        .play(play, 3, 0..20, |row, _| {
                            crate::games_csv::RowWriter::new(
                                game,
                                "v",
                                Players::both(Policy::Random),
                            )
                            .write(&row, &mut rows);
                        })
                        .unwrap();
                    rows
                };
                let opened = |opening, max_plies| Play {
                    players: greedy,
                    opening,
                    max_plies,
                };
                let random = rows(Play::new(Policy::Random, 8));
                assert_eq!(rows(opened(8, 8)), random, "{game} {kind:?}");
                assert_ne!(rows(Play::new(greedy, 8)), random, "{game} {kind:?}");
                // Greedy from ply 8 on: the games go on differently from random ones.
                let (on, random_on) = (rows(opened(8, 200)), rows(Play::new(Policy::Random, 200)));
                assert_ne!(on, random_on, "{game} {kind:?}");
            }
        }
    }
}
