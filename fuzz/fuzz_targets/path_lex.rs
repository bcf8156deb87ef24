//! Fuzzes `stitch::workspace::path::lex`: whatever a caller writes, a path lexed as
//! inside the root is made of plain names (no `.`, `..`, `/`, NUL or empty name, none
//! longer than 255 bytes), lexes again to itself, and an escape is only ever reported
//! for an absolute path or one that uses `..`.

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use stitch::workspace::path::{join, lex, Lexed, MAX_NAME_BYTES, MAX_PATH_BYTES};

fuzz_target!(|raw: &str| {
    let roots = [Path::new("/ws"), Path::new("/real/ws/")];
    match lex(raw, &roots) {
        Lexed::Inside {
            components,
            trailing_slash,
        } => {
            assert!(!raw.is_empty() && raw.len() <= MAX_PATH_BYTES);
            assert!(!raw.contains('\0') && !raw.contains('\\'));
            for name in &components {
                assert!(!name.is_empty() && name != "." && name != "..");
                assert!(!name.contains('/') && name.len() <= MAX_NAME_BYTES);
            }
            if raw.starts_with('/') {
                assert!(
                    raw == "/ws"
                        || raw.starts_with("/ws/")
                        || raw == "/real/ws"
                        || raw.starts_with("/real/ws/"),
                    "an absolute path outside the roots lexed as inside: {raw:?}"
                );
            }
            assert_eq!(trailing_slash, raw.len() > 1 && raw.ends_with('/'));
            // The normalised spelling is a fixed point.
            match lex(&join(&components), &roots) {
                Lexed::Inside {
                    components: again, ..
                } => assert_eq!(again, components),
                other => panic!("{raw:?} normalised to a path that lexes as {other:?}"),
            }
        }
        Lexed::Outside => assert!(
            raw.starts_with('/') || raw.split('/').any(|c| c == ".."),
            "{raw:?} is outside without being absolute or using `..`"
        ),
        Lexed::Invalid(_) => {}
    }
});
