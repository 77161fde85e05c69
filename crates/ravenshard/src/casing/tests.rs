//! The fixed tables against the toolchain's `char` case mappings, and known answers.

use super::*;

/// The toolchain's mapping of `c` when it is a single character (its simple mapping, except
/// where the full mapping has several characters), else `c`.
fn single(mut mapping: impl Iterator<Item = char>, c: char) -> char {
    match (mapping.next(), mapping.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// Why the tables may map `c` to `ours` where the toolchain gives `theirs`, or `None`.
fn explain(table: &[Run], c: char, ours: char, theirs: char) -> Option<&'static str> {
    let lower = std::ptr::eq(table, LOWER.as_slice());
    match u32::from(c) {
        0x0130 if lower => return Some(".NET keeps U+0130 (its full mapping is i + U+0307)"),
        0x0131 | 0x017F if !lower => {
            return Some(".NET's ordinal casing keeps dotless i and long s")
        }
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 | 0x1FB3 | 0x1FC3 | 0x1FF3
            if !lower =>
        {
            return Some("simple upper-case mapping; the full one has two characters")
        }
        _ => {}
    }
    // Unicode versions differ: a character (or its case partner) the tables' version does
    // not case, or one this toolchain does not know yet.
    let cased = |x: char| mapped(&LOWER, x) != x || mapped(&UPPER, x) != x;
    let newer_toolchain = char::UNICODE_VERSION > UNICODE_VERSION;
    if newer_toolchain && ours == c && !(cased(c) && cased(theirs)) {
        return Some("cased after the tables' Unicode version");
    }
    if !newer_toolchain && char::UNICODE_VERSION != UNICODE_VERSION && theirs == c {
        return Some("cased after this toolchain's Unicode version");
    }
    None
}

#[test]
fn every_difference_from_the_toolchain_is_explained() {
    let mut unexplained = Vec::new();
    let mut differences = 0;
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let pairs = [
            (LOWER.as_slice(), "lower", single(c.to_lowercase(), c)),
            (UPPER.as_slice(), "upper", single(c.to_uppercase(), c)),
        ];
        for (table, name, theirs) in pairs {
            let ours = mapped(table, c);
            if ours == theirs {
                continue;
            }
            differences += 1;
            let line = format!(
                "{name} U+{:04X}: tables U+{:04X}, char::to_{name}case U+{:04X}",
                u32::from(c),
                u32::from(ours),
                u32::from(theirs)
            );
            match explain(table, c, ours, theirs) {
                Some(why) => eprintln!("{line}: {why}"),
                None => unexplained.push(line),
            }
        }
    }
    assert!(unexplained.is_empty(), "unexplained: {unexplained:#?}");
    if char::UNICODE_VERSION == UNICODE_VERSION {
        // U+0131 and U+017F; 27 Greek letters with ypogegrammeni. (U+0130 maps to itself in
        // the tables, and its full lower-case mapping has two characters, so `single` keeps
        // it too: no difference.)
        assert_eq!(differences, 29);
    }
}

#[test]
fn tables_are_sorted_and_small() {
    for table in [LOWER.as_slice(), UPPER.as_slice()] {
        assert!(table.windows(2).all(|w| w[0].start < w[1].start));
        assert!(table.iter().all(|r| r.count >= 1 && r.stride >= 1));
    }
    assert!(LOWER.len() + UPPER.len() < 1000);
}

#[test]
fn ascii_fast_path_only_maps_letters() {
    assert_eq!(
        lower_case("Orders/1-A$Customers/7"),
        "orders/1-a$customers/7"
    );
    assert!(matches!(lower_case("orders/1-a"), Cow::Borrowed(_)));
}

#[test]
fn simple_mapping_not_full_mapping() {
    // Full mapping would give "i\u{307}".
    assert_eq!(lower_case("\u{0130}"), "\u{0130}");
    // Final sigma is a conditional rule that .NET does not apply.
    assert_eq!(lower_case("ΟΔΟΣ"), "οδοσ");
    // Deseret capital letter: outside the BMP, untouched per UTF-16 unit...
    assert_eq!(lower_case("\u{10400}"), "\u{10400}");
    // ...but lower-cased in a whole string (a prefix).
    assert_eq!(lower_invariant("\u{10400}"), "\u{10428}");
    // Straße: ß has no simple upper/lower change; capital sharp s maps to ß.
    assert_eq!(lower_case("STRASSE/ẞ"), "strasse/ß");
    // Title-case digraph maps to lower-case digraph.
    assert_eq!(lower_case("ǅ"), "ǆ");
    // Kelvin sign maps to ASCII k.
    assert_eq!(lower_case("\u{212A}"), "k");
}

#[test]
fn ordinal_ignore_case_uses_simple_upper_case() {
    assert_eq!(ordinal_ignore_case("ᾳ/", "ᾼ/"), Ordering::Equal);
    assert_eq!(
        ordinal_ignore_case("straße/", "STRASSE/"),
        Ordering::Greater
    );
    assert_eq!(ordinal_ignore_case("ſ/", "S/"), Ordering::Greater);
    assert_eq!(ordinal_ignore_case("𐐨/", "𐐀/"), Ordering::Equal);
}

#[test]
fn lower_case_can_change_the_utf8_length() {
    // U+023A (2 bytes) lower-cases to U+2C65 (3 bytes).
    assert_eq!(lower_case("\u{023A}").len(), 3);
}
