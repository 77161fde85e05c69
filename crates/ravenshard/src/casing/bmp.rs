//! A two-level lookup table of the lower-case mapping of the Basic Multilingual Plane,
//! derived once (on first use) from the run table [`LOWER`](super::tables), which stays the
//! single source of truth. IDs are lower-cased per UTF-16 code unit, so the BMP is all
//! [`lower_case`](super::lower_case) ever maps.
//!
//! Each 256-code-point block is a row of wrapping `u16` deltas; rows that are all zero (the
//! vast majority) share one row, so the table is a few kilobytes and stays in cache.

use super::{mapped, tables::LOWER};
use std::sync::OnceLock;

/// The table: the row of each block, and the distinct rows.
struct Bmp {
    row_of_block: [u8; 256],
    rows: Vec<[u16; 256]>,
}

fn table() -> &'static Bmp {
    static TABLE: OnceLock<Bmp> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Bmp {
    let mut rows: Vec<[u16; 256]> = vec![[0; 256]];
    let mut row_of_block = [0u8; 256];
    for (block, slot) in row_of_block.iter_mut().enumerate() {
        let mut row = [0u16; 256];
        for (low, delta) in row.iter_mut().enumerate() {
            let unit = (block << 8 | low) as u32;
            // Surrogate code units are not characters: they have no mapping.
            if let Some(c) = char::from_u32(unit) {
                *delta = (u32::from(mapped(&LOWER, c)) as u16).wrapping_sub(unit as u16);
            }
        }
        let index = match rows.iter().position(|r| *r == row) {
            Some(i) => i,
            None => {
                rows.push(row);
                rows.len() - 1
            }
        };
        // At most 256 blocks, so at most 256 distinct rows.
        *slot = index as u8;
    }
    Bmp { row_of_block, rows }
}

/// The lower-case mapping of one BMP code unit (`char.ToLowerInvariant`).
#[inline]
pub(crate) fn lower_unit(unit: u16) -> u16 {
    table().lower(unit)
}

impl Bmp {
    #[inline]
    fn lower(&self, unit: u16) -> u16 {
        let row = self
            .rows
            .get(usize::from(self.row_of_block[usize::from(unit >> 8)]));
        let delta = row.map_or(0, |r| r[usize::from(unit & 0xFF)]);
        unit.wrapping_add(delta)
    }
}

/// Lower-cases UTF-8 text into `out` as [`lower_case`](super::lower_case) does, a code
/// unit at a time through the table; the bytes written, or `None` when `out` is too short
/// (3 bytes per input byte always suffice: a character's lower-case form is at most 1.5
/// times as long in UTF-8).
#[inline]
pub(crate) fn lower_into(text: &str, out: &mut [u8]) -> Option<usize> {
    lower_bytes_into(text.as_bytes(), out)
}

/// [`lower_into`] for bytes not checked as UTF-8: the same bytes for UTF-8, and some bytes
/// (or `None`), never a panic, for anything else.
#[inline]
fn lower_bytes_into(bytes: &[u8], out: &mut [u8]) -> Option<usize> {
    let table = table();
    let mut at = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            *out.get_mut(at)? = b.to_ascii_lowercase();
            at += 1;
            i += 1;
            continue;
        }
        // `text` is UTF-8: the lead byte tells the length.
        let (unit, len) = if b < 0xE0 {
            let c1 = *bytes.get(i + 1)?;
            (u32::from(b & 0x1F) << 6 | u32::from(c1 & 0x3F), 2)
        } else if b < 0xF0 {
            let (c1, c2) = (*bytes.get(i + 1)?, *bytes.get(i + 2)?);
            let unit = u32::from(b & 0x0F) << 12 | u32::from(c1 & 0x3F) << 6;
            (unit | u32::from(c2 & 0x3F), 3)
        } else {
            // Outside the BMP: two surrogates in UTF-16, neither mapped.
            let source = bytes.get(i..i + 4)?;
            out.get_mut(at..at + 4)?.copy_from_slice(source);
            at += 4;
            i += 4;
            continue;
        };
        let lower = char::from_u32(u32::from(table.lower(unit as u16)))?;
        let need = lower.len_utf8();
        lower.encode_utf8(out.get_mut(at..at + need)?);
        at += need;
        i += len;
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_agrees_with_the_runs_on_the_whole_bmp() {
        for unit in 0..=0xFFFFu32 {
            let expected = char::from_u32(unit).map_or(unit, |c| u32::from(mapped(&LOWER, c)));
            assert_eq!(u32::from(lower_unit(unit as u16)), expected, "U+{unit:04X}");
        }
        assert!(table().rows.len() < 64, "{} rows", table().rows.len());
    }

    #[test]
    fn lower_into_grows_and_shrinks() {
        let mut out = [0u8; 64];
        for (text, lower) in [("ȺK/𐐀É", "ⱥk/𐐀é"), ("İ", "İ"), ("ABC", "abc")] {
            let n = lower_into(text, &mut out).unwrap();
            assert_eq!(std::str::from_utf8(&out[..n]).unwrap(), lower);
        }
        assert_eq!(lower_into("ȺȺ", &mut [0u8; 5]), None);
    }
}
