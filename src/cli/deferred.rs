//! A subcommand's arguments built only when the command line names that subcommand.
//!
//! clap builds every subcommand's arguments before it parses: a call of one tool paid to
//! build all eleven (a sixth of a small call's work). [`Deferred`] hands clap the
//! arguments as a deferred builder ([`clap::Command::defer`]) instead, run when the parser
//! enters the subcommand, or when help, completions or the man pages need it all.

use clap::builder::{Resettable, StyledStr};
use clap::{ArgMatches, Args, Command, FromArgMatches};
use serde::{Serialize, Serializer};

/// `T`'s arguments, built on demand; otherwise `T` itself.
#[derive(Debug)]
pub struct Deferred<T>(pub T);

impl<T> std::ops::Deref for Deferred<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }
    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

impl<T: Args> Args for Deferred<T> {
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
    fn augment_args(cmd: Command) -> Command {
        cmd.defer(build::<T>)
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        cmd.defer(build::<T>)
    }
}

/// `T`'s arguments added to `cmd`, whose own about texts (the subcommand's, set after
/// this was deferred) stay: built in place, `T`'s doc comment would replace them.
fn build<T: Args>(cmd: Command) -> Command {
    let kept =
        |text: Option<&StyledStr>| text.cloned().map_or(Resettable::Reset, Resettable::Value);
    let (about, long_about) = (kept(cmd.get_about()), kept(cmd.get_long_about()));
    T::augment_args(cmd).about(about).long_about(long_about)
}

impl<T: Serialize> Serialize for Deferred<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}
