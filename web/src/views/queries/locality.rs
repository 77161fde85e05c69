//! Transactions and LoadDocument: whether documents change together atomically, and whether
//! an index can load one document from another (the core's `locality` checks).

use crate::state::{DesignAction, DesignState};
use crate::widgets::{shard_style, ByPtr};
use ravenshard_design::locality::{TransactionCheck, TransactionVerdict};
use yew::prelude::*;

/// Properties of [`LocalityView`].
#[derive(Properties, PartialEq)]
pub struct LocalityViewProps {
    /// The transaction's IDs and its check, the LoadDocument check's IDs and answer.
    pub design: ByPtr<DesignState>,
    /// Where changes go.
    pub on_action: Callback<DesignAction>,
    /// Asks for a transaction over the documents the Documents view shows.
    pub on_use_shown: Callback<()>,
}

/// The transaction check and the LoadDocument check.
#[function_component(LocalityView)]
pub fn locality_view(props: &LocalityViewProps) -> Html {
    let on = &props.on_action;
    let design = &props.design;
    let tx: &TransactionCheck = &design.transaction();
    let load_check = design.load_check();
    let verdict = match tx.verdict {
        TransactionVerdict::OneBucket => "one-bucket",
        TransactionVerdict::OneShard => "one-shard",
        TransactionVerdict::SeveralShards => "several-shards",
        TransactionVerdict::NoDocuments => "none",
    };
    let on_ids = crate::widgets::on_value::<InputEvent, _>(on, DesignAction::SetTransactionIds);
    let on_shown = props.on_use_shown.reform(|_: MouseEvent| ());
    let (document, related) = design.load();
    let (document, related) = (document.to_string(), related.to_string());
    let on_document = {
        let related = related.clone();
        crate::widgets::on_value::<InputEvent, _>(on, move |d| DesignAction::SetLoadCheck {
            document: d,
            related: related.clone(),
        })
    };
    let on_related = {
        let document = document.clone();
        crate::widgets::on_value::<InputEvent, _>(on, move |r| DesignAction::SetLoadCheck {
            document: document.clone(),
            related: r,
        })
    };
    html! {
        <div class="locality">
            <section class="transaction" aria-label="Transaction check">
                <h3>{ "Transaction check" }</h3>
                <p class="hint">{ "Documents written in one local transaction, one ID per line." }</p>
                <textarea id="tx-ids" rows="4" aria-label="IDs written in one transaction, one per line" spellcheck="false" value={design.transaction_ids().to_string()} oninput={on_ids} />
                <button type="button" class="tx-shown" onclick={on_shown}
                    title="The documents the Documents view shows (its filters apply)">{ "Use the documents shown" }</button>
                <p class={classes!("tx-verdict", verdict)} role="status">{ tx.message.clone() }</p>
                if !tx.documents.is_empty() {
                    <table class="design-list">
                        <thead><tr><th>{ "ID" }</th><th class="num">{ "Bucket" }</th><th>{ "Shard" }</th></tr></thead>
                        <tbody>
                            { for tx.documents.iter().take(100).map(|d| html! {
                                <tr><td><code>{ d.id.clone() }</code></td><td class="num">{ d.bucket }</td>
                                <td><span class="shard-badge" style={shard_style(d.shard)}>{ d.shard }</span></td></tr>
                            }) }
                        </tbody>
                    </table>
                }
                { for tx.invalid.iter().take(20).map(|i| html! { <p class="field-error">{ format!("{}: {}", i.id, i.error) }</p> }) }
            </section>
            <section class="load" aria-label="LoadDocument check">
                <h3>{ "LoadDocument check" }</h3>
                <p class="hint">{ "An index can load a related document only from the same bucket (the same shard is not enough; Range does not help)." }</p>
                <div class="load-fields">
                    <label for="load-document">{ "Indexed document" }</label>
                    <input id="load-document" type="text" value={document} oninput={on_document} spellcheck="false" />
                    <label for="load-related">{ "loads" }</label>
                    <input id="load-related" type="text" value={related} oninput={on_related} spellcheck="false" />
                </div>
                { match &*load_check {
                    Err(message) if message.is_empty() => html! {},
                    Err(message) => html! { <p class="field-error">{ message.clone() }</p> },
                    Ok(check) => html! {
                        <div class={classes!("load-answer", check.same_bucket.then_some("ok"))}>
                            <p class="load-message">{ check.message.clone() }</p>
                            if let Some(s) = &check.suggestion {
                                <p class="load-suggestion">{ "Anchor it: " }<code>{ s.id.clone() }</code>{ format!(" (bucket {}, shard {})", s.bucket, s.shard) }</p>
                            }
                            { for check.notes.iter().map(|n| html! { <p class="hint">{ n.clone() }</p> }) }
                        </div>
                    },
                } }
            </section>
        </div>
    }
}
