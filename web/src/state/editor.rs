//! The ID editor's page: the part of the workspace the editor's text holds.
//!
//! A browser lays out a whole `<textarea>` again after every keystroke. With 100,000 lines
//! (4 MB) that takes Chromium 0.3–0.6 s per typed character and 3–5 s per replaced value, so
//! the editor holds at most [`PAGE_LINES`] documents at a time, with a pager for the rest.
//! The page's documents come from the workspace's host ([`Page::of`]); an edit of the page's
//! text is diffed against them and spliced into the workspace in their place; the rest of
//! the workspace is untouched.

use super::documents::{documents_text, parse_documents_at, Parsed};
use ravenshard_model::workspace::Document;
use std::ops::Range;
use std::rc::Rc;
use yew::AttrValue;

/// The most documents a page shows when it is opened.
pub const PAGE_LINES: usize = 1_000;

/// A page that grows past this many documents (a large paste) is cut back to
/// [`PAGE_LINES`], the rest shown by the pager.
pub const MAX_PAGE_LINES: usize = 4 * PAGE_LINES;

/// Where the user asks the editor to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageMove {
    /// The [`PAGE_LINES`] documents before the page.
    Previous,
    /// The documents after the page.
    Next,
    /// The page holding this (1-based) line, aligned to a multiple of [`PAGE_LINES`].
    Line(usize),
}

/// The page of the workspace the ID editor shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Page {
    start: usize,
    len: usize,
    text: AttrValue,
    /// The page's documents, as the workspace holds them (what an edit is diffed against).
    documents: Rc<Vec<Document>>,
}

/// The lines an edit changed: documents `at..at + remove` of the workspace were replaced by
/// `insert` (the lines between the text's unchanged start and unchanged end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    /// Index of the first document replaced.
    pub at: usize,
    /// How many documents were removed from `at` on.
    pub remove: usize,
    /// The documents put in their place.
    pub insert: Vec<Document>,
}

impl Splice {
    /// The change from `old` to `new` (the page's documents, the first at index `start` of
    /// the workspace): the lines between their longest common start and end.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::Splice;
    /// use ravenshard_model::workspace::Document;
    ///
    /// let old = [Document::new("a"), Document::new("b"), Document::new("c")];
    /// let new = [Document::new("a"), Document::new("B2"), Document::new("c")];
    /// let splice = Splice::between(10, &old, &new);
    /// assert_eq!((splice.at, splice.remove), (11, 1));
    /// assert_eq!(splice.insert, [Document::new("B2")]);
    /// ```
    pub fn between(start: usize, old: &[Document], new: &[Document]) -> Splice {
        let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
        let suffix = old_rest
            .iter()
            .rev()
            .zip(new_rest.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        Splice {
            at: start + prefix,
            remove: old_rest.len() - suffix,
            insert: new_rest[..new_rest.len() - suffix].to_vec(),
        }
    }
}

/// What an edit of the page's text did.
#[derive(Debug)]
pub struct PageEdit {
    /// The lines that changed, when the documents did: the caller splices them into the
    /// workspace's documents in place (no copy of the others).
    pub splice: Option<Splice>,
    /// Problems reading the page's text (line numbers of the whole workspace).
    pub notes: Vec<String>,
    /// Whether the page must be cut back to [`PAGE_LINES`] documents: the caller opens
    /// the page at its start ([`Page::of`]) once the splice is applied.
    pub cut: bool,
}

impl Page {
    /// The page of `documents`, the workspace's from document `start` on (as its host gives
    /// them: at most [`PAGE_LINES`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::Page;
    /// use ravenshard_model::workspace::Document;
    ///
    /// let page = Page::of(1_000, vec![Document::new("a"), Document::new("b")]);
    /// assert_eq!((page.start(), page.len(), page.text().as_str()), (1_000, 2, "a\nb\n"));
    /// ```
    pub fn of(start: usize, documents: Vec<Document>) -> Page {
        Page {
            start,
            len: documents.len(),
            text: AttrValue::from(documents_text(&documents)),
            documents: Rc::new(documents),
        }
    }

    /// The first document of the page a move leads to, from this one, in a workspace of
    /// `count` documents.
    pub fn target(&self, count: usize, to: PageMove) -> usize {
        match to {
            PageMove::Previous => self.start.saturating_sub(PAGE_LINES),
            PageMove::Next => {
                let next = self.start + self.len;
                if next >= count {
                    self.start
                } else {
                    next
                }
            }
            PageMove::Line(line) => {
                let last = count.saturating_sub(1);
                (line.saturating_sub(1).min(last) / PAGE_LINES) * PAGE_LINES
            }
        }
    }

    /// Index of the page's first document.
    pub fn start(&self) -> usize {
        self.start
    }

    /// How many documents the page holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the page holds no document.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The documents of the workspace the page holds.
    pub fn range(&self) -> Range<usize> {
        self.start..self.start + self.len
    }

    /// The page's documents, as the workspace holds them.
    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// The editor's text.
    pub fn text(&self) -> &AttrValue {
        &self.text
    }

    /// Whether the page shows the whole workspace of `total` documents.
    pub fn is_whole(&self, total: usize) -> bool {
        self.start == 0 && self.len == total
    }

    /// Reads the editor's new `text`: the lines that differ from the page's documents. The
    /// page keeps the text as typed (blank lines too) unless it grew past
    /// [`MAX_PAGE_LINES`] documents ([`PageEdit::cut`]). O(page), whatever the size of the
    /// workspace.
    pub fn edit(&mut self, text: String) -> PageEdit {
        let Parsed {
            documents: typed,
            notes,
        } = parse_documents_at(&text, self.start);
        let old = &self.documents;
        let splice = (**old != typed).then(|| Splice::between(self.start, old, &typed));
        let cut = typed.len() > MAX_PAGE_LINES;
        self.len = typed.len();
        self.documents = Rc::new(typed);
        if !cut {
            self.text = AttrValue::from(text);
        }
        PageEdit { splice, notes, cut }
    }
}
