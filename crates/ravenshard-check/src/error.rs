//! Why `check` could not read its input: bad input, named by input, path and position.

use std::fmt;

/// Bad input: the CLI's exit status 2. Each message says which input, where, and what to do.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CheckError {
    /// The text is not JSON.
    Json {
        /// Which input: `record`, `indexes`.
        input: &'static str,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// serde_json's message, without its position.
        message: String,
    },
    /// JSON, but not a database record (nor index definitions, for `indexes`).
    NotARecord {
        /// Which input.
        input: &'static str,
        /// What was found instead.
        found: String,
    },
    /// A section has the wrong type (`"Indexes": 5`).
    Shape {
        /// Which input.
        input: &'static str,
        /// The JSON path of the value.
        path: String,
        /// What RavenDB writes there.
        expected: &'static str,
        /// What is there.
        found: &'static str,
    },
    /// An index map whose text cannot be read: an unterminated string or comment, or a
    /// bracket that does not close.
    Map {
        /// Which input.
        input: &'static str,
        /// The JSON path of the map (`Indexes.Orders/ByCompany.Maps[0]`).
        path: String,
        /// 1-based line in the map.
        line: usize,
        /// 1-based column in the map.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A `LoadDocument` relation of the loads file is not `Collection.Field`.
    Load {
        /// 1-based line in the loads.
        line: usize,
        /// The line.
        text: String,
    },
    /// The intended sharding is not a valid configuration.
    Sharding(String),
    /// The export could not be read.
    Export(String),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Json {
                input,
                line,
                column,
                message,
            } => write!(
                f,
                "{input}: line {line}, column {column}: {message}. Give the JSON RavenDB \
                 returns (GET /admin/databases?name=<db> for the record)."
            ),
            CheckError::NotARecord { input, found } => write!(
                f,
                "{input}: {found} is not a database record. Give the JSON of \
                 GET /admin/databases?name=<db> (an object with DatabaseName, Indexes, \
                 Settings...), or for --indexes that of GET /databases/<db>/indexes."
            ),
            CheckError::Shape {
                input,
                path,
                expected,
                found,
            } => write!(
                f,
                "{input}: {path} is {found}, where RavenDB writes {expected}. Fix or remove \
                 the value (null and a missing section are fine)."
            ),
            CheckError::Map {
                input,
                path,
                line,
                column,
                message,
            } => write!(
                f,
                "{input}: {path}: line {line}, column {column}: {message}. Give the map as \
                 RavenDB stores it (the index definition's Maps)."
            ),
            CheckError::Load { line, text } => write!(
                f,
                "loads, line {line}: '{text}' is not Collection.Field. Write one LoadDocument \
                 relation a line (e.g. Orders.Company)."
            ),
            CheckError::Sharding(message) => write!(f, "sharding: {message}"),
            CheckError::Export(message) => write!(f, "export: {message}"),
        }
    }
}

impl CheckError {
    /// Which input is bad: `record`, `indexes`, `loads`, `export` or `sharding`.
    ///
    /// # Examples
    ///
    /// ```
    /// let e = ravenshard_check::check(&ravenshard_check::Inputs::record("[1]")).unwrap_err();
    /// assert_eq!(e.input(), "record");
    /// assert!(e.to_string().starts_with("record: an array is not a database record"));
    /// ```
    pub fn input(&self) -> &'static str {
        match self {
            CheckError::Json { input, .. }
            | CheckError::NotARecord { input, .. }
            | CheckError::Shape { input, .. }
            | CheckError::Map { input, .. } => input,
            CheckError::Load { .. } => "loads",
            CheckError::Sharding(_) => "sharding",
            CheckError::Export(_) => "export",
        }
    }
}

impl std::error::Error for CheckError {}

/// The name of a JSON value's type, for [`CheckError::Shape`].
pub(crate) fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
