//! The Bucket map view: the editors' canvas map, with the selected bucket's documents.

use super::ByPtr;
use crate::editors::BucketMap;
use crate::state::Live;
use crate::state::ViewAction;
use ravenshard::Topology;
use ravenshard_model::workspace::Placement;
use std::rc::Rc;
use yew::prelude::*;

/// How many documents of a selected bucket are listed.
const LISTED: usize = 200;

/// Properties of [`MapView`].
#[derive(Properties, PartialEq)]
pub struct MapViewProps {
    /// The placed documents.
    pub placement: Live<Placement>,
    /// The topology they are placed by.
    pub topology: ByPtr<Topology>,
    /// The bucket whose documents are listed.
    pub selected_bucket: Option<u32>,
    /// The anchored group whose bucket is marked.
    pub selected_group: Option<u32>,
    /// Where selections go.
    pub on_action: Callback<ViewAction>,
}

/// The bucket map, and under it the documents of the bucket the user clicked.
#[function_component(MapView)]
pub fn map_view(props: &MapViewProps) -> Html {
    let placement = props.placement.get();
    let mut marked: Vec<u32> = Vec::new();
    // One group, read from the groups' kept order (not the summary of every group, made
    // again after each change: about 200 ms natively at 10,000,000 documents).
    if let Some(group) = props
        .selected_group
        .and_then(|g| placement.group_summary(g))
    {
        marked.push(group.bucket);
    }
    if let Some(bucket) = props.selected_bucket {
        marked.push(bucket);
    }
    let highlight = (!marked.is_empty()).then(|| Rc::new(marked));
    let on_select_bucket = props
        .on_action
        .reform(|b: u32| ViewAction::SelectBucket(Some(b)));
    let listing = props.selected_bucket.map(|bucket| {
        let documents = placement.documents_in_bucket(bucket);
        let shard = props.topology.0.shard_for_bucket(bucket);
        let items = documents.iter().take(LISTED).map(|&i| {
            let on_click = props.on_action.reform(move |_: MouseEvent| ViewAction::ExplainDocument(i));
            html! {
                <li><button type="button" class="link" onclick={on_click}>{ placement.id(i as usize).unwrap_or_default().to_string() }</button></li>
            }
        });
        html! {
            <section class="bucket-documents" aria-label="Documents in the selected bucket">
                <h3>
                    { format!("Bucket {bucket}") }
                    { shard.map(|s| format!(" · shard {s} ({})", props.topology.0.fragment(s))).unwrap_or_default() }
                    { format!(" · {} document{}", documents.len(), if documents.len() == 1 { "" } else { "s" }) }
                </h3>
                if documents.is_empty() {
                    <p class="hint">{ "No document of the workspace is in this bucket." }</p>
                } else {
                    <ul class="bucket-list">{ for items }</ul>
                }
                if documents.len() > LISTED {
                    <p class="hint">{ format!("The first {LISTED} are listed.") }</p>
                }
            </section>
        }
    });
    html! {
        <div class="map-view">
            <p class="hint">
                { "Each 2^20-bucket block (the default one and one per prefix) coloured by the \
                   shard that owns it; marks are documents. Scroll or use + and − to zoom down \
                   to single buckets; click to list a bucket's documents." }
            </p>
            <BucketMap
                topology={Rc::clone(&props.topology.0)}
                placement={props.placement.clone()}
                {highlight}
                {on_select_bucket}
            />
            <div class="bucket-selection">{ listing.unwrap_or_default() }</div>
        </div>
    }
}
