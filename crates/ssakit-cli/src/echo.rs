//! How an error shows what the user typed (an argument, a file name, a
//! `--func` selector): its control characters escaped as Rust writes them
//! (`\r`, `\t`, `\u{1b}`), so that `run prog.ssa $'3\r'` says
//! ``argument `3\r` `` instead of printing an invisible carriage return (or
//! an escape sequence the terminal would obey). Everything else, quotes,
//! backslashes and non-ASCII letters included, is shown as it is.

use std::borrow::Cow;

/// `s` with every control character escaped (`char::escape_debug`).
pub fn echo(s: &str) -> Cow<'_, str> {
    let hidden = |c: char| c.is_control();
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hidden(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(echo("3\r"), "3\\r");
        assert_eq!(
            echo("a\tb\n\u{1b}[31m\0\u{7f}"),
            "a\\tb\\n\\u{1b}[31m\\0\\u{7f}"
        );
        for plain in ["prog.ssa", "it's \"x\"", "C:\\x", "función", "naïve"] {
            assert!(matches!(echo(plain), Cow::Borrowed(_)), "{plain}");
        }
    }
}
