//! Every destruction mode of `wasm opt`, for the harnesses that run its
//! output (`wasmi_diff.rs`, `node.rs`).

use ssakit::construct::{self, Flavor};
use ssakit::destruct::DestructOptions;
use ssakit::opt::Pass;
use ssakit_wasm::rewrite::OptOptions;

/// Split and coalesce on and off, after `copy-prop,const-prop,dce`; and
/// the chapter's conventional destruction, without passes (copy
/// propagation can leave SSA that is not conventional). All on minimal
/// SSA, the chapter's flavour and the one with the most phis to destruct
/// (`OptOptions::default()` is pruned).
pub fn modes() -> Vec<(&'static str, OptOptions)> {
    let passes = Pass::parse("copy-prop,const-prop,dce").unwrap();
    let minimal = construct::Options {
        flavor: Flavor::Minimal,
        ..Default::default()
    };
    let mut out = Vec::new();
    for (name, split, coalesce) in [
        ("split+coalesce", true, true),
        ("split", true, false),
        ("coalesce", false, true),
        ("neither", false, false),
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
            },
        ));
    }
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
