//! A search costs memory by its limit, never by the file: a 10 MB file in which every line
//! matches, searched with the most context, and a regex built to grow each thread's DFA
//! toward the regex crate's 1000 MB default, both answer with an ordinary envelope inside
//! an address space of 256 MiB, in reasonable time. Before the bound, the first passed
//! 6 GB and the second 1.5 GB. A read pages a file of millions of empty lines in little
//! more than the file's own size: an index of every line (8 bytes a line) once made a
//! 250 MB file abort the process inside 1 GiB of address space; and context around a few
//! hits among 16 Mi lines is found by scanning from each, not from an index of them all.

use std::time::Instant;

use serde_json::{json, Value};

use super::{timed, PROMPT};
use crate::support::{
    limit_address_space, refuse_openat2, report, run_measured, Run, TestWorkspace, SHA256,
};

/// The address space a search is given: far below what the unbounded search took.
const BOUND: u64 = 256 << 20;

/// The peak resident set a bounded search may reach: the binary, its threads, a file
/// read whole (10 MB here) and what the limit keeps.
const PEAK: u64 = 64 << 20;

/// Runs `stitch args` in at most [`BOUND`] of address space, asserting it was prompt and
/// that its peak resident set stayed under [`PEAK`].
fn bounded(ws: &TestWorkspace, args: &[&str]) -> Run {
    within(ws, args, BOUND, PEAK)
}

/// Runs `stitch args` in at most `bound` of address space, asserting it was prompt and
/// that its peak resident set stayed under `peak_bound`.
fn within(ws: &TestWorkspace, args: &[&str], bound: u64, peak_bound: u64) -> Run {
    let mut cmd = ws.std_cmd();
    cmd.args(args);
    let start = Instant::now();
    let (output, peak) = run_measured(&cmd, |timed| {
        limit_address_space(timed, bound);
        if ws.is_without_openat2() {
            refuse_openat2(timed);
        }
    });
    let run = Run::from_output(output);
    let took = start.elapsed();
    assert!(took < PROMPT, "`stitch {}` took {took:?}", args.join(" "));
    let peak = match peak {
        Some(peak) => {
            assert!(
                peak < peak_bound,
                "`stitch {}` peaked at {} MiB",
                args.join(" "),
                peak >> 20
            );
            format!("peak RSS {} MiB", peak >> 20)
        }
        None => "peak RSS not measured (no /usr/bin/time)".to_owned(),
    };
    report(&format!(
        "hostile::memory: `stitch {}` answered within {} MiB of address space, {peak}, in {took:?}",
        args.join(" "),
        bound >> 20,
    ));
    run
}

#[test]
fn a_search_where_every_line_matches_holds_only_what_it_returns() {
    let ws = TestWorkspace::new();
    let line = "a".repeat(100);
    ws.file("ten.txt", format!("{line}\n").repeat(100_000));
    let run = bounded(&ws, &["search", "a", "--context", "10"]);
    let matches: Vec<Value> = (1..=100usize)
        .map(|n| {
            json!({
                "path": "ten.txt", "line": n, "text": line,
                "before": vec![line.clone(); (n - 1).min(10)],
                "after": vec![line.clone(); 10],
            })
        })
        .collect();
    run.assert_envelope(&json!({"ok": true, "data": {
        "matches": matches,
        "truncated": true,
        "scannedFiles": 1,
        "skippedBinary": 0,
        "skippedLarge": 0,
        "denied": 0,
        "hint": "Showing the first 100 matches in path order: narrow with --path or --glob, or raise --limit (up to 1000).",
    }}));
}

#[test]
fn a_regex_built_to_grow_its_dfa_is_bounded() {
    let ws = TestWorkspace::new();
    // 3 MB of letters and spaces, no digit: the regex below never matches, and a lazy
    // DFA left to itself grows a state for every position it tries.
    let mut text = String::new();
    let mut seed = 7u32;
    while text.len() < 3_000_000 {
        for _ in 0..12 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let len = 1 + (seed >> 16) as usize % 6;
            text.extend((0..len).map(|i| char::from(b'a' + ((seed >> i) % 10) as u8)));
            text.push(' ');
        }
        text.push('\n');
    }
    ws.file("words.txt", &text).file("more.txt", &text);
    let run = bounded(&ws, &["search", "--regex", r"(?:\p{L}{1,3}\s?){40}\p{N}"]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "matches": [], "truncated": false, "scannedFiles": 2,
        "skippedBinary": 0, "skippedLarge": 0, "denied": 0,
    }}));
    // The issue's own regex compiles larger than a search may hold: refused, at once.
    let query = r"(?:\p{L}{1,3}\s?){800}\p{N}";
    let run = timed(&ws, &["search", "--regex", query], "");
    let reason = "compiled regex exceeds size limit of 8388608";
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATTERN",
        "details": {
            "message": format!("The regex `{query}` does not compile: {reason}"),
            "field": "query",
            "pattern": query,
            "reason": reason,
            "limit": 8_388_608,
        },
        "_hint": "The regex compiles larger than a search may hold: use fewer or shorter repetitions (a smaller `{n}`), or search literally.",
    }));
}

/// A file of 2 Mi empty lines: an index of its line starts would take 16 MiB, more than
/// the address space [`within`] gives the read of it leaves after the binary's own.
const EMPTY_LINES: usize = 2 << 20;

/// The address space the binary's loadable segments take (the sum of its ELF `PT_LOAD`
/// segments' sizes in memory): what a process of it maps before it does anything.
fn loadable_bytes() -> u64 {
    let bytes = std::fs::read(assert_cmd::cargo::cargo_bin!("stitch")).unwrap();
    let u16_at = |at: usize| u64::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let (offset, size, count) = (u64_at(0x20), u16_at(0x36), u16_at(0x38));
    (0..count)
        .map(|i| usize::try_from(offset + i * size).unwrap())
        .filter(|&header| u32::from_le_bytes(bytes[header..header + 4].try_into().unwrap()) == 1)
        .map(|header| u64_at(header + 0x28))
        .sum()
}

#[test]
fn a_read_of_millions_of_lines_holds_only_the_page() {
    let ws = TestWorkspace::new();
    ws.file("lines.txt", vec![b'\n'; EMPTY_LINES]);
    // 8 MiB past the binary's own mappings (the grammars of the syntax gate are static
    // data, mapped but not touched by a read): room for the page, not for an index.
    let bound = loadable_bytes() + (8 << 20);
    let page = |start: usize, end: usize, next: Option<usize>| {
        let mut data = json!({
            "path": "lines.txt",
            "content": "\n".repeat(end + 1 - start),
            "sha256": SHA256,
            "bytes": EMPTY_LINES,
            "totalLines": EMPTY_LINES,
            "startLine": start,
            "endLine": end,
            "truncated": next.is_some(),
            "lineEnding": "lf",
            "bom": false,
        });
        if let Some(next) = next {
            data["nextOffset"] = json!(next);
        }
        json!({"ok": true, "data": data})
    };
    within(
        &ws,
        &["read", "lines.txt", "--offset", "5", "--limit", "2"],
        bound,
        bound,
    )
    .assert_envelope(&page(5, 6, Some(7)));
    let last = EMPTY_LINES.to_string();
    within(&ws, &["read", "lines.txt", "--offset", &last], bound, bound).assert_envelope(&page(
        EMPTY_LINES,
        EMPTY_LINES,
        None,
    ));
    let past = (EMPTY_LINES + 1).to_string();
    within(&ws, &["read", "lines.txt", "--offset", &past], bound, bound).assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": format!(
                "--offset {past} is past the last line of `lines.txt`, which has {EMPTY_LINES} lines"
            ),
            "field": "offset",
            "path": "lines.txt",
            "totalLines": EMPTY_LINES,
        },
        "_hint": "Fix the `--offset` argument and call again.",
    }));
}

#[test]
fn context_around_a_few_hits_costs_nothing_by_the_file_s_line_count() {
    let ws = TestWorkspace::new();
    // Three hits among 16 Mi lines, the last at the end of a file with no final newline.
    let empty = "\n".repeat(8 << 20);
    let text = format!("one\nneedle\ntwo\n{empty}three\nneedle\nfour\n{empty}five\nneedle");
    ws.file("lines.txt", &text);
    let k = 8usize << 20;
    let run = bounded(&ws, &["search", "needle", "--context", "2"]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "matches": [
            {"path": "lines.txt", "line": 2, "text": "needle",
             "before": ["one"], "after": ["two", ""]},
            {"path": "lines.txt", "line": k + 5, "text": "needle",
             "before": ["", "three"], "after": ["four", ""]},
            {"path": "lines.txt", "line": 2 * k + 8, "text": "needle",
             "before": ["", "five"], "after": []},
        ],
        "truncated": false,
        "scannedFiles": 1,
        "skippedBinary": 0,
        "skippedLarge": 0,
        "denied": 0,
    }}));
}

#[test]
fn an_edit_that_misses_in_millions_of_lines_answers_without_candidates() {
    let ws = TestWorkspace::new();
    ws.file("lines.txt", vec![b'\n'; EMPTY_LINES]);
    // Room for the edit itself, not for an index, the lines and the votes of every line
    // the search for the closest passages would take (about 100 MiB here). The binary's
    // loaded segments count against the bound too (some 38 MB in a debug build, most of
    // it the grammars' tables), so it leaves room for them and the edit's 8 MB.
    let bound = 52 << 20;
    let run = within(
        &ws,
        &["edit", "lines.txt", "--old", "foo", "--new", "bar"],
        bound,
        bound,
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {"message": "--old is not in `lines.txt`", "path": "lines.txt", "candidates": []},
        "_hint": "Re-read `lines.txt` and copy --old exactly from it.",
    }));
    assert_eq!(ws.read("lines.txt"), vec![b'\n'; EMPTY_LINES]);
}
