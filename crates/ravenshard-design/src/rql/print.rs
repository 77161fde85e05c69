//! Writes the syntax tree back as RQL that [`parse`](super::parse) reads to the same tree.

use std::fmt::{self, Display, Formatter, Write as _};

use super::lexer::{is_word_char, is_word_start};
use super::{Count, Expr, Operand, OrderBy, OrderKey, Query, Source, Value, KEYWORDS};

impl Query {
    /// The query as RQL, on one line, with lower-case keywords: `from`, the source, `as`
    /// and the alias, `where`, `order by`, the other clauses' keywords, `limit`, `offset`.
    /// Fields print with the alias in front when there is one (`o.Customer`); `limit M, N`
    /// prints as `limit N offset M`. Parsing the result gives this query back.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::rql::parse;
    ///
    /// let query = parse("FROM Orders WHERE (a == 1 OR b <> 2) AND NOT c IN ('x') LIMIT 5, 10").unwrap();
    /// assert_eq!(
    ///     query.to_rql(),
    ///     "from Orders where (a = 1 or b != 2) and not c in ('x') limit 10 offset 5"
    /// );
    /// assert_eq!(parse(&query.to_rql()).unwrap(), query);
    /// ```
    pub fn to_rql(&self) -> String {
        self.to_string()
    }
}

impl Display for Query {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "from {}", self.source)?;
        let alias = self.alias.as_deref();
        if let Some(alias) = alias {
            write!(f, " as {alias}")?;
        }
        if let Some(filter) = &self.filter {
            f.write_str(" where ")?;
            write_expr(f, filter, alias, false)?;
        }
        for (i, order) in self.order_by.iter().enumerate() {
            f.write_str(if i == 0 { " order by " } else { ", " })?;
            write_order(f, order, alias)?;
        }
        for clause in &self.other_clauses {
            write!(f, " {clause}")?;
        }
        if let Some(limit) = &self.limit {
            write!(f, " limit {limit}")?;
        }
        if let Some(offset) = &self.offset {
            write!(f, " offset {offset}")?;
        }
        Ok(())
    }
}

impl Display for Source {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Source::Collection(name) if is_plain_name(name) => f.write_str(name),
            Source::Collection(name) => write_string(f, name),
            Source::Index(name) => {
                f.write_str("index ")?;
                write_string(f, name)
            }
        }
    }
}

/// Prints the condition as it would stand in a query without an alias.
impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_expr(f, self, None, false)
    }
}

impl Display for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Value::String(text) => write_string(f, text),
            Value::Number(text) => f.write_str(text),
            Value::Bool(value) => write!(f, "{value}"),
            Value::Null => f.write_str("null"),
            Value::Parameter(name) => write!(f, "${name}"),
        }
    }
}

impl Display for Count {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Count::Number(n) => write!(f, "{n}"),
            Count::Parameter(name) => write!(f, "${name}"),
        }
    }
}

/// `expr`, in parentheses when `nested` in an `and` or `not` and it is an `or` or `and`.
fn write_expr(
    f: &mut Formatter<'_>,
    expr: &Expr,
    alias: Option<&str>,
    nested: bool,
) -> fmt::Result {
    match expr {
        Expr::Or(items) | Expr::And(items) => {
            let joint = if matches!(expr, Expr::Or(_)) {
                " or "
            } else {
                " and "
            };
            if nested {
                f.write_char('(')?;
            }
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(joint)?;
                }
                // Inside an `or`, an `and` binds tighter and needs no parentheses.
                let inner = matches!(expr, Expr::And(_)) || matches!(item, Expr::Or(_));
                write_expr(f, item, alias, inner)?;
            }
            if nested {
                f.write_char(')')?;
            }
            Ok(())
        }
        Expr::Not(inner) => {
            f.write_str("not ")?;
            write_expr(f, inner, alias, true)
        }
        Expr::Compare { operand, op, value } => {
            write_operand(f, operand, alias)?;
            write!(f, " {} {value}", op.as_str())
        }
        Expr::In {
            operand,
            values,
            all,
        } => {
            write_operand(f, operand, alias)?;
            f.write_str(if *all { " all in (" } else { " in (" })?;
            for (i, value) in values.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{value}")?;
            }
            f.write_char(')')
        }
        Expr::Between { operand, low, high } => {
            write_operand(f, operand, alias)?;
            write!(f, " between {low} and {high}")
        }
        Expr::True => f.write_str("true"),
        Expr::Call { text, .. } => f.write_str(text),
    }
}

fn write_operand(f: &mut Formatter<'_>, operand: &Operand, alias: Option<&str>) -> fmt::Result {
    match operand {
        Operand::Id => f.write_str("id()"),
        Operand::Field(path) => write_field(f, path, alias),
    }
}

/// A field, behind the alias when there is one, so that a field whose first name is the
/// alias's keeps it.
fn write_field(f: &mut Formatter<'_>, path: &str, alias: Option<&str>) -> fmt::Result {
    if let Some(alias) = alias {
        write!(f, "{alias}.")?;
    }
    f.write_str(path)
}

fn write_order(f: &mut Formatter<'_>, order: &OrderBy, alias: Option<&str>) -> fmt::Result {
    match &order.key {
        OrderKey::Field(path) => write_field(f, path, alias)?,
        OrderKey::Call { text, .. } => f.write_str(text)?,
    }
    if let Some(sort_as) = &order.sort_as {
        write!(f, " as {sort_as}")?;
    }
    if order.descending {
        f.write_str(" desc")?;
    }
    Ok(())
}

/// `text` in single quotes, with `\` and `'` escaped.
fn write_string(f: &mut Formatter<'_>, text: &str) -> fmt::Result {
    f.write_char('\'')?;
    for c in text.chars() {
        if c == '\\' || c == '\'' {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_char('\'')
}

/// Whether a collection name reads back as itself without quotes.
fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_word_start)
        && chars.all(is_word_char)
        && !KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name))
}
