//! Options that take a list in one value, comma-separated (`--off cuts,islands`, `--accept 0002,0018`),
//! and may be repeated.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};

/// One value of a list option: its entries, in order (an option given twice has two).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct List<T>(pub Vec<T>);

/// Every entry of the values given, in order.
pub fn entries<T>(lists: &[List<T>]) -> impl Iterator<Item = &T> + '_ {
    lists.iter().flat_map(|l| l.0.iter())
}

/// A comma-separated value, each entry read by another parser. The commas are split here, not by clap's
/// `value_delimiter`, so that an empty entry (`a,`) is a usage error saying where it stands: split by
/// clap it would be an entry of its own, an empty id looked up or an empty size parsed.
#[derive(Clone)]
pub struct CommaList<P> {
    each: P,
    /// What an entry is, for the errors (`stage name`: "the stage name after `cuts,` is empty").
    noun: &'static str,
}

/// The list of `noun`s, each read by `each`; its help lists `each`'s possible values.
pub fn comma_list<P: TypedValueParser>(noun: &'static str, each: P) -> CommaList<P> {
    CommaList { each, noun }
}

impl<P> TypedValueParser for CommaList<P>
where
    P: TypedValueParser,
    P::Value: Clone + Send + Sync + 'static,
{
    type Value = List<P::Value>;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let Some(list) = value.to_str() else {
            return Err(clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd));
        };
        let mut entries = Vec::new();
        for (i, entry) in list.split(',').enumerate() {
            if entry.is_empty() {
                return Err(self.empty_entry(cmd, arg, list, i));
            }
            entries.push(self.each.parse_ref(cmd, arg, OsStr::new(entry))?);
        }
        Ok(List(entries))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.each.possible_values()
    }
}

impl<P: TypedValueParser> CommaList<P> {
    /// The usage error of an empty entry, the `i`th of `list`, saying where it stands.
    fn empty_entry(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, list: &str, i: usize) -> clap::Error {
        let noun = self.noun;
        let before: usize = list.split(',').take(i).map(|n| n.len() + 1).sum();
        let place = match i {
            _ if list.is_empty() => format!("no {noun} is given"),
            0 => format!("the {noun} before `{list}` is empty"),
            _ => format!("the {noun} after `{}` is empty", &list[..before]),
        };
        let names: Vec<String> =
            self.each.possible_values().into_iter().flatten().map(|v| v.get_name().to_string()).collect();
        let possible =
            if names.is_empty() { String::new() } else { format!("\n  [possible values: {}]", names.join(", ")) };
        let arg = arg.map_or_else(|| "the option".to_string(), ToString::to_string);
        let message = format!(
            "invalid value '{list}' for '{arg}': {place}; give {noun}s separated by commas, none empty{possible}\n\n\
             For more information, try '--help'.\n"
        );
        clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd)
    }
}
