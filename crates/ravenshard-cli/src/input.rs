//! The documents a command reads, from a file or stdin, in any format the studio imports:
//! the line format, RavenDB exports (`.ravendbdump`), JSON, NDJSON and CSV, plain or
//! gzip-compressed. The format is `--format`'s, or told by the content
//! ([`Format::from_content`]). Reading streams: the line format a line at a time through
//! [`for_each_line`], the others through the studio's [`Importer`] a chunk at a time, taking its
//! documents as they come and keeping no bodies, so memory stays flat whatever the size.

use crate::Fatal;
use flate2::bufread::MultiGzDecoder;
use ravenshard::document::Document;
use ravenshard::lines::{for_each_line, NotUtf8, Stop};
use ravenshard_import::{Format, Importer};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::Path;

/// How to read the input (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Told by content: `[` is JSON; `{` NDJSON, JSON or an export; a comma in the first
    /// line CSV (with or without a header such as `id,size`); anything else ID lines.
    #[default]
    Auto,
    /// ID lines: `id[<TAB>size[<TAB>collection[<TAB>body]]]`, as the studio's ID editor.
    Lines,
    /// A RavenDB export: gzip of a JSON object whose `Docs` array holds the documents.
    Ravendbdump,
    /// An array of IDs or documents (or an object with `Docs`).
    Json,
    /// One ID (a JSON string) or document (a JSON object) per line.
    Ndjson,
    /// `id[,size[,collection]]` rows, with or without a header row naming the columns.
    Csv,
}

impl InputFormat {
    fn format(self) -> Option<Format> {
        match self {
            InputFormat::Auto => None,
            InputFormat::Lines => Some(Format::Text),
            InputFormat::Ravendbdump => Some(Format::RavenDump),
            InputFormat::Json => Some(Format::Json),
            InputFormat::Ndjson => Some(Format::Ndjson),
            InputFormat::Csv => Some(Format::Csv),
        }
    }
}

/// One entry of the input.
pub enum Entry<'a> {
    /// Line `number` of the line format (blank lines included): its text, or where it
    /// stops being UTF-8.
    Line(u64, Result<&'a str, NotUtf8>),
    /// Document `number` (1-based, in file order) of another format.
    Document(u64, &'a Document),
    /// Command-line argument `number`: an ID as it is.
    Argument(u64, &'a str),
}

/// Where an entry is, for messages.
pub fn place(entry: &Entry) -> String {
    match entry {
        Entry::Line(number, _) => format!("line {number}"),
        Entry::Argument(number, _) => format!("argument {number}"),
        Entry::Document(number, document) => {
            let id: String = document.id.chars().take(80).collect();
            format!("document {number} ('{id}')")
        }
    }
}

/// The bytes read to tell the format: enough to inflate the start of a gzip file.
const HEAD_LEN: usize = 16 << 10;
/// The chunks pushed into an [`Importer`].
const CHUNK_LEN: usize = 64 << 10;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// An input opened and its format known.
pub struct Input {
    /// The file's name, or `stdin`.
    pub name: String,
    format: Format,
    gzip: bool,
    /// Say nothing of skipped entries (a second pass over the same input).
    quiet: bool,
    /// The bytes read to tell the format, then the rest.
    head: Vec<u8>,
    rest: BufReader<Box<dyn Read>>,
}

impl Input {
    /// Opens `file` (stdin when `None`) and settles its format.
    pub fn open(file: Option<&Path>, format: InputFormat) -> Result<Input, Fatal> {
        let (name, source): (String, Box<dyn Read>) = match file {
            Some(path) => {
                let name = path.display().to_string();
                let file = File::open(path).map_err(|e| Fatal::Io(name.clone(), e))?;
                (name, Box::new(file))
            }
            None => ("stdin".into(), Box::new(io::stdin().lock())),
        };
        Input::from_source(name, source, format)
    }

    /// Reads `source` (named `name` in messages) and settles its format.
    pub fn from_source(
        name: String,
        source: Box<dyn Read>,
        format: InputFormat,
    ) -> Result<Input, Fatal> {
        let mut rest = BufReader::with_capacity(1 << 16, source);
        let chosen = format.format();
        // Only the gzip magic bytes are needed when the format is given.
        let want = if chosen.is_some() { 2 } else { HEAD_LEN };
        let mut head = Vec::with_capacity(want);
        (&mut rest)
            .take(want as u64)
            .read_to_end(&mut head)
            .map_err(|e| Fatal::Io(name.clone(), e))?;
        let format = chosen.unwrap_or_else(|| Format::from_content(&head));
        let gzip = head.starts_with(&GZIP_MAGIC);
        Ok(Input {
            name,
            format,
            gzip,
            quiet: false,
            head,
            rest,
        })
    }

    /// The same input, not saying which entries are skipped: for a second pass.
    pub fn quiet(self) -> Input {
        Input {
            quiet: true,
            ..self
        }
    }

    /// Hands every entry to `f` in order; the number of entries the importer skipped (each
    /// said on stderr as a warning).
    ///
    /// # Errors
    ///
    /// A file that cannot be read, in a way that names the file and where it went wrong;
    /// an error from `f` (writing the output) as [`Fatal::Io`] on stdout.
    pub fn read<F: FnMut(Entry) -> io::Result<()>>(self, mut f: F) -> Result<usize, Fatal> {
        if self.format != Format::Text {
            return self.import(&mut f);
        }
        let reader = Cursor::new(self.head).chain(self.rest);
        if self.gzip {
            let inflated = BufReader::with_capacity(1 << 16, MultiGzDecoder::new(reader));
            read_lines(inflated, &self.name, true, f)?;
        } else {
            read_lines(reader, &self.name, false, f)?;
        }
        Ok(0)
    }

    /// The stream of ID lines (inflated when gzip-compressed), for the bulk commands'
    /// blocks; the input back when it is in another format.
    pub fn lines(self) -> Result<LineInput, Input> {
        if self.format != Format::Text {
            return Err(self);
        }
        let reader = Cursor::new(self.head).chain(self.rest);
        let reader: Box<dyn Read> = match self.gzip {
            true => Box::new(MultiGzDecoder::new(reader)),
            false => Box::new(reader),
        };
        Ok(LineInput {
            name: self.name,
            gzip: self.gzip,
            reader,
        })
    }

    fn import<F: FnMut(Entry) -> io::Result<()>>(self, f: &mut F) -> Result<usize, Fatal> {
        let Input {
            name,
            format,
            quiet,
            head,
            rest,
            ..
        } = self;
        let mut reader = Cursor::new(head).chain(rest);
        let mut importer = Importer::new(format, None).without_bodies();
        let mut number = 0;
        let mut hand_over = |documents: Vec<Document>| -> Result<(), Fatal> {
            for document in &documents {
                number += 1;
                f(Entry::Document(number, document)).map_err(stdout_error)?;
            }
            Ok(())
        };
        let mut chunk = vec![0; CHUNK_LEN];
        loop {
            let n = match reader.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Fatal::Io(name, e)),
            };
            let pushed = importer.push(chunk.get(..n).unwrap_or_default());
            pushed.map_err(|e| Fatal::Import(name.clone(), format, e))?;
            hand_over(importer.take_documents())?;
        }
        let imported = importer
            .finish()
            .map_err(|e| Fatal::Import(name.clone(), format, e))?;
        hand_over(imported.documents)?;
        if quiet {
            return Ok(imported.skipped);
        }
        for warning in &imported.warnings {
            eprintln!("warning: {name}: {warning}");
        }
        let unlisted = imported.skipped - imported.warnings.len();
        if unlisted > 0 {
            eprintln!("warning: {name}: {unlisted} more entries skipped");
        }
        Ok(imported.skipped)
    }
}

/// An input of ID lines, read in blocks.
pub struct LineInput {
    /// The file's name, or `stdin`.
    pub name: String,
    gzip: bool,
    /// The (inflated) bytes.
    pub reader: Box<dyn Read>,
}

impl LineInput {
    /// Why reading stopped: a failed read (named), or `f`'s error (writing stdout).
    pub fn stopped(&self, stop: Stop<io::Error>) -> Fatal {
        match stop {
            Stop::Read(e) => read_error(&self.name, self.gzip, e),
            Stop::By(e) => stdout_error(e),
        }
    }
}

/// Hands every line to `f`.
fn read_lines<R: BufRead, F: FnMut(Entry) -> io::Result<()>>(
    input: R,
    name: &str,
    gzip: bool,
    mut f: F,
) -> Result<(), Fatal> {
    for_each_line(input, |number, line| f(Entry::Line(number, line))).map_err(|stop| match stop {
        Stop::Read(e) => read_error(name, gzip, e),
        Stop::By(e) => stdout_error(e),
    })
}

/// An error reading ID lines: a damaged gzip stream says so.
fn read_error(name: &str, gzip: bool, e: io::Error) -> Fatal {
    if gzip
        && matches!(
            e.kind(),
            io::ErrorKind::InvalidInput | io::ErrorKind::UnexpectedEof
        )
    {
        return Fatal::Usage(format!(
            "{name}: not a valid gzip file ({e}). The file is damaged or incomplete: copy or \
             compress it again."
        ));
    }
    Fatal::Io(name.to_string(), e)
}

fn stdout_error(e: io::Error) -> Fatal {
    Fatal::Io("stdout".into(), e)
}
