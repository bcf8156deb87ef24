//! apply_patch at its edges, each case one a patch from a real history or an obedient
//! model produces: a context line whose text looks like a chunk header, a refusal's hint
//! followed to the letter, a deletion made stale by newer work, modes and symbolic links
//! in a diff, and a patch of many thousands of hunks.

use serde_json::json;

use crate::support::{TestWorkspace, SHA256, STRING};

/// A test's snapshot holds a unified hunk header; a Codex patch that changes the line
/// below it sends the header as a context line, a space before its text.
#[test]
fn a_context_line_that_reads_like_a_chunk_header_is_context() {
    let ws = TestWorkspace::new();
    let before = "const EXPECTED: &str = \"\n    @@ -0,0 +1,1 @@\n    +hello\n\";\n";
    ws.file("tests/snap.rs", before);
    let patch = "*** Begin Patch\n*** Update File: tests/snap.rs\n@@\n const EXPECTED: &str = \"\n     @@ -0,0 +1,1 @@\n-    +hello\n+    +hello world\n \";\n*** End Patch\n";
    let run = ws.run(&["apply", "--patch", patch]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "dialect": "codex",
        "applied": true,
        "id": STRING,
        "changes": [{
            "path": "tests/snap.rs", "operation": "edit", "baseSha256": SHA256,
            "sha256": SHA256, "bytes": 65, "hunks": [{"line": 1}],
            "diff": "--- a/tests/snap.rs\n+++ b/tests/snap.rs\n@@ -1,4 +1,4 @@\n const EXPECTED: &str = \"\n     @@ -0,0 +1,1 @@\n-    +hello\n+    +hello world\n \";\n"
        }]
    }}));
    assert_eq!(
        ws.read_string("tests/snap.rs"),
        before.replace("+hello\n", "+hello world\n")
    );
}
