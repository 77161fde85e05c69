//! The formats a document list can come in, and telling them apart.

use super::gzip::inflate_head;
use std::fmt;
use std::str::FromStr;

/// How a document list is written. Any of them may also be gzip-compressed: compression is
/// recognised by its magic bytes, whatever the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The line format (the editor's): one document a line, `id`, `id<TAB>size`,
    /// `id<TAB>size<TAB>collection` or with a fourth field, the body (see
    /// [`ravenshard::lines`]).
    Text,
    /// `id[,size[,collection]]` rows (RFC 4180 quoting), with or without a header row.
    Csv,
    /// An array of IDs or of documents, or an object with a `Docs` array.
    Json,
    /// One JSON value per line: an ID (a string) or a document (an object).
    Ndjson,
    /// A RavenDB export (`.ravendbdump`): gzip of a JSON object whose `Docs` array holds the
    /// documents. Uncompressed exports are read too; Zstandard-compressed ones (the RavenDB
    /// 6 default) are refused with [`ImportError::Zstd`](super::ImportError::Zstd), which
    /// says how to get a gzip export.
    RavenDump,
}

/// File extensions the importer understands, for a file picker's `accept` attribute.
pub const ACCEPT: &str =
    ".txt,.tsv,.csv,.json,.ndjson,.jsonl,.ravendbdump,.ravendb-full-backup,.gz";

/// How many of a file's first bytes [`Format::detect`] reads to tell its format (fewer:
/// the whole file): the line of a CSV header or a JSON export's first key, and of a gzip
/// file enough to inflate its own first bytes.
pub const DETECT_BYTES: usize = 4 << 10;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// How much of a gzip file's start to inflate to tell its format.
const INFLATED_HEAD: usize = 4 << 10;
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

impl Format {
    /// Every format, in the order a menu would list them.
    pub const ALL: [Format; 5] = [
        Format::Text,
        Format::Csv,
        Format::Json,
        Format::Ndjson,
        Format::RavenDump,
    ];

    /// Guesses the format from the file name's extension, or failing that from the first
    /// bytes (a few KiB are plenty; pass an empty slice when there are none).
    ///
    /// Extensions: `.txt`/`.tsv` text, `.csv`, `.json`, `.ndjson`/`.jsonl`, `.ravendbdump`
    /// and `.ravendb-full-backup` exports; `name.csv.gz` is the format of `name.csv`, a bare
    /// `.gz` an export. Without a known extension, the content tells
    /// ([`from_content`](Format::from_content)).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::Format;
    ///
    /// assert_eq!(Format::detect(Some("Orders.CSV"), b""), Format::Csv);
    /// assert_eq!(Format::detect(Some("export.ravendbdump"), b""), Format::RavenDump);
    /// assert_eq!(Format::detect(Some("ids.txt.gz"), b"\x1f\x8b"), Format::Text);
    /// assert_eq!(Format::detect(None, b"\x1f\x8b\x08\x00"), Format::RavenDump);
    /// assert_eq!(Format::detect(Some("export"), b"(\xb5/\xfd"), Format::RavenDump);
    /// assert_eq!(Format::detect(None, b"[\"orders/1-A\"]"), Format::Json);
    /// assert_eq!(Format::detect(None, b"{\"Id\": \"a\"}\n{\"Id\": \"b\"}"), Format::Ndjson);
    /// assert_eq!(Format::detect(None, b"{\"BuildVersion\": 60025, \"Docs\": []}"), Format::RavenDump);
    /// assert_eq!(Format::detect(Some("paste"), b"orders/1-A,120\n"), Format::Csv);
    /// assert_eq!(Format::detect(None, b"orders/1-A\t120\n"), Format::Text);
    /// ```
    pub fn detect(file_name: Option<&str>, first_bytes: &[u8]) -> Format {
        if let Some(format) = file_name.and_then(Format::from_file_name) {
            return format;
        }
        Format::from_content(first_bytes)
    }

    /// Guesses the format from the first bytes of a file (a few KiB are plenty): gzip data by
    /// what its first bytes inflate to (an export when they do not inflate), Zstandard data
    /// an export; then by the first character that is not white space: `[` JSON; `{` an
    /// export when its first key is `BuildVersion` or `Docs`, JSON when the line holds
    /// nothing else (a pretty-printed object), else NDJSON; `"` NDJSON; otherwise a tab in
    /// the first line means the line format, a comma CSV (a header such as `id,size`, or
    /// rows), and anything else the line format.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::Format;
    ///
    /// assert_eq!(Format::from_content(b"  [\"orders/1-A\"]"), Format::Json);
    /// assert_eq!(Format::from_content(b"Id,Size\norders/1-A,120\n"), Format::Csv);
    /// assert_eq!(Format::from_content(b"orders/1-A\t120\n"), Format::Text);
    /// assert_eq!(Format::from_content(b"\x1f\x8b\x08\x00"), Format::RavenDump);
    /// ```
    pub fn from_content(first_bytes: &[u8]) -> Format {
        if first_bytes.starts_with(&GZIP_MAGIC) {
            let inflated = inflate_head(first_bytes, INFLATED_HEAD);
            if inflated.is_empty() {
                return Format::RavenDump;
            }
            return Format::sniff(&inflated);
        }
        Format::sniff(first_bytes)
    }

    /// The format a file name's extension stands for, if it is one of the known ones.
    fn from_file_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        let (stem, ext) = lower.rsplit_once('.')?;
        match ext {
            "txt" | "tsv" | "text" => Some(Format::Text),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "ravendbdump" | "ravendb-full-backup" | "ravendb-incremental-backup" => {
                Some(Format::RavenDump)
            }
            "gz" => Some(Format::from_file_name(stem).unwrap_or(Format::RavenDump)),
            _ => None,
        }
    }

    fn sniff(bytes: &[u8]) -> Format {
        if bytes.starts_with(&GZIP_MAGIC) || bytes.starts_with(&ZSTD_MAGIC) {
            return Format::RavenDump;
        }
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let text = skip_whitespace(bytes);
        match text.first() {
            Some(b'[') => Format::Json,
            Some(b'{') => {
                let after = &text[1..];
                let rest = skip_whitespace(after);
                let line_ends_after_brace = after
                    .iter()
                    .position(|&b| b == b'\n')
                    .is_some_and(|nl| skip_whitespace(&after[..nl]).is_empty());
                if rest.starts_with(b"\"BuildVersion\"") || rest.starts_with(b"\"Docs\"") {
                    Format::RavenDump
                } else if line_ends_after_brace {
                    Format::Json
                } else {
                    Format::Ndjson
                }
            }
            Some(b'"') => Format::Ndjson,
            _ => {
                let first_line = text.split(|&b| b == b'\n').next().unwrap_or(b"");
                if first_line.contains(&b'\t') {
                    Format::Text
                } else if first_line.contains(&b',') {
                    Format::Csv
                } else {
                    Format::Text
                }
            }
        }
    }

    /// A stable lower-case key (`text`, `csv`, `json`, `ndjson`, `ravendbdump`), the inverse
    /// of [`FromStr`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::Format;
    ///
    /// for format in Format::ALL {
    ///     assert_eq!(format.key().parse::<Format>(), Ok(format));
    /// }
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Ndjson => "ndjson",
            Format::RavenDump => "ravendbdump",
        }
    }
}

fn skip_whitespace(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .unwrap_or(bytes.len());
    &bytes[start..]
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Text => "plain text",
            Format::Csv => "CSV",
            Format::Json => "JSON",
            Format::Ndjson => "NDJSON",
            Format::RavenDump => "RavenDB export",
        })
    }
}

/// A string that is not one of the [`Format::key`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown format '{}'. Use one of: text, csv, json, ndjson, ravendbdump.",
            self.0
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.key().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_win_over_content() {
        assert_eq!(Format::detect(Some("a.json"), b"x,y"), Format::Json);
        assert_eq!(Format::detect(Some("a.JSONL"), b"["), Format::Ndjson);
        assert_eq!(Format::detect(Some("a.tsv"), b"a,b"), Format::Text);
        assert_eq!(Format::detect(Some("a.gz"), b""), Format::RavenDump);
        assert_eq!(Format::detect(Some("a.csv.gz"), b""), Format::Csv);
        assert_eq!(
            Format::detect(Some("backup.ravendb-full-backup"), b""),
            Format::RavenDump
        );
        assert_eq!(Format::detect(Some("noext"), b"a,b"), Format::Csv);
        assert_eq!(Format::detect(Some("a.bin"), b"[1]"), Format::Json);
    }

    #[test]
    fn content_is_sniffed() {
        assert_eq!(Format::detect(None, b""), Format::Text);
        assert_eq!(Format::detect(None, b"\xef\xbb\xbf  [\n"), Format::Json);
        assert_eq!(Format::detect(None, b"(\xb5/\xfd"), Format::RavenDump);
        assert_eq!(Format::detect(None, b"{\n  \"Id\": \"a\"\n}"), Format::Json);
        assert_eq!(Format::detect(None, b"{ \"Docs\": [] }"), Format::RavenDump);
        assert_eq!(Format::detect(None, b"{\"Id\":\"a\"}"), Format::Ndjson);
        assert_eq!(Format::detect(None, b"\"a\"\n\"b\""), Format::Ndjson);
        assert_eq!(Format::detect(None, b"a\nb,c"), Format::Text);
        assert_eq!(Format::detect(None, b"id,size\r\na,1"), Format::Csv);
    }

    #[test]
    fn gzip_is_sniffed_by_what_it_holds() {
        use flate2::write::GzEncoder;
        use std::io::Write;
        let gzip = |data: &[u8]| {
            let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        };
        let cases: [(&[u8], Format); 5] = [
            (
                b"{\"BuildVersion\": 60025, \"Docs\": []}",
                Format::RavenDump,
            ),
            (b"orders/1-A\t12\n", Format::Text),
            (b"id,size\norders/1-A,12\n", Format::Csv),
            (b"[\"orders/1-A\"]", Format::Json),
            (b"{\"Id\": \"a\"}\n", Format::Ndjson),
        ];
        for (data, format) in cases {
            assert_eq!(Format::from_content(&gzip(data)), format);
        }
        // Too little to inflate: an export, as gzip files usually are.
        assert_eq!(Format::from_content(&gzip(b"a,b")[..10]), Format::RavenDump);
    }

    #[test]
    fn keys_parse_back() {
        assert_eq!("CSV".parse::<Format>(), Ok(Format::Csv));
        assert!("xml"
            .parse::<Format>()
            .unwrap_err()
            .to_string()
            .contains("'xml'"));
    }
}
