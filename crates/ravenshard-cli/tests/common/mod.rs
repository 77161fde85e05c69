//! What the CLI tests share: running the binary.

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
    input.write_all(stdin).expect("stdin accepts input");
    drop(input);
    child.wait_with_output().expect("ravenshard finishes")
}
