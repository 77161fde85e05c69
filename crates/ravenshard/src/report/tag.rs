//! The tag of an anchor: 24 bits of its first and last eight bytes, lowered. The second pass
//! of a report tells from it, without lowering or hashing a line, that the line is neither a
//! member nor the anchor document of any group it lists.

use crate::xxh64_lowered::lower_word;

/// 24 bits of the first and last eight bytes of a lowered anchor (or of a lowered ID that
/// may be one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Tag(pub(super) u32);

/// `bytes` (at most eight) as a little-endian word, zeros after their end.
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (to, &from) in w.iter_mut().zip(bytes) {
        *to = from;
    }
    u64::from_le_bytes(w)
}

/// The first and last eight bytes of `text` (the same bytes when it is shorter).
fn ends(text: &[u8]) -> (&[u8], &[u8]) {
    let n = text.len().min(8);
    let first = text.get(..n).unwrap_or_default();
    let last = text.get(text.len() - n..).unwrap_or_default();
    (first, last)
}

/// Eight bytes mixed so that every bit of the result depends on all of them: the high and
/// low halves of their 128-bit product with an odd constant, folded.
fn mixed(bytes: u64) -> u64 {
    let product = u128::from(bytes) * 0x9E37_79B9_7F4A_7C15;
    (product as u64) ^ ((product >> 64) as u64)
}

impl Tag {
    fn of_words(first: u64, last: u64) -> Tag {
        Tag((mixed(first ^ mixed(last)) >> 40) as u32)
    }

    /// The tag of a lowered anchor (or lowered unanchored ID).
    pub(super) fn of_lowered(lower: &[u8]) -> Tag {
        let (first, last) = ends(lower);
        Tag::of_words(word(first), word(last))
    }

    /// The tag of the lowered form of `written` (an anchor, or an unanchored ID, as written),
    /// when its first and last eight bytes are printable ASCII: those lower to the first and
    /// last bytes of its lowered form, whatever lies between (lowering a non-ASCII character
    /// or escaping a control character changes only the middle). `None` otherwise.
    pub(super) fn of_written(written: &[u8]) -> Option<Tag> {
        // Eight bytes or more (most IDs): two words, checked and lowered eight bytes at a
        // time.
        if let (Some(first), Some(last)) = (written.first_chunk(), written.last_chunk()) {
            let (first, last) = (u64::from_le_bytes(*first), u64::from_le_bytes(*last));
            if !(printable(first) && printable(last)) {
                return None;
            }
            return Some(Tag::of_words(lower_word(first), lower_word(last)));
        }
        if !written.iter().all(|b| (0x20..0x80).contains(b)) {
            return None;
        }
        let w = lower_word(word(written));
        Some(Tag::of_words(w, w))
    }
}

/// Whether every byte of `w` is printable ASCII (0x20 to 0x7F); may say `false` for some
/// words that are (a byte below 0x20 borrows from the next), never `true` for one that is
/// not.
fn printable(w: u64) -> bool {
    use crate::xxh64_lowered::{HIGH, ONES};
    w & HIGH == 0 && w.wrapping_sub(ONES * 0x20) & !w & HIGH == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower_id;

    #[test]
    fn a_written_anchor_has_the_tag_of_its_lowered_form() {
        for written in [
            "Customers/1-A",
            "A",
            "",
            "CUSTOMERS/\u{212A}ÉLVIN-123-A",
            "ab\u{1}cdefghijKLMN",
        ] {
            let lower = lower_id(written);
            if let Some(tag) = Tag::of_written(written.as_bytes()) {
                assert_eq!(tag, Tag::of_lowered(lower.as_bytes()), "{written:?}");
            }
        }
        assert_eq!(Tag::of_written("É/1".as_bytes()), None);
    }

    #[test]
    fn every_byte_that_is_not_printable_is_seen_in_a_word() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut w = *b"customer";
                w[at] = b;
                let expected = (0x20..0x80).contains(&b);
                assert_eq!(printable(u64::from_le_bytes(w)), expected, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn anchors_that_differ_in_their_last_bytes_have_other_tags() {
        let tags: std::collections::HashSet<Tag> = (0..10_000)
            .map(|i| Tag::of_lowered(format!("customers/{i}-a").as_bytes()))
            .collect();
        assert!(tags.len() > 9_990, "{} tags", tags.len());
    }
}
