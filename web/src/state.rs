//! The studio's state: one [`Reducible`] value, changed only by [`Action`]s.
//!
//! Everything the page shows is derived here, from what the user typed, by the core
//! (`ravenshard::explain`, `Topology::with_shards`, `Topology::locate`). Components only
//! render a [`State`] and turn DOM events into [`Action`]s, so the whole behaviour of the
//! page is testable natively with plain `#[test]`s.
//!
//! Derived values (the topology and the [`Analysis`]) are recomputed by the reducer whenever
//! their inputs change and are kept behind `Rc`, so they are never out of date and cloning a
//! state is cheap.

use ravenshard::{explain, validate_id, BucketRange, Explanation, Topology};
use std::rc::Rc;
use yew::{AttrValue, Reducible};

/// The IDs the studio opens on: the examples of the sharding chapter.
pub const SAMPLE_IDS: &[&str] = &[
    "orders/1-A",
    "customers/1-A",
    "orders/2-A$customers/1-A",
    "Users/4",
    "Users/70$Users/4",
    "Users/71$Users/4",
    "Users/1$foo",
    "Users/2$foo",
    "customers/2-B",
    "customers/741135-C",
];

/// The shard count the studio opens with.
pub const DEFAULT_SHARDS: u32 = 3;

/// The largest shard count the studio accepts.
pub const MAX_SHARDS: u32 = 1024;

/// The database name the studio opens with (its fragments are `Orders$0`, `Orders$1`...).
pub const DEFAULT_DATABASE: &str = "Orders";

/// How many IDs get a row in the table; the summary counts every ID.
pub const ROW_LIMIT: usize = 1000;

/// Up to this many shards, the summary has a card for every shard; above it, only for the
/// shards that hold IDs.
pub const ALL_SHARD_CARDS_UP_TO: usize = 16;

/// The most shard cards the summary shows.
pub const SHARD_CARD_LIMIT: usize = 64;

/// How many characters of an invalid ID are shown (the rest is elided).
pub const PREVIEW_CHARS: usize = 60;

/// The sample IDs as the text of the ID editor, one per line.
pub fn sample_text() -> String {
    SAMPLE_IDS.join("\n")
}

/// Everything a user can do to the studio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// The ID editor now holds this text (one ID per line).
    SetIds(String),
    /// The shard count field now holds this text (applied only if it is valid).
    SetShardCount(String),
    /// The database name field now holds this text (applied only if it is valid).
    SetDatabase(String),
    /// Put the sample IDs back in the editor.
    LoadSample,
    /// Empty the editor.
    ClearIds,
}

/// One non-blank line of the ID editor.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based line number in the editor.
    pub line: usize,
    /// Where the ID goes, or why it cannot be stored.
    pub outcome: Outcome,
}

/// What the core says about one line.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A valid ID, with every step of its placement (and its warnings, if any).
    Placed(Box<Explanation>),
    /// An ID RavenDB rejects.
    Invalid {
        /// The start of the ID, at most [`PREVIEW_CHARS`] characters, `…` added if cut.
        preview: String,
        /// The core's message: what is wrong and what to do.
        message: String,
    },
}

/// How many IDs one shard holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardTotal {
    /// The shard number.
    pub shard: u32,
    /// Its fragment database, `<database>$<shard>`.
    pub fragment: String,
    /// The bucket ranges it owns.
    pub ranges: Vec<BucketRange>,
    /// How many of the valid IDs land on it.
    pub documents: usize,
}

impl ShardTotal {
    /// This shard's share of `placed` IDs, in whole percent (0 when there are none).
    pub fn percent_of(&self, placed: usize) -> u64 {
        let (documents, placed) = (self.documents as u64, placed as u64);
        documents
            .saturating_mul(100)
            .saturating_add(placed / 2)
            .checked_div(placed)
            .unwrap_or(0)
    }
}

/// The editor's IDs, placed by the current topology.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Analysis {
    /// The first [`ROW_LIMIT`] non-blank lines (each behind an `Rc`, so a row component
    /// gets its row without copying it).
    pub rows: Vec<Rc<Row>>,
    /// How many non-blank lines there are (rows shown or not).
    pub ids: usize,
    /// How many of them are valid IDs.
    pub placed: usize,
    /// How many are rejected.
    pub invalid: usize,
    /// How many valid IDs have warnings.
    pub warned: usize,
    /// Documents per shard, in shard order (empty without a topology).
    pub shards: Vec<ShardTotal>,
}

impl Analysis {
    /// Places every non-blank line of `text`; lines may end with `\n` or `\r\n`.
    pub fn of(text: &str, topology: Option<&Topology>) -> Analysis {
        let mut analysis = Analysis {
            shards: topology.map_or_else(Vec::new, |t| {
                t.shards()
                    .map(|s| ShardTotal {
                        shard: s.number,
                        fragment: t.fragment(s.number),
                        ranges: t
                            .ranges()
                            .iter()
                            .filter(|r| r.shard == s.number)
                            .copied()
                            .collect(),
                        documents: 0,
                    })
                    .collect()
            }),
            ..Analysis::default()
        };
        for (index, line) in text.split('\n').enumerate() {
            let id = line.strip_suffix('\r').unwrap_or(line);
            if id.trim().is_empty() {
                continue;
            }
            analysis.ids += 1;
            if analysis.rows.len() < ROW_LIMIT {
                let outcome = match explain(id, topology) {
                    Ok(e) => {
                        analysis.count_placed(e.shard, !e.warnings.is_empty());
                        Outcome::Placed(Box::new(e))
                    }
                    Err(e) => {
                        analysis.invalid += 1;
                        Outcome::Invalid {
                            preview: preview(id),
                            message: e.to_string(),
                        }
                    }
                };
                analysis.rows.push(Rc::new(Row {
                    line: index + 1,
                    outcome,
                }));
            } else {
                // Past the rows shown, only the counts matter: skip the explanation.
                match validate_id(id) {
                    Ok(warnings) => {
                        let shard = topology.and_then(|t| t.locate(id).ok()).map(|l| l.shard);
                        analysis.count_placed(shard, !warnings.is_empty());
                    }
                    Err(_) => analysis.invalid += 1,
                }
            }
        }
        analysis
    }

    fn count_placed(&mut self, shard: Option<u32>, warned: bool) {
        self.placed += 1;
        if warned {
            self.warned += 1;
        }
        if let Some(shard) = shard {
            // Shards are listed in ascending order of number.
            if let Ok(i) = self.shards.binary_search_by_key(&shard, |s| s.shard) {
                if let Some(total) = self.shards.get_mut(i) {
                    total.documents += 1;
                }
            }
        }
    }

    /// How many shards hold at least one of the IDs.
    pub fn shards_holding(&self) -> usize {
        self.shards.iter().filter(|s| s.documents > 0).count()
    }

    /// The shards the summary shows a card for, in shard order: every shard up to
    /// [`ALL_SHARD_CARDS_UP_TO`] shards; above that only the shards that hold IDs, at most
    /// [`SHARD_CARD_LIMIT`] of them.
    pub fn shard_cards(&self) -> Vec<&ShardTotal> {
        if self.shards.len() <= ALL_SHARD_CARDS_UP_TO {
            self.shards.iter().collect()
        } else {
            self.shards
                .iter()
                .filter(|s| s.documents > 0)
                .take(SHARD_CARD_LIMIT)
                .collect()
        }
    }

    /// How many non-blank lines have no row in the table (beyond [`ROW_LIMIT`]).
    pub fn hidden_rows(&self) -> usize {
        self.ids.saturating_sub(self.rows.len())
    }
}

/// The first [`PREVIEW_CHARS`] characters of `id`, with `…` if there were more.
fn preview(id: &str) -> String {
    match id.char_indices().nth(PREVIEW_CHARS) {
        Some((cut, _)) => format!("{}…", &id[..cut]),
        None => id.to_string(),
    }
}

/// Splits `id` at a character range `[start, end)` into the text before, inside and after
/// it. Out-of-range bounds are clamped, so this never panics.
///
/// ```
/// use ravenshard_studio::state::split_chars;
///
/// assert_eq!(split_chars("Users/70$Users/4", [9, 16]), ("Users/70$", "Users/4", ""));
/// assert_eq!(split_chars("é$ü", [2, 3]), ("é$", "ü", ""));
/// ```
pub fn split_chars(id: &str, range: [usize; 2]) -> (&str, &str, &str) {
    let byte_at = |chars: usize| id.char_indices().nth(chars).map_or(id.len(), |(i, _)| i);
    let start = byte_at(range[0]);
    let end = byte_at(range[1]).max(start);
    (&id[..start], &id[start..end], &id[end..])
}

/// Reads the shard count field: a whole number from 1 to [`MAX_SHARDS`].
pub fn parse_shard_count(text: &str) -> Result<u32, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("Enter a shard count from 1 to {MAX_SHARDS}."));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{}' is not a shard count. Enter a whole number from 1 to {MAX_SHARDS}.",
            preview(text)
        ));
    }
    match text.parse::<u32>() {
        Ok(0) => Err(format!(
            "A sharded database has at least 1 shard. Enter 1 to {MAX_SHARDS}."
        )),
        Ok(n) if n <= MAX_SHARDS => Ok(n),
        _ => Err(format!(
            "The studio plans up to {MAX_SHARDS} shards. Enter 1 to {MAX_SHARDS}."
        )),
    }
}

/// Reads the database name field: not blank, no `$` (it separates the name from the shard
/// number in a fragment's name). Surrounding spaces are dropped.
pub fn parse_database(text: &str) -> Result<String, String> {
    let name = text.trim();
    if name.is_empty() {
        Err("Enter a database name: fragments are named <database>$<shard>.".to_string())
    } else if name.contains('$') {
        Err(
            "A database name cannot contain '$': it separates the name from the shard number \
             in fragment names such as Orders$2."
                .to_string(),
        )
    } else {
        Ok(name.to_string())
    }
}

/// The studio's whole state.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    ids: AttrValue,
    shard_input: String,
    shard_error: Option<String>,
    database_input: String,
    database_error: Option<String>,
    shards: u32,
    database: String,
    topology: Option<Rc<Topology>>,
    analysis: Rc<Analysis>,
}

impl Default for State {
    /// The sample IDs, [`DEFAULT_SHARDS`] shards, database [`DEFAULT_DATABASE`].
    fn default() -> Self {
        State::new(
            &sample_text(),
            &DEFAULT_SHARDS.to_string(),
            DEFAULT_DATABASE,
        )
    }
}

impl State {
    /// A state as if the user had typed these three fields. Invalid settings are shown as
    /// errors and replaced by the defaults.
    pub fn new(ids: &str, shard_count: &str, database: &str) -> State {
        let mut state = State {
            ids: AttrValue::from(ids.to_string()),
            shard_input: String::new(),
            shard_error: None,
            database_input: String::new(),
            database_error: None,
            shards: DEFAULT_SHARDS,
            database: DEFAULT_DATABASE.to_string(),
            topology: None,
            analysis: Rc::default(),
        };
        state.rebuild_topology();
        state.set_database(database);
        state.set_shard_count(shard_count);
        state.analyse();
        state
    }

    /// The text of the ID editor (an `AttrValue`, so handing it to the editor is cheap).
    pub fn ids(&self) -> &AttrValue {
        &self.ids
    }

    /// The text of the shard count field, as typed.
    pub fn shard_input(&self) -> &str {
        &self.shard_input
    }

    /// Why the shard count field is not applied, if it is not.
    pub fn shard_error(&self) -> Option<&str> {
        self.shard_error.as_deref()
    }

    /// The shard count in force (the last valid one typed).
    pub fn shards(&self) -> u32 {
        self.shards
    }

    /// The text of the database name field, as typed.
    pub fn database_input(&self) -> &str {
        &self.database_input
    }

    /// Why the database name field is not applied, if it is not.
    pub fn database_error(&self) -> Option<&str> {
        self.database_error.as_deref()
    }

    /// The database name in force.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// The topology in force (`None` only if the core refused every shard count, which it
    /// does not for 1 to [`MAX_SHARDS`]).
    pub fn topology(&self) -> Option<&Rc<Topology>> {
        self.topology.as_ref()
    }

    /// The editor's IDs, placed.
    pub fn analysis(&self) -> &Rc<Analysis> {
        &self.analysis
    }

    /// Applies `action` in place; the reducer's work.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::SetIds(text) => {
                if text != self.ids.as_str() {
                    self.ids = AttrValue::from(text);
                    self.analyse();
                }
            }
            Action::LoadSample => {
                self.ids = AttrValue::from(sample_text());
                self.analyse();
            }
            Action::ClearIds => {
                self.ids = AttrValue::default();
                self.analyse();
            }
            Action::SetShardCount(text) => {
                let before = self.shards;
                self.set_shard_count(&text);
                if self.shards != before {
                    self.analyse();
                }
            }
            Action::SetDatabase(text) => {
                let before = self.database.clone();
                self.set_database(&text);
                if self.database != before {
                    self.analyse();
                }
            }
        }
    }

    /// Records the shard count field and, if valid, rebuilds the topology (not the analysis).
    fn set_shard_count(&mut self, text: &str) {
        self.shard_input = text.to_string();
        match parse_shard_count(text) {
            Ok(n) => {
                let before = self.shards;
                self.shards = n;
                self.shard_error = None;
                if n != before || self.topology.is_none() {
                    self.rebuild_topology();
                    if self.topology.is_none() {
                        // The core refused it (it does not for 1..=MAX_SHARDS): keep the old.
                        self.shards = before;
                        self.rebuild_topology();
                    }
                }
            }
            Err(message) => self.shard_error = Some(message),
        }
    }

    /// Records the database name field and, if valid, renames the topology's database.
    fn set_database(&mut self, text: &str) {
        self.database_input = text.to_string();
        match parse_database(text) {
            Ok(name) => {
                self.database_error = None;
                if name != self.database {
                    self.database = name;
                    if let Some(topology) = &mut self.topology {
                        Rc::make_mut(topology).set_database(&self.database);
                    }
                }
            }
            Err(message) => self.database_error = Some(message),
        }
    }

    fn rebuild_topology(&mut self) {
        self.topology = match Topology::with_shards(self.shards) {
            Ok(mut topology) => {
                topology.set_database(&self.database);
                Some(Rc::new(topology))
            }
            Err(e) => {
                self.shard_error = Some(e.to_string());
                None
            }
        };
    }

    fn analyse(&mut self) {
        self.analysis = Rc::new(Analysis::of(&self.ids, self.topology.as_deref()));
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn reduce(state: State, action: Action) -> State {
        Rc::unwrap_or_clone(Rc::new(state).reduce(action))
    }

    fn placed(row: &Row) -> &Explanation {
        match &row.outcome {
            Outcome::Placed(e) => e,
            Outcome::Invalid { message, .. } => panic!("line {} is invalid: {message}", row.line),
        }
    }

    #[test]
    fn opens_on_the_chapter_sample() {
        let state = State::default();
        assert_eq!(state.shards(), 3);
        assert_eq!(state.database(), "Orders");
        let a = state.analysis();
        assert_eq!((a.ids, a.placed, a.invalid, a.warned), (10, 10, 0, 0));
        let customer = placed(&a.rows[1]);
        assert_eq!(customer.id, "customers/1-A");
        assert_eq!((customer.bucket, customer.shard), (982173, Some(2)));
        assert_eq!(customer.fragment.as_deref(), Some("Orders$2"));
        let anchored = placed(&a.rows[2]);
        assert_eq!(anchored.bucket, 982173);
        assert_eq!(anchored.hashed, "customers/1-a");
        let total: usize = a.shards.iter().map(|s| s.documents).sum();
        assert_eq!(total, 10);
        assert_eq!(a.shards.len(), 3);
        assert_eq!(a.shards[2].fragment, "Orders$2");
    }

    #[test]
    fn anchored_ids_share_their_anchors_shard() {
        let a = Rc::clone(State::default().analysis());
        let shard_of = |id: &str| {
            a.rows
                .iter()
                .map(|row| placed(row))
                .find(|e| e.id == id)
                .and_then(|e| e.shard)
        };
        assert_eq!(shard_of("Users/70$Users/4"), shard_of("Users/4"));
        assert_eq!(shard_of("Users/71$Users/4"), shard_of("Users/4"));
        assert_eq!(shard_of("Users/1$foo"), shard_of("Users/2$foo"));
    }

    #[test]
    fn typing_ids_recomputes_rows_and_keeps_line_numbers() {
        let state = reduce(
            State::default(),
            Action::SetIds("customers/1-A\n\n  \r\nUsers/4\r\n".into()),
        );
        let a = state.analysis();
        assert_eq!(a.ids, 2);
        assert_eq!(a.rows.len(), 2);
        assert_eq!(a.rows[0].line, 1);
        assert_eq!(a.rows[1].line, 4);
        assert_eq!(
            placed(&a.rows[1]).id,
            "Users/4",
            "the \\r of CRLF is not part of the ID"
        );
    }

    #[test]
    fn shard_count_changes_shards_and_summary() {
        let state = reduce(State::default(), Action::SetShardCount("1".into()));
        assert_eq!(state.shards(), 1);
        assert_eq!(state.shard_error(), None);
        let a = state.analysis();
        assert_eq!(a.shards.len(), 1);
        assert_eq!(a.shards[0].documents, 10);
        assert!(a.rows.iter().all(|row| placed(row).shard == Some(0)));

        let state = reduce(state, Action::SetShardCount(" 1024 ".into()));
        assert_eq!(state.shards(), 1024);
        assert_eq!(state.analysis().shards.len(), 1024);
        // 982173 / (2^20 / 1024) = 959.
        assert_eq!(placed(&state.analysis().rows[1]).shard, Some(959));
    }

    #[test]
    fn invalid_shard_count_is_shown_and_not_applied() {
        for text in ["", "0", "1025", "abc", "-1", "2.5", "99999999999999999999"] {
            let state = reduce(State::default(), Action::SetShardCount(text.into()));
            assert_eq!(state.shards(), 3, "{text:?} must not be applied");
            assert_eq!(state.shard_input(), text);
            assert!(state.shard_error().is_some(), "{text:?} must be reported");
            assert_eq!(state.analysis().shards.len(), 3);
        }
        let state = reduce(State::default(), Action::SetShardCount("0".into()));
        let state = reduce(state, Action::SetShardCount("4".into()));
        assert_eq!((state.shards(), state.shard_error()), (4, None));
    }

    #[test]
    fn database_name_names_the_fragments() {
        let state = reduce(State::default(), Action::SetDatabase(" Shop ".into()));
        assert_eq!(state.database(), "Shop");
        assert_eq!(state.analysis().shards[2].fragment, "Shop$2");
        assert_eq!(
            placed(&state.analysis().rows[1]).fragment.as_deref(),
            Some("Shop$2")
        );
        for bad in ["", "   ", "a$b"] {
            let s = reduce(state.clone(), Action::SetDatabase(bad.into()));
            assert_eq!(s.database(), "Shop", "{bad:?} must not be applied");
            assert!(s.database_error().is_some());
            assert_eq!(s.database_input(), bad);
        }
    }

    #[test]
    fn errors_and_warnings_stay_on_their_line() {
        let long = "x".repeat(513);
        let text = format!("orders/1-A\n{long}\norders/1-A$\n");
        let state = reduce(State::default(), Action::SetIds(text));
        let a = state.analysis();
        assert_eq!((a.ids, a.placed, a.invalid, a.warned), (3, 2, 1, 1));
        match &a.rows[1].outcome {
            Outcome::Invalid { preview, message } => {
                assert_eq!(a.rows[1].line, 2);
                assert!(message.contains("cannot exceed 512 bytes"), "{message}");
                assert!(message.contains("513 bytes"), "{message}");
                assert_eq!(preview.chars().count(), PREVIEW_CHARS + 1);
                assert!(preview.ends_with('…'));
            }
            other => panic!("expected an error, got {other:?}"),
        }
        let warned = placed(&a.rows[2]);
        assert_eq!(a.rows[2].line, 3);
        assert_eq!(warned.warnings.len(), 1);
        assert_eq!(warned.warnings[0].kind, "empty_anchor");
        let total: usize = a.shards.iter().map(|s| s.documents).sum();
        assert_eq!(total, 2, "invalid IDs are not counted on a shard");
    }

    #[test]
    fn rows_are_capped_but_everything_is_counted() {
        let mut text: String = (0..ROW_LIMIT + 500)
            .map(|i| format!("orders/{i}-A\n"))
            .collect();
        text.push_str(&"y".repeat(600));
        text.push_str("\nz$\n");
        let state = reduce(State::default(), Action::SetIds(text));
        let a = state.analysis();
        assert_eq!(a.rows.len(), ROW_LIMIT);
        assert_eq!(a.ids, ROW_LIMIT + 502);
        assert_eq!(a.hidden_rows(), 502);
        assert_eq!((a.placed, a.invalid, a.warned), (ROW_LIMIT + 501, 1, 1));
        let total: usize = a.shards.iter().map(|s| s.documents).sum();
        assert_eq!(total, a.placed);
    }

    #[test]
    fn many_shards_show_only_the_shards_that_hold_ids() {
        let state = State::default();
        assert_eq!(
            state.analysis().shard_cards().len(),
            3,
            "every shard of a few"
        );
        let state = reduce(state, Action::SetIds("orders/1-A\ncustomers/1-A".into()));
        assert_eq!(state.analysis().shard_cards().len(), 3, "empty ones too");

        let state = reduce(state, Action::SetShardCount("1024".into()));
        let a = state.analysis();
        assert_eq!(a.shards_holding(), 2);
        let cards: Vec<u32> = a.shard_cards().iter().map(|s| s.shard).collect();
        assert_eq!(cards, vec![147, 959]);

        let text: String = (0..5000).map(|i| format!("orders/{i}-A\n")).collect();
        let state = reduce(state, Action::SetIds(text));
        let a = state.analysis();
        assert!(a.shards_holding() > SHARD_CARD_LIMIT);
        assert_eq!(a.shard_cards().len(), SHARD_CARD_LIMIT);
        assert!(a.shard_cards().windows(2).all(|w| w[0].shard < w[1].shard));
    }

    #[test]
    fn sample_and_clear() {
        let state = reduce(State::default(), Action::ClearIds);
        assert_eq!(state.ids().as_str(), "");
        assert_eq!(state.analysis().ids, 0);
        assert!(state.analysis().shards.iter().all(|s| s.documents == 0));
        let state = reduce(state, Action::LoadSample);
        assert_eq!(state.ids().as_str(), sample_text());
        assert_eq!(state.analysis().ids, SAMPLE_IDS.len());
    }

    #[test]
    fn unchanged_input_keeps_the_same_analysis() {
        let state = State::default();
        let before = Rc::clone(state.analysis());
        let state = reduce(state, Action::SetIds(sample_text()));
        let state = reduce(state, Action::SetShardCount("3".into()));
        let state = reduce(state, Action::SetShardCount("oops".into()));
        let state = reduce(state, Action::SetDatabase("Orders".into()));
        assert!(Rc::ptr_eq(&before, state.analysis()));
    }

    #[test]
    fn nothing_panics_on_odd_input() {
        let odd = [
            "$",
            "$$$",
            "a$",
            "é$ü",
            "\u{0}",
            "/",
            "|",
            "İstanbul$ΣΑΣ",
            "🦀$🦀",
            "\r",
            "\r\r\n",
        ];
        for id in odd {
            let state = reduce(State::default(), Action::SetIds(id.to_string()));
            for row in &state.analysis().rows {
                if let Outcome::Placed(e) = &row.outcome {
                    let (before, hashed, after) = split_chars(&e.id, e.hashed_chars);
                    assert_eq!(format!("{before}{hashed}{after}"), e.id);
                    assert_eq!(after, "");
                }
            }
        }
        let huge = "é".repeat(100_000);
        let state = reduce(State::default(), Action::SetIds(huge));
        assert_eq!(state.analysis().invalid, 1);
    }

    #[test]
    fn split_chars_clamps() {
        assert_eq!(split_chars("abc", [5, 9]), ("abc", "", ""));
        assert_eq!(split_chars("abc", [2, 1]), ("ab", "", "c"));
        assert_eq!(split_chars("", [0, 0]), ("", "", ""));
    }

    #[test]
    fn percent_rounds() {
        let total = ShardTotal {
            shard: 0,
            fragment: "db$0".into(),
            ranges: vec![],
            documents: 1,
        };
        assert_eq!(total.percent_of(3), 33);
        assert_eq!(total.percent_of(0), 0);
        assert_eq!(total.percent_of(2), 50);
    }
}
