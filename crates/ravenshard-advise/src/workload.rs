//! The workload the advisor scores candidates against: RQL queries and `LoadDocument`
//! relations.

use super::AdviseError;
use ravenshard_design::rql::{self, Query, Source};

/// A `LoadDocument` relation: documents of `collection` load the document `field` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Load {
    /// The collection that loads (`Orders`).
    pub collection: String,
    /// The field naming the loaded document (`Company`, `Lines.Product`).
    pub field: String,
}

/// Queries (one RQL query a line) and loads (`Collection.Field`, one a line). Blank lines
/// and lines starting with `#` or `//` are skipped.
///
/// # Examples
///
/// ```
/// use ravenshard_advise::Workload;
///
/// let workload = Workload::parse("from Orders where id() = 'orders/1-A'\n\n", "Orders.Company\n")?;
/// assert_eq!(workload.queries().len(), 1);
/// assert_eq!(workload.loads()[0].field, "Company");
/// assert!(Workload::parse("", "Orders").is_err());
/// # Ok::<(), ravenshard_advise::AdviseError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Workload {
    queries: Vec<(String, Query)>,
    loads: Vec<Load>,
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
}

impl Workload {
    /// Reads queries and loads.
    ///
    /// # Errors
    ///
    /// The first query that does not parse ([`AdviseError::Query`]) or load that is not
    /// `Collection.Field` ([`AdviseError::Load`]).
    pub fn parse(queries: &str, loads: &str) -> Result<Workload, AdviseError> {
        let queries = lines(queries)
            .map(|(line, text)| match rql::parse(text) {
                Ok(query) => Ok((text.to_string(), query)),
                Err(e) => Err(AdviseError::Query {
                    line,
                    message: e.to_string(),
                }),
            })
            .collect::<Result<_, _>>()?;
        let loads = lines(loads)
            .map(|(line, text)| match text.split_once('.') {
                Some((c, f)) if !c.is_empty() && !f.is_empty() && !text.contains(' ') => Ok(Load {
                    collection: c.to_string(),
                    field: f.to_string(),
                }),
                _ => Err(AdviseError::Load {
                    line,
                    text: text.to_string(),
                }),
            })
            .collect::<Result<_, _>>()?;
        Ok(Workload { queries, loads })
    }

    /// The queries, as given and parsed.
    pub fn queries(&self) -> &[(String, Query)] {
        &self.queries
    }

    /// The loads.
    pub fn loads(&self) -> &[Load] {
        &self.loads
    }

    /// The queries that read `collection` (by name, or through an index whose name starts
    /// with it, as RavenDB names indexes `Orders/ByCompany`).
    pub(super) fn queries_on<'a>(
        &'a self,
        collection: &'a str,
    ) -> impl Iterator<Item = &'a (String, Query)> + 'a {
        self.queries.iter().filter(move |(_, q)| match &q.source {
            Source::Collection(name) => name.eq_ignore_ascii_case(collection),
            Source::Index(name) => name
                .split('/')
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case(collection)),
        })
    }

    /// Whether a load names `collection.field`.
    pub(super) fn loads_field(&self, collection: &str, field: &str) -> bool {
        self.loads
            .iter()
            .any(|l| l.collection.eq_ignore_ascii_case(collection) && l.field == field)
    }
}
