//! The `// spec:` annotations of a source tree, found with a Rust parser: which functions apply
//! which clause, and which tests check it (the input of the coverage report and of the mutants'
//! mapping to clauses).
//!
//! Annotation form, one per line, alone on its line: `// spec: GAME ID [type=TYPE] [text]`, where
//! TYPE is `implementation` (default in `src/`), `test` (default in `tests/`), `exception` (text is
//! the reason; counts as implemented and tested) or `todo` (recorded, covers nothing). A test
//! annotation sits in its test function or directly above it; one that breaks these rules is an
//! [`AnnotationError`] and fails the gate.

use std::path::{Path, PathBuf};

/// The role of an annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnnotationType {
    /// Code that applies the clause.
    Implementation,
    /// A test that checks the clause.
    Test,
    /// The clause needs no code or test, for the reason given.
    Exception,
    /// Work still to do.
    Todo,
}

impl AnnotationType {
    /// The type named by an annotation's `type=NAME` word.
    fn parse(name: &str) -> Option<AnnotationType> {
        match name {
            "implementation" => Some(AnnotationType::Implementation),
            "test" => Some(AnnotationType::Test),
            "exception" => Some(AnnotationType::Exception),
            "todo" => Some(AnnotationType::Todo),
            _ => None,
        }
    }
}

/// One `// spec:` annotation found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// The clause id cited.
    pub id: String,
    /// Its role.
    pub kind: AnnotationType,
    /// The file, relative to the scanned root.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The function it sits in or stands directly above, if any (for a test: the test).
    pub function: Option<FnSpan>,
    /// The text after the id (for exceptions, the reason).
    pub note: String,
}

impl Annotation {
    /// The test's name, for a test annotation.
    pub fn test(&self) -> Option<&str> {
        (self.kind == AnnotationType::Test)
            .then_some(self.function.as_ref())
            .flatten()
            .map(|f| f.name.as_str())
    }
}

/// An annotation the checker cannot take as written: the coverage gate fails on it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnnotationError {
    /// A `type=` word naming no type (a misspelling would otherwise read as note text).
    #[error(
        "{file}:{line}: unknown annotation type '{word}' (known: type=implementation, \
         type=test, type=exception, type=todo)"
    )]
    UnknownType {
        /// The file.
        file: String,
        /// The line.
        line: usize,
        /// The word found.
        word: String,
    },
    /// Two `type=` words.
    #[error("{file}:{line}: more than one type= in one annotation")]
    TypeTwice {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// `// spec: GAME` with no clause id.
    #[error("{file}:{line}: no clause id after the game")]
    MissingId {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// An exception without its reason.
    #[error("{file}:{line}: an exception needs its reason after type=exception")]
    ExceptionWithoutReason {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// A test annotation neither in a function nor directly above one.
    #[error(
        "{file}:{line}: a test annotation outside a function: put it in the test function or \
         directly above it"
    )]
    TestOutsideFunction {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// A file with annotations that does not parse as Rust, so their functions are unknown.
    #[error("{file}: does not parse as Rust ({message}), so its annotations cannot be placed")]
    NotRust {
        /// The file.
        file: String,
        /// The parser's message.
        message: String,
    },
}

/// The annotations found, and the ones that could not be taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// Annotations taken.
    pub annotations: Vec<Annotation>,
    /// Annotations refused.
    pub errors: Vec<AnnotationError>,
}

impl Scan {
    /// Adds what another file gave.
    pub fn extend(&mut self, other: Scan) {
        self.annotations.extend(other.annotations);
        self.errors.extend(other.errors);
    }
}

/// A function of a source file: its name and its lines, attributes and doc comments included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnSpan {
    /// Its name.
    pub name: String,
    /// First line (1-based).
    pub start: usize,
    /// Last line.
    pub end: usize,
    /// The line of its `fn` keyword (after its attributes and doc comments).
    pub sig: usize,
}

/// What the checker needs of a Rust source file's structure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// Its functions, nested ones and methods included, in source order.
    pub fns: Vec<FnSpan>,
    /// The lines of its string literals that span more than one line (first, last), macro
    /// arguments included: a `// spec:` on a line after a literal's first is text, not a comment.
    pub literals: Vec<(usize, usize)>,
}

impl Outline {
    /// True when line `line` lies inside a string literal begun on an earlier line.
    pub fn in_literal(&self, line: usize) -> bool {
        self.literals.iter().any(|&(a, b)| a < line && line <= b)
    }
}

/// The [`Outline`] of a Rust source file, or the parser's message.
pub fn outline(text: &str) -> Result<Outline, String> {
    use proc_macro2::{TokenStream, TokenTree};
    use syn::spanned::Spanned;
    use syn::visit::Visit;
    struct Finder(Outline);
    impl Finder {
        fn add(&mut self, sig: &syn::Signature, span: proc_macro2::Span) {
            self.0.fns.push(FnSpan {
                name: sig.ident.to_string(),
                start: span.start().line,
                end: span.end().line,
                sig: sig.fn_token.span.start().line,
            });
        }
        fn literal(&mut self, span: proc_macro2::Span) {
            let (a, b) = (span.start().line, span.end().line);
            if a < b {
                self.0.literals.push((a, b));
            }
        }
        fn tokens(&mut self, tokens: TokenStream) {
            for t in tokens {
                match t {
                    TokenTree::Literal(l) => self.literal(l.span()),
                    TokenTree::Group(g) => self.tokens(g.stream()),
                    _ => {}
                }
            }
        }
    }
    impl<'a> Visit<'a> for Finder {
        fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
            self.add(&f.sig, f.span());
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
            self.add(&f.sig, f.span());
            syn::visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'a syn::TraitItemFn) {
            self.add(&f.sig, f.span());
            syn::visit::visit_trait_item_fn(self, f);
        }
        fn visit_lit(&mut self, l: &'a syn::Lit) {
            self.literal(l.span());
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            self.tokens(m.tokens.clone());
        }
    }
    let file = syn::parse_file(text).map_err(|e| {
        let at = e.span().start();
        format!("line {}, column {}: {e}", at.line, at.column + 1)
    })?;
    let mut finder = Finder(Outline::default());
    finder.visit_file(&file);
    finder.0.fns.sort_by_key(|f| f.start);
    Ok(finder.0)
}

/// The function line `line` (1-based) of `lines` belongs to: the innermost one holding it, or
/// the first one below it with only blank and comment lines between.
fn function_at<'f>(fns: &'f [FnSpan], lines: &[&str], line: usize) -> Option<&'f FnSpan> {
    let inside = fns
        .iter()
        .filter(|f| f.start <= line && line <= f.end)
        .min_by_key(|f| f.end - f.start);
    inside.or_else(|| {
        let below = fns.iter().find(|f| f.start > line)?;
        lines[line..below.start - 1]
            .iter()
            .all(|l| {
                let t = l.trim_start();
                t.is_empty() || t.starts_with("//")
            })
            .then_some(below)
    })
}

/// Finds the annotations citing `game` in one file; `default_type` applies where no `type=` is
/// given.
pub fn scan_annotations(game: &str, file: &str, text: &str, default_type: AnnotationType) -> Scan {
    let lines: Vec<&str> = text.lines().collect();
    let mut scan = Scan::default();
    let marker = format!("// spec: {game}");
    let mut outlined: Option<Outline> = None;
    for (index, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix(marker.as_str()) else {
            continue;
        };
        if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
            continue; // another word that starts with the game's name
        }
        let (file, line) = (file.to_string(), index + 1);
        let o = match &outlined {
            Some(o) => o,
            None => match outline(text) {
                Ok(o) => outlined.insert(o),
                Err(message) => {
                    scan.errors.push(AnnotationError::NotRust { file, message });
                    return scan;
                }
            },
        };
        if o.in_literal(line) {
            continue;
        }
        let mut words = rest.split_whitespace();
        let Some(id) = words.next() else {
            scan.errors.push(AnnotationError::MissingId { file, line });
            continue;
        };
        let mut kind = None;
        let mut note_words: Vec<&str> = Vec::new();
        let mut error = None;
        for w in words {
            match w.strip_prefix("type=") {
                Some(name) => match (AnnotationType::parse(name), kind) {
                    (None, _) => {
                        error.get_or_insert(AnnotationError::UnknownType {
                            file: file.clone(),
                            line,
                            word: w.to_string(),
                        });
                    }
                    (Some(_), Some(_)) => {
                        error.get_or_insert(AnnotationError::TypeTwice {
                            file: file.clone(),
                            line,
                        });
                    }
                    (Some(t), None) => kind = Some(t),
                },
                None => note_words.push(w),
            }
        }
        let kind = kind.unwrap_or(default_type);
        if kind == AnnotationType::Exception && note_words.is_empty() {
            error.get_or_insert(AnnotationError::ExceptionWithoutReason {
                file: file.clone(),
                line,
            });
        }
        if let Some(e) = error {
            scan.errors.push(e);
            continue;
        }
        let function = function_at(&o.fns, &lines, line).cloned();
        if kind == AnnotationType::Test && function.is_none() {
            scan.errors
                .push(AnnotationError::TestOutsideFunction { file, line });
            continue;
        }
        scan.annotations.push(Annotation {
            id: id.to_string(),
            kind,
            file,
            line,
            function,
            note: note_words.join(" "),
        });
    }
    scan
}

/// Largest source file read, in bytes: a bigger `.rs` file is refused rather than read into memory.
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;

/// One source file read for the checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Its path relative to the project root, with `/` between folders.
    pub path: String,
    /// Its text.
    pub text: String,
    /// The annotation type where none is given (`src/`: implementation, `tests/`: test).
    pub default_type: AnnotationType,
}

/// Reads every `.rs` file under `root/src` and `root/tests`, in path order. Symbolic links to
/// folders are not followed (a link back up the tree would loop), and only regular files are
/// read; an error names the file or folder it concerns.
pub fn read_tree(root: &Path) -> std::io::Result<Vec<SourceFile>> {
    let mut files = Vec::new();
    for (dir, default_type) in [
        ("src", AnnotationType::Implementation),
        ("tests", AnnotationType::Test),
    ] {
        collect_rs(&root.join(dir), default_type, &mut files)?;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
        .into_iter()
        .map(|(path, default_type)| {
            let text = read_source(&path)?;
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            Ok(SourceFile {
                path: rel,
                text,
                default_type,
            })
        })
        .collect()
}

/// The annotations for `game` in the files of [`read_tree`].
pub fn scan_tree(game: &str, root: &Path) -> std::io::Result<Scan> {
    Ok(scan_files(game, &read_tree(root)?))
}

/// The annotations for `game` in `files`.
pub fn scan_files(game: &str, files: &[SourceFile]) -> Scan {
    let mut out = Scan::default();
    for f in files {
        out.extend(scan_annotations(game, &f.path, &f.text, f.default_type));
    }
    out
}

/// `e` with `path` in front of its message.
fn at_path(path: &Path, e: std::io::Error) -> std::io::Error {
    let message = match e.kind() {
        std::io::ErrorKind::InvalidData => "not UTF-8 text (source files are UTF-8)".to_string(),
        _ => e.to_string(),
    };
    std::io::Error::new(e.kind(), format!("{}: {message}", path.display()))
}

/// The text of one source file, refused if larger than [`MAX_SOURCE_BYTES`].
fn read_source(path: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| at_path(path, e))?;
    let mut text = String::new();
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| at_path(path, e))?;
    if text.len() as u64 > MAX_SOURCE_BYTES {
        return Err(std::io::Error::other(format!(
            "{}: larger than {} MiB, too large for a source file",
            path.display(),
            MAX_SOURCE_BYTES >> 20
        )));
    }
    Ok(text)
}

fn collect_rs(
    dir: &Path,
    default_type: AnnotationType,
    out: &mut Vec<(PathBuf, AnnotationType)>,
) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir).map_err(|e| at_path(dir, e))? {
        let entry = entry.map_err(|e| at_path(dir, e))?;
        let path = entry.path();
        // The entry itself, not what a link points to: a linked folder is not entered.
        let kind = entry.file_type().map_err(|e| at_path(&path, e))?;
        if kind.is_dir() {
            collect_rs(&path, default_type, out)?;
        } else if path.extension().is_some_and(|e| e == "rs")
            // A file, or a link to one (not a device, pipe or folder).
            && (kind.is_file() || std::fs::metadata(&path).is_ok_and(|m| m.is_file()))
        {
            out.push((path, default_type));
        }
    }
    Ok(())
}
