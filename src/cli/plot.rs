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

/// Streams the values of column `name` of the CSV at `path` ('-': standard input) to `each`.
fn each_value(path: &str, name: &str, each: impl FnMut(u32)) -> Result<u64, String> {
    if path == "-" {
        histogram::each_value(std::io::stdin().lock(), path, name, each).map_err(|e| e.to_string())
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        histogram::each_value(file, path, name, each).map_err(|e| e.to_string())
    }
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
    // Standard input is read once, into memory; files are read twice (range, then bins), so the
    // memory does not grow with their length.
    let mut stdin_values = Vec::new();
    let mut max = 0u32;
    for &(_, path) in &runs {
        let n = if path == "-" {
            each_value(path, &args.column, |v| stdin_values.push(v))?
        } else {
            each_value(path, &args.column, |v| max = max.max(v))?
        };
        if n == 0 {
            return Err(format!("{path}: no games"));
        }
    }
    max = stdin_values.iter().copied().fold(max, u32::max);
    let (bin, bins) = histogram::bins(max, args.bin, &args.column).map_err(|e| e.to_string())?;
    let mut series: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for &(name, path) in &runs {
        let mut counts = vec![0u64; bins as usize];
        let n = if path == "-" {
            for &v in &stdin_values {
                counts[(v / bin) as usize] += 1;
            }
            stdin_values.len() as u64
        } else {
            each_value(path, &args.column, |v| {
                // A file changed between the two reads is caught, not indexed out of range.
                if let Some(c) = counts.get_mut((v / bin) as usize) {
                    *c += 1;
                }
            })?
        };
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
