//! The fuzz targets' checks under `cargo test`: on the committed seed corpus (fuzz/seeds), on every
//! kept fuzz regression (tests/fuzz_regressions), and on seeded random inputs.

use std::path::Path;

use mancala_lab::bao::checks::{
    bao_playout_invariants, bao_position_invariants, bao_reference_vs_optimized,
};
use mancala_lab::checks::{
    csv_column, notation_roundtrip, position_parse, study_files, transcript_parse,
};
use mancala_lab::kalah::checks::{kalah_playout_invariants, kalah_reference_vs_optimized};
use mancala_lab::oware::checks::{
    oware_batch_vs_scalar, oware_playout_invariants, oware_position_invariants,
    oware_reference_vs_optimized,
};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Check = fn(&[u8]) -> Result<(), String>;

fn text(f: fn(&str) -> Result<(), String>, data: &[u8]) -> Result<(), String> {
    f(&String::from_utf8_lossy(data))
}

const TARGETS: [(&str, Check); 14] = [
    ("bao_playout_invariants", bao_playout_invariants),
    ("oware_playout_invariants", oware_playout_invariants),
    ("kalah_playout_invariants", kalah_playout_invariants),
    ("bao_reference_vs_optimized", bao_reference_vs_optimized),
    ("oware_reference_vs_optimized", oware_reference_vs_optimized),
    ("kalah_reference_vs_optimized", kalah_reference_vs_optimized),
    ("bao_position_invariants", bao_position_invariants),
    ("oware_position_invariants", oware_position_invariants),
    ("oware_batch_vs_scalar", oware_batch_vs_scalar),
    ("notation_roundtrip", |d| text(notation_roundtrip, d)),
    ("transcript_parse", |d| text(transcript_parse, d)),
    ("position_parse", |d| text(position_parse, d)),
    ("study_files", study_files),
    ("csv_column", csv_column),
];

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn seed_corpus_and_kept_regressions_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for (name, check) in TARGETS {
        for dir in [
            root.join("fuzz/seeds").join(name),
            root.join("tests/fuzz_regressions").join(name),
        ] {
            for path in files(&dir) {
                let data = std::fs::read(&path).unwrap();
                if let Err(e) = check(&data) {
                    panic!("{}: {e}", path.display());
                }
                count += 1;
            }
        }
    }
    assert!(count >= 20, "{count}");
}

#[test]
fn seeded_random_inputs_pass() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for (name, check) in TARGETS {
        for i in 0..40 {
            let mut data = vec![0u8; rng.gen_range(0..600)];
            rng.fill_bytes(&mut data);
            if name.ends_with("parse") || name.starts_with("notation") {
                // Text targets: mostly printable characters of the formats.
                let alphabet = b"AaBbCcDdEeFf12345678<>+*:; .#\n-0123456789to_movescrhuwdlknp";
                for b in &mut data {
                    *b = alphabet[usize::from(*b) % alphabet.len()];
                }
            }
            if let Err(e) = check(&data) {
                panic!("{name} input {i}: {e}");
            }
        }
    }
}

#[test]
fn study_seed_folders_verify_or_not_as_named() {
    use mancala_lab::study::{
        read_manifest_unsealed as read_manifest, verify_rows, GAMES, MANIFEST,
    };
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/study_files");
    for path in files(&seeds) {
        let data = std::fs::read(&path).unwrap();
        let split = data.iter().position(|&b| b == 0).unwrap();
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "mancala-lab-seed-{}-{}",
            std::process::id(),
            path.file_name().unwrap().to_string_lossy()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(MANIFEST), &data[..split]).unwrap();
        std::fs::write(dir.join(GAMES), &data[split + 1..]).unwrap();
        let m = read_manifest(&dir).unwrap();
        let verified = verify_rows(&dir, &m, |_| Ok(()));
        let valid = path.to_string_lossy().ends_with("-valid");
        assert_eq!(verified.is_ok(), valid, "{}", path.display());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
