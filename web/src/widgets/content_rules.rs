//! The content rules editor: the draft chapter's `ByContent` rules.

use super::emit_checked;
use super::rules::{
    add_rule, check, design_off, design_on, fields_text, parse_fields, range_value, remove_rule,
    set_fields, set_mutable, set_range,
};
use crate::widgets::with_value;
use ravenshard::config::ShardingConfiguration;
use ravenshard::Topology;
use ravenshard_design::content::{ContentDesign, ContentRule};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`ContentRulesEditor`].
#[derive(Properties, PartialEq)]
pub struct ContentRulesEditorProps {
    /// The topology whose `ByContent` rules are edited.
    pub topology: Rc<Topology>,
    /// Called with the whole new configuration (`ShardingConfiguration` JSON) after an
    /// edit the core accepts.
    pub on_change: Callback<String>,
}

/// Checks an edited configuration and emits it, or shows why not; `true` when emitted.
type Submit = Rc<dyn Fn(Option<ShardingConfiguration>) -> bool>;

/// A field parse error: the rule it belongs to (`None` for the new rule) and the message.
type FieldError = (Option<String>, String);

/// The `ByContent` rules of the draft "Sharding" chapter (labelled as not shipped RavenDB):
/// a table with each rule's name, fields (comma-separated text), `Range` and `Mutable`, a
/// Remove button, a form to add a rule, and a button to turn the design off (or on, with
/// the chapter's example rule). Every edit is checked by the core, the configuration with
/// [`Topology::from_json`] and the design with [`ContentDesign::from_topology`]: a valid one
/// is emitted, an invalid one is shown with the core's message (with the JSON path). Fields
/// that do not parse are shown next to their input. Other keys of the configuration are
/// kept as they are.
#[function_component(ContentRulesEditor)]
pub fn content_rules_editor(props: &ContentRulesEditorProps) -> Html {
    let new_name = use_state(String::new);
    let new_fields = use_state(String::new);
    let new_range = use_state(|| "1".to_string());
    let new_mutable = use_state(|| false);
    let error = use_state(|| None::<String>);
    let field_error = use_state(|| None::<FieldError>);
    // Bumped on every edit so that checkboxes are rebuilt from the topology.
    let revision = use_state(|| 0u32);

    {
        let error = error.clone();
        let field_error = field_error.clone();
        use_effect_with(props.topology.clone(), move |_| {
            error.set(None);
            field_error.set(None);
        });
    }

    let config = Rc::new(props.topology.to_configuration());
    let submit: Submit = {
        let on_change = props.on_change.clone();
        let error = error.clone();
        let revision = revision.clone();
        Rc::new(move |config: Option<ShardingConfiguration>| {
            revision.set(revision.wrapping_add(1));
            let Some(config) = config else {
                return false;
            };
            emit_checked(check(&config), &error, &on_change)
        })
    };

    let design = ContentDesign::from_topology(&props.topology);
    let on_off = {
        let submit = submit.clone();
        let config = config.clone();
        let on = matches!(design, Ok(Some(_)) | Err(_));
        Callback::from(move |_: MouseEvent| {
            submit(Some(if on {
                design_off(&config)
            } else {
                design_on(&config)
            }));
        })
    };

    let body = match &design {
        Ok(Some(design)) => {
            let rows = design
                .rules
                .iter()
                .map(|rule| rule_row(rule, &config, &submit, &field_error, *revision));
            html! {
                <>
                    <div class="rules-head">
                        <span>{ "The design is on: documents of these collections are placed by their content." }</span>
                        <button type="button" class="design-off" onclick={on_off}>{ "Turn the design off" }</button>
                    </div>
                    <table class="rules-table">
                        <thead>
                            <tr>
                                <th>{ "Collection or index" }</th>
                                <th>{ "Fields" }</th>
                                <th>{ "Range" }</th>
                                <th>{ "Mutable" }</th>
                                <th></th>
                            </tr>
                        </thead>
                        <tbody>
                            { for rows }
                        </tbody>
                    </table>
                    if design.rules.is_empty() {
                        <p class="hint empty">{ "No rules: documents are placed by their IDs. Add one below." }</p>
                    }
                </>
            }
        }
        Ok(None) => html! {
            <div class="rules-head">
                <span>{ "The design is off: there is no ByContent section, so every document is placed by its ID." }</span>
                <button type="button" class="design-on" onclick={on_off}>{ "Turn it on" }</button>
            </div>
        },
        Err(e) => html! {
            <div class="rules-head">
                <p class="editor-error" role="alert">{ e.to_string() }</p>
                <button type="button" class="design-off" onclick={on_off}>{ "Turn the design off" }</button>
            </div>
        },
    };

    let on_add = {
        let submit = submit.clone();
        let config = config.clone();
        let (name, fields, range, mutable) = (
            new_name.clone(),
            new_fields.clone(),
            new_range.clone(),
            new_mutable.clone(),
        );
        let field_error = field_error.clone();
        let error = error.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let parsed = match parse_fields(&fields) {
                Ok(parsed) => parsed,
                Err(message) => {
                    field_error.set(Some((None, message)));
                    return;
                }
            };
            field_error.set(None);
            match add_rule(&config, &name, &parsed, range_value(&range), *mutable) {
                Ok(next) => {
                    if submit(Some(next)) {
                        name.set(String::new());
                        fields.set(String::new());
                        range.set("1".to_string());
                        mutable.set(false);
                    }
                }
                Err(message) => error.set(Some(message)),
            }
        })
    };
    let new_field_error = field_error
        .as_ref()
        .filter(|(rule, _)| rule.is_none())
        .map(|(_, message)| message.clone());
    let on_new_fields = {
        let (new_fields, field_error) = (new_fields.clone(), field_error.clone());
        with_value::<InputEvent>(move |text| {
            if field_error.as_ref().is_some_and(|(rule, _)| rule.is_none()) {
                field_error.set(None);
            }
            new_fields.set(text);
        })
    };
    let on_mutable = {
        let new_mutable = new_mutable.clone();
        Callback::from(move |e: Event| {
            let on = e
                .target_dyn_into::<HtmlInputElement>()
                .map_or(!*new_mutable, |input| input.checked());
            new_mutable.set(on);
        })
    };

    html! {
        <section class="content-rules" aria-label="Content rules">
            <p class="draft-banner" role="note">
                <strong>{ "Draft design. " }</strong>
                { "Content rules are the draft \"Sharding\" chapter's design, not shipped RavenDB 7.x: \
                   RavenDB 7.x places documents by their IDs (and $ anchors) only." }
            </p>
            { body }
            <form class="rules-add" onsubmit={on_add}>
                <input type="text" class="new-rule-name" aria-label="Collection or index of the new rule"
                    placeholder="Orders" value={(*new_name).clone()} spellcheck="false" autocomplete="off"
                    oninput={let s = new_name.clone(); with_value::<InputEvent>(move |v| s.set(v))} />
                <span class="rule-fields-cell">
                    <input type="text" class="new-rule-fields" aria-label="Fields of the new rule"
                        placeholder="Customer" value={(*new_fields).clone()} spellcheck="false" autocomplete="off"
                        aria-invalid={new_field_error.is_some().to_string()}
                        oninput={on_new_fields} />
                    if let Some(message) = new_field_error {
                        <span class="field-error" role="alert">{ message }</span>
                    }
                </span>
                <input type="number" class="new-rule-range" aria-label="Range of the new rule" min="1"
                    max="1048576" step="1" value={(*new_range).clone()}
                    oninput={let s = new_range.clone(); with_value::<InputEvent>(move |v| s.set(v))} />
                <label class="mutable-choice">
                    <input type="checkbox" class="new-rule-mutable" checked={*new_mutable} onchange={on_mutable} />
                    { "Mutable" }
                </label>
                <button type="submit" class="add">{ "Add rule" }</button>
            </form>
            // A stable wrapper: the message appearing must not make yew rebuild the form.
            <div class="content-rules-messages">
                if let Some(message) = error.as_ref() {
                    <p class="editor-error" role="alert">{ message.clone() }</p>
                }
            </div>
            { help() }
        </section>
    }
}

/// One rule's row: its name, fields, Range and Mutable inputs, and Remove.
fn rule_row(
    rule: &ContentRule,
    config: &Rc<ShardingConfiguration>,
    submit: &Submit,
    field_error: &UseStateHandle<Option<FieldError>>,
    revision: u32,
) -> Html {
    let name = rule.name.clone();
    let on_fields = {
        let (submit, config, name) = (submit.clone(), config.clone(), name.clone());
        let field_error = field_error.clone();
        with_value::<Event>(move |text| match parse_fields(&text) {
            Ok(fields) => {
                field_error.set(None);
                submit(set_fields(&config, &name, &fields));
            }
            Err(message) => field_error.set(Some((Some(name.clone()), message))),
        })
    };
    let on_range = {
        let (submit, config, name) = (submit.clone(), config.clone(), name.clone());
        with_value::<Event>(move |text| {
            submit(set_range(&config, &name, range_value(&text)));
        })
    };
    let on_mutable = {
        let (submit, config, name) = (submit.clone(), config.clone(), name.clone());
        let mutable = rule.mutable;
        Callback::from(move |e: Event| {
            let on = e
                .target_dyn_into::<HtmlInputElement>()
                .map_or(!mutable, |input| input.checked());
            submit(set_mutable(&config, &name, on));
        })
    };
    let on_remove = {
        let (submit, config, name) = (submit.clone(), config.clone(), name.clone());
        Callback::from(move |_: MouseEvent| {
            submit(remove_rule(&config, &name));
        })
    };
    let error = field_error
        .as_ref()
        .filter(|(rule, _)| rule.as_deref() == Some(name.as_str()))
        .map(|(_, message)| message.clone());
    html! {
        <tr class="rule" data-rule={name.clone()} key={name.clone()}>
            <td><code class="rule-name">{ name.clone() }</code></td>
            <td class="rule-fields-cell">
                <input type="text" class="rule-fields" aria-label={format!("Fields of {name}")}
                    value={fields_text(&rule.fields)} spellcheck="false" autocomplete="off"
                    aria-invalid={error.is_some().to_string()} onchange={on_fields} />
                if let Some(message) = error {
                    <span class="field-error" role="alert">{ message }</span>
                }
            </td>
            <td>
                <input type="number" class="rule-range" aria-label={format!("Range of {name}")}
                    min="1" max="1048576" step="1" value={rule.range.to_string()} onchange={on_range} />
            </td>
            <td>
                <input type="checkbox" class="rule-mutable" aria-label={format!("{name} is Mutable")}
                    key={format!("{revision}-{name}")} checked={rule.mutable} onchange={on_mutable}
                    title={if rule.mutable {
                        "Before turning Mutable off, every document must have been migrated into its content block"
                    } else {
                        "Mutable: updates may change the fields"
                    }} />
            </td>
            <td>
                <button type="button" class="remove" onclick={on_remove}
                    title="Remove the rule: its documents are placed by their IDs">{ "Remove" }</button>
            </td>
        </tr>
    }
}

/// What the settings mean, in the chapter's words.
fn help() -> Html {
    html! {
        <dl class="rules-help">
            <dt>{ "Fields" }</dt>
            <dd>{ "What places the document, in order: a property path (Customer, Address.ZipCode), numeric(path), ticks(path) or id(); a reference lands with the document it names." }</dd>
            <dt>{ "Range" }</dt>
            <dd>{ "The document's bucket stays within a block of that many buckets of its content's bucket (1: the same bucket)." }</dd>
            <dt>{ "Mutable" }</dt>
            <dd>{ "Updates may change the fields; queries are not routed by content." }</dd>
        </dl>
    }
}
