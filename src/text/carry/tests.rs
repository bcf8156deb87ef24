//! The carry's own cases: what each kind of remembered passage carries, and where it is in doubt.

use super::carry;

#[test]
fn a_dedented_change_is_carried_with_the_files_indentation() {
    let ours = "    def f(x):\n        return x\n";
    let base = "def f(x):\n    return x\n";
    let theirs = "def f(x):\n    y = x + 1\n    return y\n";
    assert_eq!(
        carry(base, ours, theirs).unwrap(),
        "    def f(x):\n        y = x + 1\n        return y\n"
    );
}

#[test]
fn a_recipe_typed_with_spaces_keeps_its_tabs() {
    let ours = "build:\n\tcargo build\n";
    let base = "build:\n    cargo build\n";
    let theirs = "build:\n    cargo build --release\n    strip target/release/x\n";
    assert_eq!(
        carry(base, ours, theirs).unwrap(),
        "build:\n\tcargo build --release\n\tstrip target/release/x\n"
    );
}

#[test]
fn a_skipped_line_is_kept() {
    let ours = "a = 1\nb = 2\nc = 3";
    let base = "a = 1\nc = 3";
    let theirs = "a = 10\nc = 3";
    assert_eq!(carry(base, ours, theirs).unwrap(), "a = 10\nb = 2\nc = 3");
}

#[test]
fn a_mistyped_token_and_the_change_merge_when_apart() {
    let ours = "    alpha + gamma";
    let base = "    alpha + beta";
    let theirs = "    (alpha + beta)";
    // The change is beside the mistyped token, not in it.
    assert_eq!(carry(base, ours, theirs).unwrap(), "    (alpha + gamma)");
    // Changes of one word meet, even where their characters do not.
    assert_eq!(carry("getValue()", "getValues()", "getVal()"), None);
    // A change of the mistyped token itself cannot be carried.
    assert_eq!(carry(base, ours, "    alpha + delta"), None);
}

#[test]
fn trailing_whitespace_is_the_files() {
    assert_eq!(
        carry(
            "let x = 1; \nlet y = 2;",
            "let x = 1;\nlet y = 2;",
            "let x = 1;  // one\nlet y = 2;"
        )
        .unwrap(),
        "let x = 1; // one\nlet y = 2;"
    );
}

#[test]
fn new_lines_where_the_file_has_its_own_are_in_doubt() {
    let ours = "a\nfile-only\nb";
    let base = "a\nb";
    let theirs = "a\ncaller-new\nb";
    assert_eq!(carry(base, ours, theirs), None);
}

#[test]
fn tabs_for_many_spaces_merge() {
    let b = "\t\t\t\t width=70,\n\t\t\t\t initial_indent=\"\",\n";
    let o = "                 width=70,\n                 initial_indent=\"\",\n";
    let t = "\t\t\t\t width=70, EDITED-HERE\n\t\t\t\t initial_indent=\"\",\n";
    assert_eq!(
        carry(b, o, t).unwrap(),
        "                 width=70, EDITED-HERE\n                 initial_indent=\"\",\n"
    );
}

#[test]
fn a_rewritten_line_takes_the_file_s_indentation() {
    let ours = "    for i in xs:\n        if m is None:\n            m = i\n";
    let base = "for i in xs:\n    if m is None:\n        m = i\n";
    let theirs = "for i in xs:\n    if m is None:\n        break\n";
    assert_eq!(
        carry(base, ours, theirs).unwrap(),
        "    for i in xs:\n        if m is None:\n            break\n"
    );
}

#[test]
fn an_insertion_beside_words_the_file_dropped_is_in_doubt() {
    let base = "    let re = Regex::new(r\"x\").unwrap();";
    let ours = "        Regex::new(r\"x\").unwrap();";
    let theirs = "    let re: Regex = Regex::new(r\"x\").unwrap();";
    assert_eq!(carry(base, ours, theirs), None);
    // A change of words the file holds otherwise is in doubt too: what the caller
    // meant for the file's words cannot be told.
    let theirs = "    let re = Regex::new(r\"x\").expect(\"valid\");";
    assert_eq!(carry(base, ours, theirs), None);
    // An addition away from them is carried.
    let theirs = "    let re = Regex::new(r\"x\").unwrap(); // checked";
    assert_eq!(
        carry(base, ours, theirs).unwrap(),
        "        Regex::new(r\"x\").unwrap(); // checked"
    );
}

#[test]
fn a_rewritten_line_the_file_holds_otherwise_is_in_doubt() {
    assert_eq!(carry("    foo(a, b", "    foo(a, b, c)", "    bar()"), None);
    // Spacing aside, the rewrite stands as the caller wrote it.
    assert_eq!(carry("  on: ", "  on:", "  x = 1").unwrap(), "  x = 1");
}

#[test]
fn a_line_the_file_continues_takes_the_change_on_its_own_line() {
    // Remembered as one line; the file continues it after a `\` and after a comma.
    let ours = "    run --a --b \\
    --c --d
";
    let base = "    run --a --b --c --d
";
    let theirs = "    run --a --b --c --d --e
";
    assert_eq!(
        carry(base, ours, theirs).unwrap(),
        "    run --a --b \\
    --c --d --e
"
    );
    let ours = "f(alpha,
  beta)
";
    assert_eq!(
        carry(
            "f(alpha, beta)
",
            ours,
            "f(alpha, gamma)
"
        )
        .unwrap(),
        "f(alpha,
  gamma)
"
    );
    // A change where the file cuts the line cannot be placed.
    assert_eq!(
        carry(
            "f(alpha, beta)
",
            ours,
            "f(alpha, x, beta)
"
        ),
        None
    );
    // Remembered wrapped with a `\` where the file holds one line.
    assert_eq!(
        carry(
            "run --a \\
--b
",
            "run --a --b
",
            "run --a \\
--b --c
"
        )
        .unwrap(),
        "run --a --b --c
"
    );
}

#[test]
fn a_passage_cut_short_where_the_file_continues_the_line_is_in_doubt() {
    assert_eq!(
        carry(
            "  items: Vec<u8>, }",
            "  items: Vec<u8>,",
            "  items: Vec<u8>, } // x"
        ),
        None
    );
}

#[test]
fn crlf_passages_stay_crlf() {
    assert_eq!(
        carry("x = 1\ny = 2\n", "  x = 1\r\n  y = 2\r\n", "x = 1\ny = 3\n").unwrap(),
        "  x = 1\r\n  y = 3\r\n"
    );
}

#[test]
fn a_deleted_line_remembered_with_a_space_dropped_is_deleted() {
    let ours =
        "use bstr::ByteSlice;\n\n/// The final component of the path, if it is a normal file.\n";
    let base =
        "use bstr::ByteSlice;\n\n/// The final component of the path,if it is a normal file.\n";
    assert_eq!(
        carry(base, ours, "use bstr::ByteSlice;\n").unwrap(),
        "use bstr::ByteSlice;\n"
    );
    // A line that differs in more than its spacing is not the caller's to delete.
    let ours =
        "use bstr::ByteSlice;\n\n/// The final component of a path, if it is a normal file.\n";
    assert_eq!(carry(base, ours, "use bstr::ByteSlice;\n"), None);
}
