//! What a view asks of the workspace: one type per [`Question`], each with its own
//! [`Answer`](Question::Answer), so that a view that asks one question can only be given
//! that question's answer.
//!
//! The host's worker reads every question from one message: [`AnyQuestion`] carries any of
//! them, and [`AnyAnswer`] its answer, the variant of the same name. Both are made by
//! `questions!` below from one list; [`AnyQuestion::answer`] answers a question by its own
//! [`Question::answer`], and [`Carried::answer_of`] takes the answer back out of the
//! reply. Adding a question is a type, its `impl Question`, and its name in that list.
//!
//! # Examples
//!
//! ```
//! use ravenshard_model::host::question::{AnyQuestion, Carried, FirstUsedBucket};
//! use ravenshard_model::host::{Change, Host};
//! use ravenshard_model::workspace::Document;
//!
//! let mut host = Host::default();
//! host.apply(Change::Replace { documents: vec![Document::new("orders/1-A")] })?;
//! let question = FirstUsedBucket { start: 0, end: 1 << 20 };
//! let first: Option<u32> = host.answer(&question);
//! // The same question and answer, as the host's worker reads and writes them.
//! let answer = AnyQuestion::from(question).answer(&mut host);
//! assert_eq!(FirstUsedBucket::answer_of(answer), Some(first));
//! # Ok::<(), ravenshard_model::host::ChangeError>(())
//! ```

mod advice;
mod content;
mod documents;
mod rows;
mod target;

pub use advice::{AdviceError, AdviceJob, Advise, AnchorRewrites};
pub use content::{Content, Designed, GeneratedId, Rejected};
pub use documents::{
    BucketDocuments, Csv, Documents, FirstUsedBucket, Ids, ListedDocument, Report,
};
pub use rows::{Groups, RankedGroups, RowData, Rows};
pub use target::{CheckPrefixes, Histogram, Load};

use super::Host;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most documents one answer lists ([`Documents`], [`BucketDocuments`], [`Rows`],
/// [`Csv`], [`Content`]): more than any view shows at once.
pub const MAX_LISTED: u64 = 1 << 16;

/// A question a view asks of the workspace, and what it is told.
pub trait Question: Carried + Clone + PartialEq + fmt::Debug + Into<AnyQuestion> + 'static {
    /// What the host answers.
    type Answer: Clone + PartialEq + fmt::Debug + 'static;

    /// The answer from the workspace `host` holds now.
    fn answer(&self, host: &mut Host) -> Self::Answer;
}

/// How a question's answer is taken out of the host's reply (made by `questions!` for
/// every question of its list).
pub trait Carried {
    /// This question's answer; `None` when `answer` is another question's (the page gave a
    /// reply to the wrong asker).
    fn answer_of(answer: AnyAnswer) -> Option<<Self as Question>::Answer>
    where
        Self: Question;
}

/// Some of many: a window of them (or the first), and how many there are in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page<T> {
    /// How many in all.
    pub total: u64,
    /// The ones asked for (fewer past the last).
    pub items: Vec<T>,
}

impl<T> Default for Page<T> {
    /// None at all.
    fn default() -> Page<T> {
        Page {
            total: 0,
            items: Vec::new(),
        }
    }
}

/// Another configuration a question names (the Resharding view's target) that does not
/// read: what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigurationError(pub String);

impl fmt::Display for ConfigurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigurationError {}

/// The question enums of one list: [`AnyQuestion`] with a variant for each question type,
/// [`AnyAnswer`] with the variant of the same name for its answer (a field attribute after
/// a name goes on that answer: the documents' wire form), and [`Carried`] for each.
macro_rules! questions {
    ($($(#[$doc:meta])* $name:ident $(#[$field:meta])?;)*) => {
        /// Any question, as the page sends it to the host's worker.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum AnyQuestion {
            $($(#[$doc])* $name($name),)*
        }

        /// The answer to an [`AnyQuestion`]: the variant of its name.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum AnyAnswer {
            $($(#[$doc])* $name($(#[$field])? <$name as Question>::Answer),)*
        }

        impl AnyQuestion {
            /// The answer from the workspace `host` holds now.
            pub fn answer(&self, host: &mut Host) -> AnyAnswer {
                match self {
                    $(AnyQuestion::$name(question) => AnyAnswer::$name(question.answer(host)),)*
                }
            }
        }

        $(
            impl From<$name> for AnyQuestion {
                fn from(question: $name) -> AnyQuestion {
                    AnyQuestion::$name(question)
                }
            }

            impl Carried for $name {
                fn answer_of(answer: AnyAnswer) -> Option<<$name as Question>::Answer> {
                    if let AnyAnswer::$name(answer) = answer {
                        Some(answer)
                    } else {
                        None
                    }
                }
            }
        )*
    };
}

questions! {
    /// Documents of the workspace.
    Documents #[serde(with = "super::wire")];
    /// The bucket map's bins.
    Histogram;
    /// The first used bucket of a range.
    FirstUsedBucket;
    /// A bucket's documents.
    BucketDocuments;
    /// Anchored groups by rank.
    Groups;
    /// The documents view's rows.
    Rows;
    /// Documents' IDs.
    Ids;
    /// CSV lines of documents.
    Csv;
    /// The report.
    Report;
    /// What each used bucket holds.
    Load;
    /// RavenDB's check of another configuration's prefixes.
    CheckPrefixes;
    /// What the draft chapter's design does.
    Content;
    /// The advisor on the workspace's documents.
    Advise;
    /// The IDs an anchor candidate of the advice gives.
    AnchorRewrites;
}
