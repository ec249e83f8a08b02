//! WARC files (1.0 and 1.1), plain or gzipped (one gzip member a record, or the whole file one member),
//! read as a stream: one record in memory at a time. A record that is not well formed is reported with
//! its number and offset and skipped: the reader finds the next `WARC/` version line and goes on. A gzip
//! stream that is damaged or cut short ends the file there, the records before it kept.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// One record: its named headers and its content block.
#[derive(Debug)]
pub struct Record {
    /// Its 1-based number in the file, for messages.
    pub number: usize,
    /// Its offset in the (uncompressed) stream.
    pub offset: u64,
    pub headers: Vec<(String, String)>,
    pub block: Vec<u8>,
}

impl Record {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A longer header line is no WARC header: the reader is lost in a record's content.
const MAX_LINE: u64 = 64 << 10;
/// Records larger than this are skipped (reported) without being held in memory.
pub const MAX_RECORD: u64 = 64 << 20;

/// Records of a WARC stream; an `Err` is a record reported and skipped (or the end of a damaged stream).
pub struct Reader<R> {
    input: R,
    path: PathBuf,
    number: usize,
    offset: u64,
    /// A version line read while looking for the next record (after a bad one).
    pending: Option<Vec<u8>>,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R, path: &Path) -> Self {
        Reader { input, path: path.to_path_buf(), number: 0, offset: 0, pending: None, done: false }
    }

    /// One line with its end, at most [`MAX_LINE`] bytes; empty at the end of the stream.
    fn line(&mut self) -> std::io::Result<Vec<u8>> {
        let mut line = Vec::new();
        (&mut self.input).take(MAX_LINE).read_until(b'\n', &mut line)?;
        self.offset += line.len() as u64;
        Ok(line)
    }

    fn error(&self, at: u64, message: impl std::fmt::Display) -> String {
        format!(
            "{}: WARC record {} (at byte {at} of the uncompressed stream): {message}",
            self.path.display(),
            self.number
        )
    }

    /// The stream failed (a damaged or truncated gzip member, a read error): nothing after it is read.
    fn broken(&mut self, at: u64, e: std::io::Error) -> String {
        self.done = true;
        let what = if e.kind() == std::io::ErrorKind::UnexpectedEof {
            "the file ends inside this record (truncated)".to_string()
        } else {
            format!("the stream cannot be read further ({e})")
        };
        format!("{}; the records before it are read, none after it", self.error(at, what))
    }

    /// Skips to the next line that starts a record, kept in `pending`.
    fn resync(&mut self) -> std::io::Result<()> {
        loop {
            let line = self.line()?;
            if line.is_empty() {
                return Ok(());
            }
            if line.starts_with(b"WARC/") {
                self.pending = Some(line);
                return Ok(());
            }
        }
    }

    fn next_record(&mut self) -> Option<Result<Record, String>> {
        if self.done {
            return None;
        }
        // the version line, past the blank lines that end the previous record
        let (version, at) = match self.pending.take() {
            Some(line) => {
                let at = self.offset - line.len() as u64;
                (line, at)
            }
            None => loop {
                let at = self.offset;
                match self.line() {
                    Ok(line) if line.is_empty() => return None,
                    Ok(line) if line.iter().all(u8::is_ascii_whitespace) => continue,
                    Ok(line) => break (line, at),
                    Err(e) => {
                        self.number += 1;
                        return Some(Err(self.broken(at, e)));
                    }
                }
            },
        };
        self.number += 1;
        if !version.starts_with(b"WARC/") {
            let shown: String = String::from_utf8_lossy(&version).chars().take(40).collect();
            let err = self.error(
                at,
                format!("expected a version line `WARC/1.x`, found {:?}; skipped to the next record", shown.trim_end()),
            );
            if let Err(e) = self.resync() {
                return Some(Err(format!("{err}; then {}", self.broken(self.offset, e))));
            }
            return Some(Err(err));
        }
        let mut headers: Vec<(String, String)> = Vec::new();
        loop {
            let line = match self.line() {
                Ok(l) => l,
                Err(e) => return Some(Err(self.broken(at, e))),
            };
            if line.is_empty() {
                self.done = true;
                return Some(Err(self.error(at, "the file ends inside this record's headers (truncated)")));
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                break;
            }
            if text.starts_with([' ', '\t']) {
                // a folded header goes on the previous one
                if let Some((_, v)) = headers.last_mut() {
                    v.push(' ');
                    v.push_str(text.trim());
                }
                continue;
            }
            match text.split_once(':') {
                Some((k, v)) => headers.push((k.trim().to_string(), v.trim().to_string())),
                None => {
                    let err = self.error(
                        at,
                        format!("a header line without `:`: {:?}; skipped to the next record", truncate(text)),
                    );
                    if let Err(e) = self.resync() {
                        return Some(Err(format!("{err}; then {}", self.broken(self.offset, e))));
                    }
                    return Some(Err(err));
                }
            }
        }
        let length =
            headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("Content-Length")).map(|(_, v)| v.parse::<u64>());
        let length = match length {
            Some(Ok(n)) => n,
            other => {
                let what =
                    if other.is_none() { "no Content-Length header" } else { "a Content-Length that is not a number" };
                let err = self.error(at, format!("{what}; skipped to the next record"));
                if let Err(e) = self.resync() {
                    return Some(Err(format!("{err}; then {}", self.broken(self.offset, e))));
                }
                return Some(Err(err));
            }
        };
        if length > MAX_RECORD {
            let copied = std::io::copy(&mut (&mut self.input).take(length), &mut std::io::sink());
            self.offset += copied.as_ref().copied().unwrap_or(0);
            return Some(match copied {
                Ok(n) if n == length => Err(self
                    .error(at, format!("{length} bytes, over the {} MiB read of a record; skipped", MAX_RECORD >> 20))),
                Ok(_) => Err(self.broken(at, std::io::ErrorKind::UnexpectedEof.into())),
                Err(e) => Err(self.broken(at, e)),
            });
        }
        let mut block = Vec::with_capacity(length as usize);
        match (&mut self.input).take(length).read_to_end(&mut block) {
            Ok(n) => self.offset += n as u64,
            Err(e) => return Some(Err(self.broken(at, e))),
        }
        if (block.len() as u64) < length {
            self.done = true;
            return Some(Err(
                self.error(at, format!("the file ends {} bytes into this record's {length} (truncated)", block.len()))
            ));
        }
        Some(Ok(Record { number: self.number, offset: at, headers, block }))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Record, String>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_record()
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: &str, body: &str) -> String {
        format!("WARC/1.0\r\nWARC-Type: {kind}\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n", body.len())
    }

    fn read(bytes: &[u8]) -> Vec<Result<Record, String>> {
        Reader::new(bytes, Path::new("t.warc")).collect()
    }

    #[test]
    fn records_are_read_in_order_with_their_blocks() {
        let text = record("warcinfo", "a: b") + &record("response", "HTTP/1.1 200 OK\r\n\r\nhi");
        let got = read(text.as_bytes());
        assert_eq!(got.len(), 2);
        let r = got[1].as_ref().unwrap();
        assert_eq!((r.number, r.header("warc-type")), (2, Some("response")));
        assert_eq!(r.block, b"HTTP/1.1 200 OK\r\n\r\nhi");
    }

    #[test]
    fn a_bad_record_is_reported_and_the_next_one_read() {
        let text = "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: x\r\n\r\nbody\r\n\r\n".to_string()
            + &record("response", "ok");
        let got = read(text.as_bytes());
        assert_eq!(got.len(), 2, "{got:?}");
        let err = got[0].as_ref().unwrap_err();
        assert!(err.contains("t.warc: WARC record 1") && err.contains("Content-Length"), "{err}");
        assert_eq!(got[1].as_ref().unwrap().block, b"ok");
    }

    #[test]
    fn a_truncated_record_ends_the_file_with_an_error() {
        let text = record("response", "first") + "WARC/1.0\r\nContent-Length: 100\r\n\r\nshort";
        let got = read(text.as_bytes());
        assert_eq!(got.len(), 2);
        assert!(got[0].is_ok());
        assert!(got[1].as_ref().unwrap_err().contains("truncated"), "{:?}", got[1]);
    }
}
