//! What taking a change back does, worked out from its entry alone: each file's version
//! after the change (which must be what is there now), and the steps that bring every
//! file back to its version before — taken in the reverse order of the change.

use std::collections::BTreeMap;

use super::super::journal::{entry::link_version, FileRecord};

/// One step of an undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The file at `from` goes back to `to`, where it was moved from — as the kept version
    /// `sha` when the move also changed its content (then `from` is removed), else renamed.
    MoveBack {
        from: String,
        to: String,
        sha: Option<String>,
        /// The target, when what moves back is a symbolic link.
        link: Option<String>,
    },
    /// The kept version `sha` is put at `path` (replacing what is there, or creating it).
    Put { path: String, sha: String },
    /// A symbolic link to `target` is made at `path` (the change removed it).
    Link { path: String, target: String },
    /// The file at `path` is removed (it was created by the change) — or, with `link`,
    /// the symbolic link to that target.
    Remove { path: String, link: Option<String> },
}

/// The target of `file`'s link, when its version `version` is that link.
fn link_at(file: &FileRecord, version: &str) -> Option<String> {
    file.link
        .clone()
        .filter(|target| link_version(target) == version)
}

/// Each path the change touched, with its version after the change (`None`: absent).
#[must_use]
pub fn after(files: &[FileRecord]) -> BTreeMap<String, Option<String>> {
    let mut after = BTreeMap::new();
    for file in files {
        for (path, sha) in file.states_after() {
            after.insert(path.to_owned(), sha.map(str::to_owned));
        }
    }
    after
}

/// The steps that take the change of `files` back, in order.
#[must_use]
pub fn steps(files: &[FileRecord]) -> Vec<Step> {
    let mut steps = Vec::new();
    for file in files.iter().rev() {
        if let Some(from) = &file.from {
            steps.push(Step::MoveBack {
                from: file.path.clone(),
                to: from.clone(),
                sha: file.from_before.clone(),
                link: file.after.as_deref().and_then(|v| link_at(file, v)),
            });
            if let Some(before) = &file.before {
                steps.push(Step::Put {
                    path: file.path.clone(),
                    sha: before.clone(),
                });
            }
            continue;
        }
        steps.push(match &file.before {
            Some(before) => match link_at(file, before) {
                Some(target) => Step::Link {
                    path: file.path.clone(),
                    target,
                },
                None => Step::Put {
                    path: file.path.clone(),
                    sha: before.clone(),
                },
            },
            None => Step::Remove {
                path: file.path.clone(),
                link: file.after.as_deref().and_then(|v| link_at(file, v)),
            },
        });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::{after, steps, Step};
    use crate::engine::journal::FileRecord;

    fn record(
        path: &str,
        from: Option<&str>,
        before: Option<&str>,
        after: Option<&str>,
    ) -> FileRecord {
        FileRecord {
            path: path.into(),
            from: from.map(Into::into),
            before: before.map(Into::into),
            after: after.map(Into::into),
            from_before: None,
            bytes: 0,
            unfinished: false,
            mode: None,
            link: None,
        }
    }

    #[test]
    fn a_move_over_a_file_goes_back_and_brings_the_file_back() {
        let files = [record("to", Some("from"), Some("old"), Some("moved"))];
        assert_eq!(
            steps(&files),
            [
                Step::MoveBack {
                    from: "to".into(),
                    to: "from".into(),
                    sha: None,
                    link: None,
                },
                Step::Put {
                    path: "to".into(),
                    sha: "old".into()
                },
            ]
        );
        let after = after(&files);
        assert_eq!(after["to"].as_deref(), Some("moved"));
        assert_eq!(after["from"], None);
    }

    #[test]
    fn a_move_that_edited_goes_back_as_the_version_before() {
        let mut moved = record("to", Some("from"), None, Some("edited"));
        moved.from_before = Some("old".into());
        assert_eq!(
            steps(&[moved]),
            [Step::MoveBack {
                from: "to".into(),
                to: "from".into(),
                sha: Some("old".into()),
                link: None,
            }]
        );
    }

    #[test]
    fn a_created_file_is_removed_and_a_deleted_one_put_back() {
        assert_eq!(
            steps(&[record("a", None, None, Some("x"))]),
            [Step::Remove {
                path: "a".into(),
                link: None
            }]
        );
        assert_eq!(
            steps(&[record("a", None, Some("x"), None)]),
            [Step::Put {
                path: "a".into(),
                sha: "x".into()
            }]
        );
    }
}
