//! Micro-benchmarks of the text primitives behind `edit`: locating a snippet in a large
//! text, and finding the closest candidates for a near-miss snippet (the NO_MATCH path).
//!
//! Run with `cargo bench --bench text`. The texts are generated in memory, deterministically.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stitch::text::{candidates, matching};

const MIB: usize = 1024 * 1024;

/// The candidate search's time budget, as the edit tool uses it.
const BUDGET: Duration = Duration::from_millis(250);

const WORDS: [&str; 16] = [
    "alpha", "bravo", "charlie", "delta", "buffer", "cursor", "window", "parser", "token",
    "render", "layout", "stream", "socket", "ledger", "anchor", "digest",
];

/// A small deterministic generator (xorshift64*), so every run benches the same text.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
        usize::try_from(x).unwrap_or_default() % n
    }

    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
}

/// Code-like text of at least `bytes` bytes: numbered functions, so no two blocks are equal.
fn text(bytes: usize) -> String {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = String::with_capacity(bytes + 512);
    let mut n = 0;
    while out.len() < bytes {
        let (w, v) = (rng.word(), rng.word());
        let k = rng.below(96) + 2;
        let (c1, c2, c3) = (rng.word(), rng.word(), rng.word());
        let note = rng.below(1_000_000_000);
        let mask = rng.below(0x1_0000);
        write!(
            out,
            "/// Computes the {w} {v} for item {n}.\n\
             fn item_{n:07}_{w}(input: &str, {v}: usize) -> usize {{\n    \
             let total_{n:07} = input.len() * {k} + {v};\n    \
             // {c1} {c2} {c3} {note}\n    \
             total_{n:07} ^ 0x{mask:04x}\n}}\n\n"
        )
        .expect("writing to a String cannot fail");
        n += 1;
    }
    out
}

/// Lines 2..=4 (the signature, the first statement and the comment) of the first block
/// that starts after `percent` % of the text: an exact, unique snippet.
fn snippet_at(text: &str, percent: usize) -> &str {
    let approx = text.len() / 100 * percent;
    let start = approx + text[approx..].find("\nfn item_").expect("a block follows") + 1;
    let mut end = start;
    for _ in 0..3 {
        end += text[end..].find('\n').expect("the block has 3 lines") + 1;
    }
    &text[start..end]
}

/// The same snippet with one token changed, as a model misremembering a line would write it.
fn near_miss(snippet: &str) -> String {
    let changed = snippet.replacen("input.len() * ", "input.chars().count() * ", 1);
    assert_ne!(changed, snippet, "the snippet has a statement to change");
    changed
}

fn bench_locate(c: &mut Criterion) {
    let text = text(10 * MIB);
    let present = snippet_at(&text, 60);
    let absent = near_miss(present);
    assert_eq!(matching::locate(&text, present, "x").offsets.len(), 1);
    assert!(matching::locate(&text, &absent, "x").offsets.is_empty());

    let mut group = c.benchmark_group("locate/10MiB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("unique", |b| {
        b.iter(|| matching::locate(black_box(&text), black_box(present), "replacement"));
    });
    group.bench_function("absent", |b| {
        b.iter(|| matching::locate(black_box(&text), black_box(&absent), "replacement"));
    });
    group.finish();
}

fn bench_closest(c: &mut Criterion) {
    let mut group = c.benchmark_group("closest");
    // Each call may take up to the 250 ms budget: few samples, enough time for them.
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    for mib in [1, 10] {
        let text = text(mib * MIB);
        let snippet = near_miss(snippet_at(&text, 60));
        let found = candidates::closest(&text, &snippet, 3, BUDGET);
        assert!(
            !found.is_empty(),
            "the near miss has candidates in {mib} MiB"
        );
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("near-miss", format!("{mib}MiB")),
            &(text.as_str(), snippet.as_str()),
            |b, &(text, snippet)| {
                b.iter(|| candidates::closest(black_box(text), black_box(snippet), 3, BUDGET));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_locate, bench_closest);
criterion_main!(benches);
