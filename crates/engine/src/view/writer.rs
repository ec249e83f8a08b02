//! The view's text as the HTML reader writes it, with its map back to the source.

use std::ops::Range;

use super::map::MapBuilder;
use super::structure::{PathId, Structure};

/// The view's text as it is written: words, one space between them, one line break between blocks,
/// nothing at the start or end of a line (but a `<pre>` line's indentation), no empty line.
pub(super) struct Lines {
    pub(super) text: String,
    pub(super) map: MapBuilder,
    /// The current line has text.
    line_has_text: bool,
    /// Whitespace seen after the last word of the line: a space if more text follows on the line.
    space: Option<(Range<usize>, bool)>,
    /// A block boundary seen after the line's text: a line break if more text follows.
    line_break: Option<Range<usize>>,
    /// Indentation at the start of a `<pre>`'s line, written before the line's first word, and its text.
    indent: Option<Range<usize>>,
    indent_text: String,
    /// Each line's element path and link density, kept for HTML pages.
    pub(super) structure: Structure,
    /// The path of the innermost open element, and whether text written now sits in a link.
    pub(super) path: PathId,
    pub(super) in_link: bool,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines {
            text: String::new(),
            map: MapBuilder::default(),
            line_has_text: false,
            space: None,
            line_break: None,
            indent: None,
            indent_text: String::new(),
            structure: Structure::new(),
            path: 0,
            in_link: false,
        }
    }
}

impl Lines {
    pub(super) fn content(&mut self, s: &str, source: Range<usize>, verbatim: bool) {
        self.content_spaced(s, source, verbatim, 0);
    }

    /// [`Lines::content`] of words joined by `spaces` lone `' '`s, copied with them: what writing each
    /// word and each space by itself writes, in one call. The spaces are no text of the line's (see
    /// [`Structure::text`]).
    pub(super) fn content_spaced(&mut self, s: &str, source: Range<usize>, verbatim: bool, spaces: usize) {
        if s.is_empty() {
            return;
        }
        if let Some(brk) = self.line_break.take() {
            self.map.whole(self.text.len(), brk);
            self.text.push('\n');
            self.space = None;
            self.structure.start_line(self.path);
            self.write_indent();
        } else if self.text.is_empty() {
            self.structure.start_line(self.path);
            self.write_indent();
        } else if let Some((space, plain)) = self.space.take() {
            if plain {
                // a lone space: as verbatim as the words around it, so they stay one run
                self.map.verbatim(self.text.len(), space.start, 1);
            } else {
                self.map.whole(self.text.len(), space);
            }
            self.text.push(' ');
        }
        if verbatim {
            self.map.verbatim(self.text.len(), source.start, s.len());
        } else {
            self.map.whole(self.text.len(), source);
        }
        self.text.push_str(s);
        self.structure.text(s.len() - spaces, self.in_link);
        self.line_has_text = true;
    }

    /// Whether nothing of the current line is written yet.
    pub(super) fn at_line_start(&self) -> bool {
        !self.line_has_text
    }

    /// Whitespace `s` at `source` opening a `<pre>`'s line: kept, as a browser shows it, if a word follows
    /// on the line.
    pub(super) fn indent(&mut self, s: &str, source: Range<usize>) {
        if s.is_empty() {
            return;
        }
        self.indent = Some(source);
        self.indent_text.clear();
        self.indent_text.push_str(s);
    }

    /// Writes the pending indentation, copied as it is.
    fn write_indent(&mut self) {
        if let Some(source) = self.indent.take() {
            self.map.verbatim(self.text.len(), source.start, self.indent_text.len());
            self.text.push_str(&self.indent_text);
        }
    }

    /// Whitespace at `source`; `plain` when it is one `' '`.
    pub(super) fn space(&mut self, source: Range<usize>, plain: bool) {
        if !self.line_has_text {
            return;
        }
        self.space = Some(match self.space.take() {
            Some((s, _)) => (s.start..source.end, false),
            None => (source, plain),
        });
    }

    /// A block boundary at `source`. The line break stands for all the markup and space from the first
    /// boundary after the line's text to the last one before the next line's.
    pub(super) fn line_break(&mut self, source: Range<usize>) {
        self.indent = None;
        if self.line_has_text {
            self.line_has_text = false;
            self.line_break = Some(source);
            self.space = None;
        } else if let Some(brk) = &mut self.line_break {
            brk.end = source.end;
        }
    }
}
