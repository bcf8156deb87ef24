//! `readOnly`: every mutation of a read-only path is refused; reads and walks still see it.

use serde_json::json;

use crate::support::TestWorkspace;

use super::{assert_denied, config};

const VENDORED: &str = "pub fn vendored() {}\n";

fn workspace_with_vendor() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("vendor/lib.rs", VENDORED)
        .file("Cargo.lock", "# lock\n")
        .file("src/main.rs", "fn main() {}\n")
        .symlink("vendor/lib.rs", "ro-link.rs");
    config(&ws, &json!({"readOnly": ["vendor/**", "**/*.lock"]}));
    ws
}

#[test]
fn read_only_refuses_every_mutation() {
    let ws = workspace_with_vendor();
    let edit = ws.run(&[
        "edit",
        "vendor/lib.rs",
        "--old",
        "vendored",
        "--new",
        "patched",
    ]);
    assert_denied(&edit, "readOnly", "vendor/lib.rs");
    let write = ws.run(&["write", "vendor/lib.rs", "--content", "x", "--overwrite"]);
    assert_denied(&write, "readOnly", "vendor/lib.rs");
    let through = ws.run(&["write", "ro-link.rs", "--content", "x", "--overwrite"]);
    assert_denied(&through, "readOnly", "ro-link.rs");
    let edit_through = ws.run(&["edit", "ro-link.rs", "--old", "vendored", "--new", "p"]);
    assert_denied(&edit_through, "readOnly", "ro-link.rs");
    let create = ws.run(&["write", "vendor/new.rs", "--content", "x"]);
    assert_denied(&create, "readOnly", "vendor/new.rs");
    let lock = ws.run(&["edit", "Cargo.lock", "--old", "lock", "--new", "x"]);
    assert_denied(&lock, "readOnly", "Cargo.lock");
    let dry = ws.run(&[
        "edit",
        "vendor/lib.rs",
        "--old",
        "vendored",
        "--new",
        "p",
        "--dry-run",
    ]);
    assert_denied(&dry, "readOnly", "vendor/lib.rs");

    assert_eq!(ws.read_string("vendor/lib.rs"), VENDORED);
    assert_eq!(ws.read_string("Cargo.lock"), "# lock\n");
    assert!(ws
        .path("ro-link.rs")
        .symlink_metadata()
        .unwrap()
        .is_symlink());
    assert!(!ws.exists("vendor/new.rs"));
    // Everything else stays writable.
    ws.run(&["edit", "src/main.rs", "--old", "{}", "--new", "{ }"])
        .ok();
}

#[test]
fn read_only_files_are_readable_and_listed() {
    let ws = workspace_with_vendor();
    let run = ws.run(&["read", "vendor/lib.rs"]);
    assert_eq!(run.ok()["content"], VENDORED);
    assert_eq!(ws.run(&["read", "ro-link.rs"]).ok()["content"], VENDORED);
    let run = ws.run(&["glob", "**/*.rs"]);
    assert_eq!(
        run.ok()["matches"],
        json!(["ro-link.rs", "src/main.rs", "vendor/lib.rs"]),
        "{}",
        run.stdout
    );
    let run = ws.run(&["search", "vendored"]);
    assert!(run.ok()["matches"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["path"] == "vendor/lib.rs"));
    let run = ws.run(&["list", "vendor"]);
    assert_eq!(run.ok()["skipped"], 0, "{}", run.stdout);
}
