//! One line that states the rule the page applies.

use ravenshard::NUMBER_OF_BUCKETS;
use yew::prelude::*;

/// The sharding rule in one sentence, with the chapter's anchoring example.
#[function_component(Rule)]
pub fn rule() -> Html {
    html! {
        <p class="rule">
            <strong>{ "The rule: " }</strong>
            { format!("bucket = XXH64 of the lower-cased ID, mod {NUMBER_OF_BUCKETS} (2^20). ") }
            { "When the ID has a " }<code>{ "$" }</code>{ " after its first character, only the \
               text after the last " }<code>{ "$" }</code>{ " is hashed (" }
            <mark>{ "highlighted" }</mark>
            { "), so " }<code>{ "orders/2-A$customers/1-A" }</code>{ " lands with " }
            <code>{ "customers/1-A" }</code>
            { ". Each shard owns ranges of buckets; a new database splits them evenly across \
               its shards." }
        </p>
    }
}
