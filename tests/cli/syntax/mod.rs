//! The syntax gate (SPEC §4 "Syntax gate"): per language, by config, with the override
//! and on a dry run; write, edit, apply and undo; by flags, JSON and MCP.

mod bounds;
mod languages;
mod modes;
mod regions;
