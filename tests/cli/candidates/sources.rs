//! The corpus's sources, split by source before any case over them was looked at: the
//! development half, looked at and tuned on, and the held-out half, only measured.

/// A file of the corpus: the name it is edited under, and its text.
pub(super) type Source = (&'static str, &'static str);

/// The development half: looked at, and the code tuned on it. `walkdir/dent.rs` was held
/// out until one of its failures was looked at (and fixed); it counts here since.
pub(super) const DEV: [Source; 20] = [
    (
        "walkdir/dent.rs",
        include_str!("corpus/dev/walkdir_dent.rs.txt"),
    ),
    (
        "anyhow/context.rs",
        include_str!("corpus/dev/anyhow_context.rs.txt"),
    ),
    (
        "globset/pathutil.rs",
        include_str!("corpus/dev/globset_pathutil.rs.txt"),
    ),
    (
        "clap_lex/lib.rs",
        include_str!("corpus/dev/clap_lex.rs.txt"),
    ),
    (
        "subtree/Makefile",
        include_str!("corpus/dev/subtree.Makefile.txt"),
    ),
    (
        ".github/workflows/rust.yml",
        include_str!("corpus/dev/ahash_rust.yml.txt"),
    ),
    ("init.d/dbus", include_str!("corpus/dev/dbus_init.sh.txt")),
    // Added to widen the corpus, split before any was looked at.
    (
        "init.d/hwclock.sh",
        include_str!("corpus/dev/hwclock.sh.txt"),
    ),
    (
        "init.d/x11-common",
        include_str!("corpus/dev/x11_common.sh.txt"),
    ),
    ("lib/cmd.py", include_str!("corpus/dev/cmd.py.txt")),
    (
        "either/iterator.rs",
        include_str!("corpus/dev/either_iterator.rs.txt"),
    ),
    // Added in a second widening, split before any was looked at: listed by type (Rust,
    // Python, Python with CRLF, Makefile, workflow, shell), within a type by name, and
    // dealt to the halves in turn, the first to this one.
    (
        "bytecount/lib.rs",
        include_str!("corpus/dev/bytecount_lib.rs.txt"),
    ),
    ("heck/lib.rs", include_str!("corpus/dev/heck_lib.rs.txt")),
    (
        "log/macros.rs",
        include_str!("corpus/dev/log_macros.rs.txt"),
    ),
    ("lib/netrc.py", include_str!("corpus/dev/netrc.py.txt")),
    ("lib/sched.py", include_str!("corpus/dev/sched.py.txt")),
    (
        "examples/oc.py",
        include_str!("corpus/dev/pyparsing_oc_crlf.py.txt"),
    ),
    (
        "pyenv/Makefile",
        include_str!("corpus/dev/pyenv.Makefile.txt"),
    ),
    (
        ".github/workflows/thiserror.yml",
        include_str!("corpus/dev/thiserror_ci.yml.txt"),
    ),
    ("init.d/procps", include_str!("corpus/dev/procps.sh.txt")),
];

/// The held-out half: only measured.
pub(super) const HELD_OUT: [Source; 18] = [
    (
        "lib/fnmatch.py",
        include_str!("corpus/held-out/fnmatch.py.txt"),
    ),
    (
        "lib/getopt.py",
        include_str!("corpus/held-out/getopt.py.txt"),
    ),
    (
        "same_file/lib.rs",
        include_str!("corpus/held-out/same_file.rs.txt"),
    ),
    (
        "docs/Makefile",
        include_str!("corpus/held-out/urllib3_docs.Makefile.txt"),
    ),
    (
        ".github/workflows/ci.yml",
        include_str!("corpus/held-out/itertools_ci.yml.txt"),
    ),
    (
        "examples/ebnf.py",
        include_str!("corpus/held-out/pyparsing_ebnf_crlf.py.txt"),
    ),
    (
        "bin/git-quiltimport",
        include_str!("corpus/held-out/git_quiltimport.sh.txt"),
    ),
    // Added to widen the corpus, split before any was looked at.
    (
        "init.d/postgresql",
        include_str!("corpus/held-out/postgresql.sh.txt"),
    ),
    ("lib/code.py", include_str!("corpus/held-out/code.py.txt")),
    (
        "fastrand/global_rng.rs",
        include_str!("corpus/held-out/fastrand_global_rng.rs.txt"),
    ),
    // Added in a second widening, split before any was looked at (see `DEV`).
    (
        "diffy/apply.rs",
        include_str!("corpus/held-out/diffy_apply.rs.txt"),
    ),
    (
        "ipnet/mask.rs",
        include_str!("corpus/held-out/ipnet_mask.rs.txt"),
    ),
    ("lib/glob.py", include_str!("corpus/held-out/glob.py.txt")),
    ("lib/queue.py", include_str!("corpus/held-out/queue.py.txt")),
    (
        "examples/gen_ctypes.py",
        include_str!("corpus/held-out/pyparsing_gen_ctypes_crlf.py.txt"),
    ),
    (
        "contacts/Makefile",
        include_str!("corpus/held-out/git_contacts.Makefile.txt"),
    ),
    (
        ".github/workflows/indexmap.yml",
        include_str!("corpus/held-out/indexmap_ci.yml.txt"),
    ),
    (
        "contrib/git-resurrect.sh",
        include_str!("corpus/held-out/git_resurrect.sh.txt"),
    ),
];
