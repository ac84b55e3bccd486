//! What a game writes its sections of `mancala-lab bench` with: a bench that times random
//! playouts and prints each line as it goes (the command line implements it).

use crate::batch::BatchPath;

/// `x` with `decimals` places, or `n/a` if it is not a finite number (a rate over no time).
pub fn shown(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "n/a".to_string()
    }
}

/// A measured playout rate.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Games a second.
    pub games_per_s: f64,
    /// Plies a second.
    pub plies_per_s: f64,
    /// Games played (0..games).
    pub games: u64,
}

impl Rate {
    /// The rate of `games` games of `plies` plies in all, played in `seconds`.
    pub fn new(games: u64, plies: u64, seconds: f64) -> Rate {
        Rate {
            games_per_s: games as f64 / seconds,
            plies_per_s: plies as f64 / seconds,
            games,
        }
    }

    /// The rate when each game counted was a chunk of `size` games.
    pub fn chunks_of(self, size: u64) -> Rate {
        Rate {
            games_per_s: self.games_per_s * size as f64,
            games: self.games * size,
            ..self
        }
    }
}

/// Which of a game's sections a bench asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchPart {
    /// Notes printed before any measurement, on what the game's lines measure.
    Notes,
    /// Its reference and optimized engines (and what goes with them, e.g. the stats job).
    Engines,
    /// Its batch engine on every path this processor runs, if it has one.
    Batch,
}

/// Games a batch measurement plays per call (so the clock is read rarely).
const BATCH_CHUNK: u64 = 16_384;

/// Measures a game's batch engine on every path this processor runs (the scalar one among
/// them), one thread and all cores, then the stats job on that path, under the preset `variant`;
/// each path's ratio is against the scalar path measured in the same run. `play(path, games)`
/// plays `games` on `path` and gives their plies.
pub fn batch_lines(
    b: &mut dyn Bench,
    variant: &str,
    play: &(dyn Fn(BatchPath, std::ops::Range<u64>) -> u64 + Sync),
) {
    let mut scalar = None;
    for path in BatchPath::available_paths().into_iter().rev() {
        let name = format!("{path}: {}", path.describe());
        let chunk = |c: u64| play(path, c * BATCH_CHUNK..(c + 1) * BATCH_CHUNK);
        let one = b.measure(&mut |c| chunk(c)).chunks_of(BATCH_CHUNK);
        if b.interrupted() {
            return;
        }
        b.line(&format!("{name}, 1 thread"), one);
        let (all, threads) = b.measure_parallel(one.games / BATCH_CHUNK, &chunk);
        if b.interrupted() {
            return;
        }
        let all = all.chunks_of(BATCH_CHUNK);
        b.line(&format!("{name}, {threads} threads"), all);
        let speed_up = all.games_per_s / one.games_per_s;
        let against = scalar.map_or(String::new(), |s: Rate| {
            format!(
                "{}x the scalar path; ",
                shown(one.games_per_s / s.games_per_s, 1)
            )
        });
        b.say(&format!(
            "  {path}: {against}parallel speed-up {} on {threads} threads (efficiency {}%)",
            shown(speed_up, 2),
            shown(100.0 * speed_up / threads as f64, 0)
        ));
        if path == BatchPath::Scalar {
            scalar = Some(one);
        }
        if BatchPath::force(Some(path)).is_ok() {
            b.stats_line(&format!("{path}: "), variant, all.games, all);
        }
        let _ = BatchPath::force(None);
        if b.interrupted() {
            return;
        }
    }
}

/// A text parser timed by `bench --parsers`: its name, an input of N words, the parse.
pub type Parser = (
    &'static str,
    fn(usize) -> String,
    fn(&str) -> Result<(), String>,
);

/// The bench a game's sections measure with: playouts timed for about [`Bench::seconds`] each,
/// every line printed (and kept for `--json`) as it is measured.
pub trait Bench {
    /// Seconds a measurement takes.
    fn seconds(&self) -> f64;
    /// The master seed of the random games.
    fn seed(&self) -> u64;
    /// Whether Ctrl-C stopped the bench (a section then returns at once).
    fn interrupted(&self) -> bool;
    /// Prints a heading; the lines after it go under it.
    fn section(&mut self, title: &str);
    /// Prints a line of text (no measurement).
    fn say(&mut self, text: &str);
    /// Plays games `play(i) -> plies` for about [`Bench::seconds`] on one thread.
    fn measure(&mut self, play: &mut dyn FnMut(u64) -> u64) -> Rate;
    /// Plays games `0..games` on all cores; with the thread count.
    fn measure_parallel(&mut self, games: u64, play: &(dyn Fn(u64) -> u64 + Sync))
        -> (Rate, usize);
    /// Prints (and keeps) a measured line.
    fn line(&mut self, name: &str, rate: Rate);
    /// Measures the reference playout against the optimized one (one thread, then all cores)
    /// and prints the ratios; the three rates, or `None` if Ctrl-C cut a measurement short.
    fn compare(
        &mut self,
        reference: &mut dyn FnMut(u64) -> u64,
        optimized: &(dyn Fn(u64) -> u64 + Sync),
    ) -> Option<(Rate, Rate, Rate)>;
    /// Runs the stats job of the game being measured under the preset `variant` on `games`
    /// random games and prints its rate beside `engine_rate`, the engine alone on all cores.
    fn stats_line(&mut self, label: &str, variant: &str, games: u64, engine_rate: Rate);
}
