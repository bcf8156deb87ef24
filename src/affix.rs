//! How many leading or trailing bytes two texts share, compared a block at a time: what
//! a diff, an edit's reuse of the unchanged head and tail, and the syntax gate's changed
//! lines all start from.

/// How many leading bytes `a` and `b` share, compared a block at a time (memcmp) before
/// byte by byte: large texts differ in a few places.
#[must_use]
pub fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 4096;
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..len]
        .iter()
        .zip(&b[at..len])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many trailing bytes `a` and `b` share, a block at a time like [`common_prefix`].
#[must_use]
pub fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 4096;
    let len = a.len().min(b.len());
    let (a, b) = (&a[a.len() - len..], &b[b.len() - len..]);
    let mut at = len;
    while at >= BLOCK && a[at - BLOCK..at] == b[at - BLOCK..at] {
        at -= BLOCK;
    }
    len - at
        + a[..at]
            .iter()
            .rev()
            .zip(b[..at].iter().rev())
            .take_while(|(x, y)| x == y)
            .count()
}
