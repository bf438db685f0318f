//! Every destruction mode of `wasm opt`, for the harnesses that run its
//! output (`wasmi_diff.rs`, `node.rs`).

use ssakit::construct::{self, Flavor};
use ssakit::destruct::DestructOptions;
use ssakit::opt::Pass;
use ssakit_wasm::rewrite::{OptLevel, OptOptions};

/// Split and coalesce on and off, after `copy-prop,const-prop,dce` and
/// without passes (`/none`); and the chapter's conventional destruction, without
/// passes (copy
/// propagation can leave SSA that is not conventional). All on minimal
/// SSA, the chapter's flavour and the one with the most phis to destruct
/// (`OptOptions::default()` is pruned); and `wasm opt`'s default, `-O1`.
pub fn modes() -> Vec<(&'static str, OptOptions)> {
    let passes = Pass::parse("copy-prop,const-prop,dce").unwrap();
    // Without passes, minimal SSA's dead phis reach destruction and the
    // emitter: the copies they leave must vanish without running anything
    // twice (a call once emitted twice was found this way).
    let none: Vec<Pass> = Vec::new();
    let minimal = construct::Options {
        flavor: Flavor::Minimal,
        ..Default::default()
    };
    let mut out = Vec::new();
    for (name, split, coalesce, passes) in [
        ("split+coalesce", true, true, &passes),
        ("split", true, false, &passes),
        ("coalesce", false, true, &passes),
        ("neither", false, false, &passes),
        ("split+coalesce/none", true, true, &none),
        ("split/none", true, false, &none),
        ("coalesce/none", false, true, &none),
        ("neither/none", false, false, &none),
    ] {
        out.push((
            name,
            OptOptions {
                construct: minimal,
                passes: passes.clone(),
                destruct: DestructOptions {
                    split,
                    coalesce,
                    conventional: false,
                },
                only: None,
                merge_duplicates: false,
                max_copies: ssakit_wasm::rewrite::MAX_COPIES,
            },
        ));
    }
    // What `ssakit wasm opt` does without options: `-O1`, on pruned SSA.
    out.push(("-O1", OptOptions::at(OptLevel::O1)));
    out.push((
        "conventional",
        OptOptions {
            construct: minimal,
            destruct: DestructOptions {
                conventional: true,
                ..Default::default()
            },
            ..Default::default()
        },
    ));
    out
}
