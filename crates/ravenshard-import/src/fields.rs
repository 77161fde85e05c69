//! Keeping only the fields a design reads: an import that keeps [`FieldPaths`] stores, as a
//! document's body, a JSON object holding just the values at those paths (the chapter's
//! content rules' fields and the ID conventions' placeholders), never the whole body. The
//! design reads the same values from it as from the whole body
//! ([`field_value`](ravenshard_design::content::field_value)).

use ravenshard_design::content::ContentDesign;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The dotted field paths (`Customer`, `Address.ZipCode`) an import keeps of each document.
///
/// # Examples
///
/// ```
/// use ravenshard_import::FieldPaths;
///
/// let kept = FieldPaths::new(["Address", "Customer"]);
/// assert_eq!(kept.missing(&FieldPaths::new(["Address.ZipCode", "Total"])), ["Total"]);
/// assert_eq!(
///     kept.prune(r#"{"Customer": "c/1", "Total": 9, "Address": {"Zip": 1}}"#).as_deref(),
///     Some(r#"{"Address":{"Zip":1},"Customer":"c/1"}"#)
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPaths {
    paths: BTreeSet<String>,
    tree: Node,
}

/// The paths as a tree of property names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Node {
    /// The value here is kept whole (a path ends here).
    whole: bool,
    children: BTreeMap<String, Node>,
}

impl FieldPaths {
    /// The given paths (blank ones are left out).
    pub fn new<S: AsRef<str>>(paths: impl IntoIterator<Item = S>) -> FieldPaths {
        let mut kept = FieldPaths::default();
        for path in paths {
            let path = path.as_ref().trim();
            if path.is_empty() {
                continue;
            }
            let node = path.split('.').fold(&mut kept.tree, |node, name| {
                node.children.entry(name.to_string()).or_default()
            });
            node.whole = true;
            kept.paths.insert(path.to_string());
        }
        kept
    }

    /// The fields `design` reads from document bodies: its rules' field paths and its ID
    /// conventions' placeholders other than `{Id}`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Topology;
    /// use ravenshard_design::content::ContentDesign;
    /// use ravenshard_import::FieldPaths;
    ///
    /// let json = r#"{"Shards": {"0": {}, "1": {}}, "ByContent": {"Orders": {"Fields": ["Customer", "numeric(Zip)", "id()"]}},
    ///     "IdConventions": {"Invoices": "{Id}${OrderId}"}}"#;
    /// let design = ContentDesign::from_topology(&Topology::from_json(json)?)?.unwrap();
    /// let fields = FieldPaths::of_design(&design);
    /// assert_eq!(fields.paths().collect::<Vec<_>>(), ["Customer", "OrderId", "Zip"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_design(design: &ContentDesign) -> FieldPaths {
        let rules = design
            .rules
            .iter()
            .flat_map(|r| r.fields.iter().filter_map(|f| f.path()));
        let placeholders = design
            .conventions
            .iter()
            .flat_map(|c| placeholders(&c.template))
            .filter(|name| *name != "Id");
        FieldPaths::new(rules.chain(placeholders))
    }

    /// The paths, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.paths.iter().map(String::as_str)
    }

    /// Whether no path is kept.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// The paths of `wanted` whose values these do not keep (neither the path nor a
    /// property it lies in is kept).
    pub fn missing<'w>(&self, wanted: &'w FieldPaths) -> Vec<&'w str> {
        wanted.paths().filter(|p| !self.keeps(p)).collect()
    }

    fn keeps(&self, path: &str) -> bool {
        let mut node = &self.tree;
        for name in path.split('.') {
            match node.children.get(name) {
                Some(child) if child.whole => return true,
                Some(child) => node = child,
                None => return false,
            }
        }
        false
    }

    /// A document body (a JSON object's text) with only the kept fields, as compact JSON;
    /// `None` when the text is not a JSON object (the body is then kept as it is, so that
    /// the design says what is wrong with it, as for a whole body).
    pub fn prune(&self, body: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(body);
        let pruned = Pruned(&self.tree).deserialize(&mut de).ok()?;
        de.end().ok()?;
        serde_json::to_string(&pruned).ok()
    }
}

/// The `{name}` placeholders of an ID convention's template, trimmed.
fn placeholders(template: &str) -> impl Iterator<Item = &str> {
    template.split('{').skip(1).filter_map(|part| {
        let (name, _) = part.split_once('}')?;
        Some(name.trim())
    })
}

/// Reads a JSON object keeping the values under `Node`'s paths; anything else is skipped
/// unread.
struct Pruned<'n>(&'n Node);

impl<'de> DeserializeSeed<'de> for Pruned<'_> {
    type Value = Map<String, Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Pruned<'_> {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kept = Map::new();
        while let Some(super::entry::Key(key)) = map.next_key()? {
            match self.0.children.get(key.as_ref()) {
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
                Some(child) => {
                    let value = map.next_value::<Value>()?;
                    // A later duplicate replaces an earlier one, as in a whole body.
                    kept.insert(key.into_owned(), keep(value, child));
                }
            }
        }
        Ok(kept)
    }
}

/// `value` pruned to `node`'s paths: whole where a path ends, else only an object's kept
/// properties; a value that is not an object cannot hold a deeper path, so it becomes
/// `null` (the path is then missing, as it is in the whole body).
fn keep(value: Value, node: &Node) -> Value {
    if node.whole {
        return value;
    }
    match value {
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .filter_map(|(k, v)| node.children.get(&k).map(|c| (k.clone(), keep(v, c))))
                .collect(),
        ),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ravenshard_design::content::field_value;

    #[test]
    fn a_pruned_body_reads_the_same_values() {
        let body = r#"{"Customer": "customers/1-A", "Lines": [1, 2], "Address": {"Zip": "98101",
            "City": "Seattle", "Geo": {"Lat": 1.5}}, "Total": 12.50, "Customer": "customers/2-A",
            "Note": "x"}"#;
        let paths = [
            "Customer",
            "Address.Zip",
            "Address.Geo.Lat",
            "Missing",
            "Note.Deeper",
        ];
        let kept = FieldPaths::new(paths);
        let pruned = kept.prune(body).unwrap();
        let (whole, pruned): (Value, Value) = (
            serde_json::from_str(body).unwrap(),
            serde_json::from_str(&pruned).unwrap(),
        );
        for path in paths {
            assert_eq!(
                field_value(&whole, path),
                field_value(&pruned, path),
                "{path}"
            );
        }
        assert_eq!(
            pruned,
            serde_json::json!({"Customer": "customers/2-A", "Address": {"Zip": "98101",
                "Geo": {"Lat": 1.5}}, "Note": null})
        );
    }

    #[test]
    fn what_is_not_an_object_is_kept_as_it_is() {
        let kept = FieldPaths::new(["A"]);
        assert_eq!(kept.prune("[1]"), None);
        assert_eq!(kept.prune("{\"A\": 1} x"), None);
        assert_eq!(kept.prune("{}").as_deref(), Some("{}"));
    }

    #[test]
    fn a_kept_property_keeps_the_paths_inside_it() {
        let kept = FieldPaths::new(["Address", " ", "B.C"]);
        let wanted = FieldPaths::new(["Address.Zip", "B", "B.C.D", "B.E", "Address"]);
        assert_eq!(kept.missing(&wanted), ["B", "B.E"]);
        assert!(FieldPaths::new([""]).is_empty());
    }
}
