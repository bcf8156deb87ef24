//! The `stitch` binary: everything lives in the library; this only hands over the arguments.

fn main() -> std::process::ExitCode {
    stitch::run(std::env::args_os())
}
