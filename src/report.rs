//! The coverage report as HTML pages: the spec with each clause coloured by its status, linked to
//! the lines that implement it and the tests that cite it, with its mutants and how often it fired.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::coverage::{
    AnnotationType, ClauseCoverage, ClauseKind, Report, Scan, SourceFile, Status,
};

/// How far a clause has got, from nothing to mutation-checked: the colour of its entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Not a normative clause.
    NotNormative,
    /// Missing an implementation, a test or both (todos included).
    Todo,
    /// Excused by an exception with its reason.
    Excused,
    /// Implemented and tested.
    Tested,
    /// Implemented and tested, and every viable mutant of its code caught or excused.
    MutationChecked,
}

impl Level {
    /// The level of one clause.
    pub fn of(c: &ClauseCoverage) -> Level {
        match c.status() {
            Status::NotNormative => Level::NotNormative,
            Status::Excepted => Level::Excused,
            Status::Covered => match &c.mutants {
                Some(t) if t.viable() > 0 && t.missed.is_empty() => Level::MutationChecked,
                _ => Level::Tested,
            },
            _ => Level::Todo,
        }
    }

    /// Its CSS class and legend text.
    fn name(self) -> (&'static str, &'static str) {
        match self {
            Level::NotNormative => ("na", "not normative"),
            Level::Todo => ("todo", "todo: implementation or test missing"),
            Level::Excused => ("excused", "excused, with its reason"),
            Level::Tested => ("tested", "implemented and tested"),
            Level::MutationChecked => (
                "mutants",
                "implemented, tested and mutation-checked (every viable mutant caught or excused)",
            ),
        }
    }
}

/// `text` with `&`, `<`, `>` and `"` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The page of a source file under `source/`, as the report links it.
pub fn source_href(file: &str) -> String {
    format!("source/{file}.html")
}

/// A link to line `line` of `file`, shown as `file:line`.
fn line_link(file: &str, line: usize) -> String {
    format!(
        "<a href=\"{}#L{line}\">{}:{line}</a>",
        escape(&source_href(file)),
        escape(file)
    )
}

/// A `file:line` location as a link.
fn location_link(at: &str) -> String {
    match at
        .rsplit_once(':')
        .and_then(|(f, l)| Some((f, l.parse().ok()?)))
    {
        Some((file, line)) => line_link(file, line),
        None => escape(at),
    }
}

/// A spec entry's lines (after its heading, up to the next heading) as HTML: `- ` lines as list
/// items (with their continuation lines), `|` lines as a table, `code` in backticks.
fn entry_html(lines: &[&str]) -> String {
    let inline = |t: &str| {
        let mut out = String::new();
        for (i, part) in t.split('`').enumerate() {
            if i % 2 == 1 {
                let _ = write!(out, "<code>{}</code>", escape(part));
            } else {
                out.push_str(&escape(part));
            }
        }
        out
    };
    enum Block {
        Items(Vec<String>),
        Table(Vec<Vec<String>>),
    }
    let mut blocks: Vec<Block> = Vec::new();
    for l in lines {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(row) = t.strip_prefix('|') {
            let cells: Vec<String> = row
                .trim_end_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect();
            // The line under the header row.
            if cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                continue;
            }
            let cells = cells.iter().map(|c| inline(c)).collect();
            match blocks.last_mut() {
                Some(Block::Table(rows)) => rows.push(cells),
                _ => blocks.push(Block::Table(vec![cells])),
            }
            continue;
        }
        match (t.strip_prefix("- "), blocks.last_mut()) {
            (Some(item), Some(Block::Items(items))) => items.push(inline(item)),
            (Some(item), _) => blocks.push(Block::Items(vec![inline(item)])),
            // A continuation line of the item above.
            (None, Some(Block::Items(items))) if !items.is_empty() => {
                let last = items.last_mut().expect("not empty");
                last.push(' ');
                last.push_str(&inline(t));
            }
            (None, _) => blocks.push(Block::Items(vec![inline(t)])),
        }
    }
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Items(items) => {
                out.push_str("<ul>");
                for i in items {
                    let _ = write!(out, "<li>{i}</li>");
                }
                out.push_str("</ul>");
            }
            Block::Table(rows) => {
                out.push_str("<table>");
                for (r, row) in rows.iter().enumerate() {
                    let cell = if r == 0 { "th" } else { "td" };
                    out.push_str("<tr>");
                    for c in row {
                        let _ = write!(out, "<{cell}>{c}</{cell}>");
                    }
                    out.push_str("</tr>");
                }
                out.push_str("</table>");
            }
        }
    }
    out
}

/// The entry text of each clause heading of `spec` (the lines up to the next heading), by id.
fn entries<'a>(game: &str, spec: &'a str) -> Vec<(String, Vec<&'a str>)> {
    let mut out: Vec<(String, Vec<&'a str>)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in spec.lines() {
        let t = line.trim();
        if t.starts_with('#') {
            let rest = t.trim_start_matches('#').trim();
            let mut words = rest.splitn(3, ' ');
            current = match (words.next(), words.next()) {
                (Some(g), Some(id)) if g == game => {
                    out.push((id.to_string(), Vec::new()));
                    Some(out.len() - 1)
                }
                _ => None,
            };
            continue;
        }
        if let Some(i) = current {
            out[i].1.push(line);
        }
    }
    out
}

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;\
color:#222}section{border-left:.5em solid #ccc;padding:.2em .8em;margin:.6em 0;\
background:#fafafa}.todo{border-color:#c0392b}section.todo{background:#fdecea}.excused{\
border-color:#2471a3}.tested{border-color:#58d68d}.mutants{border-color:#1e8449}.na{\
border-color:#ddd}section.na{color:#666}table{border-collapse:collapse;font-size:.85em;margin:\
.3em 0 .3em 2.5em}td,th{border:1px solid #ccc;padding:.1em .4em;text-align:left}h2,h3{margin:.3em 0;font-size:1.05em}.status{font-size:\
.85em;font-weight:normal;color:#555}.facts{font-size:.9em}.missed{color:#c0392b}code{\
background:#eee;padding:0 .2em}.legend span{display:inline-block;padding:.1em .5em;margin:.1em;\
border-left-width:.5em;border-left-style:solid}pre{margin:0;font-size:.85em}pre a{color:#999;text-decoration:none;\
display:inline-block;width:4em;text-align:right;margin-right:1em}";

/// The report page of one game: the spec (`spec`, its Markdown) with each clause coloured by
/// its level and linked to its implementing lines and citing tests (pages under `source/`, see
/// [`source_page`]); `scan` is the game's annotations.
pub fn game_page(report: &Report, scan: &Scan, spec: &str) -> String {
    let game = &report.game;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0} clause \
         coverage</title><style>{STYLE}</style></head><body>\n<h1>{0}: clause coverage</h1>\n\
         <p>{1}</p>\n<p class=\"legend\">",
        escape(game),
        escape(&report.summary_line())
    );
    for level in [
        Level::MutationChecked,
        Level::Tested,
        Level::Excused,
        Level::Todo,
        Level::NotNormative,
    ] {
        let (class, text) = level.name();
        let _ = write!(out, "<span class=\"{class}\">{text}</span>");
    }
    out.push_str("</p>\n");
    let texts = entries(game, spec);
    for c in &report.clauses {
        let level = Level::of(c);
        let (class, _) = level.name();
        let id = &c.clause.id;
        let heading = if c.clause.kind == ClauseKind::Heading {
            "h2"
        } else {
            "h3"
        };
        let _ = write!(
            out,
            "<section class=\"{class}\" id=\"c{0}\"><{heading}>{game} {0} — {1} <span \
             class=\"status\">[{2}] {3}</span></{heading}>",
            escape(id),
            escape(&c.clause.title),
            c.clause.kind.name(),
            escape(c.status().name())
        );
        if let Some((_, lines)) = texts.iter().find(|(i, _)| i == id) {
            out.push_str(&entry_html(lines));
        }
        out.push_str(&facts(c, scan));
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// The facts of one clause: where it is implemented, the tests citing it, exceptions, todos,
/// its mutants and how often it fired.
fn facts(c: &ClauseCoverage, scan: &Scan) -> String {
    let mut out = String::from("<div class=\"facts\">");
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "none".to_string()
        } else {
            items.join(", ")
        }
    };
    if !c.implemented_at.is_empty() || c.clause.kind == ClauseKind::Normative {
        let at: Vec<String> = c.implemented_at.iter().map(|a| location_link(a)).collect();
        let _ = write!(out, "<div>implemented at: {}</div>", list(at));
        let tests: Vec<String> = scan
            .annotations
            .iter()
            .filter(|a| a.kind == AnnotationType::Test && a.id == c.clause.id)
            .map(|a| {
                format!(
                    "{} ({})",
                    escape(a.test().unwrap_or("?")),
                    line_link(&a.file, a.line)
                )
            })
            .collect();
        let _ = write!(out, "<div>tested by: {}</div>", list(tests));
    }
    for e in &c.exceptions {
        let _ = write!(out, "<div>excused: {}</div>", exception_html(e));
    }
    for t in &c.todos {
        let _ = write!(out, "<div>todo at {}</div>", location_link(t));
    }
    if let Some(t) = c.mutants.as_ref().filter(|t| t.total() > 0) {
        let _ = write!(out, "<div>{}</div>", escape(&t.line()));
        for (m, why) in &t.excused {
            let _ = write!(
                out,
                "<div>excused mutant: {} ({})</div>",
                escape(m),
                escape(why)
            );
        }
        for m in &t.missed {
            let _ = write!(
                out,
                "<div class=\"missed\">missed mutant: {}</div>",
                escape(m)
            );
        }
    }
    if let Some(n) = c.fired {
        let _ = write!(
            out,
            "<div>fired in random play: {}</div>",
            escape(&n.to_string())
        );
    }
    out.push_str("</div>");
    out
}

/// An exception as the report holds it (`file:line reason`), its place linked.
fn exception_html(e: &str) -> String {
    match e.split_once(' ') {
        Some((at, reason)) => format!("{} ({})", escape(reason), location_link(at)),
        None => location_link(e),
    }
}

/// The files a report page links to.
pub fn linked_files(report: &Report, scan: &Scan) -> BTreeSet<String> {
    let mut files = BTreeSet::new();
    let ids: BTreeSet<&str> = report
        .clauses
        .iter()
        .map(|c| c.clause.id.as_str())
        .collect();
    for a in &scan.annotations {
        if ids.contains(a.id.as_str()) {
            files.insert(a.file.clone());
        }
    }
    files
}

/// Whether `text` is a page of a coverage report ([`game_page`] or [`source_page`]): what a
/// report may replace.
pub fn is_report_page(text: &str) -> bool {
    text.starts_with("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        && text.contains(&format!("<style>{STYLE}</style>"))
}

/// A source file as a page with an anchor per line (`#L12`).
pub fn source_page(file: &SourceFile) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title>\
         <style>{STYLE}</style></head><body>\n<h1>{0}</h1>\n<pre>",
        escape(&file.path)
    );
    for (i, line) in file.text.lines().enumerate() {
        let n = i + 1;
        let _ = writeln!(out, "<a id=\"L{n}\" href=\"#L{n}\">{n}</a>{}", escape(line));
    }
    out.push_str("</pre></body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::{parse_spec, scan_annotations, AnnotationType};

    const SPEC: &str = "## bao 1 — General\n- kind: heading\n### bao 1.1 — Rule\n- kind: \
        normative\n- The `A` row <first>.\n  continued\n### bao 1.2 — Other\n- kind: normative\n";

    #[test]
    fn clauses_are_coloured_and_linked() {
        let spec = parse_spec("bao", SPEC).unwrap();
        let mut scan = scan_annotations(
            "bao",
            "src/x.rs",
            "fn f() {\n    // spec: bao 1.1\n}\n",
            AnnotationType::Implementation,
        );
        scan.extend(scan_annotations(
            "bao",
            "tests/t.rs",
            "#[test]\n// spec: bao 1.1\nfn t() {}\n",
            AnnotationType::Test,
        ));
        let report = Report::build("bao", &spec, &scan, None);
        let page = game_page(&report, &scan, SPEC);
        assert!(
            page.contains("<section class=\"tested\" id=\"c1.1\">"),
            "{page}"
        );
        assert!(
            page.contains("<section class=\"todo\" id=\"c1.2\">"),
            "{page}"
        );
        assert!(page.contains("<a href=\"source/src/x.rs.html#L2\">src/x.rs:2</a>"));
        assert!(page.contains("t (<a href=\"source/tests/t.rs.html#L2\">tests/t.rs:2</a>)"));
        // The entry's text, escaped, with its continuation line.
        assert!(
            page.contains("The <code>A</code> row &lt;first&gt;. continued"),
            "{page}"
        );
        let files: Vec<String> = linked_files(&report, &scan).into_iter().collect();
        assert_eq!(files, ["src/x.rs", "tests/t.rs"]);
        let src = source_page(&SourceFile {
            path: "src/x.rs".into(),
            text: "fn f() {\n    a < b\n}\n".into(),
            default_type: AnnotationType::Implementation,
        });
        assert!(
            src.contains("<a id=\"L2\" href=\"#L2\">2</a>    a &lt; b\n"),
            "{src}"
        );
    }
}
