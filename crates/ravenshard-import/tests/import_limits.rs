//! The limits of the import readers: the longest line (of a line format or a CSV record)
//! and the deepest JSON, each refused with a message that says the limit and what to do.

use ravenshard::json::MAX_DEPTH;
use ravenshard_import::{import, Format, ImportError, Importer, MAX_LINE_BYTES};

fn in_chunks(bytes: &[u8], format: Format, len: usize) -> Result<usize, ImportError> {
    let mut importer = Importer::new(format, None).without_bodies();
    for chunk in bytes.chunks(len) {
        importer.push(chunk)?;
    }
    Ok(importer.finish()?.documents.len())
}

#[test]
fn a_line_past_the_limit_is_refused_whole_or_in_chunks() {
    let mut file = b"\"orders/1-A\"\n".to_vec();
    file.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
    file.extend_from_slice(b"\norders/2-A\n");
    let refused = ImportError::LineTooLong {
        line: 2,
        limit: MAX_LINE_BYTES,
    };
    for format in [Format::Text, Format::Ndjson, Format::Csv] {
        assert_eq!(import(&file, format).unwrap_err(), refused, "{format:?}");
        assert_eq!(
            in_chunks(&file, format, 1 << 20),
            Err(refused.clone()),
            "{format:?}"
        );
    }
    assert_eq!(
        refused.to_string(),
        "line 2: longer than 64 MiB (67108864 bytes), the most a line of a line format or CSV \
         holds. A line holds one document: check that the file's lines end with line breaks, \
         or import the documents as a JSON list, whose elements are not limited this way."
    );
}

#[test]
fn a_line_at_the_limit_is_read_with_its_carriage_return() {
    let id_line = "x".repeat(MAX_LINE_BYTES);
    let file = format!("{id_line}\r\nb\n");
    assert_eq!(in_chunks(file.as_bytes(), Format::Text, 1 << 20), Ok(1));
    assert!(import(file.as_bytes(), Format::Text).is_ok());
}

#[test]
fn json_nested_past_the_limit_is_refused_with_the_limit() {
    let deep = |levels: usize| {
        format!(
            r#"{{"Id": "a", "x": {}1{}}}"#,
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    // The document object is one level, so MAX_DEPTH - 1 arrays inside it is the deepest.
    for format in [Format::Ndjson, Format::Json] {
        let ok = deep(MAX_DEPTH - 1);
        let text = if format == Format::Json {
            format!("[{ok}]")
        } else {
            ok
        };
        let deepest = import(text.as_bytes(), format);
        assert!(deepest.is_ok(), "{format:?}: {deepest:?}");
    }
    // Refused where the level past the limit opens, in every format that reads JSON.
    let deeper = deep(MAX_DEPTH);
    let column = r#"{"Id": "a", "x": "#.len() + MAX_DEPTH;
    let e = import(deeper.as_bytes(), Format::Ndjson).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "$: invalid JSON at line 1, column {column}: arrays and objects nested deeper than \
             127 levels, the most a JSON text may have here. Flatten the JSON (RavenDB \
             documents rarely nest past a few levels). Fix the JSON there."
        )
    );
    let e = import(format!("[\"b\",\n{deeper}]").as_bytes(), Format::Json).unwrap_err();
    assert!(
        e.to_string().starts_with("$[1]: invalid JSON at line 2"),
        "{e}"
    );
    assert!(e.to_string().contains("deeper than 127 levels"), "{e}");
}
