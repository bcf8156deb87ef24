//! Link the `stitch` binary the way a per-call tool starts fastest, in the build that
//! `cargo install --path .`, `cargo build --release` and `cargo run` give, with no pinned
//! target. On Linux with glibc it is linked static where the C toolchain has glibc's
//! static archives (Debian's libc6-dev has them; Fedora's glibc-static): no dynamic loader,
//! no libraries mapped and relocated at every start. Where they are missing it is linked
//! position-dependent and dynamic against libc alone (132 relocations at start instead of
//! a PIE's ~14,000). Elsewhere (macOS, FreeBSD, musl) the platform's default is kept.
//!
//! rustc's own static switch, `crt-static`, is a codegen flag no build script can set (and,
//! set for the host without `--target`, proc-macros refuse it). What it changes is the
//! link, and that a build script can do for the binary alone: `-static` picks the static
//! start files and no dynamic loader, and the libraries the standard library names
//! (`-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc`, asked for dynamic) are found first in a
//! directory of this build's own where each is a linker script naming the static archive.
//! A cross build (another target than the machine's) is linked dynamic as above.
//! `STITCH_LINK=dynamic` keeps the position-dependent dynamic link, `STITCH_LINK=pie` the
//! platform's default, for comparison.

// clippy.toml's bans on `std::fs` guard the product's containment in the workspace; a
// build script writes only its own OUT_DIR.
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=STITCH_LINK");
    println!("cargo:rerun-if-env-changed=CC");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let link = std::env::var("STITCH_LINK").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    // Already static by rustc's own switch (`cargo release-static`): nothing to add.
    let crt_static = features.split(',').any(|f| f == "crt-static");
    if os != "linux" || env != "gnu" || link == "pie" || crt_static {
        return;
    }
    // Static only for the machine it is built on: a cross build's archives are its own
    // toolchain's, which `cc` here does not know.
    let native = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    if native && link != "dynamic" {
        if let Some(dir) = static_libraries() {
            println!("cargo:rustc-link-arg-bins=-static");
            println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
            return;
        }
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    // The unwinder linked in from libgcc_eh.a (as a static build's is), so that no
    // libgcc_s.so is looked up, mapped and relocated at every start: libc is then the
    // only library loaded. `--as-needed` (rustc's default) drops libgcc_s.
    println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
}

/// A directory of linker scripts that stand for the libraries the standard library links
/// dynamically, each naming the C toolchain's static archives; `None` where one of those
/// archives is missing (the link then stays dynamic).
fn static_libraries() -> Option<PathBuf> {
    let archive = |name: &str| archive(name).map(|path| format!("\"{}\"", path.display()));
    let (c, gcc, gcc_eh) = (
        archive("libc.a")?,
        archive("libgcc.a")?,
        archive("libgcc_eh.a")?,
    );
    let mut scripts = vec![
        // libgcc_s.so is the unwinder and libgcc's helpers, both in these archives.
        ("gcc_s", format!("INPUT ( {gcc_eh} {gcc} )")),
        // libc.a, libgcc_eh.a and libgcc.a refer to each other: one group.
        ("c", format!("GROUP ( {c} {gcc_eh} {gcc} )")),
    ];
    for name in ["util", "rt", "pthread", "m", "dl"] {
        scripts.push((
            name,
            format!("INPUT ( {} )", archive(&format!("lib{name}.a"))?),
        ));
    }
    let dir = PathBuf::from(std::env::var_os("OUT_DIR")?).join("static-libs");
    std::fs::create_dir_all(&dir).ok()?;
    for (name, script) in scripts {
        std::fs::write(dir.join(format!("lib{name}.a")), format!("{script}\n")).ok()?;
    }
    Some(dir)
}

/// Where the C compiler the link runs through finds the archive `name`, if anywhere.
fn archive(name: &str) -> Option<PathBuf> {
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let out = Command::new(cc)
        .arg(format!("-print-file-name={name}"))
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // Not found, it prints the bare name back.
    (out.status.success() && path.is_absolute() && Path::new(&path).is_file()).then_some(path)
}
