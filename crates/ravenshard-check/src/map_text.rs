//! Reading an index map's text (C# LINQ or JavaScript) far enough to find its loads: the
//! source collection, the range variable, and each `LoadDocument(...)` / `load(...)` call
//! with its arguments. Strings, characters and comments are skipped; brackets must balance.

use ravenshard_design::rql::Position;

/// Why a map's text cannot be read, at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MapSyntax {
    /// Byte offset in the map.
    pub offset: usize,
    /// What is wrong there.
    pub message: String,
}

/// A token of a map.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A name (`LoadDocument`, `docs`, `o`).
    Word(usize, usize),
    /// A string literal's value (escapes kept as written).
    Text(String),
    /// Any other character that is not white space.
    Punct(char, usize),
}

/// A load call in a map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LoadCall {
    /// Where the call's name starts (byte offset).
    pub offset: usize,
    /// `LoadDocument` or `load`.
    pub name: &'static str,
    /// The loaded collection: the string argument, or `LoadDocument<T>`'s type.
    pub collection: Option<String>,
    /// The loaded ID's expression as written (the first argument), without white space.
    pub argument: String,
    /// The whole call as written, without white space (`LoadDocument<Company>(o.Company)`).
    pub written: String,
}

/// What a map says about loads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct MapText {
    /// The collection the map reads (`docs.Orders`, `map('Orders', ...)`).
    pub collection: Option<String>,
    /// The name of its documents (`from o in ...`, `function (o)`, `o => ...`).
    pub alias: Option<String>,
    /// Its load calls, in order.
    pub loads: Vec<LoadCall>,
}

impl MapText {
    /// The field of the map's document that a load's argument reads (`o.Company` with
    /// alias `o`: `Company`), when it is one.
    pub(crate) fn field_of(&self, call: &LoadCall) -> Option<String> {
        let alias = self.alias.as_deref()?;
        let rest = call.argument.strip_prefix(alias)?.strip_prefix('.')?;
        let plain = !rest.is_empty()
            && rest.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c == '_' || c.is_alphanumeric())
            });
        plain.then(|| rest.to_string())
    }
}

/// `location` at the line and column of the byte `byte` of `text`.
pub(crate) fn place(location: &crate::Location, text: &str, byte: usize) -> crate::Location {
    let p = position(text, byte);
    crate::Location {
        line: Some(p.line),
        column: Some(p.column),
        ..location.clone()
    }
}

/// Line and column of a byte offset.
pub(crate) fn position(text: &str, byte: usize) -> Position {
    Position::of(text, text.get(..byte).map_or(0, |b| b.chars().count()))
}

/// The words of a text outside its strings and comments, with their byte offsets; none
/// when its brackets do not balance.
pub(crate) fn words(text: &str) -> Vec<(usize, &str)> {
    tokens(text)
        .unwrap_or_default()
        .iter()
        .filter_map(|t| match t {
            Token::Word(s, e) => text.get(*s..*e).map(|w| (*s, w)),
            _ => None,
        })
        .collect()
}

/// Reads a map.
pub(crate) fn read(text: &str) -> Result<MapText, MapSyntax> {
    let tokens = tokens(text)?;
    let mut map = MapText::default();
    for (i, token) in tokens.iter().enumerate() {
        let next = |k: usize| tokens.get(i + k);
        match word_of(text, token) {
            Some("from") if map.alias.is_none() => {
                map.alias = next(1).and_then(|t| word_of(text, t)).map(str::to_string);
            }
            Some("docs") if map.collection.is_none() => {
                if let (Some(Token::Punct('.', _)), Some(name)) =
                    (next(1), next(2).and_then(|t| word_of(text, t)))
                {
                    map.collection = Some(name.to_string());
                }
            }
            Some("map") if map.collection.is_none() => {
                if let (Some(Token::Punct('(', _)), Some(Token::Text(name))) = (next(1), next(2)) {
                    map.collection = Some(name.clone());
                    map.alias = js_alias(text, tokens.get(i + 3..).unwrap_or_default());
                }
            }
            Some(found @ ("LoadDocument" | "load")) => {
                let name = if found == "load" {
                    "load"
                } else {
                    "LoadDocument"
                };
                let after_dot = i > 0 && matches!(tokens.get(i - 1), Some(Token::Punct('.', _)));
                if !(name == "load" && after_dot) {
                    if let Some(call) = load_call(text, &tokens[i..], name) {
                        map.loads.push(call);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(map)
}

/// The text of a word token.
fn word_of<'a>(text: &'a str, token: &Token) -> Option<&'a str> {
    match token {
        Token::Word(s, e) => text.get(*s..*e),
        _ => None,
    }
}

/// A JavaScript map's document name: `function (o)` or `o =>` after the collection.
fn js_alias(text: &str, rest: &[Token]) -> Option<String> {
    rest.iter()
        .take(6)
        .filter_map(|t| word_of(text, t))
        .find(|w| *w != "function")
        .map(str::to_string)
}

/// The call that starts at `tokens[0]` (its name), when a `(` follows (after an optional
/// `<Type>`).
fn load_call(text: &str, tokens: &[Token], name: &'static str) -> Option<LoadCall> {
    let Token::Word(offset, _) = tokens.first()? else {
        return None;
    };
    let mut i = 1;
    let mut type_name = None;
    if matches!(tokens.get(i), Some(Token::Punct('<', _))) {
        let close = tokens
            .iter()
            .position(|t| matches!(t, Token::Punct('>', _)))?;
        type_name = tokens.get(close.saturating_sub(1)).and_then(|t| match t {
            Token::Word(s, e) => text.get(*s..*e).map(str::to_string),
            _ => None,
        });
        i = close + 1;
    }
    let Some(Token::Punct('(', open)) = tokens.get(i) else {
        return None;
    };
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut close = None;
    let mut strings = Vec::new();
    for token in tokens.get(i..)? {
        match token {
            Token::Punct('(' | '[' | '{', _) => depth += 1,
            Token::Punct(')' | ']' | '}', at) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close = Some(*at);
                    break;
                }
            }
            Token::Punct(',', at) if depth == 1 => commas.push(*at),
            Token::Text(value) if depth == 1 && !commas.is_empty() => strings.push(value.clone()),
            _ => {}
        }
    }
    let close = close?;
    let end = commas.first().copied().unwrap_or(close);
    let compact = |from: usize, to: usize| -> Option<String> {
        Some(text.get(from..to)?.split_whitespace().collect())
    };
    Some(LoadCall {
        offset: *offset,
        name,
        collection: strings.into_iter().next().or(type_name),
        argument: compact(open + 1, end)?,
        written: compact(*offset, close + 1)?,
    })
}

/// The map's tokens; brackets checked.
fn tokens(text: &str) -> Result<Vec<Token>, MapSyntax> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        match b {
            b'/' if next == Some(b'/') => {
                i = text
                    .get(i..)
                    .and_then(|t| t.find('\n'))
                    .map_or(bytes.len(), |n| i + n);
            }
            b'/' if next == Some(b'*') => {
                let end = text
                    .get(i + 2..)
                    .and_then(|t| t.find("*/"))
                    .ok_or_else(|| MapSyntax {
                        offset: i,
                        message: "the comment /* is not closed: end it with */".into(),
                    })?;
                i += 2 + end + 2;
            }
            b'@' | b'$'
                if next == Some(b'"')
                    || (matches!(next, Some(b'@' | b'$')) && bytes.get(i + 2) == Some(&b'"')) =>
            {
                let verbatim = b == b'@' || (next == Some(b'@'));
                let quote = text
                    .get(i..)
                    .and_then(|t| t.find('"'))
                    .map_or(bytes.len(), |n| i + n);
                let (value, end) = string(text, quote, b'"', verbatim)?;
                out.push(Token::Text(value));
                i = end;
            }
            b'"' | b'\'' | b'`' => {
                let (value, end) = string(text, i, b, false)?;
                out.push(Token::Text(value));
                i = end;
            }
            b'(' | b'[' | b'{' => {
                open.push((b, i));
                out.push(Token::Punct(char::from(b), i));
                i += 1;
            }
            b')' | b']' | b'}' => {
                let wanted = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match open.pop() {
                    Some((opener, _)) if opener == wanted => {}
                    Some((opener, at)) => {
                        let p = position(text, at);
                        return Err(MapSyntax {
                            offset: i,
                            message: format!(
                                "'{}' closes the '{}' opened at line {}, column {}",
                                char::from(b),
                                char::from(opener),
                                p.line,
                                p.column
                            ),
                        });
                    }
                    None => {
                        return Err(MapSyntax {
                            offset: i,
                            message: format!("'{}' closes nothing", char::from(b)),
                        })
                    }
                }
                out.push(Token::Punct(char::from(b), i));
                i += 1;
            }
            _ if b == b'_' || b.is_ascii_alphabetic() || b >= 0x80 => {
                let rest = text.get(i..).unwrap_or_default();
                let end = rest
                    .char_indices()
                    .find(|(_, c)| !(*c == '_' || c.is_alphanumeric()))
                    .map_or(bytes.len(), |(n, _)| i + n);
                let end = end.max(i + rest.chars().next().map_or(1, char::len_utf8));
                out.push(Token::Word(i, end));
                i = end;
            }
            _ if b.is_ascii_whitespace() || b.is_ascii_digit() => i += 1,
            _ => {
                out.push(Token::Punct(char::from(b), i));
                i += 1;
            }
        }
    }
    match open.pop() {
        Some((opener, at)) => Err(MapSyntax {
            offset: at,
            message: format!("'{}' is never closed", char::from(opener)),
        }),
        None => Ok(out),
    }
}

/// The string literal whose quote is at `start`: its value and the byte after it.
/// Verbatim strings (`@"..."`) double their quotes; the others escape with `\`.
fn string(
    text: &str,
    start: usize,
    quote: u8,
    verbatim: bool,
) -> Result<(String, usize), MapSyntax> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' if !verbatim => i += 2,
            _ if b == quote && verbatim && bytes.get(i + 1) == Some(&quote) => i += 2,
            _ if b == quote => {
                let value = text.get(start + 1..i).unwrap_or_default().to_string();
                return Ok((value, i + 1));
            }
            _ => i += 1,
        }
    }
    Err(MapSyntax {
        offset: start,
        message: format!("the string opened by {} is not closed", char::from(quote)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csharp_loads_with_their_collection_and_field() {
        let map = read(
            "from o in docs.Orders\nlet c = LoadDocument<Company>(o.Company)\n\
             select new { c.Name, E = LoadDocument(o.Employee, \"Employees\").FirstName }",
        )
        .unwrap();
        assert_eq!(map.collection.as_deref(), Some("Orders"));
        assert_eq!(map.alias.as_deref(), Some("o"));
        let loads: Vec<_> = map
            .loads
            .iter()
            .map(|l| (l.collection.clone(), map.field_of(l)))
            .collect();
        assert_eq!(
            loads,
            [
                (Some("Company".into()), Some("Company".into())),
                (Some("Employees".into()), Some("Employee".into()))
            ]
        );
        assert_eq!(map.loads[0].written, "LoadDocument<Company>(o.Company)");
        assert_eq!(position("a\nbc", 3).column, 2);
    }

    #[test]
    fn javascript_loads_and_strings_and_comments_skipped() {
        let map = read(
            "map('Orders', function (o) { // load(x)\n var c = load(o.Company, 'Companies'); \
             return { Name: c.Name, T: `load(${o.Id})`, S: \"a)\" }; })",
        )
        .unwrap();
        assert_eq!(
            (map.collection.as_deref(), map.alias.as_deref()),
            (Some("Orders"), Some("o"))
        );
        assert_eq!(map.loads.len(), 1);
        assert_eq!(map.loads[0].collection.as_deref(), Some("Companies"));
        assert_eq!(map.field_of(&map.loads[0]).as_deref(), Some("Company"));
    }

    #[test]
    fn a_computed_id_has_no_field() {
        let map = read(
            "from o in docs.Orders select new { X = LoadDocument<Company>(\"companies/\" + o.N) }",
        )
        .unwrap();
        assert_eq!(map.field_of(&map.loads[0]), None);
    }

    #[test]
    fn unbalanced_text_says_where() {
        let e = read("from o in docs.Orders select new { A = (o.X }").unwrap_err();
        assert_eq!(e.message, "'}' closes the '(' opened at line 1, column 40");
        let e = read("from o in docs.Orders select new { A = \"x }").unwrap_err();
        assert!(e.message.contains("not closed"), "{}", e.message);
        assert_eq!(
            read("select new { ").unwrap_err().message,
            "'{' is never closed"
        );
        assert!(read("verbatim @\"a \"\" b\" $\"x{1}\"").is_ok());
    }
}
