//! Records the commit the binary is built from (`MANCALA_LAB_COMMIT`, with `-dirty` when the tree
//! had changes), so a study's manifest names the code that played it, not the tree at run time.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=MANCALA_LAB_COMMIT={commit}{suffix}");
    // Built again when HEAD moves or a tracked file changes: git's own files, wherever the git
    // folder is (a worktree's is elsewhere). A path that does not exist would make every build
    // run this again and rebuild the crate, so only existing ones are named.
    let mut watched = 0;
    for what in ["HEAD", "index"] {
        watched += watch(git(&["rev-parse", "--git-path", what]));
    }
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched += watch(git(&["rev-parse", "--git-path", &head]));
    }
    if watched == 0 {
        // Not a git checkout (a source archive, a copy): the commit cannot change.
        println!("cargo:rerun-if-changed=build.rs");
    } else {
        // An edit not yet staged changes neither HEAD nor the index, but makes the tree dirty.
        for tree in ["src", "Cargo.toml", "build.rs"] {
            println!("cargo:rerun-if-changed={tree}");
        }
    }
}

/// Asks cargo to run this again when `path` changes, if it exists; 1 if it does.
fn watch(path: Option<String>) -> usize {
    match path {
        Some(p) if std::path::Path::new(&p).exists() => {
            println!("cargo:rerun-if-changed={p}");
            1
        }
        _ => 0,
    }
}
