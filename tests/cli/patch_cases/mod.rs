//! apply_patch against fixture folders, one per case, as Codex's apply-patch tests keep
//! them: `patch_cases/<case>/input/` (the tree before; absent for an empty one), `patch`
//! (the text applied, as `stitch apply --from -` reads it), and either `expected/` (the
//! tree after) or `refusal` (the code it must be refused with, the tree left as it was).
//! Every case is also run as a dry run first, which must change nothing and answer the
//! same, and every case that applies is then undone, which must give the input back.
//! A case is added by adding a folder; the runner names each failing case.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{tree, TestWorkspace};

/// The folder holding one sub-folder per case.
fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/patch_cases")
}

/// The tree below `dir` (nothing when it does not exist), without stitch's own state.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut map = tree(dir);
    map.retain(|path, _| !path.starts_with(".stitch"));
    map
}

/// Copies the tree below `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    let Ok(entries) = fs::read_dir(from) else {
        return;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// One case run whole; `Err` says what went wrong, naming the case.
fn run_case(case: &Path) -> Result<(), String> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let patch = fs::read(case.join("patch")).map_err(|e| format!("{name}: no patch: {e}"))?;
    let refusal = fs::read_to_string(case.join("refusal"))
        .ok()
        .map(|code| code.trim().to_owned());
    let ws = TestWorkspace::new();
    copy_tree(&case.join("input"), &ws.root());
    let before = snapshot(&ws.root());
    let expected = match &refusal {
        Some(_) => before.clone(),
        None => snapshot(&case.join("expected")),
    };
    if refusal.is_none() && expected.is_empty() && !case.join("expected").is_dir() {
        return Err(format!("{name}: neither expected/ nor refusal"));
    }

    let dry = ws.run_with_stdin(&["apply", "--from", "-", "--dry-run"], patch.clone());
    if snapshot(&ws.root()) != before {
        return Err(format!("{name}: the dry run changed the tree"));
    }
    let real = ws.run_with_stdin(&["apply", "--from", "-"], patch);
    let answer = |run: &crate::support::Run| match run.envelope["ok"].as_bool() {
        Some(true) => "ok".to_owned(),
        _ => run.envelope["error"].as_str().unwrap_or("?").to_owned(),
    };
    let want = refusal.clone().unwrap_or_else(|| "ok".to_owned());
    for (which, run) in [("dry run", &dry), ("apply", &real)] {
        if answer(run) != want {
            return Err(format!(
                "{name}: the {which} answered {} where {want} was expected: {}",
                answer(run),
                run.stdout
            ));
        }
    }
    if refusal.is_some() {
        real.refused(&want);
    } else {
        real.ok();
    }
    let after = snapshot(&ws.root());
    if after != expected {
        let differing: Vec<&PathBuf> = after
            .keys()
            .chain(expected.keys())
            .filter(|path| after.get(*path) != expected.get(*path))
            .collect();
        return Err(format!(
            "{name}: the tree after differs from expected/ at {differing:?}"
        ));
    }
    if refusal.is_none() {
        ws.run(&["undo"]).ok();
        if snapshot(&ws.root()) != before {
            return Err(format!("{name}: undo did not give the input back"));
        }
    }
    Ok(())
}

#[test]
fn every_fixture_case_applies_or_is_refused_as_its_folder_says() {
    let mut cases: Vec<PathBuf> = fs::read_dir(cases_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "the fixture cases are missing");
    let refused = cases.iter().filter(|c| c.join("refusal").exists()).count();
    assert!(refused >= 5 && refused < cases.len(), "both kinds of case");
    let failures: Vec<String> = cases.iter().filter_map(|c| run_case(c).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
