//! `--passes LIST`, parsed once: one clap value parser
//! ([`ssakit::opt::Pass::parse`]) for every subcommand that takes passes
//! (`opt`, `explain`, `wasm stats`, `wasm opt`, `x86 stats`), so a bad list is refused
//! before the command runs, with one message.

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use ssakit::opt::Pass;

/// The passes of `--passes`, in order.
#[derive(Clone, Debug, Default)]
pub struct Passes(pub Vec<Pass>);

/// The value parser of `--passes`: a comma-separated list of pass names;
/// with `none`, the word `none` is the empty list too (`explain`).
#[derive(Clone, Copy, Default)]
pub struct PassesParser {
    /// Whether `none` stands for no pass.
    pub none: bool,
}

impl PassesParser {
    /// `none` accepted for no pass.
    pub const OR_NONE: PassesParser = PassesParser { none: true };

    /// `list` as passes, or the message after `error: `.
    pub fn list(self, list: &str) -> Result<Passes, String> {
        if self.none && list.trim() == "none" {
            return Ok(Passes::default());
        }
        Pass::parse(list)
            .map(Passes)
            .map_err(|e| format!("--passes: {e}"))
    }
}

impl TypedValueParser for PassesParser {
    type Value = Passes;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Passes, clap::Error> {
        let message = match value.to_str() {
            Some(list) => match self.list(list) {
                Ok(p) => return Ok(p),
                Err(m) => m,
            },
            None => "--passes: not UTF-8".to_string(),
        };
        let message = crate::echo::echo(&message).into_owned();
        Err(clap::Error::raw(ErrorKind::ValueValidation, message + "\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_none() {
        let names = |p: Passes| p.0.iter().map(|p| p.name()).collect::<Vec<_>>();
        let plain = PassesParser::default();
        assert_eq!(
            names(plain.list("dce,copy-prop").unwrap()),
            ["dce", "copy-prop"]
        );
        assert_eq!(
            plain.list("none").unwrap_err(),
            "--passes: unknown pass `none` (known passes: copy-prop, const-prop, fold, dce)"
        );
        assert!(names(PassesParser::OR_NONE.list(" none ").unwrap()).is_empty());
    }
}
