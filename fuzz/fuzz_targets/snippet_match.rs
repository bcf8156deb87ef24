//! Fuzzes snippet matching: `locate` finds only true, sorted, non-overlapping
//! occurrences, replacing them changes exactly their bytes, and when there is none,
//! `closest` returns at most three candidates, each the file's exact text, within a
//! small time budget.

#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use stitch::text::candidates::closest;
use stitch::text::matching::{locate, replace_at};

fuzz_target!(|input: (&str, &str, &str)| {
    let (text, old, new) = input;
    let found = locate(text, old, new);
    for &at in &found.offsets {
        assert!(text.as_bytes()[at..].starts_with(found.old.as_bytes()));
    }
    for pair in found.offsets.windows(2) {
        assert!(pair[0] + found.old.len() <= pair[1], "overlapping matches");
    }
    if found.offsets.is_empty() {
        let started = Instant::now();
        let candidates = closest(text, old, 3, Duration::from_millis(5));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "the budget is not kept"
        );
        assert!(candidates.len() <= 3);
        for c in &candidates {
            assert!(text.contains(&c.text), "a candidate is not the file's text");
            assert!((0.0..=1.0).contains(&c.similarity));
            assert!(1 <= c.start_line && c.start_line <= c.end_line);
        }
    } else {
        let out = replace_at(text, &found.offsets, found.old.len(), &found.new);
        let n = found.offsets.len();
        assert_eq!(
            out.len() + n * found.old.len(),
            text.len() + n * found.new.len()
        );
    }
});
