//! Near names for `NOT_FOUND`: the existing paths closest to the one asked for.
//!
//! Only computed on the refusal path, over a bounded walk, so it costs a successful call
//! nothing.

use std::sync::Arc;

use globset::GlobSet;

use crate::workspace::Workspace;

/// How many entries the walk looks at, at most.
const WALK_LIMIT: usize = 20_000;
/// How many names are returned, at most.
const MAX_NAMES: usize = 5;

/// Up to five existing workspace-relative paths closest to `wanted`, closest first.
#[must_use]
pub fn names(ws: &Workspace, exclude: Option<Arc<GlobSet>>, wanted: &str) -> Vec<String> {
    let wanted_base = wanted.rsplit('/').next().unwrap_or(wanted);
    let mut scored: Vec<(f64, String)> = ws
        .walk_names(WALK_LIMIT, exclude)
        .into_iter()
        .filter_map(|name| {
            let base = name.rsplit('/').next().unwrap_or(&name);
            let whole = distance(wanted, &name);
            let leaf = distance(wanted_base, base) + 0.5 * distance_dirs(wanted, &name);
            let score = whole.min(leaf);
            (score <= 0.45).then_some((score, name))
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(MAX_NAMES)
        .map(|(_, name)| name)
        .collect()
}

/// Edit distance scaled to 0..=1 by the longer string.
fn distance(a: &str, b: &str) -> f64 {
    let longest = a.chars().count().max(b.chars().count()).max(1);
    #[allow(clippy::cast_precision_loss)] // Path lengths are far below 2^52.
    let d = strsim::osa_distance(a, b) as f64 / longest as f64;
    d
}

fn distance_dirs(a: &str, b: &str) -> f64 {
    let dir = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
    distance(&dir(a), &dir(b))
}

#[cfg(test)]
mod tests {
    use super::distance;

    #[test]
    fn transposition_is_close() {
        assert!(distance("scr/main.rs", "src/main.rs") < 0.2);
        assert!(distance("a", "zzzzzz") > 0.8);
    }
}
