//! Searches of the HTML reader that never cover the same bytes twice. A page with a `<!--` and no
//! `-->`, or thousands of `<a title="` and no closing quote, would make a plain search from each start
//! rescan the rest of the page every time; remembering the last answer of each needle (no occurrence in
//! `from..found`) keeps the whole read linear.

use memchr::memmem;

/// What the reader looks for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Needle {
    Lt,
    Gt,
    DoubleQuote,
    SingleQuote,
    CommentEnd,
    EndTagOpen,
}

const NEEDLES: usize = 6;

pub(crate) struct Search<'a> {
    hay: &'a [u8],
    /// Per needle, the last search: no occurrence in `from..found`, and one at `found` (or none at all
    /// when `found` is the end).
    last: [(usize, usize); NEEDLES],
    comment_end: memmem::Finder<'static>,
    end_tag_open: memmem::Finder<'static>,
    /// Bytes the searches examined: the reader's cost, which tests bound.
    pub(crate) work: u64,
}

impl<'a> Search<'a> {
    pub(crate) fn new(hay: &'a [u8]) -> Search<'a> {
        Search {
            hay,
            // from > found: never a hit
            last: [(1, 0); NEEDLES],
            comment_end: memmem::Finder::new(b"-->"),
            end_tag_open: memmem::Finder::new(b"</"),
            work: 0,
        }
    }

    /// The first occurrence of `needle` at or after `from`.
    pub(crate) fn find(&mut self, needle: Needle, from: usize) -> Option<usize> {
        let len = self.hay.len();
        if from >= len {
            return None;
        }
        let (f, found) = self.last[needle as usize];
        let found = if f <= from && from <= found {
            found
        } else {
            let rest = &self.hay[from..];
            let at = match needle {
                Needle::Lt => memchr::memchr(b'<', rest),
                Needle::Gt => memchr::memchr(b'>', rest),
                Needle::DoubleQuote => memchr::memchr(b'"', rest),
                Needle::SingleQuote => memchr::memchr(b'\'', rest),
                Needle::CommentEnd => self.comment_end.find(rest),
                Needle::EndTagOpen => self.end_tag_open.find(rest),
            };
            let found = at.map_or(len, |i| from + i);
            self.work += (found - from) as u64;
            self.last[needle as usize] = (from, found);
            found
        };
        (found < len).then_some(found)
    }
}
