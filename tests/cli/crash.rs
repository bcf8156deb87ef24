//! Crash safety: a `write` killed with SIGKILL at any moment leaves the file exactly
//! as it was or exactly as written — never torn — and no temp file beside it.

use std::fs;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::support::{names_in, Run, TestWorkspace};

/// Big enough that writing and syncing it takes a while even in a debug build.
const SIZE: usize = 2 * 1024 * 1024;
const ROUNDS: usize = 60;

/// xorshift64: a few random delays need no crate.
struct XorShift(u64);

impl XorShift {
    fn seeded() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        // Truncation is fine: any non-zero 64 bits make a seed.
        #[allow(clippy::cast_possible_truncation)]
        XorShift((nanos as u64) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A duration from zero to `max`.
    fn upto(&mut self, max: Duration) -> Duration {
        let micros = u64::try_from(max.as_micros()).unwrap_or(u64::MAX).max(1);
        Duration::from_micros(self.next() % micros)
    }
}

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
