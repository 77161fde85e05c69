//! The topology settings: shard count and database name.

use crate::state::MAX_SHARDS;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`Settings`].
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The shard count field, as typed.
    pub shard_input: AttrValue,
    /// Why the shard count field is not applied.
    pub shard_error: Option<AttrValue>,
    /// The shard count in force.
    pub shards: u32,
    /// The database name field, as typed.
    pub database_input: AttrValue,
    /// Why the database name field is not applied.
    pub database_error: Option<AttrValue>,
    /// The database name in force.
    pub database: AttrValue,
    /// Called with the shard count field's text on every change.
    pub on_shards: Callback<String>,
    /// Called with the database name field's text on every change.
    pub on_database: Callback<String>,
}

/// Reads an `<input>`'s value from one of its events.
fn input_value(on_value: &Callback<String>) -> Callback<InputEvent> {
    let on_value = on_value.clone();
    Callback::from(move |e: InputEvent| {
        if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
            on_value.emit(input.value());
        }
    })
}

/// The shard count and database name fields; an invalid value is shown with its error and
/// the value in force is kept.
#[function_component(Settings)]
pub fn settings(props: &SettingsProps) -> Html {
    let shard_invalid = props.shard_error.is_some();
    let database_invalid = props.database_error.is_some();
    html! {
        <section class="settings" aria-label="Topology">
            <div class={classes!("field", shard_invalid.then_some("invalid"))}>
                <label for="shard-count">{ "Shards" }</label>
                <input
                    id="shard-count"
                    type="number"
                    min="1"
                    max={MAX_SHARDS.to_string()}
                    step="1"
                    value={props.shard_input.clone()}
                    oninput={input_value(&props.on_shards)}
                    aria-invalid={shard_invalid.to_string()}
                    aria-describedby="shard-count-error"
                />
                if let Some(error) = &props.shard_error {
                    <p id="shard-count-error" class="field-error" role="alert">
                        { error.clone() }
                        { format!(" Still showing {} shard{}.", props.shards, plural(props.shards)) }
                    </p>
                }
            </div>
            <div class={classes!("field", database_invalid.then_some("invalid"))}>
                <label for="database">{ "Database" }</label>
                <input
                    id="database"
                    type="text"
                    value={props.database_input.clone()}
                    oninput={input_value(&props.on_database)}
                    spellcheck="false"
                    autocomplete="off"
                    aria-invalid={database_invalid.to_string()}
                    aria-describedby="database-error"
                />
                if let Some(error) = &props.database_error {
                    <p id="database-error" class="field-error" role="alert">
                        { error.clone() }
                        { format!(" Still using {}.", props.database) }
                    </p>
                }
            </div>
        </section>
    }
}

/// `"s"` unless there is exactly one.
pub(crate) fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}
