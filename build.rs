//! The `chaff` binary is linked as a position-dependent executable on Linux: a position-independent one
//! has the dynamic loader apply some 32,000 relocations at every start, a page of the binary copied for
//! each page they touch, which was about a third of `chaff --version` and a millisecond of a process's
//! first page. Only the binary: tests, the library and the Python module are linked as before.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
