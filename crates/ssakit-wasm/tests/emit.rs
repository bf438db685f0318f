//! The emitter and the module round trip: every output validates.

use ssakit_wasm::rewrite::{optimize, OptOptions};

fn tour() -> Vec<u8> {
    let src = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/wasm_tour.wat"
    ))
    .unwrap();
    ssakit_wasm::module::to_binary(&src).unwrap().into_owned()
}

#[test]
fn tour_round_trips() {
    optimize(&tour(), &OptOptions::default()).unwrap();
}
