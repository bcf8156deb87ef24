//! Link the `stitch` binary as a position-dependent executable on Linux with glibc, so a
//! call starts without applying the ~14,000 relative relocations a PIE needs at every
//! start (132 remain). A per-call tool lives or dies by its start-up, and this makes the
//! binary that `cargo install --path .`, `cargo build --release` and `cargo run` give the
//! fast one, with no pinned target. (A fully static binary needs `crt-static`, a codegen
//! flag no build script can set and that proc-macros refuse without `--target`: that is
//! `cargo release-static`.) Elsewhere (macOS, FreeBSD, musl) the platform's default
//! linking is kept.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=STITCH_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // `STITCH_PIE=1` keeps the default (PIE) linking, for comparison.
    let pie = std::env::var_os("STITCH_PIE").is_some_and(|v| v == "1");
    if os == "linux" && env == "gnu" && !pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        // The unwinder linked in from libgcc_eh.a (as a static build's is), so that no
        // libgcc_s.so is looked up, mapped and relocated at every start: libc is then the
        // only library loaded. `--as-needed` (rustc's default) drops libgcc_s.
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
}
