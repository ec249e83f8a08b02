//! A crawl's minings set aside on disk while the other sources are mined: `chaff mine --all` writes a
//! source's rules only once every source is mined (the idiom filter counts the candidates of all), and
//! the strings a source's mining kept are most of its memory. They are written to one temporary file as
//! mined and read back, one source at a time, when its rules are written; memory keeps the rest of
//! each mining (its histogram and counts) and the hashes of its candidates.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::mining::MinedString;
use crate::symbol::Symbol;

/// The temporary file the strings are spilled to.
pub struct Spill {
    file: Mutex<(File, u64)>,
}

/// Where one source's strings lie in the spill.
#[derive(Debug, Clone, Copy)]
pub struct Spilled {
    at: u64,
    len: u64,
}

fn spill_error(e: std::io::Error) -> Error {
    Error::io(Path::new("(chaff's mining spool)"), e)
}

impl Spill {
    pub fn new() -> Result<Spill> {
        let file = tempfile::tempfile().map_err(|e| Error::io(std::env::temp_dir(), e))?;
        Ok(Spill { file: Mutex::new((file, 0)) })
    }

    /// Writes `strings` (encoded before the file is locked: sources are mined in parallel).
    pub fn put(&self, strings: &[MinedString]) -> Result<Spilled> {
        let mut out = Vec::new();
        put_u64(&mut out, strings.len() as u64);
        for s in strings {
            encode(&mut out, s);
        }
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (file, end) = &mut *guard;
        file.seek(SeekFrom::Start(*end)).map_err(spill_error)?;
        file.write_all(&out).map_err(spill_error)?;
        let spilled = Spilled { at: *end, len: out.len() as u64 };
        *end += out.len() as u64;
        Ok(spilled)
    }

    /// The strings written at `spilled`.
    pub fn take(&self, spilled: Spilled) -> Result<Vec<MinedString>> {
        let mut buf = vec![0u8; spilled.len as usize];
        {
            let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
            let (file, _) = &mut *guard;
            file.seek(SeekFrom::Start(spilled.at)).map_err(spill_error)?;
            file.read_exact(&mut buf).map_err(spill_error)?;
        }
        let changed = || Error::Invalid("the mining spool file was changed under chaff".into());
        let mut b = buf.as_slice();
        let n = take_u64(&mut b).ok_or_else(changed)? as usize;
        let mut strings = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            strings.push(decode(&mut b).ok_or_else(changed)?);
        }
        Ok(strings)
    }
}

fn put_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u64(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn take_u64(b: &mut &[u8]) -> Option<u64> {
    let n = u64::from_le_bytes(b.get(..8)?.try_into().ok()?);
    *b = &b[8..];
    Some(n)
}

fn take_str(b: &mut &[u8]) -> Option<String> {
    let n = take_u64(b)? as usize;
    let s = std::str::from_utf8(b.get(..n)?).ok()?.to_string();
    *b = &b[n..];
    Some(s)
}

fn encode(out: &mut Vec<u8>, s: &MinedString) {
    put_str(out, &s.id);
    put_u64(out, s.symbols.len() as u64);
    for sym in &s.symbols {
        put_str(out, &sym.encode());
    }
    for n in [s.tf, s.df, s.coverage, s.adds] {
        put_u64(out, n);
    }
    out.push(s.bin);
    out.push(u8::from(s.idiom));
    out.push(u8::from(s.own_line));
    put_u64(out, s.cluster.map_or(u64::MAX, u64::from));
    put_str(out, &s.example);
    put_str(out, &s.regex);
}

fn decode(b: &mut &[u8]) -> Option<MinedString> {
    let id = take_str(b)?;
    let n = take_u64(b)? as usize;
    let mut symbols = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        symbols.push(Symbol::decode(&take_str(b)?));
    }
    let (tf, df, coverage, adds) = (take_u64(b)?, take_u64(b)?, take_u64(b)?, take_u64(b)?);
    let (bin, idiom, own_line) = (*b.first()?, *b.get(1)? != 0, *b.get(2)? != 0);
    *b = &b[3..];
    let cluster = take_u64(b)?;
    let cluster = if cluster == u64::MAX { None } else { Some(u32::try_from(cluster).ok()?) };
    let (example, regex) = (take_str(b)?, take_str(b)?);
    Some(MinedString { id, symbols, tf, df, bin, coverage, adds, example, regex, idiom, cluster, own_line })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(i: u32, cluster: Option<u32>) -> MinedString {
        MinedString {
            id: format!("s{i}"),
            symbols: vec![Symbol::decode("Read"), Symbol::decode("«weekday»"), Symbol::decode("«é»")],
            tf: 40 + u64::from(i),
            df: 20,
            bin: 99,
            coverage: 1234,
            adds: 56,
            example: "Read Monday «é»\n".into(),
            regex: r"Read\s+(?:Monday)".into(),
            idiom: i.is_multiple_of(2),
            cluster,
            own_line: i.is_multiple_of(3),
        }
    }

    #[test]
    fn spilled_strings_read_back_whole_each_from_its_place() {
        let spill = Spill::new().unwrap();
        let a: Vec<MinedString> = (0..3).map(|i| string(i, None)).collect();
        let b: Vec<MinedString> = vec![string(7, Some(3)), string(8, Some(u32::MAX - 1))];
        let (at_a, at_b, at_none) = (spill.put(&a).unwrap(), spill.put(&b).unwrap(), spill.put(&[]).unwrap());
        let show = |v: &[MinedString]| format!("{v:?}");
        assert_eq!(show(&spill.take(at_b).unwrap()), show(&b));
        assert_eq!(show(&spill.take(at_a).unwrap()), show(&a));
        assert!(spill.take(at_none).unwrap().is_empty());
    }
}
