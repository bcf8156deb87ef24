//! Reverting an entry, planned for undo: the steps that take an entry back ([`plan`]),
//! and for a file that moved on since, the three-way merge that takes back only the
//! change's lines ([`merge`]). The tool (`tool::undo`) runs them through the pipeline.

pub mod merge;
pub mod plan;
