//! CSV: `id[,size[,collection]]` rows with RFC 4180 quoting, with or without a header row.
//!
//! A small parser of our own rather than the `csv` crate: quoted fields may span lines, so
//! records are split by [`Splitter`](super::lines::Splitter) as chunks arrive, and a record
//! then needs only the field rules below (and no extra dependency in the wasm build).

use super::entry::Sink;
use super::lines::{parse_size, Record};
use super::{ImportError, ImportWarning, Location};
use std::borrow::Cow;

/// Which column holds what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Columns {
    id: usize,
    size: Option<usize>,
    collection: Option<usize>,
    /// Without a header only `id,size,collection` may be given; with one, more columns are
    /// ignored.
    header: bool,
}

const POSITIONAL: Columns = Columns {
    id: 0,
    size: Some(1),
    collection: Some(2),
    header: false,
};

/// Reads CSV records; the first non-blank record decides whether there is a header.
#[derive(Debug, Default)]
pub(super) struct CsvReader {
    columns: Option<Columns>,
}

impl CsvReader {
    pub fn record(&mut self, record: Record, sink: &mut Sink) -> Result<(), ImportError> {
        let text = record.text()?;
        if text.trim().is_empty() {
            return Ok(());
        }
        let line = record.line;
        let fields = split_fields(text, line)?;
        let columns = match self.columns {
            Some(columns) => columns,
            None => {
                let columns = header_columns(&fields);
                self.columns = Some(columns.unwrap_or(POSITIONAL));
                if columns.is_some() {
                    return Ok(());
                }
                POSITIONAL
            }
        };
        if !columns.header && fields.len() > 3 {
            return Err(ImportError::CsvTooManyFields {
                line,
                fields: fields.len(),
            });
        }
        let size = match columns.size.and_then(|i| fields.get(i)) {
            Some(size) => parse_size(size, line)?,
            None => None,
        };
        let collection = columns
            .collection
            .and_then(|i| fields.get(i))
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        match fields.into_iter().nth(columns.id) {
            Some(id) => sink.add(id.into_owned(), size, collection, None, || {
                Location::Line(line)
            }),
            None => sink.skip(|| ImportWarning::MissingId {
                at: Location::Line(line),
            }),
        }
        Ok(())
    }
}

/// The columns a header row names, or `None` if the row is data: it is a header when its
/// first cell is `id`/`@id` or its second cell is neither empty nor a number. Named columns
/// (`Id`/`@id`/`DocumentId`, `Size`/`Bytes`, `Collection`/`@collection`, any case) are used;
/// a header that names none of them means the positions `id,size,collection`.
fn header_columns(fields: &[Cow<str>]) -> Option<Columns> {
    let name = |i: usize| fields.get(i).map(|f| f.trim().to_ascii_lowercase());
    let first_is_id = matches!(name(0).as_deref(), Some("id" | "@id"));
    let is_number = |f: &str| {
        f.bytes().any(|b| b.is_ascii_digit())
            && f.parse::<f64>().ok().filter(|v| v.is_finite()).is_some()
    };
    let second_is_text = fields.get(1).is_some_and(|f| {
        let f = f.trim();
        !f.is_empty() && !is_number(f)
    });
    if !first_is_id && !second_is_text {
        return None;
    }
    let find = |names: &[&str]| {
        (0..fields.len()).find(|&i| name(i).is_some_and(|n| names.contains(&n.as_str())))
    };
    let id = find(&["id", "@id", "documentid", "document id", "document_id"]);
    let size = find(&["size", "bytes", "size_bytes", "sizeinbytes", "size (bytes)"]);
    let collection = find(&["collection", "@collection"]);
    Some(if id.is_none() && size.is_none() && collection.is_none() {
        Columns {
            header: true,
            ..POSITIONAL
        }
    } else {
        Columns {
            id: id.unwrap_or(0),
            size,
            collection,
            header: true,
        }
    })
}

/// Splits one record (without its line end) into fields. A field that starts with `"` is
/// quoted: it ends at the next lone `"`, `""` inside it stands for `"`, and it may hold
/// commas and newlines. A `"` inside an unquoted field is kept as it is.
fn split_fields(text: &str, line: usize) -> Result<Vec<Cow<'_, str>>, ImportError> {
    let bytes = text.as_bytes();
    let mut fields = Vec::with_capacity(3);
    let mut i = 0;
    loop {
        if bytes.get(i) == Some(&b'"') {
            let mut field = String::new();
            let mut start = i + 1;
            loop {
                let Some(q) = bytes[start..].iter().position(|&b| b == b'"') else {
                    return Err(ImportError::CsvUnclosedQuote { line });
                };
                let q = start + q;
                if bytes.get(q + 1) == Some(&b'"') {
                    field.push_str(&text[start..=q]);
                    start = q + 2;
                } else {
                    field.push_str(&text[start..q]);
                    i = q + 1;
                    break;
                }
            }
            fields.push(Cow::Owned(field));
            match bytes.get(i) {
                None => return Ok(fields),
                Some(b',') => i += 1,
                Some(_) => return Err(ImportError::CsvQuote { line }),
            }
        } else {
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b',')
                .map_or(bytes.len(), |p| i + p);
            fields.push(Cow::Borrowed(&text[i..end]));
            if end == bytes.len() {
                return Ok(fields);
            }
            i = end + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Result<Vec<String>, ImportError> {
        split_fields(text, 7).map(|v| v.into_iter().map(Cow::into_owned).collect())
    }

    #[test]
    fn fields_follow_rfc_4180() {
        assert_eq!(fields("a,1,Orders").unwrap(), ["a", "1", "Orders"]);
        assert_eq!(fields("\"a,b\",\"1\"").unwrap(), ["a,b", "1"]);
        assert_eq!(fields("\"say \"\"hi\"\"\",2").unwrap(), ["say \"hi\"", "2"]);
        assert_eq!(fields("\"\"").unwrap(), [""]);
        assert_eq!(fields("a,").unwrap(), ["a", ""]);
        assert_eq!(fields(",\"\"").unwrap(), ["", ""]);
        assert_eq!(fields("\"a\nb\"").unwrap(), ["a\nb"]);
        assert_eq!(fields("a\"b").unwrap(), ["a\"b"]);
        assert_eq!(fields("é,\"ü\"").unwrap(), ["é", "ü"]);
        assert_eq!(fields("\"a\"b"), Err(ImportError::CsvQuote { line: 7 }));
        assert_eq!(
            fields("\"a"),
            Err(ImportError::CsvUnclosedQuote { line: 7 })
        );
        assert_eq!(
            fields("\"a\"\""),
            Err(ImportError::CsvUnclosedQuote { line: 7 })
        );
    }

    #[test]
    fn headers() {
        let h = |t: &str| header_columns(&split_fields(t, 1).unwrap());
        assert_eq!(h("orders/1-A,12"), None);
        assert_eq!(h("orders/1-A"), None);
        assert_eq!(h("orders/1-A,"), None);
        assert_eq!(h("orders/1-A,-5"), None);
        assert_eq!(h("orders/1-A,1.5"), None);
        assert_eq!(
            h("ID"),
            Some(Columns {
                id: 0,
                size: None,
                collection: None,
                header: true
            })
        );
        assert_eq!(
            h("document,bytes"),
            Some(Columns {
                id: 0,
                size: Some(1),
                collection: None,
                header: true
            })
        );
        assert_eq!(
            h("name,email"),
            Some(Columns {
                header: true,
                ..POSITIONAL
            })
        );
        assert_eq!(
            h("Collection,Name,@id,Size"),
            Some(Columns {
                id: 2,
                size: Some(3),
                collection: Some(0),
                header: true
            })
        );
        assert_eq!(
            h("a,nan"),
            Some(Columns {
                header: true,
                ..POSITIONAL
            })
        );
    }
}
