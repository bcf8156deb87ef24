//! How the binary under test was linked (build.rs): on Linux with glibc, static where the C
//! toolchain has glibc's static archives, else position-dependent and dynamic; never a PIE
//! there, so a call starts without applying a PIE's relocations.

/// A program header that names the dynamic loader.
const PT_INTERP: u32 = 3;

/// The ELF header's type and whether a program header asks for an interpreter (the
/// dynamic loader), read from the file's first bytes.
fn elf_facts(path: &std::path::Path) -> (u16, bool) {
    let bytes = std::fs::read(path).expect("the binary is readable");
    assert_eq!(&bytes[..4], b"\x7fELF", "an ELF file");
    assert_eq!(bytes[4], 2, "64-bit ELF");
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let kind = u16_at(16);
    let phoff = usize::try_from(u64_at(32)).expect("program headers within the file");
    let (phentsize, phnum) = (usize::from(u16_at(54)), u16_at(56));
    let interp = (0..usize::from(phnum)).any(|i| {
        let at = phoff + i * phentsize;
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) == PT_INTERP
    });
    (kind, interp)
}

/// Whether the C compiler finds every static archive build.rs needs for a static link:
/// glibc's libraries the standard library names, and libgcc's.
fn static_archives() -> bool {
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let found = |name: &str| {
        let Ok(out) = std::process::Command::new(&cc)
            .arg(format!("-print-file-name={name}"))
            .output()
        else {
            return false;
        };
        let path = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        path.is_absolute() && path.is_file()
    };
    ["c", "gcc", "gcc_eh", "util", "rt", "pthread", "m", "dl"]
        .iter()
        .all(|name| found(&format!("lib{name}.a")))
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu", target_endian = "little"))]
fn the_binary_is_static_where_glibc_archives_are_installed_and_never_a_pie() {
    const ET_EXEC: u16 = 2;
    let (kind, interp) = elf_facts(std::path::Path::new(env!("CARGO_BIN_EXE_stitch")));
    match std::env::var("STITCH_LINK").ok().as_deref() {
        Some("pie") => return,
        Some("dynamic") => assert!(interp, "STITCH_LINK=dynamic links dynamic"),
        _ => assert_eq!(
            interp,
            !static_archives(),
            "static exactly where the static archives are installed (interpreter: {interp})"
        ),
    }
    assert_eq!(
        kind, ET_EXEC,
        "position-dependent (ET_EXEC), not a PIE (ET_DYN)"
    );
}
