//! Texts written back to back in one string (the IDs, the bodies), each known by its
//! `[start, len]` span: one allocation for millions of texts.

/// The most bytes an arena holds (spans are `u32`; one less than their largest value, so
/// that the limit can be reached on wasm32 too).
pub(super) const MAX_ARENA: usize = (u32::MAX - 1) as usize;

/// `n` (bytes of an arena, rows of a table) with room for the edits that follow: 1/64th
/// more, and at least 256. A table grown past its capacity is copied whole, and in wasm
/// (where a reallocation cannot remap pages) that copy is one long task: a placement
/// reserved at exactly its documents (a restore, an import, a generation) then copied its
/// 10,000,000 IDs' arena in the first edit after a reload (a task of 191 ms).
pub(super) fn with_edit_room(n: usize) -> usize {
    n.saturating_add(n / 64).saturating_add(256)
}

/// Texts back to back. A replaced text is written at the end and the old bytes become
/// garbage, compacted once they outweigh the live bytes (amortized O(1) per edited byte,
/// never a shift of the whole arena).
#[derive(Debug, Clone, Default)]
pub(super) struct Arena {
    text: String,
    /// Bytes no span points at.
    garbage: usize,
}

impl Arena {
    /// Room for `bytes` more, and for the edits after them ([`with_edit_room`]), within
    /// [`MAX_ARENA`].
    pub(super) fn reserve(&mut self, bytes: usize) {
        let room = MAX_ARENA.saturating_sub(self.text.len());
        self.text.reserve(with_edit_room(bytes).min(room));
    }

    /// Bytes written, live or not.
    pub(super) fn len(&self) -> usize {
        self.text.len()
    }

    /// Bytes some span points at.
    pub(super) fn live(&self) -> usize {
        self.text.len() - self.garbage
    }

    pub(super) fn capacity(&self) -> usize {
        self.text.capacity()
    }

    pub(super) fn get(&self, [start, len]: [u32; 2]) -> Option<&str> {
        self.text.get(start as usize..start as usize + len as usize)
    }

    /// Writes `text` at the end: the caller keeps the arena within [`MAX_ARENA`]
    /// ([`compact`](Self::compact) first when it would not be).
    pub(super) fn push(&mut self, text: &str) -> [u32; 2] {
        let start = self.text.len();
        self.text.push_str(text);
        [start as u32, text.len() as u32]
    }

    /// The text at `span` is no longer used.
    pub(super) fn forget(&mut self, span: [u32; 2]) {
        self.garbage += span[1] as usize;
    }

    /// Whether the garbage outweighs the live bytes (and is worth a pass).
    pub(super) fn wasteful(&self) -> bool {
        self.garbage > self.text.len() / 2 && self.garbage > 1 << 16
    }

    /// Writes the live texts again back to back, `spans` being every span in use:
    /// O(live bytes).
    pub(super) fn compact<'a>(&mut self, spans: impl Iterator<Item = &'a mut [u32; 2]>) {
        let mut text = String::with_capacity(with_edit_room(self.live()).min(MAX_ARENA));
        for span in spans {
            let live = self.get(*span).unwrap_or("");
            *span = [text.len() as u32, span[1]];
            text.push_str(live);
        }
        self.text = text;
        self.garbage = 0;
    }
}
