//! The data side of `plot`: reading one numeric column of a CSV file as a stream, and choosing
//! bin widths that keep a histogram drawable whatever the values.

use std::io::Read;

/// Most bins a chart draws.
pub const MAX_BINS: u64 = 10_000;

/// Streams the values of column `name` of the CSV read from `input` (named `label` in errors) to
/// `each`; returns how many rows there were.
pub fn each_value(
    input: impl Read,
    label: &str,
    name: &str,
    mut each: impl FnMut(u32),
) -> Result<u64, String> {
    let mut r = csv::Reader::from_reader(std::io::BufReader::new(input));
    let headers = r.headers().map_err(|e| format!("{label}: {e}"))?.clone();
    let i = headers
        .iter()
        .position(|h| h == name)
        .ok_or(format!("{label}: no column '{name}'"))?;
    let mut rec = csv::StringRecord::new();
    let mut n = 0u64;
    while r
        .read_record(&mut rec)
        .map_err(|e| format!("{label}: row {}: {e}", n + 2))?
    {
        let v = rec.get(i).unwrap_or("");
        each(v.parse().map_err(|_| {
            format!(
                "{label}: row {}: {name} '{v}' is not a whole number below 2^32",
                n + 2
            )
        })?);
        n += 1;
    }
    Ok(n)
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
pub fn bins(max: u32, requested: Option<u32>, column: &str) -> Result<(u32, u64), String> {
    let bin = match requested {
        Some(0) => return Err("--bin 0: a bin is at least 1 wide".into()),
        Some(w) => w,
        None => auto_bin(max),
    };
    let bins = u64::from(max / bin) + 1;
    if bins > MAX_BINS {
        return Err(format!(
            "--bin {bin}: values of {column} up to {max} would need {bins} bins, at most \
             {MAX_BINS} can be drawn; use --bin {} or more",
            max / (MAX_BINS as u32 - 1) + 1
        ));
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
}
