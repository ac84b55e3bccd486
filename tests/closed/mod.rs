//! A command whose standard output closes after its first line, as `| head -1` closes it.

use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `args` in `dir`, reads the first line of its standard output and closes it; the line,
/// the exit code and standard error.
pub fn first_line_only(dir: &Path, args: &[&str]) -> (String, Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-lab"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // The reader goes away here: the pipe's read end is closed.
    let out = child.wait_with_output().unwrap();
    (
        line,
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What a job whose output closed says on standard error.
pub const NOTE: &str = "standard output was closed before the end";
