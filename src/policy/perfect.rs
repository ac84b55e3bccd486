//! The `perfect` policy: the best move by the endgame databases (`solve --build`), a search with
//! them as leaves beyond (Kalah, within a budget), and alphabeta where neither reaches.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::{whole, PolicyError};
use crate::game::{Draw, Game};
use crate::solve::search::Search;
use crate::solve::{level_file, Database, Retro};

/// The settings' keys, as a policy text writes them.
pub const KEYS: &str = "budget, depth";
/// The boards a search beyond the databases expands at most, by default.
pub const DEFAULT_BUDGET: u32 = 1_000_000;
/// The environment variable naming the folder of the level files (`solve --db`); the library
/// never falls back to a folder of its own when it is unset.
pub const DB_VARIABLE: &str = "MANCALA_LAB_DB";

/// The perfect policy's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Boards a search beyond the databases may expand for one move before it gives up.
    pub budget: u32,
    /// The depth of the alphabeta search played where the databases and the search do not reach.
    pub depth: u32,
}

impl Settings {
    /// The default budget and depth.
    pub const DEFAULT: Settings = Settings {
        budget: DEFAULT_BUDGET,
        depth: super::alphabeta::DEFAULT_DEPTH,
    };

    /// The settings from the `key=value` pairs given (checked for known keys already).
    pub(super) fn from_given(given: &[(&'static str, &str)]) -> Result<Settings, PolicyError> {
        let mut s = Settings::DEFAULT;
        for &(key, value) in given {
            match key {
                "budget" => {
                    let range = (1, 1_000_000_000);
                    s.budget = whole("perfect", "budget", value, range, "boards, 1 to 1000000000")?;
                }
                _ => {
                    let range = (1, super::alphabeta::MAX_DEPTH);
                    s.depth = whole(
                        "perfect",
                        "depth",
                        value,
                        range,
                        "a depth in plies, 1 to 64",
                    )?;
                }
            }
        }
        Ok(s)
    }

    /// The alphabeta settings played beyond the databases' reach.
    pub fn fallback(&self) -> super::alphabeta::Settings {
        super::alphabeta::Settings {
            limit: super::alphabeta::Limit::Depth(self.depth),
        }
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "budget={},depth={}", self.budget, self.depth)
    }
}

/// The folder a front end named for this process (`solve --judge`'s `--db`, Python's `db=`).
static ROOT: OnceLock<PathBuf> = OnceLock::new();

/// Reads the level files from `dir` in this process, whatever [`DB_VARIABLE`] says; refused
/// (naming the folder in use) once another folder was named: a process reads one folder.
pub fn use_root(dir: PathBuf) -> Result<(), String> {
    let held = ROOT.get_or_init(|| dir.clone());
    if *held == dir {
        Ok(())
    } else {
        Err(format!(
            "policy perfect: this process reads its databases from {} already, not {}",
            crate::text::shown_path(held),
            crate::text::shown_path(&dir)
        ))
    }
}

/// The folder the level files are read from: the one [`use_root`] named, else
/// `$MANCALA_LAB_DB`; an error when neither names one (never the current folder by accident).
pub fn root() -> Result<PathBuf, String> {
    if let Some(dir) = ROOT.get() {
        return Ok(dir.clone());
    }
    match std::env::var_os(DB_VARIABLE) {
        Some(dir) if !dir.is_empty() => Ok(PathBuf::from(dir)),
        _ => Err(format!(
            "policy perfect: no folder of endgame databases is named (set {DB_VARIABLE} to the \
             --db of mancala-lab solve --build)"
        )),
    }
}

/// The databases read so far in this process, by folder: a job's threads share one copy.
fn loaded() -> &'static Mutex<HashMap<PathBuf, Arc<Database>>> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<Database>>>> = OnceLock::new();
    LOADED.get_or_init(Mutex::default)
}

/// The levels of `retro`'s game and reading in [`root`], read once per process; an error names
/// the folder when it holds none, or a level that is damaged or of another reading.
fn database(retro: &dyn Retro) -> Result<Arc<Database>, String> {
    let folder = level_file::folder(&root()?, retro.game(), &retro.reading());
    let mut cache = loaded()
        .lock()
        .map_err(|_| "the databases' cache broke".to_string())?;
    if let Some(db) = cache.get(&folder) {
        return Ok(db.clone());
    }
    let db = level_file::load(retro, &folder, crate::solve::MAX_SEEDS)
        .map_err(|e| format!("policy perfect: {e}"))?;
    if db.levels() == 0 {
        return Err(format!(
            "policy perfect: no levels in {} (build them with mancala-lab solve --game {} \
             --build --seeds N --db DIR, and name DIR in {DB_VARIABLE})",
            crate::text::shown_path(&folder),
            retro.game()
        ));
    }
    let db = Arc::new(db);
    cache.insert(folder, db.clone());
    Ok(db)
}

/// Lends the policy in this process the levels of `retro`'s game and reading that a command has
/// read from [`root`] already (`solve --judge`), so that they are not held twice.
pub fn share(retro: &dyn Retro, db: Arc<Database>) -> Result<(), String> {
    let folder = level_file::folder(&root()?, retro.game(), &retro.reading());
    if let Ok(mut cache) = loaded().lock() {
        cache.insert(folder, db);
    }
    Ok(())
}

/// Checks that `game` has databases the policy can read, reading them (once per process).
pub fn prepare<G: Game>(game: &G) -> Result<(), String> {
    let (retro, _) = game.retro().map_err(|e| format!("policy perfect: {e}"))?;
    database(retro.as_ref()).map(|_| ())
}

/// What the last move of the policy was based on, for the bot's `info` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The board's exact value (seeds won from here on, mover minus opponent), when known.
    pub value: Option<i8>,
    /// Moves with that value.
    pub best_moves: usize,
    /// Boards the search beyond the databases expanded.
    pub searched: u64,
}

/// The policy's databases for one game and reading, kept between moves.
pub struct Player {
    retro: Box<dyn Retro>,
    cycles: bool,
    db: Arc<Database>,
    report: Report,
}

impl Player {
    /// The player of `game`'s databases, or why there is none.
    pub fn new<G: Game>(game: &G) -> Result<Player, String> {
        let (retro, cycles) = game.retro()?;
        let db = database(retro.as_ref())?;
        Ok(Player {
            retro,
            cycles,
            db,
            report: Report::default(),
        })
    }

    /// What the last move was based on.
    pub fn report(&self) -> Report {
        self.report
    }

    /// The exact value of each legal move of `s` (seeds won from here on by the mover, as the
    /// databases count them), in the engine's move order; `None` where the databases and a
    /// search of `budget` boards do not reach.
    pub fn move_values<G: Game>(
        &mut self,
        game: &G,
        s: &G::State,
        budget: u32,
    ) -> Option<Vec<(G::Move, i8)>> {
        let board = game.board(s)?;
        let mut search = Search::new(self.retro.as_ref(), &self.db, u64::from(budget));
        let values = search.moves(&board, self.cycles).ok()?;
        let mut moves = Vec::new();
        game.legal_moves(s, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                let code = game.move_code(m);
                values
                    .iter()
                    .find(|&&(pit, _)| pit == code)
                    .map(|&(_, v)| (m, v))
            })
            .collect()
    }

    /// A move of the best value in `s` (ties broken by `draw`), or `None` where the databases
    /// and a search of `settings.budget` boards do not reach: the caller then plays alphabeta.
    pub fn best_move<G: Game>(
        &mut self,
        game: &G,
        s: &G::State,
        settings: Settings,
        draw: Draw,
    ) -> Option<G::Move> {
        self.report = Report::default();
        let board = game.board(s)?;
        let mut search = Search::new(self.retro.as_ref(), &self.db, u64::from(settings.budget));
        // The board's value, then which moves keep it: no move needs its own value.
        let found = search.value(&board, self.cycles).and_then(|best| {
            let ties = search.best_moves(&board, best, self.cycles)?;
            Ok((best, ties))
        });
        self.report.searched = search.nodes();
        let (best, ties) = found.ok()?;
        if ties.is_empty() {
            return None;
        }
        let pit = ties[draw.below(ties.len(), 0)];
        let mut moves = Vec::new();
        game.legal_moves(s, &mut moves);
        let mv = moves.into_iter().find(|&m| game.move_code(m) == pit)?;
        self.report.value = Some(best);
        self.report.best_moves = ties.len();
        Some(mv)
    }
}
