//! The check that the studio's modules import one way only: each top-level module of
//! `web/src` is a layer ([`LAYERS`]), and a file may name (`crate::…`) only its own layer
//! and the ones below it. So nothing below imports a view, and there is no cycle between
//! `views`, `widgets`, `jobs`, `workers` and `persist`. Comments are not read (a doc link
//! may point anywhere).

/// The layers, top first: a module may use the ones after it, never the ones before.
/// Modules on one line are one layer and do not use each other.
pub const LAYERS: &[&[&str]] = &[
    &["app"],
    &["views"],
    &["widgets"],
    &["jobs"],
    &["workers"],
    &["persist"],
    &["state"],
    &["numbers", "marks"],
];

/// The rank of layer `module` in [`LAYERS`] (0 at the top), if it is one.
pub fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The layers `text` names through `crate::<module>`, outside comments, with the
/// 1-based line of each.
pub fn named_layers(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let module: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '{')
                .collect();
            named.push((i + 1, module));
            rest = after;
        }
    }
    named
}

/// What is wrong with a file of layer `layer` whose text is `text`: each name of a layer
/// above it, or of another module of its own layer (`file` names it in the message).
pub fn wrong_imports(file: &str, layer: &str, text: &str) -> Vec<String> {
    let Some(own) = rank(layer) else {
        return Vec::new();
    };
    named_layers(text)
        .into_iter()
        .filter_map(|(line, module)| {
            let why = match rank(&module) {
                _ if module == layer => return None,
                None if module.starts_with('{') => "a `crate::{…}` list hides its layers",
                None => return None,
                Some(r) if r > own => return None,
                Some(r) if r == own => "a module of the same layer",
                Some(_) => "a layer above it",
            };
            Some(format!(
                "{file}:{line}: `{layer}` uses `crate::{module}`, {why}: move the item it \
                 needs down a layer, or this code up (see `LAYERS` in web/src/layers.rs)"
            ))
        })
        .collect()
}

/// The Rust files under `dir`, its folders' too, added to `out`.
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("web/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_file_imports_down_the_layers() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut wrong = Vec::new();
        let mut layered = 0;
        for path in files {
            let relative = path.strip_prefix(&src).expect("under web/src");
            let first = relative.components().next().expect("a path");
            let first = first.as_os_str().to_string_lossy();
            let layer = first.trim_end_matches(".rs");
            if rank(layer).is_none() {
                continue;
            }
            layered += 1;
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            wrong.extend(wrong_imports(&relative.display().to_string(), layer, &text));
        }
        assert!(
            layered > 50,
            "the scan found the studio's files ({layered})"
        );
        assert!(
            wrong.is_empty(),
            "imports against the layers:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn an_import_up_or_across_is_found() {
        let text = "use crate::views::state::State;\nuse crate::state::Tab; // crate::app\n";
        let wrong = wrong_imports("jobs/x.rs", "jobs", text);
        assert_eq!(wrong.len(), 1);
        assert!(wrong[0].starts_with("jobs/x.rs:1: `jobs` uses `crate::views`"));
        assert!(wrong_imports("views/x.rs", "views", text).is_empty());
        let across = wrong_imports("numbers.rs", "numbers", "let _ = crate::marks::mark;");
        assert_eq!(across.len(), 1);
        assert!(across[0].contains("same layer"));
        assert_eq!(
            wrong_imports("state/x.rs", "state", "use crate::{app};").len(),
            1
        );
    }
}
