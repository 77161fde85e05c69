//! Surrogate escapes as RavenDB reads them. Sparrow's JSON reader turns every `\uXXXX`
//! escape of a UTF-16 surrogate (`D800`-`DFFF`) into U+FFFD, paired or not: the prefix
//! `"\ud801\udc28/"` is stored as `"\u{FFFD}\u{FFFD}/"`, not `"𐐨/"` (checked against
//! RavenDB 6.2.4 and 7.1.5). RavenDB writes such characters as UTF-8, never escaped, so only
//! a hand-written (or `json.dumps`-written) record has them; it is read as the server
//! reads it.

use std::borrow::Cow;

/// `text` with each surrogate escape replaced by `\uFFFD`; borrowed when it has none.
pub(super) fn as_ravendb_reads_them(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    if !memchr::memmem::find_iter(bytes, b"\\u").any(|at| is_surrogate_escape(bytes, at)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    let mut at = 0;
    while let Some(offset) = memchr::memchr(b'\\', bytes.get(at..).unwrap_or_default()) {
        let slash = at + offset;
        if is_surrogate_escape(bytes, slash) {
            out.push_str(text.get(rest..slash).unwrap_or_default());
            out.push_str("\\uFFFD");
            rest = slash + 6;
            at = rest;
        } else {
            // `\\` is one escape: the second backslash never starts another.
            at = slash + 2;
        }
    }
    out.push_str(text.get(rest..).unwrap_or_default());
    Cow::Owned(out)
}

/// Whether `bytes[at..]` starts with `\u` and four hexadecimal digits of a surrogate.
fn is_surrogate_escape(bytes: &[u8], at: usize) -> bool {
    let Some(escape) = bytes.get(at..at + 6) else {
        return false;
    };
    let hex = std::str::from_utf8(&escape[2..]).ok();
    escape.starts_with(b"\\u")
        && hex
            .and_then(|h| u16::from_str_radix(h, 16).ok())
            .is_some_and(|unit| (0xD800..=0xDFFF).contains(&unit))
}

#[cfg(test)]
mod tests {
    use super::as_ravendb_reads_them;

    #[test]
    fn surrogate_escapes_become_replacement_characters() {
        let cases = [
            (r#""\ud801\udc28/""#, r#""\uFFFD\uFFFD/""#),
            (r#""\uD83D\uDE00/""#, r#""\uFFFD\uFFFD/""#),
            (r#""\ud801x/""#, r#""\uFFFDx/""#),
            (r#""a\\ud801/""#, r#""a\\ud801/""#),
            (r#""a\\\ud801/""#, r#""a\\\uFFFD/""#),
            (r#""\u00e9\u0041""#, r#""\u00e9\u0041""#),
        ];
        for (text, read) in cases {
            assert_eq!(as_ravendb_reads_them(text), read, "{text}");
        }
    }
}
