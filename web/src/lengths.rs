//! The check that the studio's functions stay short: every `fn` of `web/src` (components,
//! hooks, methods, tests) has at most [`LIMIT`] lines in its body, so a component reads at
//! once and a long one is split into hooks, smaller components and helpers. The files are
//! parsed with `syn` (a function inside a macro's input, such as `html!`, is part of the
//! function around it). [`ALLOWED`] lists the long functions of the folders other work is
//! rewriting; it only shrinks, and every other layer has none.

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The most lines a function's body may have (between its braces).
pub const LIMIT: usize = 80;

/// The long functions still allowed, as `(file under web/src, function)`: only in
/// `workers/`, `persist/` and `widgets/bucket_map/`, which are being rewritten. An entry
/// whose function is short again (or gone) fails the check, so the list only shrinks.
pub const ALLOWED: &[(&str, &str)] = &[
    ("widgets/bucket_map/draw.rs", "draw"),
    ("widgets/bucket_map/heat.rs", "heatmap"),
    (
        "workers/import/protocol.rs",
        "import_messages_survive_the_workers_codec",
    ),
    ("widgets/bucket_map/mod.rs", "bucket_map"),
];

/// The folders whose functions [`ALLOWED`] may list.
pub const ALLOWED_FOLDERS: &[&str] = &["workers/", "persist/", "widgets/bucket_map/"];

/// A function of a file: its name (`Type::name` for a method), the line its `fn` is on and
/// the lines of its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The name, with the type of the `impl` or `trait` it is in.
    pub name: String,
    /// The 1-based line of its signature.
    pub line: usize,
    /// The lines strictly between the braces of its body.
    pub body_lines: usize,
}

/// Collects the functions of a parsed file.
#[derive(Default)]
struct Functions {
    owner: Vec<String>,
    found: Vec<Function>,
}

impl Functions {
    fn note(&mut self, ident: &syn::Ident, signature: proc_macro2::Span, body: &syn::Block) {
        let name = match self.owner.last() {
            Some(owner) => format!("{owner}::{ident}"),
            None => ident.to_string(),
        };
        let braces = body.brace_token.span;
        let (open, close) = (braces.open().start().line, braces.close().start().line);
        self.found.push(Function {
            name,
            line: signature.start().line,
            body_lines: close.saturating_sub(open + 1),
        });
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.note(&f.sig.ident, f.sig.span(), &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.note(&f.sig.ident, f.sig.span(), &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.note(&f.sig.ident, f.sig.span(), body);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let ty = &i.self_ty;
        let owner = match ty.as_ref() {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        self.owner.push(owner.unwrap_or_else(|| "impl".to_string()));
        syn::visit::visit_item_impl(self, i);
        self.owner.pop();
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.owner.push(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
        self.owner.pop();
    }
}

/// The functions of a Rust source file, or why it does not parse.
pub fn functions(text: &str) -> Result<Vec<Function>, syn::Error> {
    let file = syn::parse_file(text)?;
    let mut functions = Functions::default();
    functions.visit_file(&file);
    Ok(functions.found)
}

/// What is wrong with file `file` (a path under `web/src`) whose text is `text`: each
/// function over [`LIMIT`] lines that [`ALLOWED`] does not list, with where it is.
pub fn too_long(file: &str, text: &str) -> Result<Vec<String>, syn::Error> {
    Ok(functions(text)?
        .into_iter()
        .filter(|f| f.body_lines > LIMIT && !allowed(file, &f.name))
        .map(|f| {
            format!(
                "{file}:{}: `{}` has {} lines in its body, over {LIMIT}: split it into hooks \
                 (`use_…`), smaller components with `Properties` and `Callback`s, or helpers",
                f.line, f.name, f.body_lines
            )
        })
        .collect())
}

/// Whether [`ALLOWED`] lists function `name` of `file`.
fn allowed(file: &str, name: &str) -> bool {
    ALLOWED.iter().any(|&(f, n)| f == file && n == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::rust_files;
    use std::path::Path;

    /// Every file under web/src, as (its path under web/src with `/`, its text).
    fn sources() -> Vec<(String, String)> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.sort();
        files
            .into_iter()
            .map(|path| {
                let relative = path.strip_prefix(&src).expect("under web/src");
                let name = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                let text = std::fs::read_to_string(&path).expect("a readable source file");
                (name, text)
            })
            .collect()
    }

    #[test]
    fn every_function_is_short() {
        let files = sources();
        assert!(files.len() > 50, "the scan found the studio's files");
        let mut wrong = Vec::new();
        for (name, text) in &files {
            match too_long(name, text) {
                Ok(found) => wrong.extend(found),
                Err(e) => wrong.push(format!("{name}: does not parse: {e}")),
            }
        }
        assert!(
            wrong.is_empty(),
            "functions over {LIMIT} lines:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn the_listed_functions_are_in_their_folders_and_still_long() {
        let files = sources();
        for &(file, _) in ALLOWED {
            assert!(
                ALLOWED_FOLDERS.iter().any(|f| file.starts_with(f)),
                "{file}: only {ALLOWED_FOLDERS:?} may keep a long function"
            );
        }
        for &(file, name) in ALLOWED {
            let text = &files
                .iter()
                .find(|(f, _)| f == file)
                .unwrap_or_else(|| panic!("{file} is listed but is gone: remove it"))
                .1;
            let found = functions(text).expect("a parsed file");
            assert!(
                found.iter().any(|f| f.name == name && f.body_lines > LIMIT),
                "{file}: `{name}` is short now (or gone): remove it from its list"
            );
        }
    }

    #[test]
    fn a_long_function_is_found() {
        let body = "    let x = 1;\n".repeat(LIMIT + 1);
        let text = format!(
            "/// Doc.\nfn short() {{ }}\n\nstruct S;\nimpl S {{\n    fn long(&self) {{\n{body}    }}\n}}\n"
        );
        let found = functions(&text).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[1].name, "S::long");
        assert_eq!(found[1].line, 6);
        assert_eq!(found[1].body_lines, LIMIT + 1);
        let wrong = too_long("views/x.rs", &text).unwrap();
        assert_eq!(wrong.len(), 1);
        assert!(
            wrong[0].starts_with("views/x.rs:6: `S::long` has 81 lines"),
            "{}",
            wrong[0]
        );
        // One line fewer is within the limit, and a listed function is let through.
        let shorter = text.replacen("    let x = 1;\n", "", 1);
        assert!(too_long("views/x.rs", &shorter).unwrap().is_empty());
        let listed = text
            .replace("fn long", "fn draw")
            .replace("impl S", "mod m");
        let listed = listed.replace("&self", "");
        assert!(too_long("widgets/bucket_map/draw.rs", &listed)
            .unwrap()
            .is_empty());
        assert_eq!(too_long("views/x.rs", &listed).unwrap().len(), 1);
    }
}
