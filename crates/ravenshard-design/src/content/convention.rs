//! ID conventions (the docs' Example 2): a collection's new documents are named by a
//! template such as `{Id}${OrderId}`, so that they are anchored to what they belong to.

use super::value::field_value;
use serde_json::Value;

/// Checks a template: `{` and `}` pair up around a non-empty name (`{Id}` or a field path).
pub(super) fn check_template(template: &str) -> Result<(), String> {
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err(format!("'{template}' has a '}}' without a '{{' before it"));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("'{template}' has a '{{' that is not closed"))?;
        let name = after[..close].trim();
        if name.is_empty() || name.contains('{') {
            return Err(format!(
                "'{template}' has an empty or broken placeholder; write {{Id}} or {{FieldName}}"
            ));
        }
        rest = &after[close + 1..];
    }
    Ok(())
}

/// The ID a template gives a document: `{Id}` is its given ID, `{Path}` the text of a field
/// (a string or a number).
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::apply_convention;
/// use serde_json::json;
///
/// let body = json!({"OrderId": "orders/1-A"});
/// assert_eq!(
///     apply_convention("{Id}${OrderId}", "invoices/1-A", Some(&body)).unwrap(),
///     "invoices/1-A$orders/1-A"
/// );
/// assert!(apply_convention("{Id}${OrderId}", "invoices/2-A", None).is_err());
/// ```
pub fn apply_convention(template: &str, id: &str, body: Option<&Value>) -> Result<String, String> {
    check_template(template)?;
    let mut out = String::with_capacity(template.len() + id.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            break;
        };
        let name = after[..close].trim();
        if name == "Id" {
            out.push_str(id);
        } else {
            let value = body
                .and_then(|b| field_value(b, name))
                .ok_or_else(|| format!("the document has no field {name}"))?;
            match value {
                Value::String(s) if !s.is_empty() => out.push_str(s),
                Value::Number(n) => out.push_str(&n.to_string()),
                _ => {
                    return Err(format!(
                        "field {name} is {value}, not a non-empty string or a number"
                    ))
                }
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        assert!(check_template("{Id}${OrderId}").is_ok());
        assert!(check_template("plain").is_ok());
        for bad in ["{Id", "Id}", "{}", "{ }", "{a{b}}"] {
            assert!(check_template(bad).is_err(), "{bad}");
        }
        let body = serde_json::json!({"Order": {"Id": 7}});
        assert_eq!(
            apply_convention("x/{Order.Id}", "ignored", Some(&body)).unwrap(),
            "x/7"
        );
    }
}
