//! The configuration sub-state, on its own.

use crate::state::*;
use std::rc::Rc;
use yew::Reducible;

fn reduce(config: ConfigState, action: ConfigAction) -> ConfigState {
    Rc::unwrap_or_clone(Rc::new(config).reduce(action))
}

#[test]
fn opens_on_three_shards_with_members_on_four_nodes() {
    let config = ConfigState::default();
    let topology = config.topology();
    assert_eq!(topology.shards().len(), 3);
    assert_eq!(topology.database(), "Orders");
    // Members assigned by RavenDB's algorithm on nodes A-D, replication factor 2.
    assert_eq!(topology.members(0), ["A", "B"]);
    assert_eq!(topology.members(1), ["C", "A"]);
    assert_eq!(config.nodes().value(), &["A", "B", "C", "D"]);
    assert_eq!(*config.replication_factor().value(), 2);
    assert!(config.is_plain());
}

#[test]
fn shard_count_changes_shards() {
    let config = ConfigState::default();
    let revision = config.revision();
    let config = reduce(config, ConfigAction::SetShardCount("1".into()));
    assert_eq!(config.topology().shards().len(), 1);
    assert_ne!(config.revision(), revision);
    let config = reduce(config, ConfigAction::SetShardCount(" 1024 ".into()));
    assert_eq!(config.topology().shards().len(), 1024);
    for bad in ["", "0", "1025", "abc", "-1", "2.5", "99999999999999999999"] {
        let c = reduce(config.clone(), ConfigAction::SetShardCount(bad.into()));
        assert_eq!(
            c.topology().shards().len(),
            1024,
            "{bad:?} must not be applied"
        );
        assert!(c.shards().error().is_some());
        assert_eq!(c.shards().text().as_str(), bad);
        assert_eq!(*c.shards().value(), 1024);
        assert!(Rc::ptr_eq(c.topology(), config.topology()));
    }
    // The same count again changes nothing.
    let same = reduce(config.clone(), ConfigAction::SetShardCount("1024".into()));
    assert!(Rc::ptr_eq(same.topology(), config.topology()));
    assert_eq!(same.revision(), config.revision());
}

#[test]
fn database_name_names_the_fragments() {
    let config = reduce(
        ConfigState::default(),
        ConfigAction::SetDatabase(" Shop ".into()),
    );
    assert_eq!(config.topology().fragment(2), "Shop$2");
    assert_eq!(config.database().value(), "Shop");
    for bad in ["", "  ", "a$b"] {
        let c = reduce(config.clone(), ConfigAction::SetDatabase(bad.into()));
        assert_eq!(c.topology().database(), "Shop");
        assert_eq!(c.database().value(), "Shop");
        assert!(c.database().error().is_some());
    }
}

#[test]
fn nodes_replication_and_members() {
    let config = reduce(
        ConfigState::default(),
        ConfigAction::SetNodes("a b c".into()),
    );
    assert!(config.nodes().is_valid());
    assert_eq!(config.nodes().value(), &["A", "B", "C"]);
    let config = reduce(config, ConfigAction::SetReplicationFactor("4".into()));
    assert!(config
        .replication_factor()
        .error()
        .unwrap()
        .contains("at most 3"));
    let config = reduce(config, ConfigAction::SetReplicationFactor("3".into()));
    assert_eq!(config.topology().members(0).len(), 3);
    let config = reduce(config, ConfigAction::SetNodes("A, A".into()));
    assert!(config.nodes().error().unwrap().contains("twice"));
    assert_eq!(config.nodes().value().len(), 3, "the last valid nodes stay");

    // Member edits change the topology but not its revision: nothing moves.
    let revision = config.revision();
    let config = reduce(
        config,
        ConfigAction::SetMembers {
            shard: 1,
            text: "C".into(),
        },
    );
    assert_eq!(config.topology().members(1), ["C"]);
    assert_eq!(config.revision(), revision);
    assert!(!config.is_plain());
    let config = reduce(
        config,
        ConfigAction::SetMembers {
            shard: 1,
            text: "C, c".into(),
        },
    );
    assert!(config.member_error().is_some());
    assert_eq!(config.topology().members(1), ["C"]);
    // Reassigning follows RavenDB's algorithm again.
    let config = reduce(config, ConfigAction::AssignMembers);
    assert_eq!(config.topology().members(1).len(), 3);
    assert!(config.member_error().is_none());
}

#[test]
fn a_configuration_json_is_applied_or_reported() {
    let json = r#"{"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["A"]}},
                   "Prefixed": [{"Prefix": "users/", "Shards": [2]}]}"#;
    let config = reduce(ConfigState::default(), ConfigAction::SetJson(json.into()));
    assert!(config.custom());
    assert_eq!(config.problem(), None);
    assert_eq!(config.topology().prefixes().len(), 1);
    assert_eq!(config.topology().members(1), ["B"]);
    assert_eq!(config.nodes().text().as_str(), "A, B");
    assert_eq!(config.topology().database(), "Orders");

    for bad in ["{", r#"{"Shards": {}}"#, r#"{"Shards": {"x": {}}}"#, "[]"] {
        let c = reduce(config.clone(), ConfigAction::SetJson(bad.into()));
        assert!(!c.problem().expect("reported").message.is_empty());
        assert!(
            Rc::ptr_eq(config.topology(), c.topology()),
            "{bad} must not be applied"
        );
    }
    let c = reduce(
        config.clone(),
        ConfigAction::SetJson(r#"{"Shards": {"x": {}}}"#.into()),
    );
    assert_eq!(c.problem().unwrap().path.as_deref(), Some("Shards.x"));

    // A database record names the database.
    let record = r#"{"DatabaseName": "Shop", "Sharding": {"Shards": {"0": {}}}}"#;
    let c = reduce(config.clone(), ConfigAction::SetJson(record.into()));
    assert_eq!(c.database().value(), "Shop");
    assert_eq!(c.topology().fragment(0), "Shop$0");

    // The shard count field goes back to a default topology.
    let c = reduce(config, ConfigAction::SetShardCount("3".into()));
    assert!(!c.custom());
    assert!(c.topology().prefixes().is_empty());
}

#[test]
fn a_broken_rule_is_shown_and_not_applied() {
    let bad = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
        "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 0}}}"#;
    let config = reduce(ConfigState::default(), ConfigAction::SetJson(bad.into()));
    let problem = config.problem().unwrap();
    assert_eq!(problem.path.as_deref(), Some("ByContent.Orders.Range"));
    assert!(!config.custom());
}

#[test]
fn odd_nodes_and_members_are_refused_without_panics() {
    for tags in ["", ",,,", "A-B", "é", &"A ".repeat(100)] {
        let c = reduce(
            ConfigState::default(),
            ConfigAction::SetNodes(tags.to_string()),
        );
        assert!(c.nodes().error().is_some(), "{tags:?}");
        let c = reduce(
            ConfigState::default(),
            ConfigAction::SetMembers {
                shard: 0,
                text: tags.to_string(),
            },
        );
        assert_eq!(c.member_error().is_some(), !tags.is_empty(), "{tags:?}");
    }
}
