//! The insides of the blocks of the items a region takes in either side of a change,
//! left out of its excerpts. Those items are there for their edges, where the change
//! meets them (a decorator before it, a comma after it, a construct it leaves open); the
//! lines inside their blocks are unchanged, and cost a parse as long as the change's own
//! item. So a block of such an item, a line at some indentation that ends in `{`, the
//! deeper lines after it and a line at the same indentation that begins with `}` (or a
//! line, deeper ones, and a closing word such as Ruby's `end`), is kept as its opening
//! and closing lines alone (`fn f() {` `}`, `def f` `end`), in both excerpts.
//!
//! Only the lines inside go; the lines that open and close the block stay. An empty
//! block is valid wherever the block was in the languages this applies to; where a block
//! of the item was not what the indentation said, the excerpt's parse (or the same
//! excerpt of the file as it was) fails and the whole result is parsed, as before.

use std::cmp::Ordering;
use std::ops::Range;

use super::{ChangedRun, Region, Widen};
use crate::syntax::layout::compare;

impl<'t> Widen<'_, 't> {
    /// The runs of lines of `region` inside the blocks of the items either side of the
    /// change, in order: none of them in the change's items or in `hunks`.
    pub(super) fn insides(&self, region: &Region<'t>, hunks: &[ChangedRun]) -> Vec<Range<usize>> {
        let lines = self.lines;
        let mut insides = Vec::new();
        if !self.layout.empty_blocks {
            return insides;
        }
        let kept = |i: usize| {
            region.changed.iter().any(|c| c.contains(&i))
                || hunks.iter().any(|h| h.new.contains(&i))
        };
        let end = region.lines.end;
        let mut i = region.lines.start;
        while i < end {
            let opens = lines.content(i);
            if opens.is_empty() || lines.blank(i) || kept(i) {
                i += 1;
                continue;
            }
            let indent = lines.indent(i);
            let deeper = |j: usize| {
                compare(lines.indent(j), indent) == Some(Ordering::Greater) || lines.blank(j)
            };
            let mut close = i + 1;
            while close < end && !kept(close) && deeper(close) {
                close += 1;
            }
            let closes = close < end
                && !kept(close)
                && !lines.blank(close)
                && lines.indent(close) == indent
                && self.pair(opens, lines.content(close));
            // Inside lines that begin in a comment or a string the opening line leaves
            // open are not a block's.
            if closes && close > i + 1 && !lines.hidden(i + 1) {
                insides.push(i + 1..close);
                // The closing line may open the next block (`} else {`).
                i = close;
            } else {
                i += 1;
            }
        }
        insides
    }

    /// Whether lines `opens` and `closes` (at the same indentation, the lines between
    /// deeper) open and close a block: `{` and `}`, or any line and a closing word
    /// (Ruby's `end`).
    fn pair(&self, opens: &[u8], closes: &[u8]) -> bool {
        (opens.ends_with(b"{") && closes.starts_with(b"}")) || self.layout.ends_block(closes)
    }
}
