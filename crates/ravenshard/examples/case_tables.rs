//! Writes the case-mapping tables of `src/casing/tables.rs` to standard output.
//!
//! The tables are checked in and fixed: the core's answers must not depend on the toolchain
//! that builds it. This program is how they were made; run it only to move the tables to a
//! newer Unicode version on purpose, then review the differences that
//! `casing::tests::every_difference_from_the_toolchain_is_explained` lists:
//!
//! ```text
//! cargo run -p ravenshard --example case_tables > crates/ravenshard/src/casing/tables.rs
//! ```
//!
//! The mappings are the Unicode *simple* case mappings (UnicodeData.txt), which .NET uses.
//! Rust's `char::to_lowercase`/`to_uppercase` give the *full* mappings (SpecialCasing.txt);
//! where the two differ, the simple mapping is written out below.

/// Simple lower-case mapping, as .NET's invariant `ToLower` applies it: U+0130 stays (its
/// full mapping is `i` + U+0307, its simple one `i`, and .NET keeps the character).
fn lower(c: char) -> char {
    if c == '\u{0130}' {
        return c;
    }
    let mut m = c.to_lowercase();
    match (m.next(), m.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// Characters whose full upper-case mapping has several characters but whose simple one is
/// a single character: the Greek letters with ypogegrammeni (iota subscript), which
/// upper-case to the matching letter with prosgegrammeni (SpecialCasing.txt, UnicodeData.txt).
const SIMPLE_UPPER: [(u32, u32, u32); 6] = [
    // (first, count, delta)
    (0x1F80, 8, 8),
    (0x1F90, 8, 8),
    (0x1FA0, 8, 8),
    (0x1FB3, 1, 9),
    (0x1FC3, 1, 9),
    (0x1FF3, 1, 9),
];

/// Simple upper-case mapping as .NET's `StringComparison.OrdinalIgnoreCase` applies it:
/// U+0131 (dotless i) and U+017F (long s) stay, as .NET's ordinal casing table keeps them.
fn upper(c: char) -> char {
    if c == '\u{0131}' || c == '\u{017F}' {
        return c;
    }
    let code = u32::from(c);
    for (first, count, delta) in SIMPLE_UPPER {
        if (first..first + count).contains(&code) {
            return char::from_u32(code + delta).unwrap_or(c);
        }
    }
    let mut m = c.to_uppercase();
    match (m.next(), m.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// The mapping as runs `(start, count, stride, delta)`: code point `start + k × stride`
/// (k < count) maps to itself plus `delta`.
fn runs(map: fn(char) -> char) -> Vec<(u32, u32, u32, i32)> {
    let mut runs: Vec<(u32, u32, u32, i32)> = Vec::new();
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let (code, mapped) = (u32::from(c), u32::from(map(c)));
        if mapped == code {
            continue;
        }
        let delta = mapped as i32 - code as i32;
        if let Some(last) = runs.last_mut() {
            let (start, count, stride, d) = *last;
            if d == delta && count == 1 && (code - start == 1 || code - start == 2) {
                *last = (start, 2, code - start, d);
                continue;
            }
            if d == delta && count > 1 && code == start + count * stride {
                last.1 += 1;
                continue;
            }
        }
        runs.push((code, 1, 1, delta));
    }
    runs
}

fn table(name: &str, doc: &str, map: fn(char) -> char) {
    let runs = runs(map);
    println!("/// {doc}");
    println!("pub(super) static {name}: [Run; {}] = [", runs.len());
    for (start, count, stride, delta) in runs {
        println!("    Run::new(0x{start:04X}, {count}, {stride}, {delta}),");
    }
    println!("];");
}

fn main() {
    let (major, minor, update) = char::UNICODE_VERSION;
    println!(
        "//! Case-mapping tables, generated once by `examples/case_tables.rs` from the Unicode"
    );
    println!("//! {major}.{minor}.{update} data of the toolchain that ran it (`char::UNICODE_VERSION`), and checked in.");
    println!(
        "//! Do not edit by hand; see `casing` for what the tables are and how they differ from"
    );
    println!("//! `char::to_lowercase`/`to_uppercase`.");
    println!();
    println!("use super::Run;");
    println!();
    println!("/// The Unicode version these tables were generated from.");
    println!("pub const UNICODE_VERSION: (u8, u8, u8) = ({major}, {minor}, {update});");
    println!();
    table(
        "LOWER",
        "Simple lower-case mapping of every code point, U+0130 excepted (it maps to itself).",
        lower,
    );
    println!();
    table(
        "UPPER",
        "Simple upper-case mapping of every code point, U+0131 and U+017F excepted (they map to themselves).",
        upper,
    );
}
