//! The clauses after `where`: `order by`, paging, and the clauses read past.

use super::{Kind, Parser};
use crate::rql::error::{Position, RqlError};
use crate::rql::{Count, OrderBy, OrderKey};

/// Clauses read past (with `group by`), as [`Query::other_clauses`](crate::rql::Query::other_clauses) names them.
pub(super) const OTHER_CLAUSES: [&str; 4] = ["select", "include", "load", "update"];

/// The sort types `order by … as` takes.
const SORT_TYPES: [&str; 4] = ["string", "long", "double", "alphaNumeric"];

impl Parser<'_> {
    /// `'order' 'by' order (',' order)*`
    pub(super) fn order_by(&mut self) -> Result<Vec<OrderBy>, RqlError> {
        self.advance();
        if !self.eat_keyword("by") {
            return Err(self.expected("'by' after 'order'", None));
        }
        let mut keys = Vec::new();
        loop {
            if self.peek().kind != Kind::Ident {
                let what = format!("a field or a method call after '{}'", self.previous_text());
                return Err(self.expected(what, None));
            }
            let start = self.peek().start;
            let path = self.path()?;
            let key = if self.at_symbol("(") && !path.iter().any(|p| p == "[]") {
                let name = self.call(&path)?;
                let text = self.written_from(start).to_string();
                OrderKey::Call { name, text }
            } else {
                OrderKey::Field(self.field(path))
            };
            let mut sort_as = None;
            if self.eat_keyword("as") {
                if !self.at_any_keyword(&SORT_TYPES) {
                    return Err(self.expected(
                        "a sort type after 'as'",
                        Some("Sort as string, long, double or alphaNumeric"),
                    ));
                }
                sort_as = Some(self.advance().text(self.source).to_string());
            }
            let descending = self.at_any_keyword(&["desc", "descending"]);
            if descending || self.at_any_keyword(&["asc", "ascending"]) {
                self.advance();
            }
            keys.push(OrderBy {
                key,
                sort_as,
                descending,
            });
            if !self.eat_symbol(",") {
                return Ok(keys);
            }
        }
    }

    /// `[ 'limit' count [ ',' count ] ] [ 'offset' count ]`, as (limit, offset).
    pub(super) fn paging(&mut self) -> Result<(Option<Count>, Option<Count>), RqlError> {
        let (mut limit, mut offset, mut pair) = (None, None, false);
        if self.eat_keyword("limit") {
            let first = self.count()?;
            if self.eat_symbol(",") {
                // RavenDB's `limit M, N`: skip M, take N.
                offset = Some(first);
                limit = Some(self.count()?);
                pair = true;
            } else {
                limit = Some(first);
            }
        }
        if self.at_keyword("offset") {
            if pair {
                return Err(RqlError::OffsetTwice {
                    at: Position::at_byte(self.source, self.peek().start),
                });
            }
            self.advance();
            offset = Some(self.count()?);
        }
        Ok((limit, offset))
    }

    /// A whole number or a parameter, after `limit`, `offset` or `,`.
    fn count(&mut self) -> Result<Count, RqlError> {
        let token = self.peek();
        let count = match &token.kind {
            Kind::Parameter(name) => Count::Parameter(name.clone()),
            Kind::Number if self.peek_text().bytes().all(|b| b.is_ascii_digit()) => {
                let text = self.peek_text();
                Count::Number(text.parse().map_err(|_| RqlError::NumberTooLarge {
                    text: text.to_string(),
                    at: Position::at_byte(self.source, token.start),
                })?)
            }
            _ => {
                let what = format!(
                    "a whole number or a $parameter after '{}'",
                    self.previous_text()
                );
                return Err(self.expected(what, None));
            }
        };
        self.advance();
        Ok(count)
    }

    /// The clause that starts here, if it is one read past: its keyword.
    pub(super) fn at_other_clause(&self) -> Option<&'static str> {
        if self.peek_at(1).kind == Kind::Symbol("(") {
            return None; // a method call, such as load(…) in a select
        }
        if self.at_keyword("group") && self.peek_at(1).is_keyword(self.source, "by") {
            return Some("group by");
        }
        OTHER_CLAUSES.into_iter().find(|c| self.at_keyword(c))
    }

    /// Records `clause` (at the current token) and reads past it to the end of the query,
    /// or, with `to_paging`, to a `limit` or `offset` followed by a count outside any
    /// brackets. Other clauses it meets outside brackets are recorded too.
    pub(super) fn other_clause(
        &mut self,
        clause: &'static str,
        to_paging: bool,
        found: &mut Vec<String>,
    ) {
        let mut clause = Some(clause);
        let mut open = 0usize;
        loop {
            if let Some(keyword) = clause.take() {
                found.push(keyword.to_string());
                self.pos += keyword.split(' ').count();
            }
            let paging_next = matches!(self.peek_at(1).kind, Kind::Number | Kind::Parameter(_))
                && self.at_any_keyword(&["limit", "offset"]);
            match self.peek().kind {
                Kind::End => return,
                _ if open == 0 && to_paging && paging_next => return,
                _ if open == 0 && self.at_other_clause().is_some() => {
                    clause = self.at_other_clause();
                    continue;
                }
                Kind::Symbol("(" | "[" | "{") => open += 1,
                Kind::Symbol(")" | "]" | "}") => open = open.saturating_sub(1),
                _ => {}
            }
            self.advance();
        }
    }
}
