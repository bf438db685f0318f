//! Every destruction mode of `wasm opt`, for the harnesses that run its
//! output (`wasmi_diff.rs`, `node.rs`).

use ssakit::destruct::DestructOptions;
use ssakit::opt::Pass;
use ssakit_wasm::rewrite::OptOptions;

/// Split and coalesce on and off, after `copy-prop,const-prop,dce`; and
/// the chapter's conventional destruction, without passes (copy
/// propagation can leave SSA that is not conventional).
pub fn modes() -> Vec<(&'static str, OptOptions)> {
    let passes = Pass::parse("copy-prop,const-prop,dce").unwrap();
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
                passes: passes.clone(),
                destruct: DestructOptions {
                    split,
                    coalesce,
                    conventional: false,
                },
                ..Default::default()
            },
        ));
    }
    out.push((
        "conventional",
        OptOptions {
            destruct: DestructOptions {
                conventional: true,
                ..Default::default()
            },
            ..Default::default()
        },
    ));
    out
}
