//! Splits query text into tokens. Only an unterminated string literal is an error here:
//! any other character becomes a token of its own and the parser decides.

use super::error::{Position, RqlError};
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// A word: a keyword, a name or a path segment (`Orders`, `where`, `@all_docs`).
    Ident,
    /// `$name`: a query parameter, holding its name.
    Parameter(String),
    /// A string literal, holding its value with escapes resolved.
    Str(String),
    /// A number as written: optional sign, digits, optional `.` and digits.
    Number,
    /// An operator or punctuation the grammar uses.
    Symbol(&'static str),
    /// Any other character.
    Other(char),
    /// The end of the text.
    End,
}

/// A token and where it is, as byte offsets into the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// The token as written.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        source.get(self.start..self.end).unwrap_or("")
    }

    /// Whether the token is the word `keyword`, in any case.
    pub fn is_keyword(&self, source: &str, keyword: &str) -> bool {
        self.kind == Kind::Ident && self.text(source).eq_ignore_ascii_case(keyword)
    }
}

/// Longest first, so `<=` wins over `<`.
const SYMBOLS: [&str; 16] = [
    "==", "!=", "<>", "<=", ">=", "=", "<", ">", "(", ")", ",", ".", "[", "]", "{", "}",
];

/// Whether `c` can start a word: a letter, `_` or `@` (RavenDB's `QueryScanner.Identifier`
/// takes `char.IsLetter` or `_`; `FromIdentifier` and the parser allow a leading `@`, as in
/// `@metadata` and `@all_docs`).
pub(crate) fn is_word_start(c: char) -> bool {
    c == '_' || c == '@' || is_letter(c)
}

/// Whether `c` can continue a word (or a parameter name): a letter, a decimal digit or `_`,
/// as `char.IsLetterOrDigit` or `_` in RavenDB's scanner.
pub(crate) fn is_word_char(c: char) -> bool {
    c == '_' || is_letter(c) || is_digit(c)
}

/// .NET's `char.IsLetter`: the general categories Lu, Ll, Lt, Lm and Lo. .NET tests one
/// UTF-16 code unit at a time, and a character beyond the BMP is two surrogates, neither a
/// letter; so only BMP characters count.
fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
        || (!c.is_ascii()
            && u32::from(c) <= 0xFFFF
            && c.general_category_group() == GeneralCategoryGroup::Letter)
}

/// .NET's `char.IsDigit`: the general category Nd, in the BMP.
fn is_digit(c: char) -> bool {
    c.is_ascii_digit()
        || (!c.is_ascii()
            && u32::from(c) <= 0xFFFF
            && c.general_category() == GeneralCategory::DecimalNumber)
}

/// The tokens of `source`, ending with one [`Kind::End`].
pub(crate) fn lex(source: &str) -> Result<Vec<Token>, RqlError> {
    let mut tokens = Vec::new();
    let mut pos = 0;
    while let Some(c) = source.get(pos..).and_then(|rest| rest.chars().next()) {
        let rest = &source[pos..];
        let start = pos;
        if c.is_whitespace() {
            pos += c.len_utf8();
            continue;
        }
        if rest.starts_with("--") {
            // A comment runs to the end of the line.
            pos += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        let kind = if c == '\'' || c == '"' {
            let (value, length) = string(rest).ok_or_else(|| RqlError::UnterminatedString {
                at: Position::at_byte(source, start),
            })?;
            pos += length;
            Kind::Str(value)
        } else if starts_number(rest) {
            pos += number_length(rest);
            Kind::Number
        } else if is_word_start(c) {
            pos += c.len_utf8() + word_length(&rest[c.len_utf8()..]);
            Kind::Ident
        } else if c == '$' && rest[1..].starts_with(is_word_char) {
            let length = word_length(&rest[1..]);
            pos += 1 + length;
            Kind::Parameter(rest[1..1 + length].to_string())
        } else if let Some(symbol) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            pos += symbol.len();
            Kind::Symbol(symbol)
        } else {
            pos += c.len_utf8();
            Kind::Other(c)
        };
        tokens.push(Token {
            kind,
            start,
            end: pos,
        });
    }
    tokens.push(Token {
        kind: Kind::End,
        start: source.len(),
        end: source.len(),
    });
    Ok(tokens)
}

/// Bytes of word characters at the start of `text`.
fn word_length(text: &str) -> usize {
    text.find(|c: char| !is_word_char(c)).unwrap_or(text.len())
}

/// Whether `text` starts with a digit, or a sign and a digit.
fn starts_number(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    unsigned.starts_with(|c: char| c.is_ascii_digit())
}

/// Bytes of the number at the start of `text` (which [`starts_number`]).
fn number_length(text: &str) -> usize {
    let digits = |from: usize| {
        text.get(from..).map_or(0, |rest| {
            rest.find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len())
        })
    };
    let sign = usize::from(text.starts_with(['-', '+']));
    let whole = sign + digits(sign);
    let fraction = if text.get(whole..).is_some_and(|r| r.starts_with('.')) {
        digits(whole + 1)
    } else {
        0
    };
    if fraction > 0 {
        whole + 1 + fraction
    } else {
        whole
    }
}

/// The value and byte length of the string literal at the start of `text`, or `None` when
/// it does not end. Inside, `\'`, `\"` and `\\` stand for the character after the
/// backslash (any other backslash is kept as written), and the opening quote doubled
/// (`''`) stands for itself, as RavenDB reads it.
fn string(text: &str) -> Option<(String, usize)> {
    let mut chars = text.char_indices();
    let (_, quote) = chars.next()?;
    let mut value = String::new();
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            let (_, next) = chars.next()?;
            if !matches!(next, '\'' | '"' | '\\') {
                value.push('\\');
            }
            value.push(next);
        } else if c == quote {
            if text[i + 1..].starts_with(quote) {
                chars.next();
                value.push(quote);
            } else {
                return Some((value, i + 1));
            }
        } else {
            value.push(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Kind> {
        lex(source).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn words_symbols_and_values() {
        assert_eq!(
            kinds("from @all_docs where a.b[] >= -1.5 and c <> $p0"),
            [
                Kind::Ident,
                Kind::Ident,
                Kind::Ident,
                Kind::Ident,
                Kind::Symbol("."),
                Kind::Ident,
                Kind::Symbol("["),
                Kind::Symbol("]"),
                Kind::Symbol(">="),
                Kind::Number,
                Kind::Ident,
                Kind::Ident,
                Kind::Symbol("<>"),
                Kind::Parameter("p0".into()),
                Kind::End,
            ]
        );
    }

    #[test]
    fn strings_resolve_escapes() {
        assert_eq!(
            kinds(r#"'it\'s' "say \"hi\"" 'a\\b' 'O''Brien' 'C:\temp'"#),
            [
                Kind::Str("it's".into()),
                Kind::Str("say \"hi\"".into()),
                Kind::Str("a\\b".into()),
                Kind::Str("O'Brien".into()),
                Kind::Str("C:\\temp".into()),
                Kind::End,
            ]
        );
    }

    #[test]
    fn numbers_end_where_digits_do() {
        let source = "1. 2.5.3 +7 -";
        let tokens = lex(source).unwrap();
        let texts: Vec<_> = tokens.iter().map(|t| t.text(source)).collect();
        assert_eq!(texts, ["1", ".", "2.5", ".", "3", "+7", "-", ""]);
    }

    #[test]
    fn comments_run_to_the_end_of_the_line() {
        assert_eq!(
            kinds("from -- where 'x\nOrders --"),
            [Kind::Ident, Kind::Ident, Kind::End]
        );
    }

    #[test]
    fn an_open_string_is_an_error() {
        assert_eq!(
            lex("from Orders where Name = 'x\\'").unwrap_err(),
            RqlError::UnterminatedString {
                at: Position {
                    offset: 25,
                    line: 1,
                    column: 26
                }
            }
        );
        assert!(lex("'\\").is_err());
    }

    #[test]
    fn names_may_hold_letters_beyond_ascii() {
        assert_eq!(
            kinds("Bücher.Straße1 $préfixe"),
            [
                Kind::Ident,
                Kind::Symbol("."),
                Kind::Ident,
                Kind::Parameter("préfixe".into()),
                Kind::End
            ]
        );
        // Letters of any script (Lu, Ll, Lt, Lm, Lo) and decimal digits (Nd) continue a name.
        assert_eq!(
            kinds("日本語 Ǆx ʰa Σ٣"),
            [
                Kind::Ident,
                Kind::Ident,
                Kind::Ident,
                Kind::Ident,
                Kind::End
            ]
        );
        // A decimal digit of another script continues a name but does not start one.
        assert_eq!(kinds("a٣"), [Kind::Ident, Kind::End]);
        assert_eq!(kinds("٣a")[0], Kind::Other('٣'));
    }

    #[test]
    fn names_stop_where_ravendb_stops_them() {
        // RavenDB's scanner refuses symbols, letter-like numbers (Nl, No), combining marks
        // and characters beyond the BMP in a name.
        assert_eq!(
            kinds("a€b"),
            [Kind::Ident, Kind::Other('€'), Kind::Ident, Kind::End]
        );
        assert_eq!(kinds("aⅫ"), [Kind::Ident, Kind::Other('Ⅻ'), Kind::End]);
        assert_eq!(kinds("a²"), [Kind::Ident, Kind::Other('²'), Kind::End]);
        assert_eq!(
            kinds("e\u{301}"),
            [Kind::Ident, Kind::Other('\u{301}'), Kind::End]
        );
        assert_eq!(kinds("a𝒜"), [Kind::Ident, Kind::Other('𝒜'), Kind::End]);
        // Non-ASCII white space separates.
        assert_eq!(kinds("a\u{a0}c"), [Kind::Ident, Kind::Ident, Kind::End]);
    }

    #[test]
    fn other_characters_are_tokens() {
        assert_eq!(
            kinds("$ ` é"),
            [Kind::Other('$'), Kind::Other('`'), Kind::Ident, Kind::End]
        );
    }
}
