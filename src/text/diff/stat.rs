//! How many lines a change adds and removes, as `git diff --stat` counts them, from the
//! region where the texts differ only.

use similar::DiffOp;

use super::{changed_region, line_ops, lines};

/// How many lines a change adds and removes, as `git diff --stat` counts them: a line
/// changed is one removed and one added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stat {
    pub added: u64,
    pub removed: u64,
}

/// The lines `old` → `new` adds and removes.
#[must_use]
pub fn stat(old: &str, new: &str) -> Stat {
    // A file made or removed whole is its lines, counted without a diff (or its memory).
    let lines_in = |text: &str| lines_of(text) as u64;
    if old.is_empty() || new.is_empty() {
        return Stat {
            added: lines_in(new),
            removed: lines_in(old),
        };
    }
    let (_, old_mid, new_mid) = changed_region(old, new);
    count(old_mid, new_mid)
}

/// The lines `old` → `new` adds and removes, when both are text (UTF-8 without NUL, as
/// stitch reads text); `None` when either is not.
#[must_use]
pub fn stat_bytes(old: &[u8], new: &[u8]) -> Option<Stat> {
    let text = |bytes| {
        std::str::from_utf8(bytes)
            .ok()
            .filter(|_| memchr::memchr(0, bytes).is_none())
    };
    Some(stat(text(old)?, text(new)?))
}

/// The lines an edit adds and removes, the edit given as [`super::unified_splice`] takes it: only
/// the lines around the middle are looked at.
#[must_use]
pub fn stat_splice(old: &str, head: usize, middle: &str, tail: usize) -> Stat {
    let o = old.as_bytes();
    let start = memchr::memrchr(b'\n', &o[..head]).map_or(0, |i| i + 1);
    let kept = o.len() - tail;
    let end = memchr::memchr(b'\n', &o[kept..]).map_or(o.len(), |i| kept + i + 1);
    let new_window = [&old[start..head], middle, &old[kept..end]].concat();
    count(&old[start..end], &new_window)
}

/// How many lines [`lines`] cuts `text` into, without holding them.
fn lines_of(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut start = 0;
    while let Some(i) = memchr::memchr2(b'\n', b'\r', &bytes[start..]) {
        let mut end = start + i + 1;
        if bytes[end - 1] == b'\r' && bytes.get(end) == Some(&b'\n') {
            end += 1;
        }
        count += 1;
        start = end;
    }
    count + usize::from(start < bytes.len())
}

/// The lines a line diff of `old` → `new` inserts and deletes.
fn count(old: &str, new: &str) -> Stat {
    of_ops(&line_ops(&lines(old), &lines(new)))
}

/// The lines the diff `ops` inserts and deletes.
pub(super) fn of_ops(ops: &[DiffOp]) -> Stat {
    ops.iter().fold(Stat::default(), |stat, op| {
        let (removed, added) = match op.tag() {
            similar::DiffTag::Equal => (0, 0),
            _ => (op.old_range().len(), op.new_range().len()),
        };
        Stat {
            added: stat.added + added as u64,
            removed: stat.removed + removed as u64,
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_stat_counts_lines_as_git_does() {
        use super::{stat, stat_splice, Stat};
        let old = "one\ntwo\nthree\n";
        assert_eq!(stat(old, old), Stat::default());
        let two = Stat {
            added: 1,
            removed: 1,
        };
        assert_eq!(stat(old, "one\n2\nthree\n"), two);
        assert_eq!(
            stat("", old),
            Stat {
                added: 3,
                removed: 0
            }
        );
        assert_eq!(
            stat(old, ""),
            Stat {
                added: 0,
                removed: 3
            }
        );
        assert_eq!(stat("a", "a\n"), two, "a last line given its newline");
        assert_eq!(
            stat("", "a\r\nb\rc"),
            Stat {
                added: 3,
                removed: 0
            }
        );
        assert_eq!(stat_splice(old, 4, "2", 7), two);
        assert_eq!(
            stat_splice(old, 4, "2\nmore", 7),
            Stat {
                added: 2,
                removed: 1
            }
        );
        assert_eq!(
            stat_splice(old, 14, "four\n", 0),
            Stat {
                added: 1,
                removed: 0
            }
        );
    }
}
