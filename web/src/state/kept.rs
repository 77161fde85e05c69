//! What an import kept of its documents' bodies: only the fields the design in force read
//! ([`FieldPaths`]), never whole bodies. When a later design reads a field that was not
//! kept, the studio says which and that importing the file again reads it, instead of
//! placing the documents as if they had no such field without a word.

use ravenshard_design::content::ContentDesign;
use ravenshard_import::{BodiesDropped, FieldPaths, Format};
use serde::{Deserialize, Serialize};

/// The fields an import kept, and the missing fields already told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFields {
    /// The file's name.
    pub file: String,
    /// The fields kept (none: no bodies).
    pub fields: FieldPaths,
    /// The documents whose body (the kept fields) the import could not keep: told once,
    /// when the import's documents become the workspace's ([`KeptFields::dropped_notice`]).
    pub dropped: BodiesDropped,
    told: Vec<String>,
}

/// What is saved of [`KeptFields`] with the studio ([`Saved::kept`](crate::persist::Saved::kept)):
/// the file and the fields kept. What was told is not saved: a reload tells it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedKept {
    /// The file's name.
    pub file: String,
    /// The fields kept, sorted (none: no bodies).
    pub fields: Vec<String>,
}

impl From<&KeptFields> for SavedKept {
    fn from(kept: &KeptFields) -> SavedKept {
        SavedKept {
            file: kept.file.clone(),
            fields: kept.fields.paths().map(str::to_string).collect(),
        }
    }
}

impl From<SavedKept> for KeptFields {
    fn from(saved: SavedKept) -> KeptFields {
        KeptFields::new(saved.file, FieldPaths::new(saved.fields))
    }
}

impl KeptFields {
    /// `file`'s documents keep only `fields`.
    pub fn new(file: String, fields: FieldPaths) -> KeptFields {
        KeptFields {
            file,
            fields,
            dropped: BodiesDropped::default(),
            told: Vec::new(),
        }
    }

    /// What an import of `file` read as `format`, keeping `fields`, kept: `None` for CSV,
    /// whose rows have no body, so that nothing was left out to tell about later.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::{BodiesDropped, FieldPaths, Format};
    /// use ravenshard_studio::state::KeptFields;
    ///
    /// assert_eq!(KeptFields::of_import("a.csv".into(), Format::Csv, FieldPaths::default()), None);
    /// let kept = KeptFields::of_import("a.json".into(), Format::Json, FieldPaths::new(["Customer"]));
    /// assert_eq!(kept.unwrap().fields.paths().collect::<Vec<_>>(), ["Customer"]);
    /// ```
    pub fn of_import(file: String, format: Format, fields: FieldPaths) -> Option<KeptFields> {
        (format != Format::Csv).then(|| KeptFields::new(file, fields))
    }

    /// The same, with the documents whose body the import could not keep.
    pub fn with_dropped(self, dropped: BodiesDropped) -> KeptFields {
        KeptFields { dropped, ..self }
    }

    /// What to tell about the documents whose body the import could not keep (`None` when
    /// it kept every one): how many, why and what to do.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::{BodiesDropped, FieldPaths};
    /// use ravenshard_studio::state::KeptFields;
    ///
    /// let kept = KeptFields::new("orders.json".into(), FieldPaths::new(["Customer"]));
    /// assert_eq!(kept.dropped_notice(), None);
    /// let dropped = BodiesDropped { documents: 2, largest: 40 << 20, fields: true };
    /// let text = kept.with_dropped(dropped).dropped_notice().unwrap();
    /// assert!(text.starts_with("The import of orders.json: 2 documents' bodies were not kept"));
    /// ```
    pub fn dropped_notice(&self) -> Option<String> {
        let KeptFields { file, dropped, .. } = self;
        (!dropped.is_empty()).then(|| format!("The import of {file}: {dropped}"))
    }

    /// What to tell when `design` reads fields that were not kept (once for each set of
    /// them; `None` when nothing is missing or it was told).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Topology;
    /// use ravenshard_design::content::ContentDesign;
    /// use ravenshard_import::FieldPaths;
    /// use ravenshard_studio::state::KeptFields;
    ///
    /// let json = r#"{"Shards": {"0": {}}, "ByContent": {"Orders": {"Fields": ["Customer"]}}}"#;
    /// let design = ContentDesign::from_topology(&Topology::from_json(json)?)?;
    /// let mut kept = KeptFields::new("orders.json".into(), FieldPaths::default());
    /// let told = kept.check(design.as_ref()).unwrap();
    /// assert!(told.starts_with("The design reads Customer, which the import of orders.json did not keep"));
    /// assert_eq!(kept.check(design.as_ref()), None);
    /// let mut kept = KeptFields::new("orders.json".into(), FieldPaths::new(["Customer"]));
    /// assert_eq!(kept.check(design.as_ref()), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(&mut self, design: Option<&ContentDesign>) -> Option<String> {
        let wanted = FieldPaths::of_design(design?);
        let missing: Vec<String> = self
            .fields
            .missing(&wanted)
            .into_iter()
            .map(str::to_string)
            .collect();
        if missing.is_empty() || missing == self.told {
            return None;
        }
        let (s, it) = match missing.len() {
            1 => ("", "it"),
            _ => ("s", "them"),
        };
        // A document without the field is not always rejected: one without a body (the
        // import kept no field) is placed by its ID, as a mutable rule's documents are.
        let text = format!(
            "The design reads {}, which the import of {file} did not keep (an import keeps \
             only the fields the design in force then reads, not whole documents): its \
             documents are placed as if they had no such field{s}, by their IDs alone or \
             rejected where a rule needs the field{s}. Import {file} again to read {it}.",
            missing.join(", "),
            file = self.file,
        );
        self.told = missing;
        Some(text)
    }
}
