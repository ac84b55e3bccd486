//! `mancala-lab plot`: distributions of a games.csv column as an SVG line chart, one line per run.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use plotters::prelude::*;

#[derive(Args)]
pub struct PlotArgs {
    /// The numeric column of games.csv to plot (e.g. plies, mtaji_plies, longest_move_seeds).
    #[arg(long, default_value = "plies")]
    column: String,
    /// Width of a histogram bin.
    #[arg(long, default_value_t = 5)]
    bin: u32,
    /// The SVG file to write.
    #[arg(long)]
    out: PathBuf,
    /// Chart title.
    #[arg(long, default_value = "")]
    title: String,
    /// Runs to compare, each NAME=PATH/TO/games.csv.
    #[arg(required = true)]
    runs: Vec<String>,
}

fn column(path: &str, name: &str) -> Result<Vec<u32>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{path}: {e}"))?;
    let headers = r.headers().map_err(|e| format!("{path}: {e}"))?.clone();
    let i = headers
        .iter()
        .position(|h| h == name)
        .ok_or(format!("{path}: no column '{name}'"))?;
    let mut out = Vec::new();
    for (n, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| format!("{path}: row {}: {e}", n + 2))?;
        out.push(
            rec[i]
                .parse()
                .map_err(|e| format!("{path}: row {}: {name}: {e}", n + 2))?,
        );
    }
    Ok(out)
}

pub fn run(args: PlotArgs) -> Result<ExitCode, String> {
    let bin = args.bin.max(1);
    let mut series: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for run in &args.runs {
        let (name, path) = run
            .split_once('=')
            .ok_or(format!("'{run}': expected NAME=PATH"))?;
        let values = column(path, &args.column)?;
        if values.is_empty() {
            return Err(format!("{path}: no games"));
        }
        let max = *values.iter().max().expect("non-empty");
        let mut counts = vec![0u32; (max / bin + 1) as usize];
        for v in &values {
            counts[(v / bin) as usize] += 1;
        }
        let share = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u32 * bin, f64::from(c) / values.len() as f64))
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
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", args.out.display());
    let root = SVGBackend::new(&args.out, (800, 480)).into_drawing_area();
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
    println!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
