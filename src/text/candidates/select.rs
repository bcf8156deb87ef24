//! The final choice of candidates: non-overlapping, best first, and within each region
//! the window that covers the whole passage the snippet was meant to match.

use super::Candidate;

/// A candidate with what ranks it beside the others of its region.
#[derive(Debug, Clone)]
pub(super) struct Scored {
    pub candidate: Candidate,
    /// Whether the passage is the snippet with whitespace, line breaks and continuation
    /// `\`s set aside: a line the caller cut in two, or two it read as one.
    pub flat: bool,
    /// How well the passage's first and last lines match the snippet's, in 0..=1.
    pub ends: f64,
    /// The similarity of the exact texts, whitespace included, to break ties between
    /// passages that only differ in whitespace.
    pub raw: f64,
}

/// The best `max` candidates, best first, skipping any that overlap a better one so each passage is reported once.
///
/// The best remaining passage names a region; of the windows overlapping it, the one that is the snippet with line
/// breaks set aside (see [`Scored::flat`]) is chosen, else the one whose ends line up best with the snippet's (a near
/// miss that drops or adds a line scores lower than a window cut short, yet only the whole passage repairs the edit),
/// then the more similar, the closer in whitespace, the closer in line count to the snippet's `lines`, the earlier.
/// Passages that are the snippet with line breaks set aside rank first. The chosen are reported so, then by
/// similarity, so the order is deterministic.
pub(super) fn select(mut scored: Vec<Scored>, lines: usize, max: usize) -> Vec<Candidate> {
    let off = |c: &Candidate| (c.end_line + 1 - c.start_line).abs_diff(lines);
    let overlap =
        |a: &Candidate, b: &Candidate| a.start_line <= b.end_line && b.start_line <= a.end_line;
    let rank = |a: &Scored, b: &Scored| {
        b.flat
            .cmp(&a.flat)
            .then(b.candidate.similarity.total_cmp(&a.candidate.similarity))
            .then(b.raw.total_cmp(&a.raw))
            .then(off(&a.candidate).cmp(&off(&b.candidate)))
            .then(a.candidate.start_line.cmp(&b.candidate.start_line))
    };
    scored.sort_by(rank);
    let mut chosen: Vec<Scored> = Vec::new();
    let free =
        |chosen: &[Scored], s: &Scored| !chosen.iter().any(|c| overlap(&c.candidate, &s.candidate));
    while chosen.len() < max {
        let Some(leader) = scored.iter().find(|s| free(&chosen, s)) else {
            break;
        };
        let pick = scored
            .iter()
            .filter(|s| overlap(&s.candidate, &leader.candidate) && free(&chosen, s))
            .min_by(|a, b| {
                let ends = |s: &Scored| (s.ends * 100.0).round();
                b.flat
                    .cmp(&a.flat)
                    .then(ends(b).total_cmp(&ends(a)))
                    .then(rank(a, b))
            })
            .unwrap_or(leader)
            .clone();
        chosen.push(pick);
    }
    chosen.sort_by(rank);
    chosen.into_iter().map(|s| s.candidate).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::candidates::Difference;

    fn scored(start: usize, end: usize, similarity: f64, ends: f64) -> Scored {
        Scored {
            candidate: Candidate {
                start_line: start,
                end_line: end,
                text: String::new(),
                similarity,
                difference: Difference::Content,
            },
            flat: false,
            ends,
            raw: similarity,
        }
    }

    #[test]
    fn within_a_region_the_window_whose_ends_line_up_wins() {
        // A window cut short of a dropped line is the more similar; the whole passage,
        // whose last line is the snippet's, is the one offered.
        let found = select(
            vec![
                scored(10, 11, 0.95, 0.5),
                scored(10, 12, 0.8, 1.0),
                scored(40, 41, 0.7, 1.0),
            ],
            2,
            3,
        );
        let spans: Vec<_> = found.iter().map(|c| (c.start_line, c.end_line)).collect();
        assert_eq!(spans, [(10, 12), (40, 41)]);
    }
}
