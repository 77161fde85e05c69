//! The state's side of a workspace a job made ([`Loaded`]): what a job places by, and the
//! swap when it ends.

use super::{Placed, State};
use crate::state::{Level, Loaded, Notice, Placer, WorkspaceAction};
use std::rc::Rc;
use yew::Reducible;

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
    use crate::state::{ConfigAction, KeptFields, Work};
    use crate::views::state::Action;
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
        use crate::persist::read_saved;
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
