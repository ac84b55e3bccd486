//! `mancala-lab plot`: distributions of a games.csv column as an SVG line chart, one line per run.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mancala_lab::histogram;
use plotters::prelude::*;

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
    runs: Vec<String>,
}

/// Streams the values of column `name` of the CSV file `file` (named `path` in errors) to `each`.
fn each_value(
    file: &std::path::Path,
    path: &str,
    name: &str,
    each: impl FnMut(u32),
) -> Result<u64, String> {
    let f = std::fs::File::open(file).map_err(|e| format!("{path}: {e}"))?;
    histogram::each_value(f, path, name, each).map_err(|e| e.to_string())
}

/// A copy of standard input or of a pipe in a temporary file, removed when dropped: the runs are
/// read twice (range, then bins) without keeping their values in memory.
struct Spool(std::path::PathBuf);

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A file holding the run at `path` ('-': standard input) that can be read twice: a regular file
/// as it is, anything else copied to a temporary file first.
fn readable_twice(path: &str, k: usize) -> Result<(std::path::PathBuf, Option<Spool>), String> {
    let regular = path != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if regular {
        return Ok((path.into(), None));
    }
    let spool = Spool(
        std::env::temp_dir().join(format!("mancala-lab-plot-{}-{k}.csv", std::process::id())),
    );
    let mut out =
        std::fs::File::create(&spool.0).map_err(|e| format!("{}: {e}", spool.0.display()))?;
    let copied = if path == "-" {
        std::io::copy(&mut std::io::stdin().lock(), &mut out)
    } else {
        let mut input = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        std::io::copy(&mut input, &mut out)
    };
    copied.map_err(|e| format!("{path}: {e}"))?;
    Ok((spool.0.clone(), Some(spool)))
}

pub fn run(args: PlotArgs) -> Result<ExitCode, String> {
    let mut runs = Vec::new();
    for run in &args.runs {
        let (name, path) = run
            .split_once('=')
            .ok_or(format!("'{run}': expected NAME=PATH"))?;
        runs.push((name, path));
    }
    if runs.iter().filter(|(_, p)| *p == "-").count() > 1 {
        return Err("standard input ('-') can feed one run only".into());
    }
    let out_file = std::fs::canonicalize(&args.out).ok();
    for &(_, path) in &runs {
        if out_file.is_some() && std::fs::canonicalize(path).ok() == out_file {
            return Err(format!(
                "--out {}: that is the input {path}; write the plot elsewhere",
                args.out.display()
            ));
        }
    }
    // Each run is read twice (range, then bins), so the memory does not grow with its length.
    let mut files = Vec::new();
    for (k, &(_, path)) in runs.iter().enumerate() {
        files.push(readable_twice(path, k)?);
    }
    let mut max = 0u32;
    for (&(_, path), (file, _)) in runs.iter().zip(&files) {
        let n = each_value(file, path, &args.column, |v| max = max.max(v))?;
        if n == 0 {
            return Err(format!("{path}: no games"));
        }
    }
    let (bin, bins) = histogram::bins(max, args.bin, &args.column).map_err(|e| e.to_string())?;
    let mut series: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for (&(name, path), (file, _)) in runs.iter().zip(&files) {
        let mut counts = vec![0u64; bins as usize];
        let n = each_value(file, path, &args.column, |v| {
            // A file changed between the two reads is caught, not indexed out of range.
            if let Some(c) = counts.get_mut((v / bin) as usize) {
                *c += 1;
            }
        })?;
        let share = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u32 * bin, c as f64 / n as f64))
            .collect();
        series.push((name.to_string(), share));
    }
    let x_max = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|p| p.0))
        .max()
        .unwrap_or(0)
        + bin;
    let y_max = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|p| p.1))
        .fold(0.0, f64::max)
        * 1.1;
    let to_stdout = args.out.as_os_str() == "-";
    let mut svg = String::new();
    {
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", args.out.display());
        let root = if to_stdout {
            SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area()
        } else {
            SVGBackend::new(&args.out, (800, 480)).into_drawing_area()
        };
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
            .build_cartesian_2d(0u32..x_max, 0f64..y_max.max(0.01))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(format!("{} (bins of {bin})", args.column))
            .y_desc("share of games")
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|&(x, y)| (x + bin / 2, y)),
                    color.stroke_width(2),
                ))
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
    if to_stdout {
        print!("{svg}");
    } else {
        println!("wrote {}", args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}
