//! Diagrams written to files: where `diagram`, `explain --svg` and `replay --svg` may write, and
//! the writing itself; the drawing is the library's (`mancala_lab::diagram`).

use mancala_lab::text::shown_path;

/// Refuses an `--svg` beside a trace that cannot take the drawing: `-` (standard output holds
/// the trace) or the `--position` file itself (it would be overwritten).
pub fn svg_beside_trace(
    svg: Option<&std::path::Path>,
    position: &std::path::Path,
) -> Result<(), String> {
    let Some(svg) = svg else { return Ok(()) };
    if svg.as_os_str() == "-" {
        return Err("--svg -: standard output holds the trace; name a file".into());
    }
    not_an_input("--svg", svg, position)
}

/// Writes an SVG to `out` (`-`: standard output); says where it went on standard error.
pub fn write_svg(out: &std::path::Path, svg: &str) -> Result<(), String> {
    if out.as_os_str() == "-" {
        print!("{svg}");
        Ok(())
    } else {
        write_svg_file("--out", out, svg)?;
        eprintln!("wrote {}", shown_path(out));
        Ok(())
    }
}

/// Writes `svg` to the file `out`, given as `option`; the error names the option.
pub fn write_svg_file(option: &str, out: &std::path::Path, svg: &str) -> Result<(), String> {
    super::replaces_only_svg(option, out, "a drawing replaces only an earlier drawing")?;
    mancala_lab::study::write_atomic(out, svg).map_err(|e| format!("{option} {e}"))
}

/// Refuses an output `option` (`--out`, `--svg`) that names the `--position` file itself (it
/// would be overwritten).
pub fn not_an_input(
    option: &str,
    out: &std::path::Path,
    position: &std::path::Path,
) -> Result<(), String> {
    let same = out.as_os_str() != "-" && super::same_file(out, super::input_file(position));
    if same {
        return Err(format!(
            "{option} {}: that is the --position file (or standard input's); write the diagram \
             elsewhere",
            shown_path(out)
        ));
    }
    Ok(())
}
