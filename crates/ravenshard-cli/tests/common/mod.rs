//! What the CLI tests share: running the binary, reading the vectors.

// Each test file compiles its own copy, and not every file uses every helper.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `ravenshard` with `args` and `stdin`, and waits for it.
pub fn ravenshard(args: &[&str], stdin: &str) -> Output {
    ravenshard_bytes(args, stdin.as_bytes())
}

/// Runs `ravenshard` with `args` and `stdin` (any bytes), and waits for it.
pub fn ravenshard_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ravenshard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ravenshard binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    // Written from another thread: the output of a large input would fill the pipe before
    // the input is all written.
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&stdin));
    let output = child.wait_with_output().expect("ravenshard finishes");
    writer
        .join()
        .expect("the writer thread ends")
        .expect("stdin accepts input");
    output
}

/// A vector file's ID as written, `\xHH` being one ASCII byte.
pub fn unescape(written: &str) -> String {
    let mut id = String::new();
    let mut rest = written;
    while let Some(at) = rest.find("\\x") {
        id.push_str(&rest[..at]);
        let byte = u8::from_str_radix(&rest[at + 2..at + 4], 16).expect("hex byte");
        id.push(char::from(byte));
        rest = &rest[at + 4..];
    }
    id.push_str(rest);
    id
}

/// Writes `text` to `name` in a temporary folder of the test `test`, and returns its path.
pub fn write(test: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ravenshard-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}
