//! `docs/codes.md`, the reference of the refusal codes, generated from
//! `stitch::hint::codes` (each code's meaning and remedy) and the registry (which tools
//! return it), so the page and the code cannot drift apart.

use std::fmt::Write as _;

use stitch::hint::codes::{doc, exit_status, INTERNAL};
use stitch::refusal::Code;

/// Where the page lives, relative to the repository.
pub(super) const PATH: &str = "docs/codes.md";

/// The page, as Markdown.
pub(super) fn page() -> String {
    let mut out = String::new();
    out.push_str(
        "# Refusal codes\n\n\
         For anyone who reads an envelope: an agent builder mapping codes to recoveries, a \
         script author deciding what to retry, a reviewer checking what a refusal promises. \
         Generated from `src/hint/codes.rs` and the tool registry by \
         `STITCH_BLESS=1 cargo test --test cli -- generated::`; do not edit it by hand.\n\n\
         Every ordinary outcome is a refusal: `{\"ok\":false,\"error\":CODE,\"details\":\
         {\"message\":…},\"_hint\":…}`. Codes are API and never change once released; \
         messages are prose and may improve. The `_hint` of a refusal is the remedy below, \
         made concrete from the facts of the call and phrased in its dialect (flags for a \
         call by flags, fields for a call by JSON). See the [README](../README.md#the-envelope) \
         for the envelope.\n\n",
    );
    out.push_str("| code | exit status | returned by |\n|---|---:|---|\n");
    for code in Code::ALL {
        let name = code.as_str();
        let _ = writeln!(
            out,
            "| [`{name}`](#{}) | {} | {} |",
            name.to_lowercase(),
            exit_status(code),
            returned_by(code)
        );
    }
    out.push_str("| [`INTERNAL_SERVER_ERROR`](#internal_server_error) | 3 | any call |\n");
    for code in Code::ALL {
        let doc = doc(code);
        let _ = write!(
            out,
            "\n## {}\n\n{}\n\n**Remedy:** {}\n\n**Exit status:** {}. **Returned by:** {}.\n",
            code.as_str(),
            doc.when,
            doc.remedy
                .as_deref()
                .unwrap_or("none; no action of the caller can help."),
            exit_status(code),
            returned_by(code)
        );
    }
    let (when, remedy) = INTERNAL;
    let _ = write!(
        out,
        "\n## INTERNAL_SERVER_ERROR\n\n{when}\n\n**Remedy:** {remedy}\n\n**Exit status:** 3. \
         **Returned by:** any call.\n"
    );
    out
}

/// The tools the registry says may return `code`, or `any tool` when all of them may.
fn returned_by(code: Code) -> String {
    let tools = stitch::registry::TOOLS;
    let names: Vec<String> = tools
        .iter()
        .filter(|t| t.refusals.contains(&code))
        .map(|t| format!("`{}`", t.name))
        .collect();
    match names.len() {
        0 => "the command line (`config`, usage errors)".to_owned(),
        n if n == tools.len() => "any tool".to_owned(),
        _ => names.join(", "),
    }
}
