//! Checks of a rules file beyond its types, each naming file, line and column: keys chaff does not read
//! (a misspelled `stauts = "accepted"` would leave a rule pending without a word) are warnings; bins and
//! cutoffs outside 0–99, a rule id used twice, and regexes that do not compile are errors.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use regex_syntax::hir::{Class, Hir, HirKind};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{CleanTable, Cutoff, FORMAT, MiningParams, Rule, RulesFile, Status};
use crate::clean_settings::{Stage, serde_fields as fields_of};
use crate::cutoff::CutoffBin;
use crate::error::{Error, Result};
use crate::mutable::{MAX_REGEX_BYTES, MutablePattern, MutableSet};

/// The highest histogram bin: bins are df as a percentage of the documents, 0 to 99.
const MAX_BIN: CutoffBin = 99;

/// A rules file's text with its path, for messages that point into it.
struct Source<'a> {
    text: &'a str,
    path: &'a Path,
    /// Where each line starts, found on the first message: a file with a warning on every rule costs
    /// one scan, not one a warning.
    line_starts: OnceCell<Vec<usize>>,
    /// The parsed document, parsed again for an error's place: the first parse is moved into
    /// deserializing the file, not copied, and a file without errors never needs it again.
    doc: OnceCell<DeTable<'a>>,
}

impl<'a> Source<'a> {
    fn new(text: &'a str, path: &'a Path) -> Self {
        Source { text, path, line_starts: OnceCell::new(), doc: OnceCell::new() }
    }

    /// The document (parsed once before, so parsing it again cannot fail).
    fn doc(&self) -> &DeTable<'a> {
        self.doc.get_or_init(|| DeTable::parse(self.text).map(Spanned::into_inner).unwrap_or_default())
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn line_column(&self, offset: usize) -> (usize, usize) {
        let starts = self
            .line_starts
            .get_or_init(|| std::iter::once(0).chain(self.text.match_indices('\n').map(|(i, _)| i + 1)).collect());
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let line = starts.partition_point(|&s| s <= offset);
        let start = starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    fn at(&self, span: Range<usize>) -> String {
        let (line, column) = self.line_column(span.start);
        format!("{}:{line}:{column}", self.path.display())
    }

    fn error(&self, span: Range<usize>, message: String) -> Error {
        let (line, column) = self.line_column(span.start);
        Error::Toml { path: self.path.to_path_buf(), line, column, message }
    }
}

/// The warnings for keys of `table` not in `known`, named `prefix` + key.
fn unused_keys(src: &Source, table: &DeTable, prefix: &str, known: &[&str], out: &mut Vec<String>) {
    for (key, _) in table.iter() {
        let name = key.get_ref().as_ref();
        if !known.contains(&name) {
            out.push(format!(
                "{}: unused key `{prefix}{name}`: chaff ignores it (misspelled? the keys here are {})",
                src.at(key.span()),
                known.join(", ")
            ));
        }
    }
}

/// The warnings for keys of a file beside the rules files (`text`, parsed as `doc`) that chaff does not
/// read, named as a rules file's are: its top-level keys against `known`, and each table of each array of
/// tables `arrays` names (`[[page]]`) against that array's fields.
pub(crate) fn unread_keys(
    text: &str,
    path: &Path,
    doc: &DeTable,
    known: &[&str],
    arrays: &[(&str, &[&str])],
) -> Vec<String> {
    let src = Source::new(text, path);
    let mut warnings = Vec::new();
    unused_keys(&src, doc, "", known, &mut warnings);
    for (array, fields) in arrays {
        for t in tables(doc.get(*array)) {
            unused_keys(&src, t, &format!("{array}."), fields, &mut warnings);
        }
    }
    warnings
}

/// The tables of an array of tables (`[[rule]]`), in order.
fn tables<'a, 'i>(value: Option<&'a Spanned<DeValue<'i>>>) -> Vec<&'a DeTable<'i>> {
    match value.map(|v| v.get_ref()) {
        Some(DeValue::Array(items)) => items
            .iter()
            .filter_map(|v| match v.get_ref() {
                DeValue::Table(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The span of `key`'s value in `table`, else of the table's first key (else the file's start).
fn value_span(table: &DeTable, key: &str) -> Range<usize> {
    table.get(key).map(|v| v.span()).or_else(|| table.iter().next().map(|(k, _)| k.span())).unwrap_or(0..0)
}

fn check_bin(src: &Source, table: &DeTable, key: &str, what: &str, bin: CutoffBin) -> Result<()> {
    if bin > MAX_BIN {
        return Err(src.error(
            value_span(table, key),
            format!("{what} {bin} is out of range: bins are 0 to {MAX_BIN} (df as a percentage of the documents)"),
        ));
    }
    Ok(())
}

/// What the checks read of a parsed document before it is deserialized (the document is then moved
/// into deserializing, not copied): the warnings for keys chaff does not read, and where the keys of
/// older formats stand, which are errors or not by the file's format.
pub(crate) struct Keys {
    warnings: Vec<String>,
    /// Top-level keys of formats 1 and 2, with their spans.
    legacy: Vec<(&'static str, Range<usize>)>,
    /// `[clean]` keys written as numbers (format 2's), with their spans.
    clean_numbers: Vec<(&'static str, Range<usize>)>,
}

impl Keys {
    /// A file whose every key chaff reads, none of an older format.
    pub(super) fn none() -> Keys {
        Keys { warnings: Vec::new(), legacy: Vec::new(), clean_numbers: Vec::new() }
    }
}

/// The warnings for keys chaff does not read, and the keys of older formats, in `doc` (parsed from
/// `text`).
pub(crate) fn keys(text: &str, path: &Path, doc: &DeTable) -> Keys {
    let src = Source::new(text, path);
    let mut warnings = Vec::new();
    unused_keys(&src, doc, "", fields_of::<RulesFile>(), &mut warnings);
    if let Some(DeValue::Table(t)) = doc.get("cutoff").map(|v| v.get_ref()) {
        unused_keys(&src, t, "cutoff.", fields_of::<Cutoff>(), &mut warnings);
    }
    if let Some(DeValue::Table(t)) = doc.get("mining").map(|v| v.get_ref()) {
        unused_keys(&src, t, "mining.", fields_of::<MiningParams>(), &mut warnings);
    }
    let mut clean_numbers = Vec::new();
    if let Some(DeValue::Table(t)) = doc.get("clean").map(|v| v.get_ref()) {
        unused_keys(&src, t, "clean.", fields_of::<CleanTable>(), &mut warnings);
        for (stage, keys) in CleanTable::stage_keys() {
            if let Some(DeValue::Table(table)) = t.get(stage).map(|v| v.get_ref()) {
                unused_keys(&src, table, &format!("clean.{stage}."), keys, &mut warnings);
            }
        }
        for key in CleanTable::number_keys() {
            if let Some((k, v)) = t.get_key_value(key)
                && !matches!(v.get_ref(), DeValue::Table(_))
            {
                clean_numbers.push((key, k.span()));
            }
        }
    }
    for t in tables(doc.get("mutable")) {
        unused_keys(&src, t, "mutable.", fields_of::<MutablePattern>(), &mut warnings);
    }
    let rule_fields = fields_of::<Rule>();
    for t in tables(doc.get("rule")) {
        unused_keys(&src, t, "rule.", rule_fields, &mut warnings);
    }
    let legacy = LEGACY_KEYS.iter().filter_map(|&key| doc.get_key_value(key).map(|(k, _)| (key, k.span()))).collect();
    Keys { warnings, legacy, clean_numbers }
}

/// Top-level keys of older formats: format 1's switches, format 2's places of a stage's settings.
pub(super) const LEGACY_KEYS: [&str; 5] = ["line_boundary", "keep_title", "drop_reprints", "islands", "short_runs"];

/// Checks `file`, parsed from `text` (its keys read by [`keys`]): returns the warnings for keys chaff
/// does not read, and an error for a bin or cutoff over 99, a rule id used twice, a mutable pattern or a
/// rule regex that does not compile.
pub(crate) fn check(text: &str, path: &Path, file: &RulesFile, keys: Keys) -> Result<Vec<String>> {
    let src = Source::new(text, path);
    check_format(&src, &keys, file)?;
    let table = |key: &str| match src.doc().get(key).map(|v| v.get_ref()) {
        Some(DeValue::Table(t)) => Some(t),
        _ => None,
    };
    for (key, bin) in [("auto", file.cutoff.auto), ("chosen", file.cutoff.chosen)] {
        if bin > MAX_BIN
            && let Some(t) = table("cutoff")
        {
            check_bin(&src, t, key, &format!("cutoff.{key}"), bin)?;
        }
    }
    // the rules' tables, for an error's place
    let rule_table = |i: usize| tables(src.doc().get("rule")).get(i).copied();
    // where each id first appears, by rule; its place is looked up only for an error
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, rule) in file.rules.iter().enumerate() {
        if rule.bin > MAX_BIN
            && let Some(t) = rule_table(i)
        {
            check_bin(&src, t, "bin", &format!("rule {}: bin", rule.id), rule.bin)?;
        }
        if let Some(first) = first_at.insert(&rule.id, i) {
            let span_of = |i: usize| rule_table(i).map_or(0..0, |t| value_span(t, "id"));
            let first = src.line_column(span_of(first).start).0;
            return Err(src.error(
                span_of(i),
                format!(
                    "rule id `{}` is used twice (first on line {first}); ids must be unique: rename or remove one",
                    rule.id
                ),
            ));
        }
    }
    check_regexes(&src, file)?;
    Ok(keys.warnings)
}

/// A format chaff reads, without format 1's switches past format 1.
fn check_format(src: &Source, keys: &Keys, file: &RulesFile) -> Result<()> {
    let format_span = || value_span(src.doc(), "format");
    if file.format > FORMAT {
        return Err(src.error(
            format_span(),
            format!("rules format {} is newer than this chaff reads ({FORMAT}): update chaff", file.format),
        ));
    }
    if file.format < 1 {
        return Err(src.error(
            format_span(),
            format!(
                "rules format {} does not exist: formats are 1 to {FORMAT}; write `format = {FORMAT}` (or remove the \
                 line for a format-1 file)",
                file.format
            ),
        ));
    }
    if file.format < 2 {
        return Ok(());
    }
    let legacy = |key: &str| keys.legacy.iter().find(|(k, _)| *k == key).map(|(_, span)| span.clone());
    for key in ["line_boundary", "keep_title", "drop_reprints"] {
        if let Some(span) = legacy(key) {
            return Err(src.error(
                span,
                format!(
                    "`{key}` is a switch of format-1 rules files; in format {} a stage is turned off only by \
                     naming it in `[clean] off` (stages: {}): remove `{key}`",
                    file.format,
                    Stage::ALL.map(|s| s.name()).join(", ")
                ),
            ));
        }
    }
    if file.format < 3 {
        return Ok(());
    }
    // format 2's places of a stage's settings: a format-3 file keeps them in the stage's table
    for (key, stage, field) in [("islands", Stage::Islands, "words"), ("short_runs", Stage::ShortRuns, "words")] {
        if let Some(span) = legacy(key) {
            return Err(src.error(
                span,
                format!(
                    "`{key}` is a key of format-2 rules files; in format {} write it in the stage's table, \
                     `[clean.{stage}] {field} = …`",
                    file.format
                ),
            ));
        }
    }
    if let Some((key, span)) = keys.clean_numbers.first() {
        return Err(src.error(
            span.clone(),
            format!(
                "`[clean] {key}` as a number is format 2's; in format {} write the stage's table, \
                 `[clean.{key}]`, with its keys ({})",
                file.format,
                CleanTable::stage_keys().iter().find(|s| s.0 == *key).map_or(&[][..], |s| s.1).join(", ")
            ),
        ));
    }
    Ok(())
}

/// The mutable patterns compile, and so does every regex the cleaner would run as a regex (a hand-edited
/// or hand-written one; a synthesized one is matched at token level).
fn check_regexes(src: &Source, file: &RulesFile) -> Result<()> {
    let mutable = match MutableSet::new(file.mutable.clone()) {
        Ok(set) => set,
        Err(e) => {
            // point at the pattern at fault: the first that fails alone, or shares a name
            let at = file.mutable.iter().enumerate().position(|(i, p)| {
                MutableSet::new(vec![p.clone()]).is_err() || file.mutable[..i].iter().any(|q| q.name == p.name)
            });
            let key = if matches!(e, Error::InvalidPatternName { .. }) { "name" } else { "regex" };
            let span =
                at.and_then(|i| tables(src.doc().get("mutable")).get(i).copied()).map_or(0..0, |t| value_span(t, key));
            return Err(src.error(span, e.to_string()));
        }
    };
    for (i, rule) in file.rules.iter().enumerate() {
        if rule.is_synthesized(file.tokenizer, &mutable) {
            continue;
        }
        // parsed and sized, not built: building a regex near the limit takes a tenth of a second, and
        // the cleaner builds the ones it runs. A rejected rule never runs: rejecting is how an editor
        // sets a costly one aside
        let checked = if rule.status == Status::Rejected {
            parse_rule_regex(&rule.id, &rule.regex).map(|_| 0)
        } else {
            rule_regex_estimate(&rule.id, &rule.regex)
        };
        if let Err(e) = checked {
            let span = tables(src.doc().get("rule")).get(i).map_or(0..0, |t| value_span(t, "regex"));
            return Err(src.error(span, e.to_string()));
        }
    }
    Ok(())
}

/// Compiled size of one rule's automaton, at most (the regex crate's `size_limit`).
pub const RULE_REGEX_BYTES: usize = 8 << 20;

/// Bytes an automaton spends per unit of [`weight`], a generous estimate: a state of the regex crate's
/// NFA is 16–24 bytes, and a Unicode class compiles to several states per range.
const BYTES_PER_WEIGHT: usize = 24;

/// The bytes rule `id`'s regex `pattern` compiles to, estimated from its syntax without building it;
/// an error naming the rule for a regex that does not parse, is longer than
/// [`MAX_REGEX_BYTES`], or is estimated past [`RULE_REGEX_BYTES`]: such a regex is refused at once,
/// before the memory and time its building would take.
pub fn rule_regex_estimate(id: &str, pattern: &str) -> Result<usize> {
    let invalid = |message: String| Error::InvalidRule { id: id.to_string(), message };
    let hir = parse_rule_regex(id, pattern)?;
    let estimate = weight(&hir).saturating_mul(BYTES_PER_WEIGHT);
    if estimate > RULE_REGEX_BYTES {
        return Err(Error::RegexTooBig { id: id.to_string(), limit: RULE_REGEX_BYTES >> 20 });
    }
    let spelled = counted(&hir, 1);
    if spelled > MAX_COUNTED_CHARS {
        return Err(invalid(format!(
            "its counted repetitions spell out {spelled} characters, past the {MAX_COUNTED_CHARS} that run in time \
             linear in the document: simplify it, writing a long stretch with `*`, `+` or `*?` instead of a count \
             (`[\\s\\S]{{0,5000}}x` as `(?s).*?x`), or reject the rule"
        )));
    }
    Ok(estimate)
}

/// Rule `id`'s regex parsed, refused unparsed past [`MAX_REGEX_BYTES`] (parsing takes over a hundred
/// bytes of memory per byte of pattern).
fn parse_rule_regex(id: &str, pattern: &str) -> Result<Hir> {
    let invalid = |message: String| Error::InvalidRule { id: id.to_string(), message };
    if pattern.len() > MAX_REGEX_BYTES {
        return Err(invalid(format!(
            "it is {} bytes long, past the {} KiB a rule's regex may be: simplify it or remove the rule",
            pattern.len(),
            MAX_REGEX_BYTES >> 10
        )));
    }
    regex_syntax::Parser::new().parse(pattern).map_err(|e| {
        invalid(e.to_string().lines().last().unwrap_or_default().trim().trim_start_matches("error: ").to_string())
    })
}

/// The most characters a rule's counted repetitions (`{0,300}`) may spell out together. A count is
/// written out as that many copies, and the lazy DFA's states then track every copy at once: past a few
/// hundred, its cache overflows and the regex crate falls back to an engine whose cost grows with the
/// pattern's size times the document's (`[\s\S]{0,500}x` ran a thousand times slower than `{0,300}`;
/// docs/results.md).
const MAX_COUNTED_CHARS: usize = 256;

/// The characters `hir`'s counted repetitions spell out, each leaf counted as many times as the counts
/// around it repeat it (`multiplier`), summed over the leaves under a count.
fn counted(hir: &Hir, multiplier: usize) -> usize {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => 0,
        HirKind::Literal(l) if multiplier > 1 => multiplier.saturating_mul(l.0.len()),
        HirKind::Class(_) if multiplier > 1 => multiplier,
        HirKind::Literal(_) | HirKind::Class(_) => 0,
        HirKind::Repetition(r) => {
            let copies = r.max.unwrap_or(r.min).max(1) as usize;
            counted(&r.sub, multiplier.saturating_mul(copies))
        }
        HirKind::Capture(c) => counted(&c.sub, multiplier),
        HirKind::Concat(hs) | HirKind::Alternation(hs) => {
            hs.iter().map(|h| counted(h, multiplier)).fold(0, usize::saturating_add)
        }
    }
}

/// The size of what `hir` compiles to, in units of about one automaton state: counted repetitions are
/// written out, and a class costs its ranges (UTF-8 makes a Unicode range several states).
fn weight(hir: &Hir) -> usize {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => 1,
        HirKind::Literal(l) => l.0.len(),
        HirKind::Class(Class::Unicode(c)) => c.ranges().len().saturating_mul(4),
        HirKind::Class(Class::Bytes(c)) => c.ranges().len(),
        HirKind::Repetition(r) => {
            let copies = r.max.unwrap_or(r.min).max(1) as usize;
            weight(&r.sub).saturating_mul(copies).saturating_add(1)
        }
        HirKind::Capture(c) => weight(&c.sub),
        HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().map(weight).fold(1, usize::saturating_add),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_keys_come_from_the_types() {
        let rule = fields_of::<Rule>();
        assert!(rule.contains(&"status") && rule.contains(&"regex") && rule.contains(&"cluster"), "{rule:?}");
        let file = fields_of::<RulesFile>();
        assert!(file.contains(&"rule") && file.contains(&"mutable") && !file.contains(&"rules"), "{file:?}");
    }

    #[test]
    fn lines_and_columns_agree_with_the_error_module() {
        let text = "a = 1\nbé = \"x\"\n\nlast";
        let src = Source::new(text, Path::new("f.toml"));
        for offset in 0..=text.len() {
            assert_eq!(src.line_column(offset), crate::error::line_column(text, offset), "{offset}");
        }
    }
}
