//! Corpus throughput: the functions of a module are independent, so the
//! transforming subcommands (`construct`, `opt`, `destruct`) work on them in
//! parallel with rayon and print them in parallel, keeping module order in
//! their output and in their reports (the first failing function, in module
//! order, is the one reported).

use crate::exit::Failed;
use crate::out::Out;
use rayon::prelude::*;
use ssakit::ir::{Function, Module};
use ssakit::timing::{self, PassTimes};

/// Runs `work` on every function, in parallel; results in module order,
/// each with the phases it timed ([`timing::collect`] on the thread that
/// ran it).
pub fn each_function<T: Send>(
    functions: &mut [Function],
    work: impl Fn(&mut Function) -> T + Sync + Send,
) -> Vec<(T, PassTimes)> {
    functions
        .par_iter_mut()
        .map(|f| timing::collect(|| work(f)))
        .collect()
}

/// Text printed in parallel at a time: the functions of a module are
/// printed in batches of about this many bytes, and a function longer than
/// this is printed alone, in pieces of [`PIECE`] bytes, so that printing
/// never holds the text of the whole module (on a million-block function,
/// as many bytes as the program, again).
const BATCH: usize = 8 << 20;
/// The pieces a long function is printed in.
const PIECE: usize = 1 << 20;

/// Writes the module to `out` exactly as [`ssakit::text::print_module`]
/// would, printing the functions in parallel (in batches of [`BATCH`]
/// bytes of text; a longer function alone, in pieces).
pub fn print_module(m: &Module, out: &mut Out) -> Result<(), Failed> {
    print_batched(m, BATCH, PIECE, |s| out.write_str(s))
}

/// [`print_module`] into any `sink`, with the batch and piece sizes given.
fn print_batched<E>(
    m: &Module,
    batch: usize,
    piece: usize,
    mut sink: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    sink(&ssakit::text::print_declarations(m))?;
    let fs = &m.functions;
    let mut next = 0;
    while next < fs.len() {
        if ssakit::text::text_estimate(&fs[next]) > batch {
            if next > 0 {
                sink("\n")?;
            }
            ssakit::text::print_function_in_pieces(&fs[next], piece, &mut sink)?;
            next += 1;
            continue;
        }
        // Functions up to `batch` bytes of text in all, none longer alone.
        let (start, mut size) = (next, 0);
        while next < fs.len() && size <= batch {
            let n = ssakit::text::text_estimate(&fs[next]);
            if n > batch {
                break;
            }
            size += n;
            next += 1;
        }
        let parts: Vec<String> = fs[start..next]
            .par_iter()
            .map(ssakit::text::print_function)
            .collect();
        for (i, p) in parts.iter().enumerate() {
            if start + i > 0 {
                sink("\n")?;
            }
            sink(p)?;
        }
    }
    Ok(())
}

/// `--time-passes` on standard error: `wall: SECONDS`, the elapsed time of
/// the parallel loop over functions, then the phases summed over functions
/// ([`PassTimes::merge`]) and their `total`.
pub fn report_times(wall: f64, times: &PassTimes) {
    crate::stderr::errln!("wall: {wall:.6}");
    crate::stderr::err!("{}", times.render());
}

#[cfg(test)]
mod tests {
    use super::print_batched;

    /// Small and large functions mixed, against every batch and piece size
    /// from one byte (every function alone, a piece a block) to all at once:
    /// always the text of `print_module`, declarations included.
    #[test]
    fn batches_and_pieces_print_the_module_text() {
        let mut src = String::from("operator i32.add pure\n\n");
        for (k, blocks) in [1, 40, 2, 3, 60, 1].into_iter().enumerate() {
            src.push_str(&format!("function f{k}(a: i32) {{\nentry:\n    jump b0\n"));
            for b in 0..blocks {
                src.push_str(&format!(
                    "b{b}:\n    a = i32.add(a, a)\n    jump b{}\n",
                    b + 1
                ));
            }
            src.push_str(&format!("b{blocks}:\n    ret\n}}\n\n"));
        }
        let m = ssakit::text::parse_module(&src).unwrap();
        let want = ssakit::text::print_module(&m);
        for batch in [0, 1, 100, 1000, 5000, usize::MAX] {
            for piece in [0, 1, 64, 4096] {
                let mut got = String::new();
                print_batched(&m, batch, piece, |s| {
                    got.push_str(s);
                    Ok::<_, ()>(())
                })
                .unwrap();
                assert_eq!(got, want, "batch {batch}, piece {piece}");
            }
        }
    }
}
