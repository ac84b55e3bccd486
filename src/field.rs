//! The fields a library error names (a job's options, a plot's bin width) and how a front end
//! names them: the command line as its options, Python as its keywords.

use std::path::Path;

use crate::text::shown_path;

/// A field of a study's or a match's job, or a choice of how it runs, as an error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The game.
    Game,
    /// The rule reading.
    Variant,
    /// The engine.
    Engine,
    /// Both sides' policies.
    Policy,
    /// A match's players.
    Players,
    /// The master seed.
    Seed,
    /// The number of games.
    Games,
    /// The ply limit.
    MaxPlies,
    /// The random plies opening every game.
    Opening,
    /// The slice of the games a folder plays.
    Shard,
    /// The output folder.
    Out,
    /// Continue the job in the output folder.
    Resume,
    /// Replace the job in the output folder.
    Force,
    /// Start without the free-space check.
    NoSpaceCheck,
    /// A histogram's bin width.
    Bin,
}

impl Field {
    /// The field's name, as the job files and the Python keyword arguments write it.
    pub fn name(self) -> &'static str {
        match self {
            Field::Game => "game",
            Field::Variant => "variant",
            Field::Engine => "engine",
            Field::Policy => "policy",
            Field::Players => "players",
            Field::Seed => "seed",
            Field::Games => "games",
            Field::MaxPlies => "max_plies",
            Field::Opening => "opening",
            Field::Shard => "shard",
            Field::Out => "out",
            Field::Resume => "resume",
            Field::Force => "force",
            Field::NoSpaceCheck => "no_space_check",
            Field::Bin => "bin",
        }
    }
}

/// What a message suggests doing next, in the front end's own words.
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// Continue the stats study in this folder.
    ResumeStudy(&'a Path),
    /// Continue the match in this folder (in the folder it names, if none).
    ResumeMatch(Option<&'a Path>),
    /// Join a match's shards.
    MergeMatch,
}

/// How a front end names what messages refer to: a job's fields and the steps it suggests.
pub trait Names {
    /// The field as the user gave it (the command line: `--max-plies`).
    fn field(&self, field: Field) -> String;
    /// The step as the user would take it (the command line: a command to run).
    fn step(&self, step: Step<'_>) -> String;
}

/// The library's own names: the fields as job files write them, the steps described.
pub struct FieldNames;

impl Names for FieldNames {
    fn field(&self, field: Field) -> String {
        field.name().to_string()
    }

    fn step(&self, step: Step<'_>) -> String {
        match step {
            Step::ResumeStudy(dir) => format!("the study resumed in {}", shown_path(dir)),
            Step::ResumeMatch(Some(dir)) => format!("the match resumed in {}", shown_path(dir)),
            Step::ResumeMatch(None) => "the match resumed".into(),
            Step::MergeMatch => "a match merge".into(),
        }
    }
}
