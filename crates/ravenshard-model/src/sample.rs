//! Sample data: the chapter's examples and a generated orders/companies/employees database.
//!
//! # Examples
//!
//! ```
//! use ravenshard::bucket_for;
//! use ravenshard_model::sample::{chapter_examples, Generator};
//!
//! assert_eq!(chapter_examples()[2].id, "orders/2-A$customers/1-A");
//!
//! let generator = Generator { documents: 1000, anchored_share: 0.5, seed: 7 };
//! let documents = generator.generate().unwrap();
//! assert_eq!(documents.len(), 1000);
//! let anchored = documents.iter().find(|d| d.id.contains('$')).unwrap();
//! let company = anchored.id.split('$').nth(1).unwrap();
//! assert_eq!(bucket_for(&anchored.id), bucket_for(company));
//! ```

use crate::workspace::Document;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The chapter's example documents: orders and customers (one order anchored to its
/// customer), customers created on other nodes (`-B`, `-C`), `Users/4` with three documents
/// anchored to it, and two documents anchored to `foo`.
///
/// The sizes are illustrative (plausible JSON document sizes in bytes), not taken from a
/// real database.
///
/// # Examples
///
/// ```
/// use ravenshard::bucket_for;
/// use ravenshard_model::sample::chapter_examples;
///
/// let examples = chapter_examples();
/// assert_eq!(examples.len(), 12);
/// assert_eq!(bucket_for("Users/70$Users/4"), bucket_for("Users/4"));
/// assert!(examples.iter().all(|d| d.size.is_some() && d.collection.is_some()));
/// ```
pub fn chapter_examples() -> Vec<Document> {
    const EXAMPLES: [(&str, u64, &str); 12] = [
        ("orders/1-A", 1_840, "Orders"),
        ("customers/1-A", 760, "Customers"),
        ("orders/2-A$customers/1-A", 2_310, "Orders"),
        ("customers/6-A", 690, "Customers"),
        ("customers/2-B", 820, "Customers"),
        ("customers/741135-C", 710, "Customers"),
        ("Users/4", 540, "Users"),
        ("Users/70$Users/4", 610, "Users"),
        ("Users/71$Users/4", 585, "Users"),
        ("Users/72$Users/4", 630, "Users"),
        ("Users/1$foo", 500, "Users"),
        ("Users/2$foo", 515, "Users"),
    ];
    EXAMPLES
        .iter()
        .map(|&(id, size, collection)| Document {
            id: id.to_string(),
            size: Some(size),
            collection: Some(collection.to_string()),
            // The chapter's orders belong to customers/1-A (its content-based examples).
            body: (collection == "Orders").then(|| r#"{"Customer":"customers/1-A"}"#.to_string()),
        })
        .collect()
}

/// The most documents [`Generator::generate`] makes.
pub const MAX_DOCUMENTS: usize = 10_000_000;

/// The share of generated documents that are companies (at least one when there are any
/// documents).
pub const COMPANY_SHARE: f64 = 0.05;

/// The share of generated documents that are employees.
pub const EMPLOYEE_SHARE: f64 = 0.01;

/// Why a sample database cannot be generated.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SampleError {
    /// More documents than [`MAX_DOCUMENTS`] were asked for.
    TooManyDocuments {
        /// How many were asked for.
        requested: usize,
        /// The most allowed.
        max: usize,
    },
    /// The anchored share is not a number from 0 to 1.
    BadAnchoredShare {
        /// The share given.
        value: f64,
    },
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::TooManyDocuments { requested, max } => write!(
                f,
                "sample size: {requested} documents is more than the {max} the generator \
                 makes. Ask for {max} or fewer."
            ),
            SampleError::BadAnchoredShare { value } => write!(
                f,
                "anchored share: {} is not a share from 0 to 1. Give the fraction of \
                 orders to anchor to their company, e.g. 0.3 for 30%.",
                value
            ),
        }
    }
}

impl std::error::Error for SampleError {}

/// How many documents of each kind a [`Generator`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// `companies/{n}-A` documents.
    pub companies: usize,
    /// `employees/{n}-A` documents.
    pub employees: usize,
    /// `orders/...` documents, anchored or not.
    pub orders: usize,
    /// Orders named `orders/{n}-A$companies/{k}-A`.
    pub anchored: usize,
}

impl Counts {
    /// The bytes of all the documents' IDs, at most (each number counted at the width of
    /// the largest): what a page reserves up front so that its table of IDs is not copied
    /// whole as it grows (in wasm, a copy of hundreds of megabytes in one task).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::sample::Generator;
    ///
    /// let generator = Generator { documents: 20_000, anchored_share: 0.5, seed: 1 };
    /// let bound = generator.counts()?.id_bytes();
    /// let made: usize = generator.generate()?.iter().map(|d| d.id.len()).sum();
    /// assert!(made <= bound && bound < made + made / 10);
    /// # Ok::<(), ravenshard_model::sample::SampleError>(())
    /// ```
    pub fn id_bytes(&self) -> usize {
        let digits = |n: usize| n.checked_ilog10().map_or(1, |d| d as usize + 1);
        let company = "companies/".len() + digits(self.companies) + "-A".len();
        let employee = "employees/".len() + digits(self.employees) + "-A".len();
        let order = "orders/".len() + digits(self.orders) + "-A".len();
        [
            (self.companies, company),
            (self.employees, employee),
            (self.orders, order),
            (self.anchored, "$".len() + company),
        ]
        .iter()
        .fold(0usize, |sum, &(count, bytes)| {
            sum.saturating_add(count.saturating_mul(bytes))
        })
    }

    /// The bytes of all the documents' bodies, at most: each order has one,
    /// `{"Company":"companies/{k}-A"}`, counted at the width of the largest company number.
    /// With [`id_bytes`](Self::id_bytes), what a page reserves up front.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::sample::Generator;
    ///
    /// let generator = Generator { documents: 10_000, anchored_share: 0.5, seed: 3 };
    /// let bound = generator.counts()?.body_bytes();
    /// let made: usize = generator.generate()?.iter().filter_map(|d| d.body.as_ref()).map(String::len).sum();
    /// assert!(made <= bound && bound < made + made / 10);
    /// # Ok::<(), ravenshard_model::sample::SampleError>(())
    /// ```
    pub fn body_bytes(&self) -> usize {
        let digits = self
            .companies
            .checked_ilog10()
            .map_or(1, |d| d as usize + 1);
        let body = r#"{"Company":"companies/-A"}"#.len() + digits;
        self.orders.saturating_mul(body)
    }
}

/// A generated orders/companies/employees database in RavenDB's HiLo ID style.
///
/// About [`COMPANY_SHARE`] of the documents are companies (`companies/{n}-A`, collection
/// `Companies`, 500 to 1,000 bytes), [`EMPLOYEE_SHARE`] employees (`employees/{n}-A`,
/// `Employees`, 1,000 to 2,000 bytes) and the rest orders (`Orders`, 1,000 to 3,000
/// bytes), listed in that order. Each order belongs to a company drawn from a Zipf-like
/// distribution (the company of rank `r` gets a share of orders about proportional to
/// `1/r`; ranks are scattered over the company numbers), so a few companies have many
/// orders. Exactly `round(orders × anchored_share)` orders, chosen at random, are named
/// `orders/{n}-A$companies/{k}-A` and so share their company's bucket.
///
/// The output depends only on the fields: the same seed gives the same documents, on every
/// platform. Randomness comes from SplitMix64 (Steele, Lea and Flood, 2014), written out
/// here rather than taken from a dependency.
///
/// # Examples
///
/// ```
/// use ravenshard_model::sample::{Counts, Generator, SampleError};
///
/// let generator = Generator { documents: 100, anchored_share: 0.25, seed: 1 };
/// assert_eq!(
///     generator.counts(),
///     Ok(Counts { companies: 5, employees: 1, orders: 94, anchored: 24 })
/// );
/// assert_eq!(generator.generate().unwrap(), generator.generate().unwrap());
///
/// let bad = Generator { anchored_share: 1.5, ..generator };
/// assert_eq!(bad.generate(), Err(SampleError::BadAnchoredShare { value: 1.5 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Generator {
    /// How many documents to make, at most [`MAX_DOCUMENTS`].
    pub documents: usize,
    /// The share of orders anchored to their company, from 0 to 1.
    pub anchored_share: f64,
    /// The seed of the random choices.
    pub seed: u64,
}

impl Default for Generator {
    /// 1,000 documents, half of the orders anchored, seed 1.
    fn default() -> Generator {
        Generator {
            documents: 1000,
            anchored_share: 0.5,
            seed: 1,
        }
    }
}

impl Generator {
    /// How many documents of each kind [`generate`](Self::generate) makes, or why it cannot.
    pub fn counts(&self) -> Result<Counts, SampleError> {
        if self.documents > MAX_DOCUMENTS {
            return Err(SampleError::TooManyDocuments {
                requested: self.documents,
                max: MAX_DOCUMENTS,
            });
        }
        if !(0.0..=1.0).contains(&self.anchored_share) {
            return Err(SampleError::BadAnchoredShare {
                value: self.anchored_share,
            });
        }
        let n = self.documents;
        let share = |fraction: f64| (n as f64 * fraction).round() as usize;
        let companies = if n == 0 {
            0
        } else {
            share(COMPANY_SHARE).max(1)
        };
        let employees = share(EMPLOYEE_SHARE).min(n - companies);
        let orders = n - companies - employees;
        let anchored = ((orders as f64 * self.anchored_share).round() as usize).min(orders);
        Ok(Counts {
            companies,
            employees,
            orders,
            anchored,
        })
    }

    /// Makes the documents: companies, then employees, then orders.
    pub fn generate(&self) -> Result<Vec<Document>, SampleError> {
        let mut documents = Vec::with_capacity(self.documents);
        documents.extend(self.documents_iter()?);
        Ok(documents)
    }

    /// The same documents as [`generate`](Self::generate), made one at a time: a page
    /// takes them a chunk at a time (`by_ref().take(n)`) between paints.
    ///
    /// # Errors
    ///
    /// [`SampleError`] when the generator's fields are out of range.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::sample::Generator;
    ///
    /// let generator = Generator { documents: 1000, ..Default::default() };
    /// let mut documents = generator.documents_iter()?;
    /// let first: Vec<_> = documents.by_ref().take(600).collect();
    /// let rest: Vec<_> = documents.collect();
    /// assert_eq!((first.len(), rest.len()), (600, 400));
    /// assert_eq!([first, rest].concat(), generator.generate()?);
    /// # Ok::<(), ravenshard_model::sample::SampleError>(())
    /// ```
    pub fn documents_iter(&self) -> Result<Generated, SampleError> {
        let counts = self.counts()?;
        Ok(Generated {
            counts,
            rng: SplitMix64(self.seed),
            companies: None,
            to_anchor: counts.anchored,
            made: 0,
        })
    }
}

/// The documents of a [`Generator`], made one at a time ([`Generator::documents_iter`]).
#[derive(Debug, Clone)]
pub struct Generated {
    counts: Counts,
    rng: SplitMix64,
    /// Made after the companies' and employees' sizes are drawn (the order of the draws
    /// is what makes a seed's documents).
    companies: Option<CompanyPicker>,
    to_anchor: usize,
    /// Documents made so far.
    made: usize,
}

impl Generated {
    /// How many documents it makes in all.
    pub fn total(&self) -> usize {
        self.counts.companies + self.counts.employees + self.counts.orders
    }

    /// How many it has made so far.
    pub fn made(&self) -> usize {
        self.made
    }

    /// How many documents of each kind it makes in all.
    pub fn counts(&self) -> Counts {
        self.counts
    }
}

fn document(id: String, size: u64, collection: &str, body: Option<String>) -> Document {
    Document {
        id,
        size: Some(size),
        collection: Some(collection.to_string()),
        body,
    }
}

impl Iterator for Generated {
    type Item = Document;

    fn next(&mut self) -> Option<Document> {
        let Counts {
            companies,
            employees,
            orders,
            ..
        } = self.counts;
        let i = self.made;
        let made = if i < companies {
            let size = self.rng.triangular(500, 1000);
            document(format!("companies/{}-A", i + 1), size, "Companies", None)
        } else if i < companies + employees {
            let size = self.rng.triangular(1000, 2000);
            let n = i - companies + 1;
            document(format!("employees/{n}-A"), size, "Employees", None)
        } else if i < companies + employees + orders {
            let n = i - companies - employees + 1;
            let rng = &mut self.rng;
            let picker = self
                .companies
                .get_or_insert_with(|| CompanyPicker::new(companies, rng));
            let company = picker.pick(rng);
            // Selection sampling (Knuth's algorithm S): exactly `anchored` orders, each set
            // of that size equally likely.
            let remaining = (orders - n + 1) as u64;
            let id = if self.rng.below(remaining) < self.to_anchor as u64 {
                self.to_anchor -= 1;
                format!("orders/{n}-A$companies/{company}-A")
            } else {
                format!("orders/{n}-A")
            };
            // The order's company, for the chapter's content rules (`Fields: ["Company"]`).
            let body = format!(r#"{{"Company":"companies/{company}-A"}}"#);
            document(id, self.rng.triangular(1000, 3000), "Orders", Some(body))
        } else {
            return None;
        };
        self.made += 1;
        Some(made)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.total() - self.made;
        (left, Some(left))
    }
}

/// Draws a company number for an order.
#[derive(Debug, Clone)]
struct CompanyPicker {
    companies: u64,
    /// `ln(companies + 1)`.
    log_span: f64,
    /// Rank `r` (from 0) is company `(r × stride + offset) mod companies + 1`.
    stride: u64,
    offset: u64,
}

impl CompanyPicker {
    fn new(companies: usize, rng: &mut SplitMix64) -> CompanyPicker {
        let companies = companies.max(1) as u64;
        // Near the golden ratio of the count, and coprime with it: a permutation that
        // scatters the big companies over the numbers.
        let mut stride = ((companies as f64 * 0.618_033_988_749_895) as u64).max(1);
        while gcd(stride, companies) != 1 {
            stride += 1;
        }
        CompanyPicker {
            companies,
            log_span: ((companies + 1) as f64).ln(),
            stride,
            offset: rng.below(companies),
        }
    }

    fn pick(&self, rng: &mut SplitMix64) -> u64 {
        // Inverse transform of the density 1/x on [1, companies + 1): rank r (from 1) has
        // probability ln((r + 1) / r) / ln(companies + 1), about proportional to 1/r.
        let x = (rng.unit() * self.log_span).exp();
        let rank = (x as u64).clamp(1, self.companies) - 1;
        // Stride, rank and offset are below 2^21 (companies are 5% of at most 10,000,000
        // documents), so this cannot overflow (u64, not u128,
        // whose division is 1 KB of the studio's wasm).
        let scattered = (rank * self.stride + self.offset) % self.companies;
        scattered + 1
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// SplitMix64: a 64-bit state advanced by the golden-ratio constant, each output a
/// bit-mixed copy of it. Tiny, fast and statistically fine for sample data (not for
/// cryptography).
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-shift; the bias, under n / 2^64, is
    /// negligible here). 0 when `n` is 0.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// From `low` to `high`, most often near the middle (the sum of two uniform draws).
    fn triangular(&mut self, low: u64, high: u64) -> u64 {
        let half = (high - low) / 2;
        low + self.below(half + 1) + self.below(high - low - half + 1)
    }
}
