//! The content rules editor: the draft chapter's `ByContent` rules.

use super::checked_edits::{use_checked_edits, Submit};
use super::editor_error::{EditorError, EditorMessages};
use super::rules::{
    add_rule, check, design_off, design_on, fields_text, parse_fields, range_value, remove_rule,
    set_fields, set_mutable, set_range,
};
use crate::widgets::with_value;
use ravenshard::config::ShardingConfiguration;
use ravenshard::Topology;
use ravenshard_design::content::{ContentDesign, ContentError, ContentRule};
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
    let edits = use_checked_edits(&props.topology, &props.on_change, |_, config| {
        check(&config)
    });
    let field_error = use_state(|| None::<FieldError>);
    {
        let field_error = field_error.clone();
        use_effect_with(props.topology.clone(), move |_| field_error.set(None));
    }
    let config = Rc::new(props.topology.to_configuration());
    let design = ContentDesign::from_topology(&props.topology);
    let on_off = {
        let (submit, config) = (edits.submit.clone(), config.clone());
        let on = matches!(design, Ok(Some(_)) | Err(_));
        Callback::from(move |_: MouseEvent| {
            submit(Some(if on {
                design_off(&config)
            } else {
                design_on(&config)
            }));
        })
    };
    let row =
        |rule: &ContentRule| rule_row(rule, &config, &edits.submit, &field_error, edits.revision);
    let body = design_body(&design, on_off, row);
    let on_add = {
        let (submit, config) = (edits.submit.clone(), config.clone());
        let (field_error, error) = (field_error.clone(), edits.error.clone());
        Callback::from(move |rule: NewRule| {
            let parsed = match parse_fields(&rule.fields) {
                Ok(parsed) => parsed,
                Err(message) => {
                    field_error.set(Some((None, message)));
                    return false;
                }
            };
            field_error.set(None);
            match add_rule(
                &config,
                &rule.name,
                &parsed,
                range_value(&rule.range),
                rule.mutable,
            ) {
                Ok(next) => submit(Some(next)),
                Err(message) => {
                    error.set(Some(message));
                    false
                }
            }
        })
    };
    let on_typed = {
        let field_error = field_error.clone();
        Callback::from(move |()| {
            if field_error.as_ref().is_some_and(|(rule, _)| rule.is_none()) {
                field_error.set(None);
            }
        })
    };
    let new_field_error = field_error
        .as_ref()
        .filter(|(rule, _)| rule.is_none())
        .map(|(_, message)| AttrValue::from(message.clone()));
    html! {
        <section class="content-rules" aria-label="Content rules">
            <p class="draft-banner" role="note">
                <strong>{ "Draft design. " }</strong>
                { "Content rules are the draft \"Sharding\" chapter's design, not shipped RavenDB 7.x: \
                   RavenDB 7.x places documents by their IDs (and $ anchors) only." }
            </p>
            { body }
            <RuleAdd field_error={new_field_error} {on_add} {on_typed} />
            <EditorMessages class="content-rules-messages" error={edits.error.as_ref().map(|e| AttrValue::from(e.clone()))} />
            { help() }
        </section>
    }
}

/// The design's part of the editor: its rules' table (each row made by `row`) and a button
/// to turn it off, or a button to turn it on, or why it is invalid.
fn design_body(
    design: &Result<Option<ContentDesign>, ContentError>,
    on_off: Callback<MouseEvent>,
    row: impl Fn(&ContentRule) -> Html,
) -> Html {
    match design {
        Ok(Some(design)) => html! {
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
                        { for design.rules.iter().map(row) }
                    </tbody>
                </table>
                if design.rules.is_empty() {
                    <p class="hint empty">{ "No rules: documents are placed by their IDs. Add one below." }</p>
                }
            </>
        },
        Ok(None) => html! {
            <div class="rules-head">
                <span>{ "The design is off: there is no ByContent section, so every document is placed by its ID." }</span>
                <button type="button" class="design-on" onclick={on_off}>{ "Turn it on" }</button>
            </div>
        },
        Err(e) => html! {
            <div class="rules-head">
                <EditorError message={e.to_string()} />
                <button type="button" class="design-off" onclick={on_off}>{ "Turn the design off" }</button>
            </div>
        },
    }
}

/// A rule the add form asks for, as typed.
#[derive(Debug, Clone, PartialEq)]
struct NewRule {
    name: String,
    fields: String,
    range: String,
    mutable: bool,
}

impl Default for NewRule {
    fn default() -> Self {
        NewRule {
            name: String::new(),
            fields: String::new(),
            range: "1".to_string(),
            mutable: false,
        }
    }
}

/// Properties of [`RuleAdd`].
#[derive(Properties, PartialEq)]
struct RuleAddProps {
    /// Why the new rule's fields do not parse, shown next to them.
    field_error: Option<AttrValue>,
    /// Called with the rule asked for; `true` when it was emitted (the form is then reset).
    on_add: Callback<NewRule, bool>,
    /// Called when the new rule's fields are typed in.
    on_typed: Callback<()>,
}

/// The form that adds a rule: its collection, fields, `Range` and `Mutable`.
#[function_component(RuleAdd)]
fn rule_add(props: &RuleAddProps) -> Html {
    let rule = use_state(NewRule::default);
    let edit = |change: fn(&mut NewRule, String)| {
        let rule = rule.clone();
        move |value: String| {
            let mut next = (*rule).clone();
            change(&mut next, value);
            rule.set(next);
        }
    };
    let on_name = with_value::<InputEvent>(edit(|r, v| r.name = v));
    let on_range = with_value::<InputEvent>(edit(|r, v| r.range = v));
    let on_fields = {
        let (set, on_typed) = (edit(|r, v| r.fields = v), props.on_typed.clone());
        with_value::<InputEvent>(move |text| {
            on_typed.emit(());
            set(text);
        })
    };
    let on_mutable = {
        let rule = rule.clone();
        Callback::from(move |e: Event| {
            let mut next = (*rule).clone();
            next.mutable = e
                .target_dyn_into::<HtmlInputElement>()
                .map_or(!rule.mutable, |input| input.checked());
            rule.set(next);
        })
    };
    let on_add = {
        let (rule, on_add) = (rule.clone(), props.on_add.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if on_add.emit((*rule).clone()) {
                rule.set(NewRule::default());
            }
        })
    };
    html! {
        <form class="rules-add" onsubmit={on_add}>
            <input type="text" class="new-rule-name" aria-label="Collection or index of the new rule"
                placeholder="Orders" value={rule.name.clone()} spellcheck="false" autocomplete="off"
                oninput={on_name} />
            <span class="rule-fields-cell">
                <input type="text" class="new-rule-fields" aria-label="Fields of the new rule"
                    placeholder="Customer" value={rule.fields.clone()} spellcheck="false" autocomplete="off"
                    aria-invalid={props.field_error.is_some().to_string()}
                    oninput={on_fields} />
                if let Some(message) = props.field_error.clone() {
                    <span class="field-error" role="alert">{ message }</span>
                }
            </span>
            <input type="number" class="new-rule-range" aria-label="Range of the new rule" min="1"
                max="1048576" step="1" value={rule.range.clone()}
                oninput={on_range} />
            <label class="mutable-choice">
                <input type="checkbox" class="new-rule-mutable" checked={rule.mutable} onchange={on_mutable} />
                { "Mutable" }
            </label>
            <button type="submit" class="add">{ "Add rule" }</button>
        </form>
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
