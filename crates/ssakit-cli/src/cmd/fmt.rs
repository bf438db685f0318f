//! `ssakit fmt`: parse and print back in canonical form, comments kept
//! ([`ssakit::text::comments`]).

use crate::exit::Failed;
use crate::out::OutputArg;

/// Arguments of `ssakit fmt`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    #[command(flatten)]
    pub emit: crate::format::EmitArg,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, input) = crate::format::open(&a.input, &a.output)?;
    // `#` starts a comment and is no other token: without one, the
    // canonical text is all there is, printed in parallel and in pieces.
    let comments = !input.is_bril() && input.src.text.as_bytes().contains(&b'#');
    if !comments || a.emit.emit != crate::format::Format::Ssa {
        crate::format::emit(&input.parsed.module, &a.emit, &mut out)?;
    } else {
        // .ssa to .ssa: the source's comments are kept.
        let (src, p) = (&input.src, &input.parsed);
        match ssakit::text::print_module_with_comments(&src.text, &p.module) {
            Ok(text) => {
                out.write_str(&text)?;
                crate::input::skip_freeing(text);
            }
            Err(d) => {
                crate::input::report(src, &d);
                return Err(Failed(crate::exit::INPUT));
            }
        }
    }
    out.finish()?;
    crate::input::skip_freeing(input);
    Ok(())
}
