//! A rules file read the short way: the plain TOML chaff writes (bare keys, `[table]` and `[[array]]`
//! headers, strings, integers, floats, booleans, arrays), parsed into a tree that borrows the text and
//! deserialized from it. Reading a rules file is most of what a process cleaning its first page costs,
//! and a crawl reads one per source; a general TOML parser spends most of that on spans and layout a
//! file without mistakes never needs.
//!
//! It answers only when it is sure: anything else, or any doubt (a quoted or dotted key, an inline
//! table, an escape or number form it does not read, a key chaff does not read, a key of an older
//! format, a value of the wrong type), is `None`, and the file is read by the TOML parser, whose errors
//! and warnings name line and column. So it never accepts what that parser refuses, and what it
//! accepts it reads as that parser does (`tests.rs` checks both on every change of a file).

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};

use super::{CleanTable, Cutoff, MiningParams, Rule, RulesFile};
use crate::clean_settings::serde_fields as fields_of;
use crate::mutable::MutablePattern;

type Table<'a> = Vec<(&'a str, Value<'a>)>;

#[derive(Debug)]
enum Value<'a> {
    Str(Cow<'a, str>),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Value<'a>>),
    Table(Table<'a>),
    /// An array of tables (`[[rule]]`), apart from an array written inline: only this one takes more.
    Tables(Vec<Table<'a>>),
}

/// The rules file `text` holds, when it is plain TOML every key of which chaff reads (see the module).
pub(super) fn parse(text: &str) -> Option<RulesFile> {
    let root = tree(text)?;
    if !keys_known(&root) {
        return None;
    }
    RulesFile::deserialize(Value::Table(root)).ok()
}

/// Where the key/value lines being read go.
enum Header<'a> {
    Root,
    Table(Vec<&'a str>),
    Element(&'a str),
}

fn tree(text: &str) -> Option<Table<'_>> {
    let mut root: Table = Vec::new();
    let mut header = Header::Root;
    let mut current: Table = Vec::new();
    let mut defined: Vec<Vec<&str>> = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches([' ', '\t']);
        if rest.is_empty() {
            break;
        }
        if rest.starts_with(['#', '\r', '\n']) {
            rest = line_end(rest)?;
            continue;
        }
        if rest.starts_with('[') {
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            let head = &line[1..];
            let (head, after) = head.split_once(']')?;
            let array = head.starts_with('[');
            let after = if array { after.strip_prefix(']')? } else { after };
            rest = line_end(&rest[line.len() - after.len()..])?;
            // the next table is sized as this one: a file's `[[rule]]` tables are alike
            let size = current.len();
            let table = std::mem::replace(&mut current, Vec::with_capacity(size));
            close(&mut root, std::mem::replace(&mut header, Header::Root), table, &mut defined)?;
            let path = head.strip_prefix('[').unwrap_or(head).split('.').map(|k| bare(k.trim_matches([' ', '\t'])));
            let path: Vec<&str> = path.collect::<Option<_>>()?;
            header = match (array, path.as_slice()) {
                (true, [key]) => Header::Element(key),
                (false, _) => Header::Table(path),
                _ => return None,
            };
            continue;
        }
        // a key ends at the first `=`, on its line: a key running over a line end is refused by `bare`.
        // Found by a plain loop: a key is a few bytes, shorter than a word-at-a-time search's setup
        let key = &rest[..rest.bytes().position(|b| b == b'=')?];
        let (value, after) = value(rest[key.len() + 1..].trim_start_matches([' ', '\t']))?;
        insert(&mut current, bare(key.trim_end_matches([' ', '\t']))?, value)?;
        rest = line_end(after)?;
    }
    close(&mut root, header, current, &mut defined)?;
    Some(root)
}

/// The text after the end of this line, when nothing but blanks and a comment is left on it.
fn line_end(s: &str) -> Option<&str> {
    if let Some(next) = s.strip_prefix('\n') {
        return Some(next);
    }
    let s = s.trim_start_matches([' ', '\t']);
    let end = s.find('\n').unwrap_or(s.len());
    let line = s[..end].strip_suffix('\r').unwrap_or(&s[..end]);
    comment_ok(line)?;
    Some(s.get(end + 1..).unwrap_or(""))
}

/// Nothing or a comment (no control characters but tab).
fn comment_ok(s: &str) -> Option<()> {
    let ok = s.is_empty() || (s.starts_with('#') && plain(s));
    ok.then_some(())
}

fn bare(key: &str) -> Option<&str> {
    let ok = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    ok.then_some(key)
}

fn insert<'a>(table: &mut Table<'a>, key: &'a str, value: Value<'a>) -> Option<()> {
    if table.iter().any(|(k, _)| *k == key) {
        return None;
    }
    table.push((key, value));
    Some(())
}

/// Puts the table read under `header` in its place.
fn close<'a>(
    root: &mut Table<'a>,
    header: Header<'a>,
    current: Table<'a>,
    defined: &mut Vec<Vec<&'a str>>,
) -> Option<()> {
    match header {
        Header::Root => current.into_iter().try_for_each(|(k, v)| insert(root, k, v)),
        Header::Element(key) => match root.iter_mut().find(|(k, _)| *k == key) {
            Some((_, Value::Tables(tables))) => {
                tables.push(current);
                Some(())
            }
            Some(_) => None,
            None => insert(root, key, Value::Tables(vec![current])),
        },
        Header::Table(path) => {
            if defined.contains(&path) {
                return None;
            }
            let mut table = root;
            for key in &path {
                if !table.iter().any(|(k, _)| k == key) {
                    table.push((key, Value::Table(Vec::new())));
                }
                match table.iter_mut().find(|(k, _)| k == key) {
                    Some((_, Value::Table(t))) => table = t,
                    _ => return None,
                }
            }
            defined.push(path);
            current.into_iter().try_for_each(|(k, v)| insert(table, k, v))
        }
    }
}

/// A value at the start of `s`, and the text after it.
fn value(s: &str) -> Option<(Value<'_>, &str)> {
    match *s.as_bytes().first()? {
        b'"' => {
            if let Some(body) = s.strip_prefix("\"\"\"") {
                // a newline right after the quotes is not the string's
                let (text, after) = basic(body.strip_prefix('\n').unwrap_or(body), true)?;
                return Some((Value::Str(text), after));
            }
            let (text, after) = basic(&s[1..], false)?;
            Some((Value::Str(text), after))
        }
        b'\'' => {
            if let Some(body) = s.strip_prefix("\'\'\'") {
                // a multi-line literal string on one line, without quotes at its end
                let end = body.find("\'\'\'")?;
                let (text, after) = (&body[..end], &body[end + 3..]);
                if text.ends_with('\'') || after.starts_with('\'') || !plain(text) {
                    return None;
                }
                return Some((Value::Str(Cow::Borrowed(text)), after));
            }
            let end = s[1..].find('\'')? + 1;
            let text = &s[1..end];
            plain(text).then_some((Value::Str(Cow::Borrowed(text)), &s[end + 1..]))
        }
        b'[' => array(&s[1..]),
        _ => {
            let end = s.bytes().position(|b| matches!(b, b' ' | b'\t' | b',' | b']' | b'#' | b'\r' | b'\n'));
            let end = end.unwrap_or(s.len());
            Some((scalar(&s[..end])?, &s[end..]))
        }
    }
}

/// No control characters but tab, and no newline (read as bytes: in UTF-8 no other character holds one).
fn plain(text: &str) -> bool {
    !controls(text.as_bytes(), false)
}

/// Whether `run` holds a control character other than tab (and line feed, when `line_feeds`). Every
/// byte is read, with no early exit, so the loop runs many bytes a step: a file without mistakes has
/// none, and its strings are most of its bytes.
fn controls(run: &[u8], line_feeds: bool) -> bool {
    run.iter().fold(false, |found, &c| found | ((c < b' ') & (c != b'\t') & !(line_feeds & (c == b'\n'))) | (c == 0x7f))
}

/// A basic string's body (after its opening quote, or three for a `multi_line` one), unescaped, and
/// what follows its closing quote(s). A multi-line one holds line feeds, not carriage returns, and
/// declines a line-ending backslash. Borrowed when it has no escape; else the runs between escapes are
/// copied whole.
fn basic(s: &str, multi_line: bool) -> Option<(Cow<'_, str>, &str)> {
    let b = s.as_bytes();
    // the unescaped text up to `copied`, once an escape is met
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    let finish = |out: Option<String>, copied: usize, end: usize| match out {
        None => Cow::Borrowed(&s[..end]),
        Some(mut out) => {
            out.push_str(&s[copied..end]);
            Cow::Owned(out)
        }
    };
    loop {
        // past ordinary text at once, to the next quote or backslash, which decides; no control
        // character but tab (and line feed in a multi-line string) may come before it
        let run = memchr::memchr2(b'"', b'\\', &b[i..])?;
        if controls(&b[i..i + run], multi_line) {
            return None;
        }
        i += run;
        if b[i] == b'\\' {
            let (escaped, len) = escape(&s[i + 1..])?;
            let out = out.get_or_insert_with(|| String::with_capacity(s.len().min(4096)));
            out.push_str(&s[copied..i]);
            out.push(escaped);
            i += 1 + len;
            copied = i;
        } else if !multi_line {
            return Some((finish(out, copied, i), &s[i + 1..]));
        } else {
            // a run of three quotes ends the string, one or two before them are its own
            let run = b[i..].iter().take_while(|&&q| q == b'"').count();
            if run >= 3 {
                let end = i + run - 3;
                return (run <= 5).then(|| (finish(out, copied, end), &s[i + run..]));
            }
            i += run;
        }
    }
}

/// The character an escape stands for (`s` is the text after its backslash), and the escape's length.
fn escape(s: &str) -> Option<(char, usize)> {
    let c = match *s.as_bytes().first()? {
        b'b' => '\u{8}',
        b't' => '\t',
        b'n' => '\n',
        b'f' => '\u{c}',
        b'r' => '\r',
        b'"' => '"',
        b'\\' => '\\',
        u @ (b'u' | b'U') => {
            let digits = if u == b'u' { 4 } else { 8 };
            let hex = s.get(1..1 + digits)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            return Some((char::from_u32(u32::from_str_radix(hex, 16).ok()?)?, 1 + digits));
        }
        _ => return None,
    };
    Some((c, 1))
}

/// An inline array's elements and `]` (its opening `[` read), over lines or not, no comments inside;
/// and the text after it.
fn array(mut s: &str) -> Option<(Value<'_>, &str)> {
    // sized by the commas before the first `]` in its first kilobyte (a string's own commas or brackets
    // only make it too large or too small; the bound keeps nested arrays from each reading the rest): a
    // rule's tokens are a dozen, grown one at a time they were copied three times
    let start = &s.as_bytes()[..s.len().min(1 << 10)];
    let head = &start[..memchr::memchr(b']', start).unwrap_or(start.len())];
    let mut items = Vec::with_capacity(memchr::memchr_iter(b',', head).count() + 1);
    loop {
        s = blanks(s)?;
        if let Some(after) = s.strip_prefix(']') {
            return Some((Value::Array(items), after));
        }
        let (item, after) = value(s)?;
        items.push(item);
        s = blanks(after)?;
        match s.as_bytes().first()? {
            b',' => s = &s[1..],
            b']' => {}
            _ => return None,
        }
    }
}

/// `s` past spaces, tabs and line ends (a carriage return only before a line feed).
fn blanks(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' => i += 1,
            b'\r' if b.get(i + 1) == Some(&b'\n') => i += 2,
            b'\r' => return None,
            _ => break,
        }
    }
    Some(&s[i..])
}

/// An integer, float or boolean, in the forms chaff writes.
fn scalar(s: &str) -> Option<Value<'static>> {
    match s {
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        _ => {}
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let int_end = unsigned.find(|c: char| !c.is_ascii_digit()).unwrap_or(unsigned.len());
    let (int, tail) = unsigned.split_at(int_end);
    if int.is_empty() || (int.len() > 1 && int.starts_with('0')) {
        return None;
    }
    if tail.is_empty() {
        return s.parse().ok().map(Value::Int);
    }
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let (frac, exp) = match tail.find(['e', 'E']) {
        Some(i) => (&tail[..i], Some(&tail[i + 1..])),
        None => (tail, None),
    };
    let frac_ok = frac.is_empty() || frac.strip_prefix('.').is_some_and(digits);
    let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    (frac_ok && exp_ok).then(|| s.parse().ok().map(Value::Float))?
}

/// Every key is one chaff reads, and none is of an older format: the keys the TOML path would warn
/// about, or weigh by the file's format, send the file there.
fn keys_known(root: &Table) -> bool {
    let known = |table: &Table, fields: &[&str]| table.iter().all(|(k, _)| fields.contains(k));
    let table = |key: &str| root.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
    let sub = |v: Option<&Value>, fields: &[&str]| match v {
        Some(Value::Table(t)) => known(t, fields),
        _ => true,
    };
    let each = |v: Option<&Value>, fields: &[&str]| match v {
        Some(Value::Tables(ts)) => ts.iter().all(|t| known(t, fields)),
        _ => true,
    };
    let clean_ok = match table("clean") {
        Some(Value::Table(t)) => {
            known(t, fields_of::<CleanTable>())
                && CleanTable::stage_keys().iter().all(|(stage, keys)| match t.iter().find(|(k, _)| k == stage) {
                    Some((_, Value::Table(st))) => known(st, keys),
                    Some(_) => false,
                    None => true,
                })
        }
        _ => true,
    };
    known(root, fields_of::<RulesFile>())
        && super::check::LEGACY_KEYS.iter().all(|k| table(k).is_none())
        && sub(table("cutoff"), fields_of::<Cutoff>())
        && sub(table("mining"), fields_of::<MiningParams>())
        && clean_ok
        && each(table("mutable"), fields_of::<MutablePattern>())
        && each(table("rule"), fields_of::<Rule>())
}

impl<'de> IntoDeserializer<'de, DeError> for Value<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Value<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Value::Str(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Value::Str(Cow::Owned(s)) => visitor.visit_string(s),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter());
                let v = visitor.visit_seq(&mut seq)?;
                seq.end().map(|_| v)
            }
            Value::Tables(tables) => {
                let mut seq = SeqDeserializer::new(tables.into_iter().map(Value::Table));
                let v = visitor.visit_seq(&mut seq)?;
                seq.end().map(|_| v)
            }
            Value::Table(t) => {
                let mut map = MapDeserializer::new(t.into_iter());
                let v = visitor.visit_map(&mut map)?;
                map.end().map(|_| v)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    /// A struct from a table alone (not from an array, as serde would allow and TOML does not).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            Value::Table(_) => self.deserialize_any(visitor),
            _ => Err(de::Error::custom("a struct from other than a table")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            Value::Str(s) => visitor.visit_enum(s.into_deserializer()),
            _ => Err(de::Error::custom("an enum other than a unit variant")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit unit_struct
        seq tuple tuple_struct map identifier ignored_any
    }
}

#[cfg(test)]
mod tests;
