//! Anchored groups: documents that travel together because they share an anchor.

use crate::state::ViewAction;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::answer::use_answer;
use crate::widgets::{bytes, count, shard_style};
use ravenshard_model::host::question::Groups;
use ravenshard_model::workspace::{GroupSummary, Summary};
use std::rc::Rc;
use yew::prelude::*;

/// How many groups are listed at first, and how many more each "Show more" adds.
pub const GROUPS_LISTED: usize = 100;

/// The Anchored groups tab ([`Tab::Groups`](crate::state::Tab::Groups)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::NeedsIds("anchored groups"),
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    html! {
        <GroupsView summary={Rc::clone(state.summary())} version={state.changes()}
            selected={state.views().selected_group()} on_action={on.view.clone()} />
    }
}

/// Properties of [`GroupsView`].
#[derive(Properties, PartialEq)]
pub struct GroupsViewProps {
    /// What the placement holds: the groups' count and the obese threshold.
    pub summary: Rc<Summary>,
    /// The number of the workspace's last change ([`State::changes`](crate::views::state::State::changes)) (the groups listed are asked again when it
    /// changes).
    pub version: u64,
    /// The selected group.
    pub selected: Option<u32>,
    /// Where selections go.
    pub on_action: Callback<ViewAction>,
}

/// The groups, largest first; obese ones flagged with the advice.
#[function_component(GroupsView)]
pub fn groups_view(props: &GroupsViewProps) -> Html {
    // Only the groups listed are asked for: the host keeps their order, so an edit does
    // not make the summary of every group again.
    let summary = &props.summary;
    let total = summary.groups;
    let (listed, on_more) = use_listed();
    let count_asked = u32::try_from(total.min(listed)).unwrap_or(u32::MAX);
    let question = (total > 0).then_some(Groups {
        from: 0,
        count: count_asked,
    });
    let answer = use_answer(question, props.version);
    let (groups, obese): (&[GroupSummary], u64) = match answer.answer() {
        Some(ranked) => (&ranked.groups, ranked.obese),
        None => (&[], 0),
    };
    if total == 0 {
        return html! {
            <p class="empty">{ "No anchored groups. An ID such as " }<code>{ "orders/2-A$customers/1-A" }</code>
            { " is stored with " }<code>{ "customers/1-A" }</code>{ ": the part after the last $ is its anchor." }</p>
        };
    }
    html! {
        <div class="groups-view">
            <p class="caption">
                { format!("{} anchored group{}, largest first. A group larger than {} documents is obese: it cannot be split across shards.",
                    count(total as u64), crate::widgets::plural(total as u64), count(summary.obese_threshold)) }
                if obese > 0 { <strong class="bad">{ format!(" {obese} obese.") }</strong> }
            </p>
            <div class="table-scroll">
            <table class="groups">
                { head() }
                <tbody>
                    { for (0u32..).zip(groups).map(|(i, g)| group_rows(i, g, props.selected == Some(i), &props.on_action)) }
                </tbody>
            </table>
            </div>
            if total > listed {
                <ShowMore {listed} {total} {on_more} />
            }
        </div>
    }
}

/// How many groups are listed, and the "Show more" button's handler that lists
/// [`GROUPS_LISTED`] more.
#[hook]
fn use_listed() -> (usize, Callback<MouseEvent>) {
    let listed = use_state(|| GROUPS_LISTED);
    let on_more = {
        let listed = listed.clone();
        Callback::from(move |_: MouseEvent| listed.set(*listed + GROUPS_LISTED))
    };
    (*listed, on_more)
}

/// The table's header row.
fn head() -> Html {
    html! {
        <thead><tr>
            <th scope="col">{ "Anchor" }</th>
            <th scope="col" title="Whether a document has the anchor as its ID">{ "Anchor doc" }</th>
            <th scope="col" class="num">{ "Members" }</th>
            <th scope="col" class="num">{ "Documents" }</th>
            <th scope="col" class="num">{ "Size" }</th>
            <th scope="col" class="num">{ "Bucket" }</th>
            <th scope="col">{ "Shard" }</th>
            <th scope="col"><span class="visually-hidden">{ "Show the group's documents" }</span></th>
        </tr></thead>
    }
}

/// The rows of group `i`, `g`: its own (a click selects it, or unselects it when
/// `selected`) and, when it is selected or obese, its advice.
fn group_rows(i: u32, g: &GroupSummary, selected: bool, on: &Callback<ViewAction>) -> Html {
    let on_select = on.reform(move |_: MouseEvent| {
        ViewAction::SelectGroup(if selected { None } else { Some(i) })
    });
    let on_show = on.reform(move |e: MouseEvent| {
        e.stop_propagation();
        ViewAction::ShowGroupDocuments(i)
    });
    html! {
        <>
        <tr class={classes!("group", selected.then_some("selected"), g.obese.then_some("obese"))}
            data-group={i.to_string()} onclick={on_select} aria-selected={selected.to_string()}>
            <td><code>{ g.anchor.clone() }</code>
                if g.obese { <span class="tag bad">{ "obese" }</span> }
                if g.split { <span class="tag warn">{ "split" }</span> }
            </td>
            <td>{ if g.anchor_is_document() { "yes" } else { "no" } }</td>
            <td class="num">{ count(g.members) }</td>
            <td class="num">{ count(g.documents) }</td>
            <td class="num">{ bytes(g.bytes) }</td>
            <td class="num">{ g.bucket }</td>
            <td><span class="shard-badge" style={shard_style(g.shard)}>{ g.shard }</span></td>
            <td><button type="button" class="link show-docs" onclick={on_show}>{ "Documents" }</button></td>
        </tr>
        if !g.advice.is_empty() && (selected || g.obese) {
            <tr class="advice"><td colspan="8">{ for g.advice.iter().map(|a| html! { <p>{ a.clone() }</p> }) }</td></tr>
        }
        </>
    }
}

/// Properties of [`ShowMore`].
#[derive(Properties, PartialEq)]
struct ShowMoreProps {
    /// How many groups are listed.
    listed: usize,
    /// How many there are.
    total: usize,
    /// Lists more.
    on_more: Callback<MouseEvent>,
}

/// How many groups are listed, and a button that lists more.
#[function_component(ShowMore)]
fn show_more(props: &ShowMoreProps) -> Html {
    let listed = props.listed;
    html! {
        <p class="more">
            { format!("The {} largest are listed. ", count(listed as u64)) }
            <button type="button" class="show-more" onclick={props.on_more.clone()}>
                { format!("Show {} more", count(GROUPS_LISTED.min(props.total - listed) as u64)) }
            </button>
        </p>
    }
}
