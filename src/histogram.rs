//! The data side of `plot`: reading one numeric column of a CSV file as a stream, and choosing
//! bin widths that keep a histogram drawable whatever the values.

use std::io::Read;

use crate::field::{Field, FieldNames, Names};

/// Most bins a chart draws.
pub const MAX_BINS: u64 = 10_000;

/// Most bytes one line of the CSV may hold (a games.csv line holds about 100): a longer one is
/// refused as soon as it is seen, so a file without line breaks (`/dev/zero`) neither fills
/// memory nor is read to its end.
pub const MAX_LINE: u64 = 64 << 10;

/// Why a column could not be read or drawn.
#[derive(Debug, thiserror::Error)]
pub enum HistogramError {
    /// The header line could not be read.
    #[error("{label}: {source}")]
    Header {
        /// The input's name.
        label: String,
        /// What the CSV reader found.
        source: csv::Error,
    },
    /// An empty input: not even a header line.
    #[error("{label}: empty, not even a header line (a games.csv of mancala-lab stats)")]
    Empty {
        /// The input's name.
        label: String,
    },
    /// No column of that name.
    #[error("{label}: no column {}", crate::text::quoted(.name))]
    NoColumn {
        /// The input's name.
        label: String,
        /// The column asked for.
        name: String,
    },
    /// Two columns of that name: which one is meant cannot be told.
    #[error("{label}: two columns named {}; name each column once", crate::text::quoted(.name))]
    TwoColumns {
        /// The input's name.
        label: String,
        /// The column asked for.
        name: String,
    },
    /// A row could not be read.
    #[error("{label}: line {line}: {what}")]
    Row {
        /// The input's name.
        label: String,
        /// The line (the header is line 1).
        line: u64,
        /// What is wrong with it.
        what: String,
    },
    /// A line longer than [`MAX_LINE`] bytes.
    #[error(
        "{label}: line {line}: more than {} KiB without a line break; not a CSV of games",
        MAX_LINE >> 10
    )]
    LineTooLong {
        /// The input's name.
        label: String,
        /// The line (the header is line 1).
        line: u64,
    },
    /// A quoted field that runs on past the end of its line (games.csv fields never do; such a
    /// field could grow without bound).
    #[error(
        "{label}: line {line}: a quoted field runs past the end of its line; not a CSV of games"
    )]
    QuoteAcrossLines {
        /// The input's name.
        label: String,
        /// The line (the header is line 1).
        line: u64,
    },
    /// A value that is not a `u32`.
    #[error(
        "{label}: line {line}: {name} {} is not a whole number below 2^32",
        crate::text::quoted(value)
    )]
    NotANumber {
        /// The input's name.
        label: String,
        /// The line (the header is line 1).
        line: u64,
        /// The column.
        name: String,
        /// The value found.
        value: String,
    },
    /// A bin width of 0.
    #[error("{}", self.message(&FieldNames))]
    ZeroBin,
    /// More than [`MAX_BINS`] bins.
    #[error("{}", self.message(&FieldNames))]
    TooManyBins {
        /// The bin width.
        bin: u32,
        /// The column.
        column: String,
        /// The largest value.
        max: u32,
        /// The bins it would need.
        bins: u64,
    },
}

impl HistogramError {
    /// The message, the bin width named by `n` (the command line: `--bin`).
    pub fn message(&self, n: &dyn Names) -> String {
        let bin_field = n.field(Field::Bin);
        match self {
            HistogramError::ZeroBin => format!("{bin_field} 0: a bin is at least 1 wide"),
            HistogramError::TooManyBins {
                bin,
                column,
                max,
                bins,
            } => format!(
                "{bin_field} {bin}: values of {column} up to {max} would need {bins} bins, at \
                 most {MAX_BINS} can be drawn; use {bin_field} {} or more",
                max / MAX_BINS as u32 + 1
            ),
            other => other.to_string(),
        }
    }
}

/// Streams the values of column `name` of the CSV read from `input` (named `label` in errors) to
/// `each`; returns how many rows there were.
pub fn each_value(
    input: impl Read,
    label: &str,
    name: &str,
    mut each: impl FnMut(u32),
) -> Result<u64, HistogramError> {
    let mut guard = LineGuard {
        input,
        run: 0,
        lines: 1,
        after_cr: false,
        quoted: false,
        refused: None,
    };
    let mut r = csv::Reader::from_reader(&mut guard);
    let headers = match r.headers() {
        Ok(h) => h.clone(),
        Err(source) => {
            drop(r);
            return Err(guard.error(label).unwrap_or(HistogramError::Header {
                label: label.into(),
                source,
            }));
        }
    };
    if headers.is_empty() {
        return Err(HistogramError::Empty {
            label: label.into(),
        });
    }
    let i = headers
        .iter()
        .position(|h| h == name)
        .ok_or_else(|| HistogramError::NoColumn {
            label: label.into(),
            name: name.to_string(),
        })?;
    if headers.iter().filter(|h| *h == name).count() > 1 {
        return Err(HistogramError::TwoColumns {
            label: label.into(),
            name: name.to_string(),
        });
    }
    let mut rec = csv::StringRecord::new();
    let mut n = 0u64;
    loop {
        match r.read_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(source) => {
                drop(r);
                // The line the reader names, in words of our own.
                let line = source.position().map_or(n + 2, |p| p.line());
                let what = match source.kind() {
                    csv::ErrorKind::UnequalLengths {
                        len, expected_len, ..
                    } => {
                        format!("{len} fields where the header has {expected_len}")
                    }
                    csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
                    _ => source.to_string(),
                };
                return Err(guard.error(label).unwrap_or(HistogramError::Row {
                    label: label.into(),
                    line,
                    what,
                }));
            }
        }
        let v = rec.get(i).unwrap_or("");
        let line = rec.position().map_or(n + 2, |p| p.line());
        each(v.parse().map_err(|_| HistogramError::NotANumber {
            label: label.into(),
            line,
            name: name.to_string(),
            value: v.to_string(),
        })?);
        n += 1;
    }
    Ok(n)
}

/// Why a [`LineGuard`] stopped its input.
#[derive(Clone, Copy)]
enum Refused {
    TooLong,
    QuoteAcrossLines,
}

/// `input`, failing once a line runs past [`MAX_LINE`] bytes or a quoted field past the end of
/// its line: either way a record stays under [`MAX_LINE`] bytes.
struct LineGuard<R> {
    input: R,
    /// Bytes since the last line break.
    run: u64,
    /// The line being read (the first is 1); a line ends at `\n`, `\r` or `\r\n`.
    lines: u64,
    /// The last byte was `\r` (a `\n` after it ends no other line).
    after_cr: bool,
    /// Inside a quoted field (an odd number of quotes since the last line break).
    quoted: bool,
    refused: Option<Refused>,
}

impl<R> LineGuard<R> {
    /// The error of the input it stopped, at the line it stopped on (the CSV reader reads ahead,
    /// so its record count may lag behind).
    fn error(&self, label: &str) -> Option<HistogramError> {
        let (label, line) = (label.into(), self.lines);
        self.refused.map(|r| match r {
            Refused::TooLong => HistogramError::LineTooLong { label, line },
            Refused::QuoteAcrossLines => HistogramError::QuoteAcrossLines { label, line },
        })
    }
}

impl<R: Read> Read for LineGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(buf)?;
        if n == 0 && self.quoted && !buf.is_empty() {
            // The end of the input inside a quoted field: as a quote run past its line.
            self.refused = Some(Refused::QuoteAcrossLines);
            return Err(std::io::Error::other("quoted field left open"));
        }
        for &b in &buf[..n] {
            let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
            match b {
                b'\n' | b'\r' if self.quoted => {
                    self.refused = Some(Refused::QuoteAcrossLines);
                    return Err(std::io::Error::other("quoted field across lines"));
                }
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    self.run = 0;
                    self.lines += 1;
                }
                b'"' => {
                    self.quoted = !self.quoted;
                    self.run += 1;
                }
                _ => self.run += 1,
            }
            if self.run > MAX_LINE {
                self.refused = Some(Refused::TooLong);
                return Err(std::io::Error::other("line too long"));
            }
        }
        Ok(n)
    }
}

/// The default bin width for values up to `max`: 1, 2, 5, 10, 20, 50, ... giving at most 200 bins.
pub fn auto_bin(max: u32) -> u32 {
    let mut width = 1u64;
    let mut k = 0;
    while u64::from(max) / width >= 200 {
        width = [2, 5, 10][k % 3] * 10u64.pow((k / 3) as u32);
        k += 1;
    }
    width as u32
}

/// The bin width (`requested`, or [`auto_bin`]) and the number of bins for values up to `max`
/// of `column`; an error when the chart would need more than [`MAX_BINS`] bins or a width of 0.
pub fn bins(max: u32, requested: Option<u32>, column: &str) -> Result<(u32, u64), HistogramError> {
    let bin = match requested {
        Some(0) => return Err(HistogramError::ZeroBin),
        Some(w) => w,
        None => auto_bin(max),
    };
    let bins = u64::from(max / bin) + 1;
    if bins > MAX_BINS {
        return Err(HistogramError::TooManyBins {
            bin,
            column: column.to_string(),
            max,
            bins,
        });
    }
    Ok((bin, bins))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_widths_keep_at_most_200_bins() {
        for max in [0, 1, 199, 200, 999, 1000, 123_456, u32::MAX] {
            let (bin, bins) = bins(max, None, "plies").unwrap();
            assert!(bins <= 200, "{max}: width {bin}, {bins} bins");
        }
        assert_eq!(auto_bin(300), 2);
        assert!(bins(u32::MAX, Some(1), "plies").is_err());
        assert!(bins(5, Some(0), "plies").is_err());
    }

    #[test]
    fn a_column_named_twice_is_refused() {
        let e =
            each_value("plies,plies\n5,100\n".as_bytes(), "c.csv", "plies", |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.csv: two columns named 'plies'; name each column once"
        );
        // Another column named twice is no matter.
        assert_eq!(
            each_value("x,x,plies\n1,2,3\n".as_bytes(), "c.csv", "plies", |_| {}).unwrap(),
            1
        );
    }

    #[test]
    fn a_line_longer_than_the_limit_is_refused_where_it_is() {
        let long = "9".repeat(MAX_LINE as usize + 1);
        let e = each_value(long.as_bytes(), "a.csv", "plies", |_| {}).unwrap_err();
        assert!(
            matches!(e, HistogramError::LineTooLong { line: 1, .. }),
            "{e}"
        );
        let text = format!("game,plies\r\n0,1\r\n1,{long}\r\n");
        let e = each_value(text.as_bytes(), "a.csv", "plies", |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.csv: line 3: more than 64 KiB without a line break; not a CSV of games"
        );
        // A line of exactly the limit is read, whatever the size of the reads.
        let fits = format!("game,plies\n0,{}\n", "0".repeat(MAX_LINE as usize - 2));
        let mut values = Vec::new();
        let one_byte_reads = std::io::BufReader::with_capacity(1, fits.as_bytes());
        assert_eq!(
            each_value(one_byte_reads, "a.csv", "plies", |v| values.push(v)).unwrap(),
            1
        );
        assert_eq!(values, [0]);
        // An endless input without line breaks stops at the limit.
        let e = each_value(std::io::repeat(0), "zero", "plies", |_| {}).unwrap_err();
        assert!(matches!(e, HistogramError::LineTooLong { .. }), "{e}");
    }

    #[test]
    fn a_quoted_field_is_read_within_its_line_only() {
        // The policy column quoted, as games.csv writes a policy whose settings hold a comma.
        let text = "game,policy,plies\n0,\"mcts:sims=9,c=1.5\",40\n1,\"a \"\"b\"\"\",41\n";
        let mut values = Vec::new();
        each_value(text.as_bytes(), "a.csv", "plies", |v| values.push(v)).unwrap();
        assert_eq!(values, [40, 41]);
        // A quote left open across lines would make a record of any size.
        let text = "game,policy,plies\n0,\"random,40\n1,x\",41\n";
        let e = each_value(text.as_bytes(), "a.csv", "plies", |_| {}).unwrap_err();
        assert!(
            matches!(e, HistogramError::QuoteAcrossLines { line: 2, .. }),
            "{e}"
        );
        // A quote left open at the end of the input, with or without a last line break.
        for text in ["game,plies\n1,\"5", "game,plies\n1,\"5\n"] {
            let e = each_value(text.as_bytes(), "a.csv", "plies", |_| {}).unwrap_err();
            assert!(
                matches!(e, HistogramError::QuoteAcrossLines { line: 2, .. }),
                "{e}"
            );
        }
        // The line the quote opens on, however far the reader has read ahead of its records, and
        // whichever line breaks the file uses.
        for eol in ["\n", "\r\n", "\r"] {
            let mut text = format!("game,policy,plies{eol}");
            for g in 0..5000 {
                text += &format!("{g},random,40{eol}");
            }
            text += &format!("5000,\"random,40{eol}5001,random,40{eol}");
            let e = each_value(text.as_bytes(), "a.csv", "plies", |_| {}).unwrap_err();
            assert!(
                matches!(e, HistogramError::QuoteAcrossLines { line: 5002, .. }),
                "{eol:?}: {e}"
            );
        }
        assert!(
            e.to_string().contains("runs past the end of its line"),
            "{e}"
        );
    }

    /// The messages `plot` shows, word for word as they were when they were strings.
    #[test]
    fn messages() {
        let read = |csv: &str| each_value(csv.as_bytes(), "a.csv", "plies", |_| {}).unwrap_err();
        assert_eq!(
            read("game,seed\n1,2\n").to_string(),
            "a.csv: no column 'plies'"
        );
        assert_eq!(
            read("").to_string(),
            "a.csv: empty, not even a header line (a games.csv of mancala-lab stats)"
        );
        assert_eq!(
            read("game,plies\n1,2\n2,-3\n").to_string(),
            "a.csv: line 3: plies '-3' is not a whole number below 2^32"
        );
        assert_eq!(
            read("game,plies\n1,2\n2\n").to_string(),
            "a.csv: line 3: 1 fields where the header has 2"
        );

        struct Flags;
        impl Names for Flags {
            fn field(&self, field: Field) -> String {
                format!("--{}", field.name())
            }
            fn step(&self, _: crate::field::Step<'_>) -> String {
                String::new()
            }
        }
        assert_eq!(
            bins(5, Some(0), "plies").unwrap_err().to_string(),
            "bin 0: a bin is at least 1 wide"
        );
        assert_eq!(
            bins(5, Some(0), "plies").unwrap_err().message(&Flags),
            "--bin 0: a bin is at least 1 wide"
        );
        assert_eq!(
            bins(u32::MAX, Some(1), "plies")
                .unwrap_err()
                .message(&Flags),
            "--bin 1: values of plies up to 4294967295 would need 4294967296 bins, at most \
             10000 can be drawn; use --bin 429497 or more"
        );
        // The width suggested is the smallest that fits.
        for max in [10_000, 4_000_000_000, u32::MAX] {
            let HistogramError::TooManyBins { .. } = bins(max, Some(1), "plies").unwrap_err()
            else {
                panic!("{max} fits in bins of 1")
            };
            let w = max / MAX_BINS as u32 + 1;
            assert!(bins(max, Some(w), "plies").unwrap().1 <= MAX_BINS);
            assert!(
                bins(max, Some(w - 1), "plies").is_err(),
                "{max}: {w} is not the least"
            );
        }
    }
}
