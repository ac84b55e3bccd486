//! Why a study or a match could not be checked, read, written or run: errors that name the job's
//! fields ([`Field`]), each front end naming them its own way ([`Names`]).

use std::path::{Path, PathBuf};

use crate::field::{Field, FieldNames, Names, Step};
use crate::registry::{GameKind, UnknownGame};
use crate::stats::UnknownWinner;
use crate::text::{escaped, quoted, shown_path};

use super::{GAMES, MANIFEST, MAX_ROW};

/// Whether a folder is asked for a study or a match (for the messages that differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A stats study.
    Study,
    /// A match.
    Match,
}

impl JobKind {
    fn name(self) -> &'static str {
        match self {
            JobKind::Study => "study",
            JobKind::Match => "match",
        }
    }
}

/// What else can be done with a match that is not replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Continue it.
    Resume,
    /// Merge into another folder.
    MergeElsewhere,
}

/// Why a study folder could not be read, written or used, or a job not checked or run.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.message(&FieldNames))]
pub enum StudyError {
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The output folder could not be created.
    MakeDir {
        /// The folder.
        dir: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A file stands where the output folder should be.
    NotAFolder(PathBuf),
    /// An output that is not a regular file: a device, a pipe, a folder, or a stream of this
    /// process reached through `/dev` or `/proc` (such as `/dev/stdout`).
    NotAFile(PathBuf),
    /// A file of a study folder that is a symbolic link or not a regular file.
    NotOwnFile(PathBuf),
    /// A file at the place of a study's file that no study wrote.
    NotStudyFile(PathBuf),
    /// Another job holds the folder's lock.
    Locked {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The process id and host the lock names.
        holder: String,
    },
    /// A job is writing a folder a merge would read.
    BeingWritten {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The process id and host the lock names.
        holder: String,
    },
    /// The lock file kept changing under the job taking it.
    LockNotTaken(PathBuf),
    /// The folder holds a run that is not to be overwritten.
    RunPresent {
        /// The folder.
        dir: PathBuf,
        /// The run's files found there.
        files: Vec<&'static str>,
        /// Whether to suggest resuming it.
        resume_hint: bool,
    },
    /// The manifest could not be written as JSON.
    Json(#[from] serde_json::Error),
    /// The manifest is not a manifest.
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// What the JSON reader found.
        source: serde_json::Error,
    },
    /// The manifest's fields do not match its own checksum.
    ManifestEdited(PathBuf),
    /// A sealed manifest whose fields do not fit together (a forged one).
    ManifestImpossible {
        /// The manifest.
        path: PathBuf,
        /// What does not fit.
        what: String,
    },
    /// The manifest names an unknown game.
    Game(#[from] UnknownGame),
    /// A line of games.csv does not match the manifest.
    Row {
        /// games.csv.
        path: PathBuf,
        /// The line (1 is the header).
        line: u64,
        /// What is wrong with it.
        source: RowError,
    },
    /// The counted rows are complete and in order but not the bytes the manifest recorded.
    Changed {
        /// games.csv.
        path: PathBuf,
        /// The rows the manifest counts.
        rows: u64,
        /// Their bytes on disk.
        bytes: u64,
        /// Their bytes as recorded.
        recorded_bytes: u64,
        /// Their CRC-32 on disk.
        crc: u32,
        /// Their CRC-32 as recorded.
        recorded_crc: u32,
    },
    /// A shard that is not `K/N` with 1 <= K <= N.
    BadShard(String),
    /// The error of a field: the field, then what is wrong with it.
    In {
        /// The field.
        field: Field,
        /// What is wrong.
        source: Box<StudyError>,
    },
    /// No output folder named.
    NoOut,
    /// A run asked to be both resumed and replaced.
    ResumeOrForce,
    /// The output folder is standard output.
    OutIsStdout(JobKind),
    /// The output folder holds a match, and a study was asked for.
    HoldsMatch(PathBuf),
    /// The output folder is a pairing folder of a match.
    InMatch {
        /// The folder asked for.
        out: PathBuf,
        /// The match's folder.
        matched: PathBuf,
        /// What was asked for there.
        kind: JobKind,
    },
    /// A field of a resumed job that differs from the job its manifest records.
    ResumeDiffers {
        /// The field.
        field: Field,
        /// Its value given.
        given: String,
        /// Its value in the manifest.
        kept: String,
        /// The manifest.
        manifest: PathBuf,
    },
    /// The manifest changed between the job's check and its start.
    ManifestChanged(PathBuf),
    /// A manifest's clause events are not those the game's engines count.
    ClauseEvents {
        /// The manifest.
        path: PathBuf,
        /// The clauses it names.
        named: usize,
        /// The clauses the engines count.
        counted: usize,
        /// The game.
        game: String,
    },
    /// The job a manifest records does not check.
    RecordedJob {
        /// The manifest.
        manifest: PathBuf,
        /// What is wrong with the job.
        source: Box<StudyError>,
    },
    /// A resumed manifest covers other games than the job.
    Covers {
        /// The manifest.
        manifest: PathBuf,
        /// Its games.
        recorded: (u64, u64),
        /// The job's.
        job: (u64, u64),
    },
    /// The policy text does not parse.
    Policy(String),
    /// An engine name not known.
    UnknownEngine(String),
    /// The reading cannot be played.
    Variant {
        /// The reading asked for.
        variant: String,
        /// Why not.
        why: String,
    },
    /// A ply limit of 0.
    NoPlies,
    /// An opening of as many plies as the limit, or more.
    OpeningTooLong {
        /// The opening's plies.
        opening: u32,
        /// The ply limit.
        max_plies: u32,
    },
    /// A player or engine could not play (the policy's own message).
    Play(String),
    /// The worker threads could not be started.
    Threads(String),
    /// The free space could not be read.
    FreeSpace(String),
    /// The study's files would not fit the free space.
    NoSpace {
        /// The output folder.
        out: PathBuf,
        /// The bytes the files would take, as a person reads them.
        need: String,
        /// The bytes free, likewise.
        free: String,
    },
    /// A clause's count passes the largest count (only a forged manifest comes that close).
    CountOverflow {
        /// The manifest.
        manifest: PathBuf,
        /// The clause.
        clause: String,
        /// Whether the count was summed over shards.
        merged: bool,
    },
    /// A folder given twice to a merge.
    GivenTwice(PathBuf, PathBuf),
    /// The merge's output folder is one of its shards.
    OutIsShard(PathBuf),
    /// The merge's output folder is inside a shard.
    OutInsideShard {
        /// The output folder.
        out: PathBuf,
        /// The shard.
        shard: PathBuf,
    },
    /// A shard is inside the merge's output folder.
    ShardInsideOut {
        /// The shard.
        shard: PathBuf,
        /// The output folder.
        out: PathBuf,
    },
    /// A folder given to a stats merge holds a match.
    ShardIsMatch(PathBuf),
    /// A shard of another job.
    OtherJob {
        /// The shard's manifest.
        manifest: PathBuf,
        /// The first field that differs (`variant abapa, not sheet as`).
        difference: String,
        /// The manifest it was compared with.
        base: PathBuf,
    },
    /// A shard that does not start where the shards before it end.
    ShardGap {
        /// The shard.
        shard: PathBuf,
        /// Its games.
        games: (u64, u64),
        /// The next game to merge.
        expected: u64,
    },
    /// A shard that is not finished.
    ShardUnfinished {
        /// The shard.
        shard: PathBuf,
        /// Its games played.
        done: u64,
        /// Its games.
        total: u64,
    },
    /// The shards end before the job's last game.
    ShardsShort {
        /// Where they end.
        end: u64,
        /// The job's games.
        games: u64,
    },
    /// A shard's games.csv holds bytes past its counted rows.
    ShardExtra {
        /// The shard.
        shard: PathBuf,
        /// The bytes past the rows.
        extra: u64,
        /// The rows counted.
        rows: u64,
    },
    /// The merged files could not be swapped in.
    NothingMerged {
        /// Why.
        source: Box<StudyError>,
        /// The output folder.
        out: PathBuf,
    },
    /// A match of fewer than two players.
    TooFewPlayers,
    /// A match of more players than a match takes.
    TooManyPlayers(usize),
    /// A player named twice.
    PlayerTwice(String),
    /// No game in a pairing.
    NoGames,
    /// A player written otherwise than a match writes it.
    PlayerSpelling {
        /// As written.
        found: String,
        /// As a match writes it.
        canonical: String,
    },
    /// A folder that holds no match.
    NoMatch(PathBuf),
    /// The error of a file.
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<StudyError>,
    },
    /// The error of a match merge.
    InMerge(Box<StudyError>),
    /// A resumed match's folder that holds no match, with what to do.
    NoMatchToResume(Box<StudyError>),
    /// The output folder holds a study's file, and a match was asked for.
    HoldsStudy {
        /// The folder.
        out: PathBuf,
        /// The file.
        file: &'static str,
        /// Whether the file is a study's own.
        study: bool,
    },
    /// A file at the place of a match's file that no match wrote.
    NotMatchFile(PathBuf),
    /// The folder holds a match that is not to be overwritten.
    MatchPresent {
        /// The folder.
        out: PathBuf,
        /// The match's files found there.
        files: Vec<String>,
        /// What else can be done with it.
        keep: Keep,
    },
    /// A file in a match's pairs folder that no match wrote.
    ForeignInPairs {
        /// The match's folder.
        out: PathBuf,
        /// The file.
        path: PathBuf,
    },
    /// A pairing folder without a manifest that holds a file.
    PairingForeign {
        /// The pairing's folder.
        dir: PathBuf,
        /// The file.
        name: String,
    },
    /// A pairing to remove to play it again.
    PlayAgain(Box<StudyError>),
    /// The error of a pairing.
    Pairing {
        /// The pairing's number, from 1.
        k: usize,
        /// The pairings of the match.
        of: usize,
        /// Its folder.
        dir: PathBuf,
        /// What went wrong.
        source: Box<StudyError>,
    },
    /// A shard of another match.
    OtherMatch {
        /// The shard's match.json.
        path: PathBuf,
        /// The first field that differs.
        difference: String,
        /// The match.json it was compared with.
        base: PathBuf,
    },
    /// A shard's pairing that is missing.
    PairingMissing {
        /// The pairing's folder.
        dir: PathBuf,
        /// The shard.
        shard: PathBuf,
    },
    /// A shard whose pairing is another match's.
    NotOwnShard {
        /// What is wrong.
        source: Box<StudyError>,
        /// The shard.
        shard: PathBuf,
    },
    /// A shard's pairing that is not finished.
    PairingUnfinished {
        /// The pairing's folder.
        dir: PathBuf,
        /// Games played.
        done: u64,
        /// Its games.
        total: u64,
        /// The shard.
        shard: PathBuf,
    },
    /// A shard's pairing with rows past those counted.
    PairingRows {
        /// The pairing's folder.
        dir: PathBuf,
        /// The shard.
        shard: PathBuf,
    },
    /// A match shard that does not start where the shards before it end.
    MatchShardGap {
        /// The shard.
        shard: PathBuf,
        /// Its games of each pairing.
        games: (u64, u64),
        /// The next game to merge.
        expected: u64,
    },
    /// The match shards end before the pairings' last game.
    MatchShardsShort {
        /// Where they end.
        end: u64,
        /// The pairings' games.
        games: u64,
    },
    /// A folder that is not the pairing the match gives it.
    NotThePairing {
        /// Its manifest.
        path: PathBuf,
        /// The field that differs.
        field: &'static str,
        /// Its value there.
        found: String,
        /// The match's.
        want: String,
    },
    /// A pairing not finished when the results are written.
    PairingNotDone(PathBuf),
    /// The ratings could not be computed.
    Ratings(String),
}

impl StudyError {
    /// The error of `field`.
    pub fn of(self, field: Field) -> StudyError {
        StudyError::In {
            field,
            source: Box::new(self),
        }
    }

    /// The message, its fields and steps named by `n`.
    pub fn message(&self, n: &dyn Names) -> String {
        use StudyError as E;
        let f = |field| n.field(field);
        match self {
            E::Io { path, source } => format!("{}: {source}", shown_path(path)),
            E::MakeDir { dir, source } => {
                format!("{} {}: {source}", f(Field::Out), shown_path(dir))
            }
            E::NotAFolder(dir) => format!(
                "{} {}: a file, not a folder; choose a folder for the results",
                f(Field::Out),
                shown_path(dir)
            ),
            E::NotAFile(path) => format!(
                "{}: not a regular file (a device, a pipe, a folder or a stream of this process); \
                 write to a file, or to '-' for standard output where the option allows it",
                shown_path(path)
            ),
            E::NotOwnFile(path) => format!(
                "{}: a symbolic link or not a regular file; the files of a study folder are its \
                 own (remove it, or choose another {})",
                shown_path(path),
                f(Field::Out)
            ),
            E::NotStudyFile(path) => format!(
                "{}: not a file of a study (a link, a folder, or a file without the study's \
                 header); move it away or choose another {}: a new run replaces only a study's \
                 own files",
                shown_path(path),
                f(Field::Out)
            ),
            E::Locked { dir, lock, holder } => format!(
                "{} is in use by another stats or match job (lock {}, process {holder}); wait for \
                 it or choose another {}",
                shown_path(dir),
                shown_path(lock),
                f(Field::Out)
            ),
            E::BeingWritten { dir, lock, holder } => format!(
                "{} is being written by another stats or match job (lock {}, process {holder}); \
                 merge its shards once it has finished",
                shown_path(dir),
                shown_path(lock)
            ),
            E::LockNotTaken(path) => format!("{}: could not take the lock", shown_path(path)),
            E::RunPresent {
                dir,
                files,
                resume_hint,
            } => format!(
                "{} already holds a run ({}); {}{} replaces it, or choose another {}",
                shown_path(dir),
                files.join(", "),
                if *resume_hint {
                    format!("{} continues it, ", f(Field::Resume))
                } else {
                    String::new()
                },
                f(Field::Force),
                f(Field::Out)
            ),
            E::Json(e) => e.to_string(),
            E::BadManifest { path, source } => format!("{}: {source}", shown_path(path)),
            E::ManifestEdited(path) => format!(
                "{}: edited since the job wrote it (its manifest_crc32 is missing or does not \
                 match its fields); start the run again with {}",
                shown_path(path),
                f(Field::Force)
            ),
            E::ManifestImpossible { path, what } => {
                format!("{}: {what}; not a manifest a job writes", shown_path(path))
            }
            E::Game(e) => e.to_string(),
            E::Row { path, line, source } => {
                format!("{}: line {line}: {}", shown_path(path), source.message(n))
            }
            E::Changed {
                path,
                rows,
                bytes,
                recorded_bytes,
                crc,
                recorded_crc,
            } => format!(
                "{}: the {rows} rows counted by {MANIFEST} are not the rows it recorded (bytes \
                 {bytes} vs {recorded_bytes}, CRC-32 {crc:08x} vs {recorded_crc:08x}): changed \
                 since they were written",
                shown_path(path)
            ),
            E::BadShard(s) => format!(
                "{} {}: expected K/N with 1 <= K <= N",
                f(Field::Shard),
                quoted(s)
            ),
            E::In { field, source } => format!("{}: {}", f(*field), source.message(n)),
            E::NoOut => format!("{}: name the study's folder", f(Field::Out)),
            E::ResumeOrForce => format!(
                "{} and {}: a run is either continued or replaced; give one of them",
                f(Field::Resume),
                f(Field::Force)
            ),
            E::OutIsStdout(kind) => format!(
                "{} -: a {} is a folder of files; name one",
                f(Field::Out),
                kind.name()
            ),
            E::HoldsMatch(out) => format!(
                "{} {} holds a match (match.json); a study needs a folder of its own",
                f(Field::Out),
                shown_path(out)
            ),
            E::InMatch { out, matched, kind } => match kind {
                JobKind::Study => format!(
                    "{} {}: a pairing folder of the match in {}; the match plays it ({}), a study \
                     needs a folder of its own",
                    f(Field::Out),
                    shown_path(out),
                    shown_path(matched),
                    n.step(Step::ResumeMatch(None))
                ),
                JobKind::Match => format!(
                    "{} {}: a pairing folder of the match in {}; the match plays it ({}), a match \
                     needs a folder of its own",
                    f(Field::Out),
                    shown_path(out),
                    shown_path(matched),
                    n.step(Step::ResumeMatch(Some(matched)))
                ),
            },
            E::ResumeDiffers {
                field,
                given,
                kept,
                manifest,
            } => {
                let name = f(*field);
                format!(
                    "{}: {name} {given} differs from the job in {} ({name} {kept}); leave it out, \
                     or start a new run in another {}",
                    f(Field::Resume),
                    shown_path(manifest),
                    f(Field::Out)
                )
            }
            E::ManifestChanged(path) => format!(
                "{} changed while the job was checked; run it again",
                shown_path(path)
            ),
            E::ClauseEvents {
                path,
                named,
                counted,
                game,
            } => format!(
                "{}: clause_events name {named} clauses, not the {counted} the {game} engines \
                 count",
                shown_path(path)
            ),
            E::RecordedJob { manifest, source } => format!(
                "{}: the job it records: {}",
                shown_path(manifest),
                source.message(n)
            ),
            E::Covers {
                manifest,
                recorded,
                job,
            } => format!(
                "{} covers games {}..{}, the job {}..{}",
                shown_path(manifest),
                recorded.0,
                recorded.1,
                job.0,
                job.1
            ),
            E::Policy(e) | E::Play(e) | E::Threads(e) | E::FreeSpace(e) => e.clone(),
            E::UnknownEngine(e) => format!("engine {} (known: optimized, reference)", quoted(e)),
            E::Variant { variant, why } => {
                format!("{} {}: {why}", f(Field::Variant), quoted(variant))
            }
            E::NoPlies => format!("{} 0: no game would have a move", f(Field::MaxPlies)),
            E::OpeningTooLong { opening, max_plies } => format!(
                "{} {opening}: every ply of a game would be random (the ply limit is \
                 {max_plies}); open with fewer plies",
                f(Field::Opening)
            ),
            E::NoSpace { out, need, free } => format!(
                "{} {}: the study's files would take about {need} and its file system has {free} \
                 free; free some space, play fewer {} (or split them with {}), or give {} to \
                 start anyway",
                f(Field::Out),
                shown_path(out),
                f(Field::Games),
                f(Field::Shard),
                f(Field::NoSpaceCheck)
            ),
            E::CountOverflow {
                manifest,
                clause,
                merged,
            } => {
                if *merged {
                    format!(
                        "{}: the count of clause {} passes {} with the shards before it; not a \
                         manifest a job writes",
                        shown_path(manifest),
                        escaped(clause),
                        u64::MAX
                    )
                } else {
                    format!(
                        "{}: the count of clause {clause} passes {}; not a manifest a job writes",
                        shown_path(manifest),
                        u64::MAX
                    )
                }
            }
            E::GivenTwice(a, b) => format!(
                "{} and {} are one folder, given twice",
                shown_path(a),
                shown_path(b)
            ),
            E::OutIsShard(out) => format!(
                "{} {} is one of the shards being merged; choose another folder",
                f(Field::Out),
                shown_path(out)
            ),
            E::OutInsideShard { out, shard } => format!(
                "{} {} is inside the shard {}; a merge never writes into what it reads",
                f(Field::Out),
                shown_path(out),
                shown_path(shard)
            ),
            E::ShardInsideOut { shard, out } => format!(
                "the shard {} is inside {} {}, which the merge writes; move it out first",
                shown_path(shard),
                f(Field::Out),
                shown_path(out)
            ),
            E::ShardIsMatch(dir) => format!(
                "{} holds a match (match.json), not a stats study; a match's shards are joined \
                 by `{}`",
                shown_path(dir),
                n.step(Step::MergeMatch)
            ),
            E::OtherJob {
                manifest,
                difference,
                base,
            } => format!(
                "{}: a shard of a different job ({difference} in {})",
                shown_path(manifest),
                shown_path(base)
            ),
            E::ShardGap {
                shard,
                games,
                expected,
            } => format!(
                "{}: covers games {}..{}, but the next game to merge is {expected} (a shard \
                 missing or given twice)",
                shown_path(shard),
                games.0,
                games.1
            ),
            E::ShardUnfinished { shard, done, total } => format!(
                "{}: unfinished ({done} of {total} games); finish it with {}",
                shown_path(shard),
                f(Field::Resume)
            ),
            E::ShardsShort { end, games } => {
                format!("the shards cover games 0..{end} of 0..{games}")
            }
            E::ShardExtra { shard, extra, rows } => format!(
                "{}: {extra} bytes past the {rows} rows {MANIFEST} counts; finish the shard with: \
                 {}",
                shown_path(shard.join(GAMES)),
                n.step(Step::ResumeStudy(shard))
            ),
            E::NothingMerged { source, out } => format!(
                "{}; nothing merged into {}",
                source.message(n),
                shown_path(out)
            ),
            E::TooFewPlayers => format!("{}: name two policies or more", f(Field::Players)),
            E::TooManyPlayers(max) => format!("{}: at most {max} players", f(Field::Players)),
            E::PlayerTwice(p) => format!("{}: {p} is named twice", f(Field::Players)),
            E::NoGames => format!(
                "{} 0: a pairing plays at least one game each way",
                f(Field::Games)
            ),
            E::PlayerSpelling { found, canonical } => format!(
                "player {} is written {} by a match",
                quoted(found),
                quoted(canonical)
            ),
            E::NoMatch(dir) => format!("{} holds no match (no match.json)", shown_path(dir)),
            E::InFile { path, source } => format!("{}: {}", shown_path(path), source.message(n)),
            E::InMerge(source) => format!("match merge: {}", source.message(n)),
            E::NoMatchToResume(source) => format!(
                "{}; start one, with {} if the folder holds a match's remains",
                source.message(n),
                f(Field::Force)
            ),
            E::HoldsStudy { out, file, study } => format!(
                "{} {} holds {}; a match needs a folder of its own",
                f(Field::Out),
                shown_path(out),
                if *study {
                    format!("a stats study ({file}), not a match")
                } else {
                    format!("{file}, a file no match writes")
                }
            ),
            E::NotMatchFile(path) => format!(
                "{}: not a file of a match (a link, a folder, or a file without the match's \
                 header); move it away or choose another {}: a match replaces only its own files",
                shown_path(path),
                f(Field::Out)
            ),
            E::MatchPresent { out, files, keep } => format!(
                "{} {} holds a match ({}); {}replace it with {}",
                f(Field::Out),
                shown_path(out),
                files.join(", "),
                match keep {
                    Keep::Resume => format!("continue it with {}, or ", f(Field::Resume)),
                    Keep::MergeElsewhere => "merge into another folder, or ".into(),
                },
                f(Field::Force)
            ),
            E::ForeignInPairs { out, path } => format!(
                "{} {}: {} is not a file a match writes; move it away before replacing the match",
                f(Field::Out),
                shown_path(out),
                shown_path(path)
            ),
            E::PairingForeign { dir, name } => format!(
                "{}: {name} is there but no manifest.json, so the folder is not a pairing this \
                 match wrote; move it away to play the pairing",
                shown_path(dir)
            ),
            E::PlayAgain(source) => {
                format!("{}; remove the folder to play it again", source.message(n))
            }
            E::Pairing { k, of, dir, source } => format!(
                "pairing {k} of {of} ({}): {}",
                shown_path(dir),
                source.message(n)
            ),
            E::OtherMatch {
                path,
                difference,
                base,
            } => format!(
                "{}: a shard of a different match ({difference} in {})",
                shown_path(path),
                shown_path(base)
            ),
            E::PairingMissing { dir, shard } => format!(
                "{}: missing (no manifest.json); the shard is not whole: finish it with: {}",
                shown_path(dir),
                n.step(Step::ResumeMatch(Some(shard)))
            ),
            E::NotOwnShard { source, shard } => format!(
                "{}; {} is not a shard of its own match.json",
                source.message(n),
                shown_path(shard)
            ),
            E::PairingUnfinished {
                dir,
                done,
                total,
                shard,
            } => format!(
                "{}: unfinished ({done} of {total} games); finish the shard with: {} (once no \
                 job is playing it)",
                shown_path(dir),
                n.step(Step::ResumeMatch(Some(shard)))
            ),
            E::PairingRows { dir, shard } => format!(
                "{}: games.csv does not hold exactly the rows manifest.json counts; finish the \
                 shard with: {}",
                shown_path(dir),
                n.step(Step::ResumeMatch(Some(shard)))
            ),
            E::MatchShardGap {
                shard,
                games,
                expected,
            } => format!(
                "{}: plays games {}..{} of each pairing, but the next game to merge is \
                 {expected} (a shard missing or given twice)",
                shown_path(shard),
                games.0,
                games.1
            ),
            E::MatchShardsShort { end, games } => {
                format!("the shards cover games 0..{end} of each pairing's 0..{games}")
            }
            E::NotThePairing {
                path,
                field,
                found,
                want,
            } => format!(
                "{}: not this match's pairing ({field} {} where the match has {})",
                shown_path(path),
                quoted(found),
                quoted(want)
            ),
            E::PairingNotDone(dir) => format!(
                "{}: unfinished; finish the match with {}",
                shown_path(dir),
                f(Field::Resume)
            ),
            E::Ratings(e) => e.clone(),
        }
    }
}

/// What is wrong with a line of games.csv (its file and line are in [`StudyError::Row`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message(&FieldNames))]
pub enum RowError {
    /// A line longer than any games.csv row.
    TooLong,
    /// The first line is not the game's header.
    Header {
        /// The manifest's game.
        game: GameKind,
        /// Its header, without the line end.
        header: String,
    },
    /// Fewer complete rows than the manifest counts.
    Cut {
        /// games.csv.
        path: PathBuf,
        /// The complete rows found.
        complete: u64,
        /// The rows the manifest counts.
        counted: u64,
    },
    /// Not UTF-8 text.
    NotUtf8,
    /// Not the game's number of fields.
    Fields {
        /// Fields found.
        found: usize,
        /// The manifest's game.
        game: GameKind,
        /// Fields of its rows.
        width: usize,
    },
    /// Not the game that belongs on this line.
    OutOfOrder {
        /// The row's `game` field.
        found: String,
        /// The game the manifest puts here.
        want: u64,
    },
    /// The `plies` field is not a number.
    Plies(String),
    /// The `moves_hash` field is not 16 hexadecimal digits.
    MovesHash(String),
    /// A field that must be the job's is not.
    NotTheJob {
        /// The column.
        column: &'static str,
        /// What the row holds.
        found: String,
        /// The job's value.
        want: String,
    },
    /// More plies than the job's limit.
    OverLimit {
        /// The row's plies.
        plies: u32,
        /// The job's limit.
        max: u32,
    },
    /// A game cut at the ply limit before the job's limit.
    CutEarly {
        /// The row's plies.
        plies: u32,
        /// The job's limit.
        max: u32,
    },
    /// The `winner` field is not a winner.
    Winner(#[from] UnknownWinner),
}

impl RowError {
    /// The message, the job's fields named by `n`.
    pub fn message(&self, n: &dyn Names) -> String {
        use RowError as R;
        match self {
            R::TooLong => format!(
                "more than {} KiB without a line break; not a games.csv row",
                MAX_ROW >> 10
            ),
            R::Header { game, header } => {
                format!("the header is not that of {game} games.csv ({header})")
            }
            R::Cut {
                path,
                complete,
                counted,
            } => format!(
                "{} holds {complete} complete rows but {MANIFEST} counts {counted} (rows lost or \
                 cut); the folder cannot be used as it is",
                shown_path(path)
            ),
            R::NotUtf8 => "not UTF-8".into(),
            R::Fields { found, game, width } => format!("{found} fields, {game} rows have {width}"),
            R::OutOfOrder { found, want } => format!(
                "game {} where game {want} belongs (rows missing, doubled or out of order)",
                quoted(found)
            ),
            R::Plies(p) => format!("plies {} is not a number", quoted(p)),
            R::MovesHash(h) => format!("moves_hash {} is not 16 hexadecimal digits", quoted(h)),
            R::NotTheJob {
                column,
                found,
                want,
            } => format!(
                "{column} {} where the job's is {}",
                quoted(found),
                quoted(want)
            ),
            R::OverLimit { plies, max } => format!(
                "{plies} plies, over the job's {} {max}",
                n.field(Field::MaxPlies)
            ),
            R::CutEarly { plies, max } => format!(
                "cut at the ply limit after {plies} plies, but the job's {} is {max}",
                n.field(Field::MaxPlies)
            ),
            R::Winner(e) => e.to_string(),
        }
    }
}

/// A [`StudyError::Io`] error of `path`.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StudyError + '_ {
    move |source| StudyError::Io {
        path: path.to_path_buf(),
        source,
    }
}
