//! Numbers in the keys a configuration keeps unread are written back exactly: a float such
//! as 1.1844674407370957e20 reads back to the same value (serde_json's `float_roundtrip`),
//! so a record that reads writes back to one that reads the same (found by the `config`
//! fuzz target; its input is the fixture).

use ravenshard::Topology;

#[test]
fn a_kept_float_is_written_back_exactly() {
    let text = include_str!("fixtures/fuzz-config-float-key.json");
    let topology = Topology::from_json(text).expect("the fuzz input reads");
    let json = topology.to_json();
    let again = Topology::from_json(&json).expect("the JSON written back reads");
    assert_eq!(again.extra_keys(), topology.extra_keys());
    assert_eq!(again.to_json(), json);
}
