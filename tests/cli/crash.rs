//! Crash safety: a `write` or an `edit` killed with SIGKILL at any moment leaves the
//! file exactly as it was or exactly as written — never torn — and no temp file beside
//! it, for files from 1 KiB to 64 MiB. From 8 MiB on an edit takes the two-core path
//! (the file read in two halves, the result staged and synced while the digests are
//! computed, published after the checks): those sizes get rounds killed in that window.

use std::fs;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use crate::support::{names_in, report, Run, TestWorkspace, XorShift};

/// Big enough that writing and syncing it takes a while even in a debug build.
const SIZE: usize = 2 * 1024 * 1024;
const ROUNDS: usize = 60;

/// `SIZE` bytes of text, one line pattern per `fill` letter, so A and B differ everywhere.
fn content(fill: char) -> Vec<u8> {
    let line = format!("{}\n", fill.to_string().repeat(63));
    line.repeat(SIZE / line.len()).into_bytes()
}

/// How many bytes a process has read and written so far (`rchar`, `wchar` of
/// proc_pid_io(5)); `None` once it has exited or where /proc does not say.
fn io_counts(pid: u32) -> Option<(u64, u64)> {
    let text = fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|value| value.trim().parse().ok())
    };
    Some((field("rchar:")?, field("wchar:")?))
}

/// Spins until `reached` holds for the child's I/O counts or the child has finished.
fn wait_for_io(child: &mut Child, reached: impl Fn(u64, u64) -> bool) {
    while child.try_wait().unwrap().is_none() {
        match io_counts(child.id()) {
            Some((read, written)) if reached(read, written) => return,
            Some(_) => std::thread::yield_now(),
            None => return,
        }
    }
}

/// When a round kills the writer. The interesting moments are late in the call, after
/// the new content has been read, so two of the three aim there.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// Any time from the start to (just past) the end of a whole write.
    Anytime,
    /// Once the new content has been read, around the time it is being written.
    WhileWriting,
    /// The moment the new content has been written somewhere: syncing and renaming.
    AfterWriting,
}

#[test]
fn a_killed_write_leaves_the_old_or_the_new_file() {
    let ws = TestWorkspace::new();
    let a = content('a');
    let b = content('b');
    let a_path = ws.outside_file("A.txt", &a);
    let b_path = ws.outside_file("B.txt", &b);
    ws.file("data/big.txt", &a);

    let spawn_write = |source: &Path| {
        ws.spawnable()
            .args(["write", "data/big.txt", "--overwrite", "--from"])
            .arg(source)
            .spawn()
            .unwrap()
    };
    let read_all = |read: u64, _| read >= SIZE as u64;
    let written_all = |_, written: u64| written >= SIZE as u64;

    // One uninterrupted write shows how long its parts take here, so that the kill
    // delays cover the whole call and, more densely, the time the content is written.
    let start = Instant::now();
    let mut child = spawn_write(&b_path);
    wait_for_io(&mut child, read_all);
    let reading = start.elapsed();
    wait_for_io(&mut child, written_all);
    let writing = start.elapsed().saturating_sub(reading);
    let run = Run::from_output(child.wait_with_output().unwrap());
    let whole = start.elapsed();
    run.ok();
    assert!(
        ws.read("data/big.txt") == b,
        "an uninterrupted write completes"
    );
    let cap = Duration::from_millis(800);
    let anytime = whole.min(cap) + Duration::from_millis(10);
    let writing = writing.min(cap);

    let mut rng = XorShift::seeded();
    let seed = rng.0;
    let moments = [Moment::Anytime, Moment::WhileWriting, Moment::AfterWriting];
    for round in 0..ROUNDS {
        let moment = moments[round % moments.len()];
        let current = ws.read("data/big.txt");
        let source = if current == a { &b_path } else { &a_path };
        let mut child = spawn_write(source);
        match moment {
            Moment::Anytime => std::thread::sleep(rng.upto(anytime)),
            Moment::WhileWriting => {
                wait_for_io(&mut child, read_all);
                std::thread::sleep(writing / 2 + rng.upto(writing * 3 / 5));
            }
            Moment::AfterWriting => wait_for_io(&mut child, written_all),
        }
        // Killed, or finished first: either way the file must be whole.
        let _ = child.kill();
        child.wait().unwrap();

        let context = format!("round {round} ({moment:?}, seed {seed})");
        let after = fs::read(ws.path("data/big.txt")).unwrap();
        assert!(
            after == a || after == b,
            "{context}: the file is torn ({} bytes)",
            after.len()
        );
        assert_eq!(
            names_in(&ws.path("data")),
            ["big.txt"],
            "{context}: a temp file is left beside the target"
        );
        let visible: Vec<String> = names_in(&ws.root())
            .into_iter()
            .filter(|name| name != ".stitch")
            .collect();
        assert_eq!(visible, ["data"], "{context}");
    }
}

/// How many killed rounds each file size gets: small files are cheap and many; a few
/// rounds at 16 and 64 MiB, whose debug-build calls take seconds.
const SIZES: [(usize, usize); 7] = [
    (1 << 10, 160),
    (16 << 10, 80),
    (256 << 10, 60),
    (1 << 20, 30),
    (4 << 20, 16),
    (16 << 20, 12),
    (64 << 20, 4),
];

/// From this size on an edit reads in two halves and stages its result early.
const TWO_CORES: usize = 8 << 20;

/// `size` bytes (give or take a line) of `fill` lines with a `version: A` line in the
/// middle, which edits turn into `version: B` and back.
fn versioned(fill: u8, size: usize) -> Vec<u8> {
    let mut line = vec![fill; 63];
    line.push(b'\n');
    let lines = (size / 64).max(2);
    let mut bytes = Vec::with_capacity(lines * 64 + 11);
    for i in 0..lines {
        if i == lines / 2 {
            bytes.extend_from_slice(b"version: A\n");
        }
        bytes.extend_from_slice(&line);
    }
    bytes
}

/// `bytes` with its version line turned from `from` to `to`.
fn revised(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let at = memchr::memmem::find(bytes, from.as_bytes()).expect("the version line");
    let mut out = bytes.to_vec();
    out[at..at + from.len()].copy_from_slice(to.as_bytes());
    out
}

/// One killed call: what the file held, what the call would make of it, and the
/// arguments that make it.
struct Round {
    old: Vec<u8>,
    new: Vec<u8>,
    args: Vec<String>,
}

/// The next round on `current`: even rounds write the other fill (from a file outside),
/// odd rounds edit the version line.
fn next_round(
    round: usize,
    current: Vec<u8>,
    sources: &[(Vec<u8>, std::path::PathBuf); 2],
) -> Round {
    if round.is_multiple_of(2) {
        let (new, from) = if current == sources[0].0 {
            &sources[1]
        } else {
            &sources[0]
        };
        Round {
            new: new.clone(),
            old: current,
            args: vec![
                "write".into(),
                "data/f.txt".into(),
                "--overwrite".into(),
                "--from".into(),
                from.to_str().unwrap().into(),
            ],
        }
    } else {
        let (from, to) = if memchr::memmem::find(&current, b"version: A").is_some() {
            ("version: A", "version: B")
        } else {
            ("version: B", "version: A")
        };
        Round {
            new: revised(&current, from, to),
            old: current,
            args: vec![
                "edit".into(),
                "data/f.txt".into(),
                "--old".into(),
                from.into(),
                "--new".into(),
                to.into(),
            ],
        }
    }
}

/// Waits for the moment round `i` kills its call: a random one in `span`, or late (the
/// new content all written), or, from [`TWO_CORES`] on, a random one after the read.
fn wait_to_kill(
    child: &mut Child,
    i: usize,
    size: usize,
    step: &Round,
    span: Duration,
    rng: &mut XorShift,
) {
    let begin = Instant::now();
    if i % 3 == 2 {
        // Late: the new content is all written; syncing and renaming remain.
        let total = step.new.len() as u64;
        wait_for_io(child, |_, written| written >= total);
    } else if i % 3 == 1 && size >= TWO_CORES {
        // Once the file is read: hashing, staging, syncing and publishing remain,
        // partly at once.
        let total = step.old.len() as u64;
        wait_for_io(child, |read, _| read >= total);
        std::thread::sleep(rng.upto(span.saturating_sub(begin.elapsed())));
    } else {
        std::thread::sleep(rng.upto(span));
    }
}

#[test]
fn killed_writes_and_edits_of_1k_to_64m_leave_the_old_or_the_new_file() {
    let ws = TestWorkspace::new();
    let mut rng = XorShift::seeded();
    let seed = rng.0;
    let started = Instant::now();
    let (mut rounds, mut killed, mut orphans) = (0usize, 0usize, 0usize);
    // How long one uninterrupted call takes bounds the kill delays. It is measured at
    // each size up to 4 MiB and scaled from there for 64 MiB (seconds per call here).
    let mut measured: Option<(usize, Duration)> = None;
    for (size, count) in SIZES {
        let sources = [
            (
                versioned(b'a', size),
                ws.outside_file("a.txt", versioned(b'a', size)),
            ),
            (
                versioned(b'b', size),
                ws.outside_file("b.txt", versioned(b'b', size)),
            ),
        ];
        ws.file("data/f.txt", &sources[0].0);
        let whole = match measured {
            Some((at, took)) if size > 4 << 20 => took * u32::try_from(size / at).unwrap(),
            _ => {
                // A write and an edit that are not killed; both must complete.
                let begin = Instant::now();
                for round in 0..2 {
                    let current = ws.read("data/f.txt");
                    let step = next_round(round, current, &sources);
                    let run = Run::from_output(ws.spawnable().args(&step.args).output().unwrap());
                    run.ok();
                    assert!(
                        ws.read("data/f.txt") == step.new,
                        "an uninterrupted call completes"
                    );
                }
                begin.elapsed() / 2
            }
        };
        measured = Some((size, whole));
        let (size_started, size_killed) = (Instant::now(), killed);
        // A little past the whole call, so that some rounds finish before the kill.
        let span = whole + whole / 5 + Duration::from_millis(2);
        for i in 0..count {
            let current = ws.read("data/f.txt");
            let step = next_round(i, current, &sources);
            let mut child = ws.spawnable().args(&step.args).spawn().unwrap();
            wait_to_kill(&mut child, i, size, &step, span, &mut rng);
            if child.try_wait().unwrap().is_none() {
                killed += 1;
            }
            let _ = child.kill();
            child.wait().unwrap();
            rounds += 1;

            let context = format!("{} at {size} bytes, round {i} (seed {seed})", step.args[0]);
            let after = ws.read("data/f.txt");
            assert!(
                after == step.old || after == step.new,
                "{context}: the file is torn ({} bytes, old {}, new {})",
                after.len(),
                step.old.len(),
                step.new.len()
            );
            assert_eq!(
                names_in(&ws.path("data")),
                ["f.txt"],
                "{context}: a temp file is left beside the target"
            );
            let visible: Vec<String> = names_in(&ws.root())
                .into_iter()
                .filter(|name| name != ".stitch")
                .collect();
            assert_eq!(visible, ["data"], "{context}");
        }
        // Staged temp files a kill left under the reserved .stitch/tmp/: invisible, but
        // counted so that a leak shows in the figures.
        let staging = ws.path(".stitch/tmp");
        let left = if staging.exists() {
            let left = names_in(&staging).len();
            fs::remove_dir_all(&staging).unwrap();
            left
        } else {
            0
        };
        orphans += left;
        report(&format!(
            "crash: {size} bytes: {count} rounds, {} killed mid-call, {left} left in .stitch/tmp/, \
             {:.1} s (an uninterrupted call: {} ms)",
            killed - size_killed,
            size_started.elapsed().as_secs_f64(),
            whole.as_millis()
        ));
    }
    report(&format!(
        "crash: {rounds} rounds of write and edit from 1 KiB to 64 MiB, {killed} killed mid-call, \
         {orphans} staged temp files left under .stitch/tmp/, in {:.1} s (seed {seed})",
        started.elapsed().as_secs_f64()
    ));
}
