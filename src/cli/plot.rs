//! `mancala-lab plot`: distributions of a games.csv column as an SVG line chart, one line per run.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use mancala_lab::histogram;
use mancala_lab::text::{quoted, shown_path};
use plotters::prelude::*;

use super::MAX_INPUT;

#[derive(Args)]
pub struct PlotArgs {
    /// The numeric column of games.csv to plot (e.g. plies, mtaji_plies, longest_move_seeds).
    #[arg(long, default_value = "plies")]
    column: String,
    /// Width of a histogram bin [default: 1, 2, 5, 10, 20, 50, ... whichever first gives at most
    /// 200 bins].
    #[arg(long)]
    bin: Option<u32>,
    /// The SVG file to write ('-' writes standard output).
    #[arg(long)]
    out: PathBuf,
    /// Chart title.
    #[arg(long, default_value = "")]
    title: String,
    /// Runs to compare, each NAME=PATH/TO/games.csv ('-' reads standard input).
    #[arg(required = true)]
    runs: Vec<std::ffi::OsString>,
}

/// `text` quoted for an error message, its control characters escaped (`\u{1}`).
fn escaped(text: &str) -> String {
    quoted(&text.escape_debug().to_string())
}

/// What an input is called in errors.
fn label(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".into()
    } else {
        shown_path(path)
    }
}

/// One run's games, read twice (range, then bins) without keeping their values in memory: a
/// regular file is opened again; standard input, a pipe or a device is copied to an unnamed
/// temporary file on the first read (at most [`MAX_INPUT`] bytes), which the system removes
/// however the process ends.
enum Source {
    File(PathBuf),
    Spool(std::fs::File),
}

impl Source {
    /// The second read of the run.
    fn reopen(&self) -> Result<std::fs::File, String> {
        match self {
            Source::File(path) => {
                std::fs::File::open(path).map_err(|e| format!("{}: {e}", label(path)))
            }
            Source::Spool(spool) => {
                let mut f = spool
                    .try_clone()
                    .map_err(|e| format!("temporary file: {e}"))?;
                f.seek(SeekFrom::Start(0))
                    .map_err(|e| format!("temporary file: {e}"))?;
                Ok(f)
            }
        }
    }
}

/// The input, copied to `spool` as it is read; fails past [`MAX_INPUT`] bytes.
struct Spooling<'a, R> {
    input: R,
    spool: &'a mut std::fs::File,
    copied: u64,
    too_big: bool,
    write_error: Option<std::io::Error>,
}

impl<R: Read> Read for Spooling<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(buf)?;
        if self.copied + n as u64 > MAX_INPUT {
            self.too_big = true;
            return Err(std::io::Error::other("too big"));
        }
        if let Err(e) = self.spool.write_all(&buf[..n]) {
            let kind = e.kind();
            self.write_error = Some(e);
            return Err(kind.into());
        }
        self.copied += n as u64;
        Ok(n)
    }
}

/// The first read of the run at `path` ('-': standard input): streams the values of `column`
/// to `each`, and returns how many there were and how to read them again.
fn first_read(path: &Path, column: &str, each: impl FnMut(u32)) -> Result<(u64, Source), String> {
    let name = label(path);
    let stdin = path.as_os_str() == "-";
    let regular = !stdin && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if regular {
        let f = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        let n = histogram::each_value(f, &name, column, each).map_err(|e| e.to_string())?;
        return Ok((n, Source::File(path.into())));
    }
    let mut spool = tempfile::tempfile().map_err(|e| format!("{name}: a temporary copy: {e}"))?;
    let read = |input: &mut dyn Read, spool: &mut std::fs::File| {
        let mut spooling = Spooling {
            input,
            spool,
            copied: 0,
            too_big: false,
            write_error: None,
        };
        match histogram::each_value(&mut spooling, &name, column, each) {
            Ok(n) => Ok(n),
            Err(_) if spooling.too_big => Err(format!(
                "{name}: more than {} MiB; a pipe or standard input is copied to be read \
                 twice, up to that size: save it to a file and plot the file",
                MAX_INPUT >> 20
            )),
            Err(e) => Err(match spooling.write_error {
                Some(w) => format!("{name}: a temporary copy: {w}"),
                None => e.to_string(),
            }),
        }
    };
    let n = if stdin {
        read(&mut std::io::stdin().lock(), &mut spool)?
    } else {
        let mut input = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        read(&mut input, &mut spool)?
    };
    Ok((n, Source::Spool(spool)))
}

/// Refuses a label the chart cannot show: a control character is not valid XML (all but tab and
/// the line breaks) or breaks the one line a label has.
fn one_line(what: &str, text: &str) -> Result<(), String> {
    match text.chars().enumerate().find(|(_, c)| c.is_control()) {
        Some((k, c)) => Err(format!(
            "{what}: character {} is the control character U+{:04X}; a label of the chart is one \
             line of printable text",
            k + 1,
            u32::from(c)
        )),
        None => Ok(()),
    }
}

/// A run's name and path: `NAME=PATH`, split at the first '='; the name is UTF-8 text (it is
/// the legend's), the path any bytes the system allows.
fn split_run(run: &std::ffi::OsStr) -> Result<Option<(&str, &Path)>, String> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = run.as_bytes();
        let Some(i) = bytes.iter().position(|&b| b == b'=') else {
            return Ok(None);
        };
        let name = std::str::from_utf8(&bytes[..i]).map_err(|_| {
            format!(
                "run {}: the name is not UTF-8 text; the legend shows it",
                shown_path(run)
            )
        })?;
        Ok(Some((
            name,
            Path::new(std::ffi::OsStr::from_bytes(&bytes[i + 1..])),
        )))
    }
    #[cfg(not(unix))]
    {
        let run = run
            .to_str()
            .ok_or_else(|| format!("run {}: not UTF-8 text", shown_path(run)))?;
        Ok(run.split_once('=').map(|(n, p)| (n, Path::new(p))))
    }
}

/// What `plot` refuses before reading its inputs (also for `--parse-only`); returns the runs as
/// (name, path).
pub fn check(args: &PlotArgs) -> Result<Vec<(&str, &Path)>, String> {
    if args.bin == Some(0) {
        return Err(histogram::HistogramError::ZeroBin.message(&super::Flags));
    }
    one_line("--title", &args.title)?;
    one_line(&format!("--column {}", escaped(&args.column)), &args.column)?;
    let mut runs: Vec<(&str, &Path)> = Vec::new();
    for run in &args.runs {
        let shown = format!("run {}", escaped(&run.to_string_lossy()));
        let (name, path) = split_run(run)?.ok_or(format!("{shown}: expected NAME=PATH"))?;
        if name.trim().is_empty() {
            return Err(format!(
                "{shown}: no name before '='; the legend names each run (NAME=PATH)"
            ));
        }
        if path.as_os_str().is_empty() {
            return Err(format!(
                "{shown}: no path after '=' (NAME=PATH, '-' for standard input)"
            ));
        }
        one_line(&format!("{shown}: name"), name)?;
        if let Some(j) = runs.iter().position(|&(n, _)| n == name) {
            return Err(format!(
                "{shown}: the name {} is also that of run {} ({}); the legend needs a name per run",
                escaped(name),
                j + 1,
                escaped(&args.runs[j].to_string_lossy())
            ));
        }
        runs.push((name, path));
    }
    if runs.iter().filter(|(_, p)| p.as_os_str() == "-").count() > 1 {
        return Err("standard input ('-') can feed one run only".into());
    }
    // By any path to it, a link or a hard link included.
    for &(_, path) in &runs {
        if args.out.as_os_str() != "-" && super::same_file(&args.out, super::input_file(path)) {
            return Err(format!(
                "--out {}: that is the input {}; write the plot elsewhere",
                shown_path(&args.out),
                label(path)
            ));
        }
    }
    // A file in the way that is not a plot (a study's games.csv, a manifest, a note) is never
    // replaced; an earlier plot is.
    if args.out.as_os_str() != "-" {
        super::replaces_only_svg("--out", &args.out, "plot replaces only an SVG drawing")?;
    }
    Ok(runs)
}

/// The second read of a run: its `column` counted in `bins` bins of width `bin`, and its rows.
/// A file that changed since the first read counted `first_n` rows (a study still writing it)
/// would be drawn half old, half new: refused.
fn second_read(
    path: &Path,
    source: &Source,
    column: &str,
    bin: u64,
    bins: u64,
    first_n: u64,
) -> Result<(u64, Vec<u64>), String> {
    let mut counts = vec![0u64; bins as usize];
    let mut outside = 0u64;
    let n = histogram::each_value(source.reopen()?, &label(path), column, |v| {
        match counts.get_mut((u64::from(v) / bin) as usize) {
            Some(c) => *c += 1,
            None => outside += 1,
        }
    })
    .map_err(|e| e.to_string())?;
    if n != first_n || outside > 0 {
        return Err(format!(
            "{}: changed while plot read it ({first_n} rows, then {n}); plot it once it is \
             written",
            label(path)
        ));
    }
    Ok((n, counts))
}

/// The outline of the bars `points` (each bin's start and share) of width `bin`: up from 0 at
/// the first bin's start, across each bar's top, down to 0 at the last bin's end.
fn steps(points: &[(u64, f64)], bin: u64) -> Vec<(u64, f64)> {
    let mut outline = Vec::with_capacity(2 * points.len() + 2);
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        outline.push((first.0, 0.0));
        for &(x, y) in points {
            outline.push((x, y));
            outline.push((x + bin, y));
        }
        outline.push((last.0 + bin, 0.0));
    }
    outline
}

pub fn run(args: PlotArgs) -> Result<ExitCode, String> {
    let runs = check(&args)?;
    // Each run is read twice (range, then bins), so the memory does not grow with its length.
    let mut sources = Vec::new();
    let mut max = 0u32;
    for &(_, path) in &runs {
        let (n, source) = first_read(path, &args.column, |v| max = max.max(v))?;
        if n == 0 {
            return Err(format!("{}: no games", label(path)));
        }
        sources.push((n, source));
    }
    let (bin, bins) =
        histogram::bins(max, args.bin, &args.column).map_err(|e| e.message(&super::Flags))?;
    // Bin edges run to bins * bin, past u32::MAX for the largest values: u64 throughout.
    let bin = u64::from(bin);
    let mut series: Vec<(String, Vec<(u64, f64)>)> = Vec::new();
    for (&(name, path), (first_n, source)) in runs.iter().zip(&sources) {
        let (n, counts) = second_read(path, source, &args.column, bin, bins, *first_n)?;
        let share = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u64 * bin, c as f64 / n as f64))
            .collect();
        series.push((name.to_string(), share));
    }
    let x_max = bins * bin;
    let y_max = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|p| p.1))
        .fold(0.0, f64::max)
        * 1.1;
    let to_stdout = args.out.as_os_str() == "-";
    // Drawn in memory, then written whole (atomically to a file): a failed plot leaves no part.
    let mut svg = String::new();
    {
        let err = |e: &dyn std::fmt::Display| format!("--out {}: {e}", shown_path(&args.out));
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let title = if args.title.is_empty() {
            format!("distribution of {}", args.column)
        } else {
            args.title.clone()
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0u64..x_max, 0f64..y_max.max(0.01))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(format!("{} (bins of {bin})", args.column))
            .y_desc("share of games")
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            // Each run is drawn as the outline of its bars (a step at every bin edge), so that a
            // run whose values all fall in one bin still draws its one bar.
            let outline = steps(points, bin);
            chart
                .draw_series(LineSeries::new(outline, color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    let svg = mancala_lab::diagram::marked(svg);
    if to_stdout {
        print!("{svg}");
    } else {
        // Checked again: a file may have come to --out while the inputs were read.
        super::replaces_only_svg("--out", &args.out, "plot replaces only an SVG drawing")?;
        mancala_lab::study::write_atomic(&args.out, &svg).map_err(|e| format!("--out {e}"))?;
        println!("wrote {}", args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that changes between plot's two reads is refused, whether it gained rows or a
    /// value past the range the first read found.
    #[test]
    fn a_file_changed_between_the_reads_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let rows = "game,plies\n0,10\n1,12\n";
        for (changed, more) in [
            ("game,plies\n0,10\n1,12\n2,14\n", true),
            ("game,plies\n0,10\n1,4000\n", false),
        ] {
            std::fs::write(&path, rows).unwrap();
            let (n, source) = first_read(&path, "plies", |_| ()).unwrap();
            assert_eq!(n, 2);
            assert_eq!(
                second_read(&path, &source, "plies", 10, 2, n).unwrap().1,
                vec![0, 2]
            );
            std::fs::write(&path, changed).unwrap();
            let err = second_read(&path, &source, "plies", 10, 2, n).unwrap_err();
            assert!(err.contains("changed while plot read it"), "{err}");
            assert_eq!(err.contains("then 3"), more, "{err}");
        }
    }
}
