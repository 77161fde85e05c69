//! The Bucket map view: the editors' canvas map, with the selected bucket's documents.

use crate::state::ViewAction;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View, IMPORT_DRILL_DOWNS};
use crate::widgets::answer::use_answer;
use crate::widgets::ByPtr;
use crate::widgets::{BucketMap, MapDocuments};
use ravenshard::Topology;
use ravenshard_model::host::question::{BucketDocuments, Groups, ListedDocument};
use std::rc::Rc;
use yew::prelude::*;

/// How many documents of a selected bucket are listed.
const LISTED: u64 = 200;

/// The Bucket map tab ([`Tab::Map`](crate::state::Tab::Map)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::Works {
        coarse: IMPORT_DRILL_DOWNS,
    },
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    let views = state.views();
    html! {
        <MapView topology={ByPtr(state.config().topology().clone())} version={state.changes()}
            selected_bucket={views.selected_bucket()} selected_group={views.selected_group()}
            on_action={on.view.clone()} />
    }
}

/// Properties of [`MapView`].
#[derive(Properties, PartialEq)]
pub struct MapViewProps {
    /// The topology they are placed by.
    pub topology: ByPtr<Topology>,
    /// The number of the workspace's last change ([`State::changes`](crate::views::state::State::changes)) (the selected bucket's documents and group are
    /// asked again when it changes).
    pub version: u64,
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
    let mut marked: Vec<u32> = Vec::new();
    // One group, read from the groups' kept order (not the summary of every group, made
    // again after each change: about 200 ms natively at 10,000,000 documents).
    let group = props.selected_group.map(|from| Groups { from, count: 1 });
    let group = use_answer(group, props.version);
    let bucket = props.selected_bucket.map(|bucket| BucketDocuments {
        bucket,
        most: LISTED,
    });
    let listed = use_answer(bucket, props.version);
    if let Some(ranked) = group.answer().filter(|_| props.selected_group.is_some()) {
        marked.extend(ranked.groups.first().map(|g| g.bucket));
    }
    if let Some(bucket) = props.selected_bucket {
        marked.push(bucket);
    }
    let highlight = (!marked.is_empty()).then(|| Rc::new(marked));
    let on_select_bucket = props
        .on_action
        .reform(|b: u32| ViewAction::SelectBucket(Some(b)));
    let listing = props.selected_bucket.map(|bucket| {
        let of_bucket = listed.last.as_ref().filter(|(asked, _)| asked.bucket == bucket);
        let (total, documents): (u64, &[ListedDocument]) = match of_bucket {
            Some((_, answered)) => (answered.answer.total, &answered.answer.items),
            None => (0, &[]),
        };
        let shard = props.topology.0.shard_for_bucket(bucket);
        let items = documents.iter().map(|d| {
            let id = d.id.clone();
            let on_click = props.on_action.reform(move |_: MouseEvent| ViewAction::ExplainDocument(id.clone()));
            html! {
                <li><button type="button" class="link" onclick={on_click}>{ d.id.clone() }</button></li>
            }
        });
        html! {
            <section class="bucket-documents" aria-label="Documents in the selected bucket">
                <h3>
                    { format!("Bucket {bucket}") }
                    { shard.map(|s| format!(" · shard {s} ({})", props.topology.0.fragment(s))).unwrap_or_default() }
                    { format!(" · {total} document{}", if total == 1 { "" } else { "s" }) }
                </h3>
                if documents.is_empty() {
                    <p class="hint">{ "No document of the workspace is in this bucket." }</p>
                } else {
                    <ul class="bucket-list">{ for items }</ul>
                }
                if total > LISTED {
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
                documents={MapDocuments::Host { version: props.version, configuration: None }}
                {highlight}
                {on_select_bucket}
            />
            <div class="bucket-selection">{ listing.unwrap_or_default() }</div>
        </div>
    }
}
