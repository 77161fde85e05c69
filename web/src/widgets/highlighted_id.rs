//! A document ID with the part that is hashed marked: the documents view's rows and
//! Explain.

use crate::state::split_chars;
use yew::prelude::*;

/// Properties of [`HighlightedId`].
#[derive(Properties, PartialEq)]
pub struct HighlightedIdProps {
    /// The ID as typed.
    pub id: AttrValue,
    /// Character range `[start, end)` of the part that is hashed.
    pub hashed_chars: [usize; 2],
}

/// A document ID with its hashed part in a `<mark>`; the part before an anchor is dimmed.
#[function_component(HighlightedId)]
pub fn highlighted_id(props: &HighlightedIdProps) -> Html {
    let (before, hashed, after) = split_chars(&props.id, props.hashed_chars);
    html! {
        <code class="id-text">
            if !before.is_empty() {
                <span class="unhashed">{ before.to_string() }</span>
            }
            <mark>{ hashed.to_string() }</mark>
            if !after.is_empty() {
                <span class="unhashed">{ after.to_string() }</span>
            }
        </code>
    }
}
