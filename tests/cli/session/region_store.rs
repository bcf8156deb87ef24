//! Where a session keeps the line digests of what it read (§6, staleness by region): in
//! its ledger's entry, written by the ledger's one write, so a read makes no other file;
//! past the ledger's bounds (4,096 lines a version, 8,192 a ledger) under
//! `.stitch/lines/`, the least recently seen moved there first. Wherever they are kept,
//! an edit by region lands; digests torn in the ledger are not used: the whole-file rule.

use std::fmt::Write;
use std::fs;

use serde_json::{json, Value};

use super::{ledger_path, session};
use crate::support::{sha256sum, TestWorkspace};

/// The line digests a ledger keeps for `text`, as 11 digits of base 64 (RFC 4648's
/// alphabet) each, the most significant first: of each line, its terminator included,
/// its bytes eight at a time (little-endian, zero-padded) mixed in by a multiply and a
/// rotation, then its length, finished by MurmurHash3's `fmix64`.
fn line_digests(text: &str) -> String {
    const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    text.split_inclusive('\n')
        .flat_map(|line| {
            let mut hash = 0_u64;
            for word in line.as_bytes().chunks(8) {
                let mut padded = [0_u8; 8];
                padded[..word.len()].copy_from_slice(word);
                hash = (hash ^ u64::from_le_bytes(padded))
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    .rotate_left(29);
            }
            hash ^= line.len() as u64;
            hash = (hash ^ (hash >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
            hash = (hash ^ (hash >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            hash ^= hash >> 33;
            (0..11)
                .rev()
                .map(move |i| char::from(BASE64[((hash >> (i * 6)) & 63) as usize]))
        })
        .collect()
}

fn ledger(ws: &TestWorkspace, id: &str) -> Value {
    serde_json::from_slice(&fs::read(ledger_path(ws, id)).unwrap()).unwrap()
}

/// `lines` numbered lines, the first `first`.
fn numbered(first: &str, lines: usize) -> String {
    let mut text = format!("{first}\n");
    for i in 1..lines {
        writeln!(text, "line {i}").unwrap();
    }
    text
}

/// Line 4 of `text` changed, as a formatter would; then an edit of its first line in
/// session `id` lands by region, naming line 4.
fn formatter_then_edit_lands(ws: &TestWorkspace, id: &str, path: &str, text: &str) {
    let formatted = text.replacen("\nline 3\n", "\nline  3\n", 1);
    assert_ne!(&formatted, text);
    fs::write(ws.path(path), &formatted).unwrap();
    let run = session(ws, id, &["edit", path, "--old", "first", "--new", "FIRST"]);
    let result = run.ok();
    assert_eq!(result["staleRead"], true, "{}", run.stdout);
    assert_eq!(
        result["foreignChanges"],
        json!([{"startLine": 4, "endLine": 4}])
    );
    assert_eq!(ws.read_string(path), formatted.replace("first", "FIRST"));
}

#[test]
fn a_read_keeps_the_lines_in_its_ledger_entry_and_writes_nothing_else() {
    let ws = TestWorkspace::new();
    let text = numbered("first", 6);
    ws.file("a.txt", &text);
    session(&ws, "s", &["read", "a.txt"]).ok();
    assert_eq!(
        ledger(&ws, "s")["entries"],
        json!({"a.txt": {"sha256": sha256sum(text.as_bytes()), "at": 1, "lines": line_digests(&text)}})
    );
    assert!(!ws.path(".stitch/lines").exists());
    formatter_then_edit_lands(&ws, "s", "a.txt", &text);
    assert!(!ws.path(".stitch/lines").exists());
}

#[test]
fn digests_torn_in_the_ledger_are_not_used() {
    // Torn: the whole-file rule. None: no line was seen, so every line is named.
    for (torn, named) in [
        ("A", Value::Null),
        ("AAAAAAAAAA=", Value::Null),
        ("zzzzzzzzzzz", Value::Null),
        ("", json!([{"startLine": 1, "endLine": 6}])),
    ] {
        let ws = TestWorkspace::new();
        let text = numbered("first", 6);
        ws.file("a.txt", &text);
        session(&ws, "s", &["read", "a.txt"]).ok();
        let mut planted = ledger(&ws, "s");
        planted["entries"]["a.txt"]["lines"] = json!(torn);
        fs::write(ledger_path(&ws, "s"), planted.to_string()).unwrap();
        let formatted = text.replace("line 5\n", "line  5\n");
        fs::write(ws.path("a.txt"), &formatted).unwrap();
        let run = session(
            &ws,
            "s",
            &["edit", "a.txt", "--old", "first", "--new", "FIRST"],
        );
        let details = run.refused("STALE_VERSION");
        assert_eq!(details["foreignChanges"], named, "{}", run.stdout);
        assert_eq!(ws.read_string("a.txt"), formatted);
    }
}

#[test]
fn a_version_of_many_lines_keeps_them_beside_the_ledger() {
    let ws = TestWorkspace::new();
    let text = numbered("first", 5_000);
    ws.file("big.txt", &text);
    session(&ws, "s", &["read", "big.txt", "--limit", "1"]).ok();
    assert_eq!(
        ledger(&ws, "s")["entries"],
        json!({"big.txt": {"sha256": sha256sum(text.as_bytes()), "at": 1}})
    );
    let kept = ws.path(&format!(".stitch/lines/{}", sha256sum(text.as_bytes())));
    // A head of 16 bytes, then 8 bytes a line.
    assert_eq!(fs::metadata(kept).unwrap().len(), 16 + 8 * 5_000);
    formatter_then_edit_lands(&ws, "s", "big.txt", &text);
}

#[test]
fn past_the_ledger_bound_the_least_recently_seen_lines_move_beside_it() {
    let ws = TestWorkspace::new();
    // Three versions of 3,001 lines: 9,003 digests, over the ledger's 8,192.
    let texts: Vec<String> = (0..3)
        .map(|i| format!("{}file {i}\n", numbered("first", 3_000)))
        .collect();
    for (i, text) in texts.iter().enumerate() {
        ws.file(&format!("{i}.txt"), text);
        session(&ws, "s", &["read", &format!("{i}.txt"), "--limit", "1"]).ok();
    }
    let entries = &ledger(&ws, "s")["entries"];
    assert!(entries["0.txt"].get("lines").is_none(), "{entries}");
    for (i, text) in texts.iter().enumerate().skip(1) {
        assert_eq!(entries[format!("{i}.txt")]["lines"], line_digests(text));
    }
    let lines = fs::read_dir(ws.path(".stitch/lines"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(lines, [sha256sum(texts[0].as_bytes())]);
    // The file whose lines moved still takes an edit by region, and so do the others.
    for (i, text) in texts.iter().enumerate() {
        formatter_then_edit_lands(&ws, "s", &format!("{i}.txt"), text);
    }
}

#[test]
fn a_kept_file_of_an_earlier_format_or_torn_is_not_used() {
    let clear_format = |bytes: &mut Vec<u8>| bytes[15] &= 0x7f;
    let tear = |bytes: &mut Vec<u8>| bytes.truncate(bytes.len() - 8);
    for planted in [clear_format, tear] {
        let ws = TestWorkspace::new();
        let text = numbered("first", 5_000);
        ws.file("big.txt", &text);
        session(&ws, "s", &["read", "big.txt", "--limit", "1"]).ok();
        let kept = ws.path(&format!(".stitch/lines/{}", sha256sum(text.as_bytes())));
        let mut bytes = fs::read(&kept).unwrap();
        assert_eq!(
            bytes[15], 0x80,
            "the format is marked in the count's top bit"
        );
        planted(&mut bytes);
        fs::write(&kept, bytes).unwrap();
        let formatted = text.replacen("\nline 3\n", "\nline  3\n", 1);
        fs::write(ws.path("big.txt"), &formatted).unwrap();
        let run = session(
            &ws,
            "s",
            &["edit", "big.txt", "--old", "first", "--new", "FIRST"],
        );
        let details = run.refused("STALE_VERSION");
        assert!(details.get("foreignChanges").is_none(), "{}", run.stdout);
        assert_eq!(ws.read_string("big.txt"), formatted);
    }
}
