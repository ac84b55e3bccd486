//! Studies: batch playouts of one job written as CSV beside a manifest that checks them, run,
//! resumed, sharded and merged here, with matches between policies built on them.
//!
//! [`job`] holds what a study plays, [`run`] plays it, [`merge`] joins shards; [`folder`],
//! [`manifest`], [`rows`] and [`results`] are its files; [`pipeline`] its ordered parallel work.

pub mod error;
pub mod folder;
pub mod job;
pub mod manifest;
pub mod matches;
pub mod merge;
pub mod pipeline;
pub mod results;
pub mod rows;
pub mod run;

pub use crate::field::{Field, FieldNames, Names, Step};
pub use error::{JobKind, Keep, RowError, StudyError};
pub use folder::{
    check_own_files, clear_for_new_run, is_study_file, is_temporary_of, link_target, make_dir,
    manifest_text, only_study_files, replace_file, staging_dir, starts_with_header, swap_in,
    temporary_beside, under_system_folder, write_atomic, DirLock, ReadLock, CLAUSES_HEADER,
    MAX_MANIFEST, STAGING,
};
pub use job::{canonical_shard, shard_range, CheckedJob, Job, Request};
pub use manifest::{
    read_manifest, read_manifest_unsealed, save_manifest, Manifest, GAMES, LOCK, MANIFEST,
};
pub use merge::{check_merge, merge_shards, Merged};
pub use results::{clauses_csv, write_results, ClauseNotes};
pub use rows::{verify_rows, Verified, MAX_ROW};
pub use run::{run, Note, Outcome, Progress};

#[cfg(test)]
mod tests;
