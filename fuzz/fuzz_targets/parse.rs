//! Arbitrary bytes through the `.ssa` parser, diagnostics and printer.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    match ssakit::text::parse(src) {
        Ok(p) => {
            let printed = ssakit::text::print_module(&p.module);
            let again = ssakit::text::parse_module(&printed).expect("printed text parses");
            assert_eq!(again, p.module, "print then parse changes the module");
            for f in &p.module.functions {
                let _ = ssakit::verify::verify(f);
            }
        }
        Err(d) => {
            assert!(d.span.start <= src.len() && d.span.end <= src.len(), "span out of bounds");
            let _ = d.render("fuzz", src);
        }
    }
});
