//! A workspace made outside the reducer, a batch at a time (a generation, an import of a
//! million documents, a restore), whose documents the workspace's host staged as they came
//! and adopts when the job ends ([`Action::Loaded`](super::Action::Loaded)): nothing is
//! placed on the page's thread, and a cancelled job leaves the workspace the user had.

use super::{KeptFields, Level, Notice, Placed, State, WorkspaceAction};
use crate::editors::geometry::group_digits;
use ravenshard::Topology;
use ravenshard_model::workspace::PlacementOptions;
use std::rc::Rc;
use yew::Reducible;

/// What a job places its documents by: the configuration in force when it starts.
#[derive(Debug, Clone)]
pub struct Placer {
    /// The topology.
    pub topology: Rc<Topology>,
    /// The configuration's revision (a later one is followed in place when handed over).
    pub revision: u64,
    /// The placement options (the chapter's design when on).
    pub options: Rc<PlacementOptions>,
}

impl PartialEq for Placer {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision && Rc::ptr_eq(&self.options, &other.options)
    }
}

/// A workspace made by a job, staged with the workspace's host: how many documents, what
/// to tell the user.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// How many documents the job made.
    pub documents: u64,
    /// The configuration they were placed by.
    pub placer: Placer,
    /// The notice to show (`Imported 1,000,000 documents from …`).
    pub summary: Option<String>,
    /// What an import kept of the documents' bodies (`None`: they are as made).
    pub kept: Option<KeptFields>,
    /// The job's number with the workspace's host, which staged its documents as they
    /// came ([`host::stage`](crate::worker::host::stage)): the host is told to adopt them.
    pub job: u64,
}

/// A job in progress, as the workspace panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Work {
    /// What is done (`Generating`, `Reading orders.json.gz`).
    pub label: String,
    /// Documents done so far.
    pub done: usize,
    /// How much is done, 0 to 1, when known.
    pub fraction: Option<f64>,
    /// Milliseconds left, estimated from the pace so far.
    pub left_ms: Option<f64>,
}

impl Work {
    /// The status line: `Generating — 400,000 documents, 40%, about 2 s left`.
    pub fn text(&self) -> String {
        let mut text = format!(
            "{} — {} documents",
            self.label,
            group_digits(self.done as u64)
        );
        if let Some(f) = self.fraction {
            text.push_str(&format!(", {:.0}%", f * 100.0));
        }
        if let Some(ms) = self.left_ms {
            text.push_str(&format!(", about {:.0} s left", (ms / 1000.0).ceil()));
        }
        text
    }
}

/// `Imported 3 documents from x.json. 1 entry was skipped (first: …).`
pub fn import_summary(name: &str, count: usize, skipped: usize, first: Option<String>) -> String {
    let s = if count == 1 { "" } else { "s" };
    let mut summary = format!("Imported {count} document{s} from {name}.");
    if skipped > 0 {
        let entries = if skipped == 1 {
            "entry was"
        } else {
            "entries were"
        };
        summary.push_str(&format!(" {skipped} {entries} skipped"));
        if let Some(first) = first {
            summary.push_str(&format!(" (first: {first})"));
        }
        summary.push('.');
    }
    summary
}

/// Why an import of a file `read as` a format made no document: how many entries were
/// skipped and why the first was, so that the user knows what to fix.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::nothing_imported;
///
/// assert_eq!(nothing_imported("plain text", 0, None), "no document IDs were found in it (read as plain text)");
/// assert_eq!(
///     nothing_imported("JSON", 2, Some("$[0] (line 1): skipped: the document has no ID".into())),
///     "no document IDs were found in it (read as JSON; 2 entries skipped, the first: $[0] \
///      (line 1): skipped: the document has no ID)"
/// );
/// ```
pub fn nothing_imported(read_as: &str, skipped: usize, first: Option<String>) -> String {
    let skipped = match (skipped, first) {
        (0, _) => String::new(),
        (1, first) => format!(
            "; 1 entry skipped{}",
            first.map(|f| format!(": {f}")).unwrap_or_default()
        ),
        (n, first) => format!(
            "; {n} entries skipped{}",
            first
                .map(|f| format!(", the first: {f}"))
                .unwrap_or_default()
        ),
    };
    format!("no document IDs were found in it (read as {read_as}{skipped})")
}

impl State {
    /// What a job started now places by.
    pub fn placer(&self) -> Placer {
        Placer {
            topology: Rc::clone(self.config.topology()),
            revision: self.config.revision(),
            options: Placed::options(&self.design),
        }
    }

    /// Swaps in a workspace a job made: the host adopts the documents it staged (and
    /// places them by the configuration in force, if it changed meanwhile).
    pub(super) fn adopt(&mut self, loaded: Rc<Loaded>) {
        let loaded = Rc::unwrap_or_clone(loaded);
        let action = WorkspaceAction::Loaded {
            documents: loaded.documents,
            job: loaded.job,
        };
        self.workspace = Rc::clone(&self.workspace).reduce(action);
        if let Some(summary) = loaded.summary {
            self.push_notice(Notice::new(Level::Info, summary));
        }
        self.keep(loaded.kept);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::state::{Action, ConfigAction};
    use ravenshard_model::sample::Generator;
    use ravenshard_model::workspace::Document;

    fn generated(n: usize) -> Vec<Document> {
        let generator = Generator {
            documents: n,
            ..Default::default()
        };
        generator.generate().unwrap()
    }

    fn loaded(
        state: &State,
        documents: &[Document],
        placer: Placer,
        summary: Option<String>,
    ) -> Loaded {
        Loaded {
            summary,
            ..state.loaded(documents, placer)
        }
    }

    #[test]
    fn a_loaded_workspace_is_the_one_placed_at_once() {
        let documents = generated(3000);
        let mut state = State::with_documents(vec![Document::new("a")]);
        let made = loaded(&state, &documents, state.placer(), Some("made".into()));
        state.apply(Action::Loaded(Rc::new(made)));
        let whole = State::with_documents(documents);
        let all = |s: &State| s.placement().documents(0..usize::MAX).collect::<Vec<_>>();
        assert_eq!(all(&state), all(&whole));
        assert_eq!(state.placement().shards(), whole.placement().shards());
        assert_eq!(state.placement().totals(), whole.placement().totals());
    }

    #[test]
    fn a_configuration_changed_during_the_job_is_followed() {
        let documents = generated(2000);
        let mut state = State::with_documents(Vec::new());
        let placer = state.placer();
        state.apply(Action::Config(ConfigAction::SetShardCount("5".into())));
        let made = loaded(&state, &documents, placer, None);
        state.apply(Action::Loaded(Rc::new(made)));
        assert_eq!(state.placement().shards().len(), 5);
        let mut whole = State::with_documents(documents);
        whole.apply(Action::Config(ConfigAction::SetShardCount("5".into())));
        assert_eq!(state.placement().shards(), whole.placement().shards());
    }

    /// The configuration whose rule for `Orders` reads `fields` (JSON strings).
    fn ruled_by(fields: &str) -> Action {
        let json = format!(
            r#"{{"Shards": {{"0": {{}}, "1": {{}}}}, "ByContent": {{"Orders": {{"Fields": [{fields}]}}}}}}"#
        );
        Action::Config(ConfigAction::SetJson(json))
    }

    /// What an import kept is saved with the studio: after a reload, a design reading a
    /// field it did not keep is still told (not placed without a word).
    #[test]
    fn what_an_import_kept_survives_a_reload() {
        use crate::state::read_saved;
        let state = imported_keeping(&["Customer"]);
        let text = serde_json::to_string(&state.saved()).unwrap();
        let mut reloaded = State::from_saved(read_saved(&text).unwrap()).unwrap();
        assert_eq!(reloaded.placement().len(), 10);
        reloaded.apply(ruled_by(r#""Customer", "Address.Zip""#));
        let told = warnings(&reloaded);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0]
            .starts_with("The design reads Address.Zip, which the import of a.json did not keep"));
    }

    /// A studio whose 10 documents an import of `a.json` made, keeping `fields`.
    fn imported_keeping(fields: &[&str]) -> State {
        use ravenshard_import::FieldPaths;
        let mut state = State::with_documents(Vec::new());
        let mut made = loaded(&state, &generated(10), state.placer(), None);
        made.kept = Some(KeptFields::new("a.json".into(), FieldPaths::new(fields)));
        state.apply(Action::Loaded(Rc::new(made)));
        state
    }

    /// The texts of the warnings shown.
    fn warnings(state: &State) -> Vec<String> {
        let list = state.notices().list();
        let warned = list.iter().filter(|n| n.level == Level::Warning);
        warned.map(|n| n.text.clone()).collect()
    }

    /// A design turned on after an import that kept no bodies names the fields it misses,
    /// once; one whose fields were kept says nothing; a new workspace forgets the import.
    #[test]
    fn a_design_reading_fields_an_import_did_not_keep_is_told() {
        let by = ruled_by;
        let mut state = imported_keeping(&["Customer"]);
        state.apply(by(r#""Customer""#));
        assert_eq!(warnings(&state), Vec::<String>::new());
        state.apply(by(r#""Customer", "Address.Zip""#));
        state.apply(by(r#""Address.Zip", "Customer""#));
        let told = warnings(&state);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0]
            .starts_with("The design reads Address.Zip, which the import of a.json did not keep"));
        assert!(told[0].ends_with("Import a.json again to read it."));
        state.apply(Action::Workspace(WorkspaceAction::Generate));
        state.apply(by(r#""Total""#));
        assert_eq!(warnings(&state).len(), 1);
    }

    /// The notice says what the design does with documents whose fields were not kept:
    /// one without a body (the import kept none) is placed by its ID alone, not rejected.
    #[test]
    fn the_notice_says_how_documents_without_the_fields_are_placed() {
        use ravenshard_import::FieldPaths;
        let mut state = State::with_documents(Vec::new());
        let orders: Vec<Document> = (1..=20)
            .map(|i| Document {
                collection: Some("Orders".into()),
                ..Document::new(format!("orders/{i}-A"))
            })
            .collect();
        let mut made = loaded(&state, &orders, state.placer(), None);
        made.kept = Some(KeptFields::new("a.json".into(), FieldPaths::default()));
        state.apply(Action::Loaded(Rc::new(made)));
        let json =
            r#"{"Shards": {"0": {}, "1": {}}, "ByContent": {"Orders": {"Fields": ["Customer"]}}}"#;
        state.apply(Action::Config(ConfigAction::SetJson(json.into())));
        assert!(
            state.placement().invalid().is_empty(),
            "placed by their IDs"
        );
        assert_eq!(state.placement().totals().placed, 20);
        let list = state.notices().list();
        let told = list.iter().find(|n| n.level == Level::Warning).unwrap();
        assert!(
            !told.text.contains("rejected as having no such field"),
            "{}",
            told.text
        );
        assert!(told.text.contains("by their IDs alone"), "{}", told.text);
    }

    #[test]
    fn work_reads_as_a_status_line() {
        let work = Work {
            label: "Generating".into(),
            done: 1_234_567,
            fraction: Some(0.4),
            left_ms: Some(1500.0),
        };
        assert_eq!(
            work.text(),
            "Generating — 1,234,567 documents, 40%, about 2 s left"
        );
    }
}
