//! RQL, RavenDB's query language: the part of it that decides where a query must go.
//!
//! [`parse`] reads a query into a [`Query`]: its source (a collection or an index), its
//! alias, its `where` filter, its `order by`, and its paging (`limit`, `offset`). Clauses
//! that do not affect which shards a query reaches (`select`, `include`, `load`,
//! `group by`, `update`) are only named, in [`Query::other_clauses`]; their text is
//! skipped, though it must still be made of valid tokens.
//!
//! ```
//! use ravenshard_design::rql::{parse, CompareOp, Expr, Operand, Source, Value};
//!
//! let query = parse("from Orders where id() = 'orders/1-A'").unwrap();
//! assert_eq!(query.source, Source::Collection("Orders".into()));
//! assert_eq!(
//!     query.filter,
//!     Some(Expr::Compare {
//!         operand: Operand::Id,
//!         op: CompareOp::Equal,
//!         value: Value::String("orders/1-A".into()),
//!     })
//! );
//! assert_eq!(query.to_rql(), "from Orders where id() = 'orders/1-A'");
//! ```
//!
//! Keywords are case-insensitive; names keep their case and follow RavenDB's scanner: a
//! letter (Unicode categories Lu, Ll, Lt, Lm, Lo, in the BMP) or `_` first, then letters,
//! decimal digits (Nd) and `_`. Strings take `'…'` or `"…"`, with
//! `\'`, `\"`, `\\` (and RavenDB's doubled quote, `''`) inside; `--` starts a comment that
//! runs to the end of the line. `declare`, `with` and `match` queries, filtered sources
//! (`from Orders(…)`), quoted field names and fields on the right of a comparison are not
//! read.

mod error;
mod lexer;
mod parser;
mod print;

pub use error::{Position, RqlError};

/// How deep parentheses and `not` may nest before [`parse`] gives up with
/// [`RqlError::TooDeep`], so that no input can exhaust the stack.
pub const MAX_DEPTH: usize = 64;

/// The longest query [`parse`] reads, in bytes (1 MiB): a longer one is refused with
/// [`RqlError::TooLong`], before it is read, so that no input holds the parser long.
pub const MAX_QUERY_BYTES: usize = 1 << 20;

/// The words the parser gives a meaning to, lower case (they match in any case). None of
/// them is taken as an alias, and a collection named like one prints in quotes.
pub const KEYWORDS: [&str; 28] = [
    "from",
    "index",
    "as",
    "where",
    "order",
    "by",
    "group",
    "limit",
    "offset",
    "select",
    "include",
    "load",
    "update",
    "and",
    "or",
    "not",
    "in",
    "all",
    "between",
    "asc",
    "desc",
    "ascending",
    "descending",
    "true",
    "false",
    "null",
    "declare",
    "with",
];

/// Reads one RQL query.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, Count, Source};
///
/// let query = parse("FROM index 'Orders/ByCustomer' WHERE Count < 10 LIMIT 2").unwrap();
/// assert_eq!(query.source, Source::Index("Orders/ByCustomer".into()));
/// assert_eq!(query.limit, Some(Count::Number(2)));
///
/// // RavenDB's `limit M, N` skips M results and takes N.
/// let paged = parse("from Orders limit 20, 10").unwrap();
/// assert_eq!((paged.offset, paged.limit), (Some(Count::Number(20)), Some(Count::Number(10))));
///
/// let error = parse("from Orders where Total =").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "expected a value after '=' at line 1, column 26, found end of query. Compare with a \
///      'string', a number, true, false, null or a $parameter"
/// );
/// ```
pub fn parse(text: &str) -> Result<Query, RqlError> {
    if text.len() > MAX_QUERY_BYTES {
        let past = (0..=MAX_QUERY_BYTES)
            .rev()
            .find(|&b| text.is_char_boundary(b))
            .unwrap_or(0);
        return Err(RqlError::TooLong {
            bytes: text.len(),
            at: Position::at_byte(text, past),
        });
    }
    parser::Parser::new(text)?.query()
}

/// A parsed query.
///
/// Printing it ([`Query::to_rql`], or `Display`) gives RQL that parses back to the same
/// `Query`; clauses in [`other_clauses`](Query::other_clauses) print as their keyword only.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, Count, Expr};
///
/// let query = parse("from Orders as o where o.Customer = 'customers/1-A' limit 10 offset 5000")
///     .unwrap();
/// assert_eq!(query.alias.as_deref(), Some("o"));
/// assert!(matches!(&query.filter, Some(Expr::Compare { .. })));
/// assert_eq!(query.limit, Some(Count::Number(10)));
/// assert_eq!(query.offset, Some(Count::Number(5000)));
/// assert_eq!(
///     query.to_string(),
///     "from Orders as o where o.Customer = 'customers/1-A' limit 10 offset 5000"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// What the query reads.
    pub source: Source,
    /// The name given to each document (`from Orders as o`), if any.
    pub alias: Option<String>,
    /// The `where` condition, if any.
    pub filter: Option<Expr>,
    /// The `order by` keys, in order.
    pub order_by: Vec<OrderBy>,
    /// How many results to return at most.
    pub limit: Option<Count>,
    /// How many results to skip first.
    pub offset: Option<Count>,
    /// The keywords of the clauses read past, lower case and in order: `select`,
    /// `include`, `load`, `update`, `group by`.
    pub other_clauses: Vec<String>,
}

/// What a query reads.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, Source};
///
/// assert_eq!(parse("from @all_docs").unwrap().source, Source::Collection("@all_docs".into()));
/// assert_eq!(parse("from 'Line Items'").unwrap().source, Source::Collection("Line Items".into()));
/// assert_eq!(parse("from index 'Orders/Totals'").unwrap().source, Source::Index("Orders/Totals".into()));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A collection (`from Orders`, `from "Orders"`, `from @all_docs`).
    Collection(String),
    /// An index (`from index 'Orders/Totals'`).
    Index(String),
}

/// A condition. `Or` and `And` are flattened (`a or (b or c)` is one `Or` of three) and
/// hold at least two conditions; parentheses leave no trace.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, Expr};
///
/// let query = parse("from Orders where a = 1 or (b = 2 and not c = 3) or d in (4, 5)").unwrap();
/// let Some(Expr::Or(alternatives)) = query.filter else { panic!() };
/// assert_eq!(alternatives.len(), 3);
/// assert!(matches!(&alternatives[1], Expr::And(both) if matches!(both[1], Expr::Not(_))));
/// assert!(matches!(&alternatives[2], Expr::In { all: false, .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Any of these holds.
    Or(Vec<Expr>),
    /// All of these hold.
    And(Vec<Expr>),
    /// This does not hold.
    Not(Box<Expr>),
    /// `operand op value`.
    Compare {
        /// What is compared.
        operand: Operand,
        /// How.
        op: CompareOp,
        /// With what.
        value: Value,
    },
    /// `operand in (values)`, or with `all`, `operand all in (values)`.
    In {
        /// What is compared.
        operand: Operand,
        /// The candidates (RavenDB allows none).
        values: Vec<Value>,
        /// `all in`: every value must be present (in an array field).
        all: bool,
    },
    /// `operand between low and high`, both ends included.
    Between {
        /// What is compared.
        operand: Operand,
        /// The lower end.
        low: Value,
        /// The upper end.
        high: Value,
    },
    /// `true`: holds for every document. RavenDB's clients write `where true and not …`
    /// for a query that starts with a negation.
    True,
    /// A method call used as a condition (`search(Name, 'x')`, `startsWith(Name, 'a')`,
    /// `exists(Field)`), with any comparison that follows it (`count() > 5`). Not looked
    /// into: routing treats it as unknown.
    Call {
        /// The method's name as written, e.g. `search` or `spatial.within`.
        name: String,
        /// The whole condition as written, from the name to the closing `)` or the value.
        text: String,
    },
}

/// The left side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// The document's ID: `id()`, or `id(o)` with the query's alias `o`.
    Id,
    /// A field path as written but without spaces, e.g. `Address.ZipCode` or
    /// `Lines[].Product`; a leading alias (`o.Customer`) is removed.
    Field(String),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `=` or `==`.
    Equal,
    /// `!=` or `<>`.
    NotEqual,
    /// `<`.
    Less,
    /// `<=`.
    LessOrEqual,
    /// `>`.
    Greater,
    /// `>=`.
    GreaterOrEqual,
}

impl CompareOp {
    /// The operator as RQL writes it (`==` prints as `=`, `<>` as `!=`).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ravenshard_design::rql::CompareOp::LessOrEqual.as_str(), "<=");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            CompareOp::Equal => "=",
            CompareOp::NotEqual => "!=",
            CompareOp::Less => "<",
            CompareOp::LessOrEqual => "<=",
            CompareOp::Greater => ">",
            CompareOp::GreaterOrEqual => ">=",
        }
    }
}

/// A literal or a parameter on the right of a comparison.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, Expr, Value};
///
/// let query = parse(r"from Users where Name in ('O\'Brien', -1.50, TRUE, null, $name)").unwrap();
/// let Some(Expr::In { values, .. }) = query.filter else { panic!() };
/// assert_eq!(
///     values,
///     [
///         Value::String("O'Brien".into()),
///         Value::Number("-1.50".into()),
///         Value::Bool(true),
///         Value::Null,
///         Value::Parameter("name".into()),
///     ]
/// );
/// assert_eq!(values[0].to_string(), r"'O\'Brien'");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string, escapes resolved.
    String(String),
    /// A number as written: an optional sign, digits, and optionally `.` and digits.
    Number(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `$name`: a query parameter, by name (without the `$`).
    Parameter(String),
}

/// A `limit` or `offset`: a whole number, or a parameter (`limit $pageSize`), which
/// RavenDB's clients send for paged queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Count {
    /// A number written in the query.
    Number(u64),
    /// `$name`: a query parameter, by name.
    Parameter(String),
}

/// One `order by` key.
///
/// # Examples
///
/// ```
/// use ravenshard_design::rql::{parse, OrderBy, OrderKey};
///
/// let query = parse("from Orders order by Freight as double desc, random()").unwrap();
/// assert_eq!(
///     query.order_by,
///     [
///         OrderBy {
///             key: OrderKey::Field("Freight".into()),
///             sort_as: Some("double".into()),
///             descending: true,
///         },
///         OrderBy {
///             key: OrderKey::Call { name: "random".into(), text: "random()".into() },
///             sort_as: None,
///             descending: false,
///         },
///     ]
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OrderBy {
    /// What is sorted on.
    pub key: OrderKey,
    /// How values compare, as written after `as`: `string`, `long`, `double` or
    /// `alphaNumeric`.
    pub sort_as: Option<String>,
    /// `desc` (or `descending`); otherwise ascending.
    pub descending: bool,
}

/// What an `order by` key sorts on.
#[derive(Debug, Clone, PartialEq)]
pub enum OrderKey {
    /// A field path, as in [`Operand::Field`].
    Field(String),
    /// A method call such as `random()`, `score()` or `spatial.distance(…)`.
    Call {
        /// The method's name as written.
        name: String,
        /// The call as written.
        text: String,
    },
}
