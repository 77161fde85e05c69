//! Recursive descent over the tokens, one method a rule of the grammar.

use super::error::{Position, RqlError};
use super::lexer::{lex, Kind, Token};
use super::{CompareOp, Expr, Operand, Query, Source, Value, KEYWORDS, MAX_DEPTH};

mod clauses;

/// Words that start a clause: not a collection name unless quoted.
const CLAUSE_WORDS: [&str; 10] = [
    "as", "where", "order", "group", "limit", "offset", "select", "include", "load", "update",
];

const FROM_HINT: &str = "RavenDB queries start with 'from <Collection>' or 'from index '<Name>''";
const CONDITION_HINT: &str = "A condition is a comparison such as Name = 'x' or id() = 'x', \
     'not' and a condition, a condition in parentheses, a method call such as search(Name, 'x'), \
     or true";
const OPERATOR_HINT: &str =
    "Compare with =, !=, <, <=, >, >=, in (…), all in (…) or between … and …";
const VALUE_HINT: &str = "Compare with a 'string', a number, true, false, null or a $parameter";
const ORDER_HINT: &str = "After 'from' come, in order: 'where', 'order by', clauses such as \
     'select' or 'include', then 'limit' and 'offset'";

/// Stands in for a token past the end, which the parser never asks for.
static END: Token = Token {
    kind: Kind::End,
    start: 0,
    end: 0,
};

/// The parser's state: the tokens of one query and how far it has read.
pub(crate) struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    alias: Option<String>,
    depth: usize,
}

impl<'a> Parser<'a> {
    /// Lexes `source`, failing on an unterminated string.
    pub fn new(source: &'a str) -> Result<Parser<'a>, RqlError> {
        Ok(Parser {
            source,
            tokens: lex(source)?,
            pos: 0,
            alias: None,
            depth: 0,
        })
    }

    /// `query` (the whole text).
    pub fn query(mut self) -> Result<Query, RqlError> {
        if !self.eat_keyword("from") {
            return Err(self.expected("'from'", Some(FROM_HINT)));
        }
        let source = self.source()?;
        self.alias = self.alias()?;
        let mut other_clauses = Vec::new();
        if let Some(clause) = self.at_other_clause() {
            // `group by` comes before `where`; what follows it is about groups, not
            // documents, and is read past with it.
            self.other_clause(clause, true, &mut other_clauses);
        }
        let mut filter = None;
        if self.eat_keyword("where") {
            filter = Some(self.or()?);
        }
        let order_by = if self.at_keyword("order") {
            self.order_by()?
        } else {
            Vec::new()
        };
        while let Some(clause) = self.at_other_clause() {
            self.other_clause(clause, true, &mut other_clauses);
        }
        let (limit, offset) = self.paging()?;
        while let Some(clause) = self.at_other_clause() {
            self.other_clause(clause, false, &mut other_clauses);
        }
        if self.peek().kind != Kind::End {
            let hint = if filter.is_some() && order_by.is_empty() && limit.is_none() {
                "Join conditions with 'and' or 'or'. ".to_string() + ORDER_HINT
            } else {
                ORDER_HINT.to_string()
            };
            return Err(self.expected("end of query", Some(&hint)));
        }
        Ok(Query {
            source,
            alias: self.alias,
            filter,
            order_by,
            limit,
            offset,
            other_clauses,
        })
    }

    /// `source`, after `from`.
    fn source(&mut self) -> Result<Source, RqlError> {
        if self.eat_keyword("index") {
            return self.name(&KEYWORDS).map(Source::Index).ok_or_else(|| {
                self.expected(
                    "an index name after 'index'",
                    Some("Name the index in quotes: from index 'Orders/Totals'"),
                )
            });
        }
        self.name(&CLAUSE_WORDS)
            .map(Source::Collection)
            .ok_or_else(|| {
                let hint = FROM_HINT.to_string() + "; quote a name that is a keyword: from 'Order'";
                self.expected("a collection name after 'from'", Some(&hint))
            })
    }

    /// A string, or a word other than `reserved`, as a name; `None` (reading nothing)
    /// for anything else.
    fn name(&mut self, reserved: &[&str]) -> Option<String> {
        let name = match &self.peek().kind {
            Kind::Str(name) => name.clone(),
            Kind::Ident if !self.at_any_keyword(reserved) => self.peek_text().to_string(),
            _ => return None,
        };
        self.advance();
        Some(name)
    }

    /// `[ 'as' ident ]`, or a bare name as RavenDB also takes (`from Orders o`).
    fn alias(&mut self) -> Result<Option<String>, RqlError> {
        let explicit = self.eat_keyword("as");
        if self.peek().kind == Kind::Ident && !self.at_any_keyword(&KEYWORDS) {
            self.advance();
            Ok(Some(self.previous_text().to_string()))
        } else if explicit {
            Err(self.expected("an alias after 'as'", None))
        } else {
            Ok(None)
        }
    }

    /// `expr := and_expr ( 'or' and_expr )*`
    fn or(&mut self) -> Result<Expr, RqlError> {
        let mut items = vec![self.and()?];
        while self.eat_keyword("or") {
            items.push(self.and()?);
        }
        Ok(flatten(items, true))
    }

    /// `and_expr := unary ( 'and' unary )*`
    fn and(&mut self) -> Result<Expr, RqlError> {
        let mut items = vec![self.unary()?];
        while self.eat_keyword("and") {
            items.push(self.unary()?);
        }
        Ok(flatten(items, false))
    }

    /// `unary := 'not' unary | '(' expr ')' | comparison`
    fn unary(&mut self) -> Result<Expr, RqlError> {
        if self.at_keyword("not") {
            self.enter()?;
            self.advance();
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        if self.at_symbol("(") {
            self.enter()?;
            let open = self.advance().start;
            let inner = self.or()?;
            if !self.eat_symbol(")") {
                let at = Position::at_byte(self.source, open);
                let hint = format!(
                    "The '(' at {at} is not closed; join the conditions inside it with 'and' or 'or'"
                );
                return Err(self.expected("')'", Some(&hint)));
            }
            self.depth -= 1;
            return Ok(inner);
        }
        self.comparison()
    }

    /// One more level of parentheses or `not`, if the limit allows.
    fn enter(&mut self) -> Result<(), RqlError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(RqlError::TooDeep {
                at: Position::at_byte(self.source, self.peek().start),
            });
        }
        Ok(())
    }

    /// `comparison`: an operand and what it is compared with, a method call, or `true`
    /// standing alone.
    fn comparison(&mut self) -> Result<Expr, RqlError> {
        if self.peek().kind != Kind::Ident || self.at_any_keyword(&["and", "or"]) {
            let what = format!("a condition after '{}'", self.previous_text());
            return Err(self.expected(what, Some(CONDITION_HINT)));
        }
        let start = self.peek().start;
        let path = self.path()?;
        let alone = !self.at_symbol("(") && !self.at_comparison();
        if alone && path.len() == 1 && path[0].eq_ignore_ascii_case("true") {
            return Ok(Expr::True);
        }
        let operand = if self.at_symbol("(") {
            if path.len() == 1 && path[0].eq_ignore_ascii_case("id") {
                self.id_arguments()?;
                Operand::Id
            } else {
                let name = self.call(&path)?;
                if self.at_comparison() {
                    let written = self.written_from(start).to_string();
                    self.comparison_tail(Operand::Id, &written)?;
                }
                let text = self.written_from(start).to_string();
                return Ok(Expr::Call { name, text });
            }
        } else {
            Operand::Field(self.field(path))
        };
        let written = self.written_from(start).to_string();
        self.comparison_tail(operand, &written)
    }

    /// The rest of `id(` … `)`: nothing, or the query's alias.
    fn id_arguments(&mut self) -> Result<(), RqlError> {
        self.advance();
        let alias = self.alias.clone();
        if self.peek().kind == Kind::Ident && Some(self.peek_text()) == alias.as_deref() {
            self.advance();
        }
        if !self.eat_symbol(")") {
            return Err(self.expected(
                "')' after 'id('",
                Some("id() takes no argument, or the query's alias: id(o) in 'from Orders as o'"),
            ));
        }
        Ok(())
    }

    /// Whether a comparison operator, `in`, `all in` or `between` comes next.
    fn at_comparison(&self) -> bool {
        compare_op(&self.peek().kind).is_some() || self.at_any_keyword(&["in", "all", "between"])
    }

    /// What follows an operand: `op value`, `[all] in (…)` or `between … and …`.
    /// `written` is the operand as written, for messages.
    fn comparison_tail(&mut self, operand: Operand, written: &str) -> Result<Expr, RqlError> {
        if let Some(op) = compare_op(&self.peek().kind) {
            self.advance();
            let value = self.value()?;
            return Ok(Expr::Compare { operand, op, value });
        }
        let all = self.eat_keyword("all");
        if all && !self.at_keyword("in") {
            return Err(self.expected("'in' after 'all'", Some(OPERATOR_HINT)));
        }
        if self.eat_keyword("in") {
            let values = self.value_list()?;
            return Ok(Expr::In {
                operand,
                values,
                all,
            });
        }
        if self.eat_keyword("between") {
            let low = self.value()?;
            if !self.eat_keyword("and") {
                return Err(self.expected(
                    "'and' after the low end of 'between'",
                    Some("Write between <low> and <high>"),
                ));
            }
            let high = self.value()?;
            return Ok(Expr::Between { operand, low, high });
        }
        Err(self.expected(
            format!("an operator after '{}'", shorten(written)),
            Some(OPERATOR_HINT),
        ))
    }

    /// `'(' value (',' value)* ')'` after `in`; RavenDB allows the empty list.
    fn value_list(&mut self) -> Result<Vec<Value>, RqlError> {
        if !self.eat_symbol("(") {
            return Err(self.expected("'(' after 'in'", Some("Write in ('a', 'b')")));
        }
        let mut values = Vec::new();
        if self.eat_symbol(")") {
            return Ok(values);
        }
        loop {
            values.push(self.value()?);
            if self.eat_symbol(")") {
                return Ok(values);
            }
            if !self.eat_symbol(",") {
                return Err(self.expected("',' or ')' in the list after 'in'", None));
            }
        }
    }

    /// `value`.
    fn value(&mut self) -> Result<Value, RqlError> {
        let value = match &self.peek().kind {
            Kind::Str(text) => Value::String(text.clone()),
            Kind::Number => Value::Number(self.peek_text().to_string()),
            Kind::Parameter(name) => Value::Parameter(name.clone()),
            Kind::Ident if self.at_keyword("true") => Value::Bool(true),
            Kind::Ident if self.at_keyword("false") => Value::Bool(false),
            Kind::Ident if self.at_keyword("null") => Value::Null,
            _ => {
                let what = format!("a value after '{}'", self.previous_text());
                return Err(self.expected(what, Some(VALUE_HINT)));
            }
        };
        self.advance();
        Ok(value)
    }

    /// `ident ('.' ident | '[]')*`, as its pieces: the first name, then `.Name` or `[]`.
    fn path(&mut self) -> Result<Vec<String>, RqlError> {
        let mut pieces = vec![self.advance().text(self.source).to_string()];
        loop {
            if self.eat_symbol(".") {
                if self.peek().kind != Kind::Ident {
                    return Err(self.expected("a name after '.'", None));
                }
                pieces.push(format!(".{}", self.advance().text(self.source)));
            } else if self.eat_symbol("[") {
                if !self.eat_symbol("]") {
                    return Err(self.expected(
                        "']' after '['",
                        Some(
                            "Field paths take [] for every item of an array, e.g. Lines[].Product",
                        ),
                    ));
                }
                pieces.push("[]".to_string());
            } else {
                return Ok(pieces);
            }
        }
    }

    /// A path as a field: its pieces joined, without a leading alias.
    fn field(&self, mut pieces: Vec<String>) -> String {
        let aliased = pieces.len() > 1
            && Some(pieces[0].as_str()) == self.alias.as_deref()
            && pieces[1].starts_with('.');
        if aliased {
            pieces.remove(0);
            pieces[0].remove(0);
        }
        pieces.concat()
    }

    /// A method call whose name `path` has been read: skips its balanced parentheses and
    /// returns its name.
    fn call(&mut self, path: &[String]) -> Result<String, RqlError> {
        let name = path.concat();
        let mut open = 0usize;
        loop {
            match self.peek().kind {
                Kind::End => {
                    return Err(self.expected(format!("')' to close '{}('", shorten(&name)), None))
                }
                Kind::Symbol("(") => open += 1,
                Kind::Symbol(")") => open = open.saturating_sub(1),
                _ => {}
            }
            self.advance();
            if open == 0 {
                return Ok(name);
            }
        }
    }

    // Token helpers.

    fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        let last = self.tokens.len().saturating_sub(1);
        self.tokens
            .get((self.pos + ahead).min(last))
            .unwrap_or(&END)
    }

    fn peek_text(&self) -> &'a str {
        self.peek().text(self.source)
    }

    /// The token before the current one, as written.
    fn previous_text(&self) -> &'a str {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(token) => token.text(self.source),
            None => "",
        }
    }

    /// The text from byte `start` to the end of the previous token.
    fn written_from(&self, start: usize) -> &'a str {
        let end = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(start, |t| t.end);
        self.source.get(start..end).unwrap_or("")
    }

    /// Moves past the current token (never past the end) and returns it.
    fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        if token.kind != Kind::End {
            self.pos += 1;
        }
        token
    }

    fn at_keyword(&self, keyword: &str) -> bool {
        self.peek().is_keyword(self.source, keyword)
    }

    fn at_any_keyword(&self, keywords: &[&str]) -> bool {
        keywords.iter().any(|k| self.at_keyword(k))
    }

    fn eat_keyword(&mut self, keyword: &str) -> bool {
        let found = self.at_keyword(keyword);
        if found {
            self.advance();
        }
        found
    }

    fn at_symbol(&self, symbol: &str) -> bool {
        matches!(self.peek().kind, Kind::Symbol(s) if s == symbol)
    }

    fn eat_symbol(&mut self, symbol: &str) -> bool {
        let found = self.at_symbol(symbol);
        if found {
            self.advance();
        }
        found
    }

    /// An error saying `expected` was expected where the current token is.
    fn expected(&self, expected: impl Into<String>, hint: Option<&str>) -> RqlError {
        let token = self.peek();
        let text = shorten(token.text(self.source));
        let found = match token.kind {
            Kind::End => "end of query".to_string(),
            Kind::Str(_) => format!("the string {text}"),
            _ => format!("'{text}'"),
        };
        RqlError::Expected {
            expected: expected.into(),
            found,
            at: Position::at_byte(self.source, token.start),
            hint: hint.map(str::to_string),
        }
    }
}

/// The comparison operator a token is, if it is one.
fn compare_op(kind: &Kind) -> Option<CompareOp> {
    Some(match kind {
        Kind::Symbol("=" | "==") => CompareOp::Equal,
        Kind::Symbol("!=" | "<>") => CompareOp::NotEqual,
        Kind::Symbol("<") => CompareOp::Less,
        Kind::Symbol("<=") => CompareOp::LessOrEqual,
        Kind::Symbol(">") => CompareOp::Greater,
        Kind::Symbol(">=") => CompareOp::GreaterOrEqual,
        _ => return None,
    })
}

/// One condition, or the `Or` (`or`) or `And` of several, with nested ones of the same
/// kind spliced in.
fn flatten(items: Vec<Expr>, or: bool) -> Expr {
    let mut flat = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Expr::Or(inner) if or => flat.extend(inner),
            Expr::And(inner) if !or => flat.extend(inner),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 {
        if let Some(only) = flat.pop() {
            return only;
        }
    }
    if or {
        Expr::Or(flat)
    } else {
        Expr::And(flat)
    }
}

/// `text`, cut to 40 characters for a message.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        text.chars().take(39).collect::<String>() + "…"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare(field: &str) -> Expr {
        Expr::Compare {
            operand: Operand::Field(field.to_string()),
            op: CompareOp::Equal,
            value: Value::Null,
        }
    }

    #[test]
    fn flatten_splices_the_same_operator_only() {
        let (a, b, c) = (compare("a"), compare("b"), compare("c"));
        let or = Expr::Or(vec![a.clone(), b.clone()]);
        assert_eq!(
            flatten(vec![or.clone(), c.clone()], true),
            Expr::Or(vec![a.clone(), b.clone(), c.clone()])
        );
        assert_eq!(
            flatten(vec![or.clone(), c.clone()], false),
            Expr::And(vec![or, c])
        );
        assert_eq!(flatten(vec![a.clone()], false), a);
    }

    #[test]
    fn shorten_keeps_40_characters() {
        let long = "é".repeat(41);
        assert_eq!(shorten(&long[..80]), "é".repeat(40));
        assert_eq!(shorten(&long), "é".repeat(39) + "…");
    }

    #[test]
    fn the_parser_never_reads_past_the_end() {
        let mut parser = Parser::new("from").unwrap();
        parser.advance();
        assert_eq!(parser.advance().kind, Kind::End);
        assert_eq!(parser.peek_at(5).kind, Kind::End);
        assert_eq!(parser.previous_text(), "from");
        assert_eq!(parser.written_from(0), "from");
    }

    #[test]
    fn keyword_lists_agree() {
        for word in CLAUSE_WORDS.iter().chain(&clauses::OTHER_CLAUSES) {
            assert!(KEYWORDS.contains(word), "{word}");
        }
    }
}
