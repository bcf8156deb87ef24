//! The syntax gate's bound on parse time: a parser that gives up once the calling thread
//! has spent its budget of CPU time on the check (`maxGateMillis`), so that no file makes
//! a change wait on its parse for long. CPU time, not wall time: a busy machine's queue
//! does not cut a parse short. The wall clock is read on the parser's own progress
//! checks, and the thread's CPU time only when the wall says the budget could be spent.

use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, Parser, Tree};

/// A parser for one language with the time it may still spend.
pub(super) struct Bounded {
    parser: Parser,
    budget: Duration,
    cpu_start: Duration,
    /// No look at the CPU clock before this instant: CPU time cannot pass faster than the
    /// wall's.
    next_look: Instant,
    /// The budget ran out (a parse was cut short).
    spent: bool,
}

impl Bounded {
    /// A parser of `grammar` with `budget` of CPU time for all its parses; `None` when
    /// the grammar does not load.
    pub(super) fn new(grammar: &tree_sitter::Language, budget: Duration) -> Option<Bounded> {
        let mut parser = Parser::new();
        parser.set_language(grammar).ok()?;
        Some(Bounded {
            parser,
            budget,
            cpu_start: crate::platform::thread_cpu_time(),
            next_look: Instant::now() + budget,
            spent: false,
        })
    }

    /// Whether a parse was cut short by the budget.
    pub(super) fn spent(&self) -> bool {
        self.spent
    }

    /// `text` parsed (incrementally from `old`, an edited tree of the text before);
    /// `None` when the budget ran out or the parser gave up.
    pub(super) fn parse(&mut self, text: &[u8], old: Option<&Tree>) -> Option<Tree> {
        if self.spent {
            return None;
        }
        let Bounded {
            parser,
            budget,
            cpu_start,
            next_look,
            spent,
        } = self;
        let mut progress = |_: &tree_sitter::ParseState| {
            let now = Instant::now();
            if now < *next_look {
                return false;
            }
            let used = crate::platform::thread_cpu_time().saturating_sub(*cpu_start);
            if used >= *budget {
                *spent = true;
                return true;
            }
            *next_look = now + budget.saturating_sub(used);
            false
        };
        let options = ParseOptions::new().progress_callback(&mut progress);
        let mut read = |at: usize, _| text.get(at..).unwrap_or_default();
        let tree = parser.parse_with_options(&mut read, old, Some(options));
        if tree.is_none() {
            // A parse given up on resumes where it stopped unless the parser is reset.
            parser.reset();
        }
        tree
    }
}
