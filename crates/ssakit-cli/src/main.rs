//! The `ssakit` command-line tool. Each subcommand lives in its own module
//! and holds no algorithm: it parses arguments, calls the library and prints.

fn main() {
    println!("ssakit");
}
