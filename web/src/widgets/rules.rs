//! Editing the draft chapter's `ByContent` rules, free of the DOM: read a rule's fields from
//! text and write them back, add, change and remove a rule, turn the design off and on.
//!
//! The edits work on the configuration's unmodelled keys
//! ([`ShardingConfiguration::other`]) and touch nothing but the `ByContent` section (and in
//! it, nothing but the edited rule), so `Indexes`, `IdConventions`, `Orchestrator`... are
//! kept as they were. They do not validate: [`check`] does, with the core's messages
//! (which carry the JSON path, `ByContent.Orders.Range: ...`).

use ravenshard::config::ShardingConfiguration;
use ravenshard_design::content::Field;
use serde_json::{json, Map, Value};

/// The configuration key of the design's rules.
pub const BY_CONTENT: &str = "ByContent";

/// Reads the comma-separated text of a rule's fields (`Address.State, Address.City`,
/// `numeric(Address.ZipCode)`, `ticks(OrderedAt)`, `id()`) with [`Field::parse`]; the first
/// field it cannot read is reported with the core's message.
///
/// ```
/// use ravenshard_design::content::Field;
/// use ravenshard_studio::widgets::rules::parse_fields;
///
/// assert_eq!(
///     parse_fields("Address.State, numeric(Zip)"),
///     Ok(vec![Field::Path("Address.State".into()), Field::Numeric("Zip".into())])
/// );
/// assert!(parse_fields("Lines[].Product").unwrap_err().contains("arrays cannot be sharded on"));
/// ```
pub fn parse_fields(text: &str) -> Result<Vec<Field>, String> {
    if text.trim().is_empty() {
        return Err("a rule needs at least one field, for example Customer".to_string());
    }
    text.split(',').map(Field::parse).collect()
}

/// The text of a rule's fields, as [`parse_fields`] reads it: `Address.State, Address.City`.
pub fn fields_text(fields: &[Field]) -> String {
    let names: Vec<String> = fields.iter().map(Field::to_string).collect();
    names.join(", ")
}

/// The JSON of a `Range` typed as text: a number when the text is a whole number, else the
/// text itself, so that the core rejects it with its message (`must be a whole number from
/// 1 to 1048576, not "1.5"`).
pub fn range_value(text: &str) -> Value {
    let text = text.trim();
    match text.parse::<u64>() {
        Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) => Value::from(n),
        _ => Value::from(text),
    }
}

/// The JSON body of a rule: `{"Fields": [...], "Range": .., "Mutable": ..}`.
pub fn rule_body(fields: &[Field], range: Value, mutable: bool) -> Value {
    let names: Vec<String> = fields.iter().map(Field::to_string).collect();
    json!({ "Fields": names, "Range": range, "Mutable": mutable })
}

/// The `ByContent` section of a configuration, created (empty) when it is absent or null;
/// `None` when it is something other than an object.
fn section(config: &mut ShardingConfiguration) -> Option<&mut Map<String, Value>> {
    let entry = config
        .other
        .entry(BY_CONTENT)
        .or_insert_with(|| Value::Object(Map::new()));
    if entry.is_null() {
        *entry = Value::Object(Map::new());
    }
    entry.as_object_mut()
}

/// Adds a rule named `name` (trimmed) to `ByContent` (kept in name order, as serde_json
/// keeps objects), turning the design on when it is off. Refused when a rule of that name
/// exists (names are matched ignoring case, as the core matches them) or when `ByContent`
/// is not an object.
pub fn add_rule(
    config: &ShardingConfiguration,
    name: &str,
    fields: &[Field],
    range: Value,
    mutable: bool,
) -> Result<ShardingConfiguration, String> {
    let mut out = config.clone();
    let name = name.trim();
    let rules = section(&mut out).ok_or_else(|| format!("{BY_CONTENT}: must be a JSON object"))?;
    if let Some(other) = rules.keys().find(|k| k.eq_ignore_ascii_case(name)) {
        return Err(format!(
            "{BY_CONTENT}.{name}: repeats the rule {other} (names are matched ignoring case)"
        ));
    }
    rules.insert(name.to_string(), rule_body(fields, range, mutable));
    Ok(out)
}

/// Removes the rule named `name` (exactly as configured). `None` when there is no such rule.
/// The last rule removed leaves an empty `ByContent`: the design stays on (see
/// [`design_off`]).
pub fn remove_rule(config: &ShardingConfiguration, name: &str) -> Option<ShardingConfiguration> {
    let mut out = config.clone();
    out.other
        .get_mut(BY_CONTENT)?
        .as_object_mut()?
        .remove(name)?;
    Some(out)
}

/// Sets one setting (`Fields`, `Range`, `Mutable`) of the rule named `name`, keeping the
/// others as configured. `None` when there is no such rule.
fn set_setting(
    config: &ShardingConfiguration,
    name: &str,
    key: &str,
    value: Value,
) -> Option<ShardingConfiguration> {
    let mut out = config.clone();
    let rule = out
        .other
        .get_mut(BY_CONTENT)?
        .as_object_mut()?
        .get_mut(name)?
        .as_object_mut()?;
    rule.insert(key.to_string(), value);
    Some(out)
}

/// Sets the `Fields` of the rule named `name`. `None` when there is no such rule.
pub fn set_fields(
    config: &ShardingConfiguration,
    name: &str,
    fields: &[Field],
) -> Option<ShardingConfiguration> {
    let names: Vec<Value> = fields.iter().map(|f| Value::from(f.to_string())).collect();
    set_setting(config, name, "Fields", Value::Array(names))
}

/// Sets the `Range` of the rule named `name` (see [`range_value`]). `None` when there is no
/// such rule.
pub fn set_range(
    config: &ShardingConfiguration,
    name: &str,
    range: Value,
) -> Option<ShardingConfiguration> {
    set_setting(config, name, "Range", range)
}

/// Sets `Mutable` of the rule named `name`. `None` when there is no such rule.
pub fn set_mutable(
    config: &ShardingConfiguration,
    name: &str,
    mutable: bool,
) -> Option<ShardingConfiguration> {
    set_setting(config, name, "Mutable", Value::Bool(mutable))
}

/// Turns the design off: removes the `ByContent` section entirely (`Indexes`,
/// `IdConventions` and every other key stay).
pub fn design_off(config: &ShardingConfiguration) -> ShardingConfiguration {
    let mut out = config.clone();
    out.other.remove(BY_CONTENT);
    out
}

/// Turns the design on with the chapter's example rule, `Orders` placed by `Customer`
/// (Range 1, not Mutable). A configuration whose design is on is returned as it is.
pub fn design_on(config: &ShardingConfiguration) -> ShardingConfiguration {
    if config.other.get(BY_CONTENT).is_some_and(|v| !v.is_null()) {
        return config.clone();
    }
    let example = [Field::Path("Customer".to_string())];
    add_rule(config, "Orders", &example, Value::from(1), false).unwrap_or_else(|_| config.clone())
}

/// Checks an edited configuration as the studio will read it
/// ([`read_configuration`](crate::state::read_configuration): a topology whose design
/// reads). The JSON to emit, or the core's message (with the JSON path).
pub fn check(config: &ShardingConfiguration) -> Result<String, String> {
    let json = serde_json::to_string(config).map_err(|e| e.to_string())?;
    crate::state::read_configuration(&json).map_err(|problem| problem.message)?;
    Ok(json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ravenshard::Topology;
    use ravenshard_design::content::{ContentDesign, ContentRule};

    fn config(json: &str) -> ShardingConfiguration {
        Topology::from_json(json).unwrap().to_configuration()
    }

    fn rules(config: &ShardingConfiguration) -> Vec<ContentRule> {
        let json = check(config).unwrap();
        let topology = Topology::from_json(&json).unwrap();
        ContentDesign::from_topology(&topology)
            .unwrap()
            .map(|d| d.rules)
            .unwrap_or_default()
    }

    const WITH_ORDERS: &str = r#"{"Shards": {"0": {}, "1": {}},
        "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}},
        "Indexes": {"Orders/Totals": ["Orders"]},
        "IdConventions": {"Invoices": "{Id}${OrderId}"},
        "Orchestrator": {"Members": ["A"]}}"#;

    #[test]
    fn fields_text_round_trips() {
        for text in [
            "Customer",
            "Address.State, Address.City",
            "numeric(Address.ZipCode)",
            "ticks(OrderedAt), id()",
        ] {
            let fields = parse_fields(text).unwrap();
            assert_eq!(fields_text(&fields), text);
        }
        let fields = parse_fields(" Customer ,NUMERIC( Zip ),  Id( ) ").unwrap();
        assert_eq!(
            fields,
            vec![
                Field::Path("Customer".into()),
                Field::Numeric("Zip".into()),
                Field::Id
            ]
        );
        assert_eq!(fields_text(&fields), "Customer, numeric(Zip), id()");
    }

    #[test]
    fn bad_fields_say_why() {
        assert!(parse_fields("  ")
            .unwrap_err()
            .contains("at least one field"));
        let err = parse_fields("Customer, Lines[].Product").unwrap_err();
        assert!(err.contains("'Lines[].Product' has '['"), "{err}");
        assert!(parse_fields("Customer,").unwrap_err().contains("empty"));
        assert!(parse_fields("id(x)").unwrap_err().contains("no argument"));
    }

    #[test]
    fn range_text_becomes_a_number_or_is_left_for_the_core() {
        assert_eq!(range_value(" 1000 "), json!(1000));
        assert_eq!(range_value("1.5"), json!("1.5"));
        assert_eq!(range_value("+5"), json!("+5"));
        assert_eq!(range_value(""), json!(""));
        assert_eq!(
            range_value("99999999999999999999"),
            json!("99999999999999999999")
        );
        let c = config(WITH_ORDERS);
        let err = check(&set_range(&c, "Orders", range_value("1.5")).unwrap()).unwrap_err();
        assert_eq!(
            err,
            "ByContent.Orders.Range: must be a whole number from 1 to 1048576, not \"1.5\""
        );
        let err = check(&set_range(&c, "Orders", range_value("0")).unwrap()).unwrap_err();
        assert!(err.starts_with("ByContent.Orders.Range:"), "{err}");
        let ok = set_range(&c, "Orders", range_value("1048576")).unwrap();
        assert_eq!(rules(&ok)[0].range, 1 << 20);
    }

    #[test]
    fn adding_a_rule_keeps_everything_else() {
        let c = config(WITH_ORDERS);
        let fields = parse_fields("Address.State, Address.City").unwrap();
        let added = add_rule(&c, " Shipments ", &fields, json!(16), true).unwrap();
        let read = rules(&added);
        assert_eq!(read.len(), 2);
        let shipments = read.iter().find(|r| r.name == "Shipments").unwrap();
        assert_eq!((shipments.range, shipments.mutable), (16, true));
        assert_eq!(shipments.fields, fields);
        for key in ["Indexes", "IdConventions", "Orchestrator"] {
            assert_eq!(added.other.get(key), c.other.get(key), "{key}");
        }
        assert_eq!(
            added.other["ByContent"]["Orders"],
            c.other["ByContent"]["Orders"]
        );
        assert_eq!(
            (added.shards, added.bucket_ranges),
            (c.shards, c.bucket_ranges)
        );
    }

    #[test]
    fn adding_a_rule_twice_or_unnamed_is_refused() {
        let c = config(WITH_ORDERS);
        let fields = parse_fields("Customer").unwrap();
        let err = add_rule(&c, "ORDERS", &fields, json!(1), false).unwrap_err();
        assert_eq!(
            err,
            "ByContent.ORDERS: repeats the rule Orders (names are matched ignoring case)"
        );
        let unnamed = add_rule(&c, "  ", &fields, json!(1), false).unwrap();
        assert!(check(&unnamed)
            .unwrap_err()
            .contains("a rule needs a collection or index name"));
        let mut broken = c.clone();
        broken.other.insert(BY_CONTENT.into(), json!([]));
        assert!(add_rule(&broken, "Orders", &fields, json!(1), false).is_err());
    }

    #[test]
    fn updating_a_rule_changes_one_setting() {
        let c = config(WITH_ORDERS);
        let mutable = set_mutable(&c, "Orders", true).unwrap();
        let read = rules(&mutable);
        assert_eq!((read[0].mutable, read[0].range), (true, 1000));
        let fields = parse_fields("ticks(OrderedAt), id()").unwrap();
        let refielded = set_fields(&mutable, "Orders", &fields).unwrap();
        assert_eq!(
            refielded.other["ByContent"]["Orders"]["Fields"],
            json!(["ticks(OrderedAt)", "id()"])
        );
        assert_eq!(rules(&refielded)[0].fields, fields);
        assert!(rules(&refielded)[0].mutable);
        assert!(set_mutable(&c, "orders", true).is_none());
        assert!(set_fields(&c, "Shipments", &fields).is_none());
        assert!(set_range(&design_off(&c), "Orders", json!(2)).is_none());
    }

    #[test]
    fn removing_a_rule() {
        let c = config(WITH_ORDERS);
        let removed = remove_rule(&c, "Orders").unwrap();
        assert_eq!(removed.other["ByContent"], json!({}));
        assert!(rules(&removed).is_empty());
        assert_eq!(removed.other.get("Indexes"), c.other.get("Indexes"));
        assert!(remove_rule(&c, "Invoices").is_none());
        assert!(remove_rule(&design_off(&c), "Orders").is_none());
    }

    #[test]
    fn design_off_and_on() {
        let c = config(WITH_ORDERS);
        let off = design_off(&c);
        assert!(!off.other.contains_key("ByContent"));
        assert_eq!(off.other.len(), c.other.len() - 1);
        let json = check(&off).unwrap();
        let t = Topology::from_json(&json).unwrap();
        assert_eq!(ContentDesign::from_topology(&t), Ok(None));
        let on = design_on(&off);
        assert_eq!(
            on.other["ByContent"],
            json!({"Orders": {"Fields": ["Customer"], "Range": 1, "Mutable": false}})
        );
        assert_eq!(on.other.get("IdConventions"), c.other.get("IdConventions"));
        assert_eq!(rules(&on)[0].fields, vec![Field::Path("Customer".into())]);
        // Already on: unchanged.
        assert_eq!(design_on(&c), c);
        let mut null = off.clone();
        null.other.insert(BY_CONTENT.into(), Value::Null);
        assert_eq!(design_on(&null), on);
    }

    #[test]
    fn a_rule_added_to_a_design_that_is_off_turns_it_on() {
        let off = config(r#"{"Shards": {"0": {}}}"#);
        let fields = parse_fields("Customer").unwrap();
        let on = add_rule(&off, "Orders", &fields, range_value("1000"), false).unwrap();
        assert_eq!(rules(&on)[0].range, 1000);
    }
}
