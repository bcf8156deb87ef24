//! Text primitives for `stitch`: line endings, snippet matching, near-miss candidates and bounded diffs, all pure functions over in-memory text.

pub mod applied;
pub mod candidates;
pub mod carry;
pub mod diff;
pub mod lines;
pub mod matching;
pub mod normal;
pub mod similarity;
