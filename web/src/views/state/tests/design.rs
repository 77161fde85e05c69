//! The design sub-state, on its own: routes, the transaction and the LoadDocument checks.

use crate::state::design::{marked_buckets, MAX_MARKED};
use crate::state::*;
use ravenshard::Topology;
use std::rc::Rc;
use yew::Reducible;

fn reduce(design: DesignState, action: DesignAction) -> DesignState {
    Rc::unwrap_or_clone(Rc::new(design).reduce(action))
}

fn topology(json: &str) -> Rc<Topology> {
    Rc::new(Topology::from_json(json).unwrap())
}

const THREE: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#;

const DESIGN: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#;

#[test]
fn routes_follow_the_design_of_the_configuration() {
    let design = DesignState::new(topology(THREE));
    assert!(design.design().is_none());
    assert_eq!(design.query(), DEFAULT_QUERY);
    assert!(design.route().as_ref().as_ref().unwrap().all_shards);
    let design = reduce(design, DesignAction::Configure(topology(DESIGN)));
    assert!(design.design().is_some());
    let route = design.route();
    let route = route.as_ref().as_ref().unwrap();
    assert_eq!(
        (route.shards.clone(), route.buckets.clone()),
        (vec![2], vec![(982000, 983000)])
    );
    assert_eq!(design.marked().len(), 1000);
    let design = reduce(
        design,
        DesignAction::SetQuery("from Orders where Total > 5".into()),
    );
    assert!(design.route().as_ref().as_ref().unwrap().all_shards);
    let design = reduce(design, DesignAction::SetQuery("select".into()));
    assert!(design.route().is_err());
    assert!(design.marked().is_empty());
}

#[test]
fn transaction_and_load_checks() {
    let design = DesignState::new(topology(THREE));
    // The chapter's anchored order and its customer share a bucket.
    assert_eq!(design.transaction().buckets, vec![982173]);
    let ids = "orders/1-A\ncustomers/1-A\n\n".to_string();
    let design = reduce(design, DesignAction::SetTransactionIds(ids));
    assert_eq!(design.transaction().shards, vec![0, 2]);
    let load = design.load_check();
    assert!(!load.as_ref().as_ref().unwrap().same_bucket);
    let design = reduce(
        design,
        DesignAction::SetLoadCheck {
            document: "Users/70$Users/4".into(),
            related: "Users/4".into(),
        },
    );
    assert!(design.load_check().as_ref().as_ref().unwrap().same_bucket);
    let empty = DesignAction::SetLoadCheck {
        document: " ".into(),
        related: "Users/4".into(),
    };
    let design = reduce(design, empty);
    assert_eq!(design.load_check().as_ref().as_ref().unwrap_err(), "");
}

#[test]
fn a_routes_buckets_are_marked_on_the_map_within_a_cap() {
    let route = |buckets: Vec<(u32, u32)>| ravenshard_design::route::Route {
        shards: vec![0],
        all_shards: false,
        buckets,
        reason: String::new(),
        fetched: None,
        warnings: Vec::new(),
    };
    assert_eq!(
        marked_buckets(&route(vec![(5, 8), (20, 21)])),
        vec![5, 6, 7, 20]
    );
    let wide = marked_buckets(&route(vec![(0, 1 << 20)]));
    assert!(wide.len() <= MAX_MARKED + 1 && wide.len() > MAX_MARKED / 2);
    assert_eq!(wide[0], 0);
    assert!(marked_buckets(&route(Vec::new())).is_empty());
}
