//! How a document's bytes become text: a byte order mark, else UTF-8, else the encoding the page
//! declares, else a detector's guess (Mozilla's), each character mapped back to its bytes so that a
//! cleaned document is written in its own encoding.

/// How a document's bytes are text: UTF-8, UTF-16 announced by its byte order mark, or a legacy
/// encoding (windows-1251, Shift_JIS, …) that the page declares or the detector finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// UTF-8 after a byte order mark: the mark is no text, and a document written back keeps it.
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    Legacy(&'static encoding_rs::Encoding),
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => "UTF-8",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Legacy(e) => e.name(),
        }
    }

    fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 | Encoding::Legacy(_) => b"",
            Encoding::Utf8Bom => b"\xEF\xBB\xBF",
            Encoding::Utf16Le => b"\xFF\xFE",
            Encoding::Utf16Be => b"\xFE\xFF",
        }
    }

    /// What a replaced sequence is in this encoding, for messages.
    pub(super) fn replaced_what(self) -> &'static str {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => "invalid UTF-8 sequence(s)",
            Encoding::Utf16Le | Encoding::Utf16Be => "unpaired UTF-16 surrogate(s) or odd byte(s)",
            Encoding::Legacy(_) => "malformed byte sequence(s) of the encoding",
        }
    }
}

/// A document's bytes read as text, with where each of the text's bytes came from in the file.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The text, without a byte order mark; each sequence that could not be read is one U+FFFD.
    pub text: String,
    pub encoding: Encoding,
    /// How many sequences were replaced with U+FFFD.
    pub replaced: usize,
    /// A legacy encoding whose text, encoded again, is not the file's bytes (an encoding with two ways
    /// to write a character).
    unfaithful: bool,
    offsets: Offsets,
}

impl Decoded {
    /// Whether the text is the file's bytes exactly: encoding it again gives them back.
    pub fn exact(&self) -> bool {
        self.replaced == 0 && !self.unfaithful
    }

    /// `text` written as the document was: in its encoding, after its byte order mark if it had one.
    pub fn encode(&self, text: String) -> Vec<u8> {
        let bom = self.encoding.bom();
        match self.encoding {
            Encoding::Utf8 => text.into_bytes(),
            Encoding::Utf8Bom => [bom, text.as_bytes()].concat(),
            // what cleaning leaves is the page's own characters: each has its bytes in the encoding
            Encoding::Legacy(e) => e.encode(&text).0.into_owned(),
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let mut out = Vec::with_capacity(bom.len() + 2 * text.len());
                out.extend_from_slice(bom);
                let be = self.encoding == Encoding::Utf16Be;
                for u in text.encode_utf16() {
                    out.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
                }
                out
            }
        }
    }

    /// The file's byte offset of offset `i` (a char boundary) of the text: past the byte order mark, and a
    /// replaced sequence spans the bytes it replaced.
    pub fn file_offset(&self, i: usize) -> usize {
        self.offsets.file_offset(i)
    }

    /// Why the text is not the file's bytes exactly, for messages.
    pub fn inexact_message(&self) -> String {
        if self.replaced > 0 {
            format!("{} replaced with U+FFFD", self.replaced_message())
        } else {
            format!("read as {}, its text does not encode back to the same bytes", self.encoding.name())
        }
    }

    /// "N invalid UTF-8 sequence(s)" (or UTF-16's), for messages.
    pub fn replaced_message(&self) -> String {
        format!("{} {}", self.replaced, self.encoding.replaced_what())
    }
}

/// Text offsets to file offsets, as runs of characters that each take `text_step` bytes of the text and
/// `file_step` bytes of the file (an ASCII run of UTF-16: 1 and 2; a replaced sequence: 3 and its length).
/// No runs: the identity. Built in one pass; a lookup is a binary search.
#[derive(Debug, Clone, Default)]
struct Offsets {
    runs: Vec<Run>,
}

#[derive(Debug, Clone, Copy)]
struct Run {
    text: usize,
    file: usize,
    text_step: u32,
    file_step: u32,
}

impl Offsets {
    /// Characters from `text` (of the text) and `file` (of the file), each `text_step` and `file_step`
    /// bytes long; runs are pushed in order, and one of the same steps as the last extends it.
    fn push(&mut self, text: usize, file: usize, text_step: u32, file_step: u32) {
        if self.runs.last().is_some_and(|r| r.text_step == text_step && r.file_step == file_step) {
            return;
        }
        self.runs.push(Run { text, file, text_step, file_step });
    }

    fn file_offset(&self, i: usize) -> usize {
        let Some(k) = self.runs.partition_point(|r| r.text <= i).checked_sub(1) else {
            return i;
        };
        let r = self.runs[k];
        r.file + (i - r.text) / r.text_step as usize * r.file_step as usize
    }
}

/// Reads a document's bytes: UTF-16 after its byte order mark; else UTF-8 (after a byte order mark, if
/// one) when the bytes are UTF-8; else the legacy encoding the page declares in its first 1,024 bytes
/// (`<meta charset>`, `http-equiv` Content-Type, an XML declaration), else the one Mozilla's detector
/// finds; each sequence that cannot be read replaced with U+FFFD. `None` for binary (NUL bytes).
///
/// Bytes that are UTF-8 are read as UTF-8 whatever the page declares: a page saved again as UTF-8 keeps
/// its old declaration far more often than text in a legacy encoding is UTF-8 by chance. So are bytes
/// with at least as many UTF-8 characters beyond ASCII as invalid sequences (a UTF-8 page cut off in a
/// character, or with a stray byte): text in a legacy encoding almost never holds one.
pub fn read_text(bytes: Vec<u8>) -> Option<Decoded> {
    read_text_as(bytes, None)
}

/// [`read_text`], or with `forced` the bytes read in that encoding (a byte order mark still wins).
pub fn read_text_as(bytes: Vec<u8>, forced: Option<&'static encoding_rs::Encoding>) -> Option<Decoded> {
    let decoded = if bytes.starts_with(b"\xFF\xFE") {
        utf16(&bytes, Encoding::Utf16Le)
    } else if bytes.starts_with(b"\xFE\xFF") {
        utf16(&bytes, Encoding::Utf16Be)
    } else {
        // (memchr's search reads a vector register at a time; the slice's own, a word)
        if memchr::memchr(0, &bytes).is_some() {
            return None;
        }
        let utf8_bom = bytes.starts_with(b"\xEF\xBB\xBF");
        // UTF-8 as it is, nothing forced: validated once, here (`mostly_utf8`, then `utf8`, would each
        // validate it again); no NUL in it, as just found
        let bytes = match forced {
            None if !utf8_bom => match String::from_utf8(bytes) {
                Ok(text) => {
                    let (encoding, offsets) = (Encoding::Utf8, Offsets::default());
                    return Some(Decoded { text, encoding, replaced: 0, unfaithful: false, offsets });
                }
                Err(e) => e.into_bytes(),
            },
            _ => bytes,
        };
        let legacy = match forced {
            Some(e) if e == encoding_rs::UTF_8 => None,
            Some(e) => Some(e),
            None if utf8_bom || mostly_utf8(&bytes) => None,
            None => Some(declared(&bytes).unwrap_or_else(|| detected(&bytes))),
        };
        match legacy.filter(|e| !utf8_bom && *e != encoding_rs::UTF_8) {
            Some(e) => legacy_text(&bytes, e),
            None => utf8(bytes),
        }
    };
    memchr::memchr(0, decoded.text.as_bytes()).is_none().then_some(decoded)
}

/// Whether `bytes` are UTF-8, or UTF-8 with a few invalid sequences: at least as many characters beyond
/// ASCII as invalid sequences, and one of them.
fn mostly_utf8(bytes: &[u8]) -> bool {
    if std::str::from_utf8(bytes).is_ok() {
        return true;
    }
    let (mut wide, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        // a lead byte starts each character beyond ASCII
        wide += chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    wide > 0 && wide >= invalid
}

/// The encoding a page declares in its first 1,024 bytes, as a browser's prescan finds it (UTF-16 and
/// x-user-defined labels aside: bytes without a byte order mark and with no NUL are not UTF-16).
fn declared(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let lower: Vec<u8> = head.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = find(&lower[from..], b"charset").map(|i| from + i) {
        from = at + 7;
        let rest = &lower[from..];
        let rest = &rest[rest.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(rest.len())..];
        let Some(rest) = rest.strip_prefix(b"=") else { continue };
        let rest = &rest[rest.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(rest.len())..];
        let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
        let end = rest.iter().position(|c| matches!(c, b'"' | b'\'' | b';' | b'>' | b' ' | b'/')).unwrap_or(rest.len());
        if let Some(e) = encoding_rs::Encoding::for_label(&rest[..end]) {
            return (e != encoding_rs::UTF_16LE && e != encoding_rs::UTF_16BE && e != encoding_rs::X_USER_DEFINED)
                .then_some(e);
        }
    }
    // an XML declaration: <?xml version="1.0" encoding="…"?>
    let decl = lower.strip_prefix(b"<?xml")?;
    let at = find(decl, b"encoding=")? + 9;
    let rest = &decl[at..];
    let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
    let end = rest.iter().position(|c| matches!(c, b'"' | b'\'' | b'?' | b' ')).unwrap_or(rest.len());
    encoding_rs::Encoding::for_label(&rest[..end])
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The encoding Mozilla's detector (chardetng, as Firefox uses it) finds for bytes that are not UTF-8.
fn detected(bytes: &[u8]) -> &'static encoding_rs::Encoding {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(bytes, true);
    detector.guess(None, true)
}

/// `bytes` decoded in the legacy encoding `e`, with where each character came from. A single-byte
/// encoding maps each character to its byte; a multi-byte one is fed to the decoder a byte at a time, so
/// each character's bytes are known (still one pass).
fn legacy_text(bytes: &[u8], e: &'static encoding_rs::Encoding) -> Decoded {
    let mut decoder = e.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
    let mut offsets = Offsets::default();
    let mut replaced = 0;
    if e.is_single_byte() {
        let (decoded, malformed) = e.decode_without_bom_handling(bytes);
        for (file, c) in decoded.chars().enumerate() {
            offsets.push(text.len(), file, c.len_utf8() as u32, 1);
            text.push(c);
            replaced += usize::from(malformed && c == '\u{FFFD}');
        }
    } else {
        // `start`: the first byte of the character being decoded
        let mut start = 0;
        for i in 0..=bytes.len() {
            let (last, src) = if i == bytes.len() { (true, &bytes[i..]) } else { (false, &bytes[i..i + 1]) };
            text.reserve(decoder.max_utf8_buffer_length(src.len()).unwrap_or(16));
            let before = text.len();
            let (_, _, malformed) = decoder.decode_to_string(src, &mut text, last);
            replaced += usize::from(malformed);
            if text.len() > before {
                // one character a byte at most, but a decoder may hold a byte back and emit two
                let file = start;
                for (k, c) in text[before..].char_indices() {
                    let step = if k == 0 { (i + 1).min(bytes.len()) - file } else { 0 };
                    offsets.push(before + k, file, c.len_utf8() as u32, step as u32);
                }
                start = (i + 1).min(bytes.len());
            }
        }
    }
    let unfaithful = e.encode(&text).0.as_ref() != bytes;
    Decoded { text, encoding: Encoding::Legacy(e), replaced, unfaithful, offsets }
}

fn utf8(mut bytes: Vec<u8>) -> Decoded {
    let (encoding, skip) =
        if bytes.starts_with(b"\xEF\xBB\xBF") { (Encoding::Utf8Bom, 3) } else { (Encoding::Utf8, 0) };
    bytes.drain(..skip);
    let mut offsets = Offsets::default();
    if skip > 0 {
        offsets.push(0, skip, 1, 1);
    }
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Decoded { text, encoding, replaced: 0, unfaithful: false, offsets },
        Err(e) => e.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len());
    let (mut file, mut replaced) = (skip, 0);
    for chunk in bytes.utf8_chunks() {
        if !chunk.valid().is_empty() {
            offsets.push(text.len(), file, 1, 1);
            text.push_str(chunk.valid());
            file += chunk.valid().len();
        }
        let invalid = chunk.invalid().len();
        if invalid > 0 {
            // a maximal invalid sequence is at most 3 bytes
            offsets.push(text.len(), file, 3, invalid as u32);
            text.push('\u{FFFD}');
            file += invalid;
            replaced += 1;
        }
    }
    Decoded { text, encoding, replaced, unfaithful: false, offsets }
}

fn utf16(bytes: &[u8], encoding: Encoding) -> Decoded {
    let body = &bytes[2..];
    let be = encoding == Encoding::Utf16Be;
    let units = body
        .chunks_exact(2)
        .map(|u| if be { u16::from_be_bytes([u[0], u[1]]) } else { u16::from_le_bytes([u[0], u[1]]) });
    let mut text = String::with_capacity(body.len() / 2);
    let mut offsets = Offsets::default();
    let (mut file, mut replaced) = (2, 0);
    for c in char::decode_utf16(units) {
        let (c, units) = match c {
            Ok(c) => (c, c.len_utf16()),
            Err(_) => {
                replaced += 1;
                ('\u{FFFD}', 1)
            }
        };
        offsets.push(text.len(), file, c.len_utf8() as u32, 2 * units as u32);
        text.push(c);
        file += 2 * units;
    }
    if body.len() % 2 == 1 {
        offsets.push(text.len(), file, 3, 1);
        text.push('\u{FFFD}');
        replaced += 1;
    }
    Decoded { text, encoding, replaced, unfaithful: false, offsets }
}

/// Decodes bytes as [`read_text`] does (a byte order mark skipped, UTF-16 by its mark), lossily; `None`
/// for binary (NUL bytes). The count is of replaced sequences.
pub fn decode(bytes: Vec<u8>) -> Option<(String, usize)> {
    read_text(bytes).map(|d| (d.text, d.replaced))
}

/// Decodes bytes as UTF-8, replacing each invalid sequence with U+FFFD; the count is of replaced sequences.
pub fn decode_lossy(bytes: Vec<u8>) -> (String, usize) {
    match String::from_utf8(bytes) {
        Ok(s) => (s, 0),
        Err(e) => {
            let bytes = e.into_bytes();
            let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
            (String::from_utf8_lossy(&bytes).into_owned(), replaced)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossy_counts_invalid_sequences() {
        // UTF-8 with invalid sequences ("é" three times): read as UTF-8, each replaced
        let (s, n) = decode("ééé ok ".bytes().chain(*b"\xff\xfe and \xc3").collect()).unwrap();
        assert_eq!(n, 3, "\\xff and \\xfe are invalid apart; a truncated \\xc3 is one more");
        assert!(s.starts_with("ééé ok \u{FFFD}"));
        assert!(decode(b"a\0b".to_vec()).is_none());
    }

    #[test]
    fn bytes_with_no_utf8_beyond_ascii_are_read_in_the_encoding_found() {
        let d = read_text(b"Caf\xe9 cr\xe8me, the article.".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.encoding.name(), d.exact()), ("Café crème, the article.", "windows-1252", true));
        // a UTF-8 page cut off inside a character stays UTF-8
        let d = read_text("Café crème ".bytes().chain(*b"\xc3").collect()).unwrap();
        assert_eq!((d.encoding, d.replaced), (Encoding::Utf8, 1));
    }

    #[test]
    fn file_offsets_count_the_byte_order_mark_utf16_and_replaced_bytes() {
        let d = read_text(b"\xEF\xBB\xBFab".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.encoding, d.file_offset(0), d.file_offset(2)), ("ab", Encoding::Utf8Bom, 3, 5));
        // "a", then a truncated 4-byte sequence (one U+FFFD), then "é"
        let d = read_text(b"a\xf0\x9f\x98\xc3\xa9".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.replaced, d.file_offset(4)), ("a\u{FFFD}\u{e9}", 1, 4));
        let d = read_text(b"a\xff\xfe\xc3\xa9\xc3\xa9".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.replaced), ("a\u{FFFD}\u{FFFD}\u{e9}\u{e9}", 2));
        let offsets: Vec<usize> = [0, 1, 4, 7, 9].iter().map(|&i| d.file_offset(i)).collect();
        assert_eq!(offsets, [0, 1, 2, 3, 5]);
        // UTF-16LE: "a" (1 ↔ 2), "é" (2 ↔ 2), "𝄞" (4 ↔ 4)
        let bytes = b"\xFF\xFEa\x00\xe9\x00\x34\xd8\x1e\xdd".to_vec();
        let d = read_text(bytes.clone()).unwrap();
        assert_eq!((d.text.as_str(), d.encoding, d.exact()), ("a\u{e9}\u{1D11E}", Encoding::Utf16Le, true));
        let offsets: Vec<usize> = [0, 1, 3, 7].iter().map(|&i| d.file_offset(i)).collect();
        assert_eq!(offsets, [2, 4, 6, 10]);
        assert_eq!(d.encode(d.text.clone()), bytes, "written back as read");
        assert!(read_text(b"\xFE\xFF\x00\x00".to_vec()).is_none(), "a NUL character is binary in UTF-16 too");
    }
}
