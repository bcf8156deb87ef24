//! The catalogue checked against the command line it is served from: each tool of the
//! registry has its subcommand, both its names, a schema, and its entry in the names
//! leaf. Here, above both, rather than in the registry, which must not import the front
//! end.

use crate::tool::registry::{find, names as every_name, TOOLS};

/// Each entry is reachable by both its names, has a subcommand on the command line,
/// and a schema whose properties are the fields its request parses.
#[test]
fn every_tool_is_wired_everywhere() {
    let command = super::command();
    for tool in TOOLS {
        assert_eq!(
            crate::names::command(tool.name),
            Some(tool.command),
            "{}",
            tool.name
        );
        assert_eq!(find(tool.name).map(|t| t.command), Some(tool.command));
        // A command two tools share (`read`) finds the first; the other is reached
        // through it by its arguments.
        assert_eq!(find(tool.command).map(|t| t.command), Some(tool.command));
        assert!(
            command.find_subcommand(tool.command).is_some(),
            "{} has no subcommand",
            tool.command
        );
        let schema = (tool.schema)();
        assert!(schema["properties"].is_object(), "{}", tool.name);
        assert_eq!((tool.output)()["type"], "object", "{}", tool.name);
        assert!(!tool.title.is_empty() && !tool.description.is_empty());
        assert!(
            !(tool.annotations.read_only && tool.annotations.destructive),
            "{}",
            tool.name
        );
    }
    let all: Vec<&str> = every_name().collect();
    assert!(all.contains(&"read") && all.contains(&"search_files"));
    let mut unique = all.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), all.len(), "no name twice: {all:?}");
}
