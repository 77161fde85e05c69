//! Why a query cannot be read, and where.

use std::fmt;

/// A place in the query text: a 0-based character offset, and the 1-based line and column
/// a person sees (columns count characters, not bytes).
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::Position;
///
/// let at = Position::of("from Orders\nwhere", 12);
/// assert_eq!((at.offset, at.line, at.column), (12, 2, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Characters before this place.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Position {
    /// The position of the character at `offset` (counted in characters) in `text`; an
    /// offset past the end is the end.
    pub fn of(text: &str, offset: usize) -> Position {
        let (mut line, mut column, mut seen) = (1, 1, 0);
        for c in text.chars().take(offset) {
            seen += 1;
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        Position {
            offset: seen,
            line,
            column,
        }
    }

    /// The position of the byte index `byte` (a character boundary) in `text`.
    pub(crate) fn at_byte(text: &str, byte: usize) -> Position {
        let offset = text.get(..byte).map_or(0, |before| before.chars().count());
        Position::of(text, offset)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why [`parse`](super::parse) could not read a query. Every variant knows its
/// [`Position`]; the message says what was expected there and what was found.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, RqlError};
///
/// let error = parse("select * from Orders").unwrap_err();
/// assert_eq!(error.position().column, 1);
/// assert_eq!(
///     error.to_string(),
///     "expected 'from' at line 1, column 1, found 'select'. \
///      RavenDB queries start with 'from <Collection>' or 'from index '<Name>''"
/// );
/// assert!(matches!(error, RqlError::Expected { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RqlError {
    /// Something else was expected at `at`.
    Expected {
        /// What would have made sense here, e.g. `'from'` or `a value after '='`.
        expected: String,
        /// What is there instead, e.g. `'select'` or `end of query`.
        found: String,
        /// Where.
        at: Position,
        /// How to fix it, where there is something useful to say.
        hint: Option<String>,
    },
    /// A string literal has no closing quote.
    UnterminatedString {
        /// Where the string starts (its opening quote).
        at: Position,
    },
    /// Parentheses and `not` are nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    TooDeep {
        /// The `(` or `not` one level too deep.
        at: Position,
    },
    /// A `limit` or `offset` number does not fit in 64 bits.
    NumberTooLarge {
        /// The number as written.
        text: String,
        /// Where it is.
        at: Position,
    },
    /// `offset` follows `limit M, N`, which already gave the offset (`M`).
    OffsetTwice {
        /// Where the `offset` keyword is.
        at: Position,
    },
    /// The query is longer than [`MAX_QUERY_BYTES`](super::MAX_QUERY_BYTES).
    TooLong {
        /// Its length in bytes.
        bytes: usize,
        /// Where the part past the limit starts.
        at: Position,
    },
}

impl RqlError {
    /// Where in the query the problem is.
    pub fn position(&self) -> Position {
        match self {
            RqlError::Expected { at, .. }
            | RqlError::UnterminatedString { at }
            | RqlError::TooDeep { at }
            | RqlError::NumberTooLarge { at, .. }
            | RqlError::OffsetTwice { at }
            | RqlError::TooLong { at, .. } => *at,
        }
    }
}

impl fmt::Display for RqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RqlError::Expected {
                expected,
                found,
                at,
                hint,
            } => {
                write!(f, "expected {expected} at {at}, found {found}")?;
                if let Some(hint) = hint {
                    write!(f, ". {hint}")?;
                }
                Ok(())
            }
            RqlError::UnterminatedString { at } => write!(
                f,
                "unterminated string starting at {at}. Close it with the quote it opens with \
                 (write \\' or '' for a quote inside it)"
            ),
            RqlError::TooDeep { at } => write!(
                f,
                "too deeply nested at {at}: at most {} levels of parentheses and 'not'",
                super::MAX_DEPTH
            ),
            RqlError::NumberTooLarge { text, at } => write!(
                f,
                "the number {text} at {at} is too large (at most {})",
                u64::MAX
            ),
            RqlError::OffsetTwice { at } => write!(
                f,
                "'offset' at {at} repeats the offset: 'limit M, N' already skips M results. \
                 Write 'limit N offset M' or 'limit M, N', not both"
            ),
            RqlError::TooLong { bytes, at } => write!(
                f,
                "the query is {bytes} bytes long, past the {} bytes a query may have (from {at} \
                 on). Shorten it: pass long lists of values as a $parameter, or split the query",
                super::MAX_QUERY_BYTES
            ),
        }
    }
}

impl std::error::Error for RqlError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_and_lines() {
        let text = "é\nab\r\nc";
        let at = |offset| {
            let p = Position::of(text, offset);
            (p.offset, p.line, p.column)
        };
        assert_eq!(at(0), (0, 1, 1));
        assert_eq!(at(1), (1, 1, 2));
        assert_eq!(at(2), (2, 2, 1));
        assert_eq!(at(6), (6, 3, 1));
        assert_eq!(at(99), (7, 3, 2));
        assert_eq!(Position::at_byte(text, 2), Position::of(text, 1));
        // Not a character boundary: the start, rather than a panic.
        assert_eq!(Position::at_byte(text, 1), Position::of(text, 0));
    }

    #[test]
    fn every_error_says_where() {
        let at = Position::of("abc", 2);
        let errors = [
            RqlError::UnterminatedString { at },
            RqlError::TooDeep { at },
            RqlError::NumberTooLarge {
                text: "99".into(),
                at,
            },
            RqlError::OffsetTwice { at },
            RqlError::TooLong { bytes: 9, at },
        ];
        for error in errors {
            assert_eq!(error.position(), at);
            assert!(error.to_string().contains("line 1, column 3"), "{error}");
        }
    }
}
