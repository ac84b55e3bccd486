//! A finished study's result files: clauses.csv (clause events and ends, with their titles) and
//! summary.csv.

use std::collections::BTreeMap;
use std::path::Path;

use super::folder::write_own;
use super::folder::{only_study_files, CLAUSES_HEADER};
use super::{Job, Manifest, StudyError};
use crate::stats::Summary;

/// What clauses.csv says of each clause beside its count, for a person reading it.
#[derive(Clone, Debug, Default)]
pub struct ClauseNotes {
    /// The clause titles of the game's spec, by id.
    pub titles: BTreeMap<String, String>,
    /// The counted events no position can fire under the job's reading, and why.
    pub cannot_fire: &'static [(&'static str, &'static str)],
}

impl ClauseNotes {
    /// The notes for `job`'s game and reading (none for a game or reading not known).
    pub fn of(job: &Job) -> ClauseNotes {
        use crate::playout::EngineKind;
        let Ok(game) = job.game.parse::<crate::registry::GameKind>() else {
            return ClauseNotes::default();
        };
        ClauseNotes {
            titles: game.clause_titles(),
            cannot_fire: crate::registry::engine(game, &job.variant, EngineKind::Reference)
                .map(|e| e.events_that_cannot_fire())
                .unwrap_or(&[]),
        }
    }

    /// The title of `clause` (an id of the spec, or the ply limit's end).
    fn title(&self, clause: &str) -> &str {
        match self.titles.get(clause) {
            Some(t) => t,
            None if clause == crate::playout::PLY_LIMIT => "cut at the ply limit (no clause)",
            None => "",
        }
    }

    /// Why `clause` cannot fire, if it cannot.
    fn note(&self, clause: &str) -> &str {
        self.cannot_fire
            .iter()
            .find(|(c, _)| *c == clause)
            .map_or("", |(_, why)| why)
    }
}

/// clauses.csv: `clause,kind,count,title,note`, the clause events every engine of the game
/// reports (`event`) and the clauses that ended the games (`end`); each with its title in the
/// spec and, for an event that no position can fire under the reading, why (so that its 0 does
/// not read as "did not happen").
pub fn clauses_csv(
    events: &BTreeMap<String, u64>,
    summary: &Summary,
    notes: &ClauseNotes,
) -> String {
    use crate::text::csv_field;
    let mut text = format!("{CLAUSES_HEADER}\n");
    let rows = events
        .iter()
        .map(|(c, n)| (c, "event", n))
        .chain(summary.ends.iter().map(|(c, n)| (c, "end", n)));
    for (c, kind, n) in rows {
        let note = if kind == "event" { notes.note(c) } else { "" };
        text.push_str(&format!(
            "{c},{kind},{n},{},{}\n",
            csv_field(notes.title(c)),
            csv_field(note)
        ));
    }
    text
}

/// Writes clauses.csv and summary.csv of a finished run, once it is checked again that no file
/// of the user's has come to stand in their place while the games were played.
pub fn write_results(dir: &Path, m: &Manifest, summary: &Summary) -> Result<(), StudyError> {
    only_study_files(dir)?;
    write_own(
        &dir.join("clauses.csv"),
        &clauses_csv(&m.clause_events, summary, &ClauseNotes::of(&m.job)),
    )?;
    write_own(&dir.join("summary.csv"), &summary.csv())
}
