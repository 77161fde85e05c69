//! The order RavenDB gives prefixes when it creates a database.
//!
//! `ShardingStore.FillPrefixedSharding` sorts `Prefixed` with
//! `OrderByDescending(x => x.Prefix)` and hands out the 2^20 blocks in that order. That is
//! .NET's default string comparison, culture-sensitive under the current culture. The
//! server runs under the invariant culture (`Program.UseOnlyInvariantCultureInRavenDB` sets
//! `CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture`) with ICU:
//! `Raven.Server.csproj` does not set `InvariantGlobalization`, and the server's Linux
//! packages depend on .NET's runtime dependencies, libicu among them. So prefixes are
//! compared with ICU's root collation at tertiary strength (`CompareOptions.None`), not
//! ordinally: `usersa/` comes before `users_x/` in descending order (`_` is punctuation,
//! which sorts before letters), while ignoring case ordinally puts `users_x/` first.
//!
//! For prefixes of ASCII characters the root collation is computed here exactly:
//!
//! 1. `0x00`-`0x08`, `0x0E`-`0x1F` and `0x7F` are ignored;
//! 2. the other characters compare by their primary weight: whitespace, then punctuation
//!    and symbols in the order of [`ROOT_ORDER`], digits, and letters (`a` = `A`);
//! 3. if all weights are equal, case decides, character by character: lower before upper;
//! 4. otherwise the strings are equal, and the sort, being stable, keeps them as given.
//!
//! A prefix with any other character is compared with ICU4X's root collator when the crate
//! is built with the `icu-collation` feature. Without it such pairs are compared
//! ordinal-ignoring-case, and the topology says so with
//! [`ConfigWarning::PrefixOrderApproximate`](crate::ConfigWarning::PrefixOrderApproximate).
//!
//! A prefix added to an existing database is inserted differently
//! (`AddPrefixedShardingSettingCommand`: a binary search with `OrdinalIgnoreCase`,
//! descending); this order applies only at creation.

use std::cmp::Ordering;

/// The printable and whitespace ASCII characters (letters lower-cased) in ascending order of
/// their primary weight in the root collation (CLDR root, as ICU and ICU4X 2.4 give it).
pub(crate) const ROOT_ORDER: &[u8] =
    b"\t\n\x0B\x0C\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

/// Primary weight of an ASCII byte (1 and up), or 0 for a completely ignorable one.
fn primary(b: u8) -> usize {
    let lower = b.to_ascii_lowercase();
    ROOT_ORDER
        .iter()
        .position(|&x| x == lower)
        .map_or(0, |i| i + 1)
}

/// Two ASCII strings in the root collation at tertiary strength (see the module
/// documentation).
pub(crate) fn collate_ascii(a: &str, b: &str) -> Ordering {
    let weighted = |s: &str| -> Vec<(usize, bool)> {
        s.bytes()
            .map(|c| (primary(c), c.is_ascii_uppercase()))
            .filter(|&(p, _)| p != 0)
            .collect()
    };
    let (a, b) = (weighted(a), weighted(b));
    let primaries = a.iter().map(|w| w.0).cmp(b.iter().map(|w| w.0));
    primaries.then_with(|| a.iter().map(|w| w.1).cmp(b.iter().map(|w| w.1)))
}

/// How two prefixes compare at creation: exactly for ASCII, with ICU4X's root collator for
/// others when the `icu-collation` feature is on.
pub(crate) struct Collation {
    #[cfg(feature = "icu-collation")]
    root: icu_collator::CollatorBorrowed<'static>,
}

impl Collation {
    pub(crate) fn new() -> Collation {
        Collation {
            #[cfg(feature = "icu-collation")]
            root: icu_collator::Collator::try_new(
                Default::default(),
                icu_collator::options::CollatorOptions::default(),
            )
            // The root collation's data is compiled in, so this cannot fail.
            .unwrap_or_else(|_| unreachable!("compiled root collation data")),
        }
    }

    /// Whether two prefixes are ordered exactly as RavenDB orders them.
    pub(crate) fn is_exact(&self, a: &str, b: &str) -> bool {
        cfg!(feature = "icu-collation") || (a.is_ascii() && b.is_ascii())
    }

    /// The order of two prefixes.
    pub(crate) fn compare(&self, a: &str, b: &str) -> Ordering {
        if a.is_ascii() && b.is_ascii() {
            return collate_ascii(a, b);
        }
        #[cfg(feature = "icu-collation")]
        {
            self.root.compare(a, b)
        }
        #[cfg(not(feature = "icu-collation"))]
        {
            crate::casing::ordinal_ignore_case(a, b)
        }
    }
}

/// Indices of `prefixes` in creation order: descending in the server's collation, prefixes
/// that compare equal kept in the order given (LINQ's sort is stable, as is `sort_by`).
pub(crate) fn creation_order<'a>(prefixes: impl ExactSizeIterator<Item = &'a str>) -> Vec<usize> {
    let prefixes: Vec<&str> = prefixes.collect();
    let collation = Collation::new();
    let mut order: Vec<usize> = (0..prefixes.len()).collect();
    order.sort_by(|&a, &b| collation.compare(prefixes[b], prefixes[a]));
    order
}

/// A prefix whose place in [`creation_order`] is not certain: one that is compared with
/// another prefix in a way [`Collation::is_exact`] cannot vouch for.
pub(crate) fn approximate_prefix<'a>(prefixes: &[&'a str]) -> Option<&'a str> {
    let collation = Collation::new();
    let mut pairs = prefixes
        .iter()
        .enumerate()
        .flat_map(|(i, a)| prefixes[i + 1..].iter().map(move |b| (*a, *b)));
    pairs
        .find(|(a, b)| !collation.is_exact(a, b))
        .map(|(a, b)| if a.is_ascii() { b } else { a })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::casing::ordinal_ignore_case;

    #[test]
    fn root_order_of_ascii_quotes_icu() {
        // Sorted with ICU4X 2.4's root collator: every printable ASCII character, then the
        // same with ties broken by code point.
        let mut printable: Vec<u8> = (0x20u8..0x7F).collect();
        printable.sort_by(|a, b| {
            collate_ascii(&char::from(*a).to_string(), &char::from(*b).to_string()).then(a.cmp(b))
        });
        assert_eq!(
            String::from_utf8(printable).unwrap(),
            " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
        );
    }

    #[test]
    fn where_the_collation_and_ordinal_ignore_case_differ() {
        let cases = [
            // (a, b, root collation, ordinal ignoring case)
            ("users_x/", "usersa/", Ordering::Less, Ordering::Greater),
            ("a-b/", "a_b/", Ordering::Greater, Ordering::Less),
            ("a$/", "a0/", Ordering::Less, Ordering::Less),
            ("a~/", "a0/", Ordering::Less, Ordering::Greater),
            ("a/", "a-", Ordering::Greater, Ordering::Greater),
            ("a.b/", "a/b/", Ordering::Less, Ordering::Less),
            ("a|/", "a[/", Ordering::Greater, Ordering::Greater),
            ("a{/", "ab/", Ordering::Less, Ordering::Greater),
            ("Ab/", "aB/", Ordering::Greater, Ordering::Equal),
            ("a\u{1}b/", "ab/", Ordering::Equal, Ordering::Less),
        ];
        for (a, b, root, ordinal) in cases {
            assert_eq!(collate_ascii(a, b), root, "{a:?} vs {b:?}");
            assert_eq!(collate_ascii(b, a), root.reverse(), "{b:?} vs {a:?}");
            assert_eq!(ordinal_ignore_case(a, b), ordinal, "{a:?} vs {b:?} ordinal");
        }
    }

    #[test]
    fn letters_digits_slash_and_dash_agree_with_ordinal_ignore_case() {
        let alphabet = ["a", "B", "z", "0", "9", "/", "-"];
        let mut words = vec![String::new()];
        for _ in 0..3 {
            words = words
                .iter()
                .flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}")))
                .collect();
        }
        for a in &words {
            for b in &words {
                let ordinal = ordinal_ignore_case(a, b);
                if ordinal != Ordering::Equal {
                    assert_eq!(collate_ascii(a, b), ordinal, "{a:?} vs {b:?}");
                }
            }
        }
    }

    #[test]
    fn creation_order_is_descending_and_stable() {
        let prefixes = ["usersa/", "users_x/", "a\u{1}b/", "ab/", "Users/"];
        let order = creation_order(prefixes.iter().copied());
        let sorted: Vec<&str> = order.iter().map(|&i| prefixes[i]).collect();
        // `/` sorts after `_`, so `Users/` comes between `usersa/` and `users_x/`.
        assert_eq!(sorted, ["usersa/", "Users/", "users_x/", "a\u{1}b/", "ab/"]);
    }

    #[cfg(feature = "icu-collation")]
    #[test]
    fn the_ascii_rule_is_icus_root_collation() {
        let root = Collation::new().root;
        let alphabet: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        for a in &alphabet {
            for b in &alphabet {
                for (x, y) in [
                    (format!("{a}{b}/"), format!("{b}{a}/")),
                    (format!("x{a}"), format!("x{b}y")),
                ] {
                    assert_eq!(
                        collate_ascii(&x, &y),
                        root.compare(&x, &y),
                        "{x:?} vs {y:?}"
                    );
                }
            }
        }
        assert_eq!(root.compare("é/", "f/"), Ordering::Less);
        assert_eq!(Collation::new().compare("é/", "f/"), Ordering::Less);
    }
}
