//! `docs/check.md` lists every rule of `rules::ALL`, and no other.

use ravenshard_check::rules;

#[test]
fn the_docs_list_every_rule() {
    let docs = include_str!("../../../docs/check.md");
    let listed: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|name| name.contains('.'))
        .collect();
    let all: Vec<&str> = rules::ALL.iter().map(|r| r.name).collect();
    assert_eq!(listed, all);
}
