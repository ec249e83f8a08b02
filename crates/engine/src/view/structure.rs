//! Where each line of an HTML page's view sits in the page: its element path and its link density.
//!
//! Text statistics cannot see a block whose words change on every page while its place does not: reader
//! comments, related-story strips, galleries, author boxes. Their container (`div#comments`,
//! `ul.related-links`) is the same on every page. So the reader records, for each line of the view, the
//! path of elements open where the line starts (tag, id and classes of each, innermost last) and how much
//! of the line's text sits inside links.
//!
//! Paths are interned as a trie while the page is read: an element's path is its parent's path and its
//! own label, found with one hash lookup when the element opens, so a line's path costs O(1) whatever the
//! nesting depth. Digits in ids and classes are generalized (`post-1234` → `post-0`), as the mutable
//! patterns generalize numbers in text, so that one template's blocks share a path across pages.
//!
//! Each path also knows whether its element breaks lines (a block, see `elements.rs`): a line lies
//! inside such an element from its first word to its last, so "the lines under `div#comments`" is exact.
//! A line merely starting inside an inline element (a link, a `<span>`) says nothing about the rest of it.

use std::hash::{BuildHasher, Hasher};

use foldhash::{HashMap, HashMapExt};

/// Writes the label of an element in a path onto `s`: `tag`, then `#id` and `.class` for each class,
/// digits runs as `0`. Ids and classes past [`MAX_ATTRIBUTE`] bytes are cut there: no template names its
/// blocks that long.
fn push_label(s: &mut String, tag: &str, id: Option<&[u8]>, class: Option<&[u8]>) {
    s.push_str(tag);
    if let Some(id) = id.filter(|id| !id.is_empty()) {
        s.push('#');
        push_generalized(s, id);
    }
    if let Some(class) = class {
        for c in class.split(|b| b.is_ascii_whitespace()).filter(|c| !c.is_empty()) {
            s.push('.');
            push_generalized(s, c);
        }
    }
}

/// Bytes of an id or a class attribute a label keeps.
pub const MAX_ATTRIBUTE: usize = 64;

fn push_generalized(s: &mut String, value: &[u8]) {
    let value = &value[..value.len().min(MAX_ATTRIBUTE)];
    let Ok(value) = std::str::from_utf8(value) else {
        return push_generalized_chars(s, &String::from_utf8_lossy(value));
    };
    // UTF-8 puts no ASCII digit inside another character: runs between digits are copied whole
    let bytes = value.as_bytes();
    let mut from = 0;
    while let Some(d) = bytes[from..].iter().position(u8::is_ascii_digit) {
        s.push_str(&value[from..from + d]);
        s.push('0');
        from += d + bytes[from + d..].iter().position(|b| !b.is_ascii_digit()).unwrap_or(bytes.len() - from - d);
    }
    s.push_str(&value[from..]);
}

/// [`push_generalized`] of a value that was not UTF-8, read with replacement characters.
fn push_generalized_chars(s: &mut String, value: &str) {
    let mut in_digits = false;
    for ch in value.chars() {
        if ch.is_ascii_digit() {
            if !in_digits {
                s.push('0');
            }
            in_digits = true;
        } else {
            in_digits = false;
            s.push(ch);
        }
    }
}

/// Each byte as a label writes it: an ASCII digit as `0`, ASCII whitespace as a space.
static FOLD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_digit() {
            b'0'
        } else if c.is_ascii_whitespace() {
            b' '
        } else {
            c
        };
        b += 1;
    }
    t
};

/// An element label (`tag#id.class1.class2`, as the view writes it) split into its tag and the rest
/// (`#id.class1.class2`, empty for a bare tag).
pub fn split_label(label: &str) -> (&str, &str) {
    label.split_at(label.find(['#', '.']).unwrap_or(label.len()))
}

/// The element paths of a page's lines and their link density (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Structure {
    /// Path `i` (0 is the empty path: the page's top) is path `parent[i]` with its label added.
    parent: Vec<u32>,
    /// Every path's label, one after another: path `i`'s ends at `label_end[i]`, where `i + 1`'s starts
    /// (one buffer: a page opens many elements, and a label each would be an allocation each).
    labels: String,
    label_end: Vec<u32>,
    /// Whether path `i`'s element breaks lines (a block).
    block: Vec<bool>,
    /// A path by its parent and a hash of its element's tag, id and class as written: an element whose
    /// path is known costs one hash of its attributes and one lookup, no allocation.
    children: HashMap<(u32, u64), u32>,
    /// Per view line: its path, the bytes of its text, the bytes of its text inside links.
    line_path: Vec<u32>,
    line_bytes: Vec<u32>,
    line_link_bytes: Vec<u32>,
}

/// A path in a page's [`Structure`].
pub type PathId = u32;

impl Structure {
    pub(super) fn new() -> Structure {
        Structure {
            parent: vec![0],
            labels: String::new(),
            label_end: vec![0],
            block: vec![false],
            children: HashMap::new(),
            ..Structure::default()
        }
    }

    /// The path of element `tag` (lowercase) with attributes `id` and `class`, opened inside path `parent`.
    pub(super) fn child(&mut self, parent: PathId, tag: &[u8], id: Option<&[u8]>, class: Option<&[u8]>) -> PathId {
        let mut h = foldhash::fast::FixedState::with_seed(0).build_hasher();
        // the label's own bytes, hashed as the label writes them: in ids and classes digit runs as one `0`,
        // spaces as one
        let mut buf = [0u8; MAX_ATTRIBUTE];
        // the tag as written: `h1` and `h2` are different elements, whatever digits do in ids and classes
        h.write(tag);
        h.write_u8(0xff);
        for part in [id, class] {
            let part = part.unwrap_or(b"");
            let mut n = 0;
            for &b in &part[..part.len().min(MAX_ATTRIBUTE)] {
                let b = FOLD[usize::from(b)];
                let repeat = n > 0 && buf[n - 1] == b && (b == b'0' || b == b' ');
                // written always, kept (counted) unless it repeats: no branch on the bytes
                buf[n] = b;
                n += usize::from(!repeat);
            }
            h.write(&buf[..n]);
            h.write_u8(0xff);
        }
        let next = self.parent.len() as u32;
        let path = *self.children.entry((parent, h.finish())).or_insert(next);
        if path == next {
            self.parent.push(parent);
            push_label(&mut self.labels, &String::from_utf8_lossy(tag), id, class);
            self.end_label();
            self.block.push(super::elements::breaks_line(super::elements::key(tag)));
        }
        path
    }

    /// The path of a block element labelled `label` (as [`Structure::label`] writes it) inside path
    /// `parent`: a structure read back from where a source's lines sit ([`super::paths::SourcePaths`]),
    /// which keeps labels, not attributes.
    pub(super) fn block_child(&mut self, parent: PathId, label: &str) -> PathId {
        self.parent.push(parent);
        self.labels.push_str(label);
        self.end_label();
        self.block.push(true);
        (self.parent.len() - 1) as PathId
    }

    /// The label just written onto `labels` is the newest path's.
    fn end_label(&mut self) {
        self.label_end.push(u32::try_from(self.labels.len()).expect("a page's labels under 4 GiB"));
    }

    /// A line starts, inside path `path`.
    pub(super) fn start_line(&mut self, path: PathId) {
        self.line_path.push(path);
        self.line_bytes.push(0);
        self.line_link_bytes.push(0);
    }

    /// A line starts, inside path `path`, `percent` percent of its text inside links: a line read back
    /// from where a source's lines sit ([`super::paths::SourcePaths`]), which keeps each line's
    /// [`Structure::link_percent`], not its bytes.
    pub(super) fn start_line_with_links(&mut self, path: PathId, percent: u8) {
        self.line_path.push(path);
        self.line_bytes.push(100);
        self.line_link_bytes.push(u32::from(percent.min(100)));
    }

    /// `len` bytes of text were written on the current line, inside a link or not.
    pub(super) fn text(&mut self, len: usize, in_link: bool) {
        let len = len.min(u32::MAX as usize) as u32;
        if let (Some(all), Some(link)) = (self.line_bytes.last_mut(), self.line_link_bytes.last_mut()) {
            *all = all.saturating_add(len);
            if in_link {
                *link = link.saturating_add(len);
            }
        }
    }

    /// How many lines the view has.
    pub fn lines(&self) -> usize {
        self.line_path.len()
    }

    /// The path of line `line` (0-based, as the view's lines).
    pub fn line_path(&self, line: usize) -> PathId {
        self.line_path[line]
    }

    /// The share of line `line`'s text that sits inside links: 1.0 for a menu item, near 0 for prose.
    pub fn link_density(&self, line: usize) -> f64 {
        let all = self.line_bytes[line];
        if all == 0 { 0.0 } else { f64::from(self.line_link_bytes[line]) / f64::from(all) }
    }

    /// The whole percent of line `line`'s text inside links, rounded down: a line is at least `share`
    /// percent inside links exactly when this is at least `share`, so a structure that keeps only this per
    /// line ([`super::paths::SourcePaths::structure`]) reads as the page's.
    pub fn link_percent(&self, line: usize) -> u8 {
        let all = u64::from(self.line_bytes[line]);
        (u64::from(self.line_link_bytes[line]) * 100).checked_div(all).map_or(0, |p| p as u8)
    }

    /// How many paths the page has (path 0, the page's top, included); a path's parent is a lower number.
    pub fn paths(&self) -> usize {
        self.parent.len()
    }

    /// The path `path` is inside (0 for the page's top, whose parent is itself).
    pub fn parent(&self, path: PathId) -> PathId {
        self.parent[path as usize]
    }

    /// The label of `path`'s innermost element: `tag`, `#id`, `.class`… (empty for the page's top).
    pub fn label(&self, path: PathId) -> &str {
        let p = path as usize;
        let start = if p == 0 { 0 } else { self.label_end[p - 1] as usize };
        &self.labels[start..self.label_end[p] as usize]
    }

    /// The tag of `path`'s innermost element, as its label writes it (lowercase; empty for the page's top).
    pub fn tag(&self, path: PathId) -> &str {
        split_label(self.label(path)).0
    }

    /// Whether `path`'s innermost element breaks lines (a block): every line under it lies inside it whole.
    pub fn breaks_line(&self, path: PathId) -> bool {
        self.block[path as usize]
    }

    /// The labels of path `path`, outermost first. Paths are numbered per page: compare pages' paths by
    /// their labels.
    pub fn labels(&self, mut path: PathId) -> Vec<&str> {
        let mut out = Vec::new();
        while path != 0 {
            out.push(self.label(path));
            path = self.parent[path as usize];
        }
        out.reverse();
        out
    }

    /// Path `path` written out: its labels joined by ` > `, outermost first.
    pub fn path_text(&self, path: PathId) -> String {
        self.labels(path).join(" > ")
    }
}

#[cfg(test)]
mod tests {
    use crate::view::PageView;

    fn lines(html: &str) -> Vec<(String, String, f64)> {
        let view = PageView::of_html(html);
        let s = view.structure().expect("an HTML page has a structure");
        assert_eq!(s.lines(), view.text().lines().count(), "one path per line of {:?}", view.text());
        view.text()
            .lines()
            .enumerate()
            .map(|(i, l)| (l.to_string(), s.path_text(s.line_path(i)), s.link_density(i)))
            .collect()
    }

    #[test]
    fn headings_of_different_levels_are_different_elements() {
        // digits in ids and classes are generalized (`post-0`), but `h2` and `h1` are not one element
        let got =
            lines("<body><div><h2>A section heading</h2><h1>The headline</h1><h3 id=\"c12\">More</h3></div></body>");
        let paths: Vec<&str> = got.iter().map(|l| l.1.as_str()).collect();
        assert_eq!(paths, ["body > div > h2", "body > div > h1", "body > div > h3#c0"], "{got:?}");
    }

    #[test]
    fn each_line_knows_the_elements_it_sits_in() {
        let got = lines(
            "<html><body><div id=\"main\"><p>The harbour opened.</p></div>\
             <div id=\"comments\" class=\"thread  open\"><p>First!</p></div></body></html>",
        );
        assert_eq!(got[0].1, "html > body > div#main > p");
        assert_eq!(got[1].1, "html > body > div#comments.thread.open > p");
    }

    #[test]
    fn digits_in_ids_and_classes_are_generalized_so_pages_share_paths() {
        let a = lines("<div id=\"post-1234\" class=\"c12 x\"><p>One.</p></div>");
        let b = lines("<div id=\"post-98\" class=\"c7 x\"><p>Two.</p></div>");
        assert_eq!(a[0].1, "div#post-0.c0.x > p");
        assert_eq!(a[0].1, b[0].1);
    }

    #[test]
    fn elements_that_differ_only_in_digits_share_one_path_within_a_page() {
        let view = PageView::of_html("<ul><li id=\"n1\">One.</li><li id=\"n22\">Two.</li></ul>");
        let s = view.structure().unwrap();
        assert_eq!(s.line_path(0), s.line_path(1));
    }

    #[test]
    fn link_density_is_the_share_of_a_line_inside_links() {
        let got = lines(
            "<ul><li><a href=\"/a\">Sport</a></li></ul>\
             <p>The harbour opened on Monday, <a href=\"/x\">says</a> the mayor.</p>",
        );
        assert_eq!(got[0].2, 1.0);
        assert!(got[1].2 > 0.0 && got[1].2 < 0.2, "{got:?}");
    }

    #[test]
    fn the_link_percent_is_the_link_share_rounded_down_so_a_threshold_reads_it_exactly() {
        // 2 of 3 bytes inside a link: 66.6 percent
        let view = PageView::of_html("<p><a href=\"/x\">ab</a>c</p><p>plain</p><p><a>all</a></p>");
        let s = view.structure().unwrap();
        assert_eq!((s.link_percent(0), s.link_percent(1), s.link_percent(2)), (66, 0, 100));
        for share in 0..=100u8 {
            for line in 0..s.lines() {
                assert_eq!(s.link_percent(line) >= share, s.link_density(line) >= f64::from(share) / 100.0);
            }
        }
    }

    #[test]
    fn spaces_between_words_are_no_text_of_the_line_even_when_copied_with_the_words() {
        // 4 of 6 word bytes inside the link; counting the spaces would give 5 of 8
        let view = PageView::of_html("<p><a href=\"/x\">ab cd</a> ef</p><p>a b  c &amp; d</p>");
        let s = view.structure().unwrap();
        assert_eq!(view.text(), "ab cd ef\na b c & d");
        assert_eq!(s.link_percent(0), 66);
        assert_eq!(s.link_density(1), 0.0);
    }

    #[test]
    fn a_line_after_an_element_closes_sits_in_its_parent_again() {
        let got = lines("<div class=\"a\"><p>One.</p>Two.<span>three</span></div>");
        assert_eq!(got[0].1, "div.a > p");
        assert_eq!(got[1].1, "div.a");
    }

    #[test]
    fn a_path_knows_its_parent_label_and_whether_its_element_breaks_lines() {
        let view = PageView::of_html("<div id=\"c\"><p>One <a class=\"x\">two</a></p><a class=\"y\">Three</a></div>");
        let s = view.structure().unwrap();
        let (p, a) = (s.line_path(0), s.line_path(1));
        assert_eq!((s.label(p), s.breaks_line(p)), ("p", true));
        assert_eq!((s.label(a), s.breaks_line(a)), ("a.y", false), "a link is inline");
        assert_eq!(s.parent(p), s.parent(a));
        assert_eq!(s.label(s.parent(p)), "div#c");
        assert!(s.parent(p) < p && s.paths() > a as usize);
    }

    #[test]
    fn digits_are_generalized_the_same_in_runs_as_char_by_char() {
        let long = format!("{}é12", "a".repeat(super::MAX_ATTRIBUTE - 1));
        let values: Vec<&[u8]> = vec![
            b"",
            b"7",
            b"post-1234",
            b"12ab345c",
            b"x9",
            b"caf\xc3\xa9-42",
            b"\xff12\xfe",
            long.as_bytes(),
            b"a 1",
        ];
        for v in values {
            let mut fast = String::new();
            super::push_generalized(&mut fast, v);
            let mut slow = String::new();
            let cut = &v[..v.len().min(super::MAX_ATTRIBUTE)];
            super::push_generalized_chars(&mut slow, &String::from_utf8_lossy(cut));
            assert_eq!(fast, slow, "{v:?}");
        }
    }

    #[test]
    fn labels_kept_in_one_buffer_read_back_each_its_own() {
        let view = PageView::of_html("<div id=\"a1\"><p class=\"x y\">One.</p></div><section><b>Two.</b></section>");
        let s = view.structure().unwrap();
        let labels: Vec<&str> = (0..s.paths() as u32).map(|p| s.label(p)).collect();
        assert_eq!(labels, ["", "div#a0", "p.x.y", "section", "b"]);
    }

    #[test]
    fn elements_share_a_path_exactly_when_their_attributes_fold_alike() {
        // the labels' bytes folded one by one, runs of digits and of whitespace as one: what the hash of
        // an element stands for
        let folded = |v: &str| {
            let mut out: Vec<u8> = Vec::new();
            for &b in &v.as_bytes()[..v.len().min(super::MAX_ATTRIBUTE)] {
                let b = super::FOLD[usize::from(b)];
                if !(out.last() == Some(&b) && (b == b'0' || b == b' ')) {
                    out.push(b);
                }
            }
            out
        };
        let long = "k".repeat(super::MAX_ATTRIBUTE);
        let (long_a, long_b) = (format!("{long}a"), format!("{long}b"));
        let values =
            ["", "a", "A", "a1", "a12", "a 1", "a  1", "a\t1", "x y", "x  y", "x\ny", "0", "00", &long_a, &long_b];
        let mut pairs = Vec::new();
        let mut html = String::from("<div>");
        for id in values {
            for class in ["", "b", "b 2", "b  2", "b7"] {
                html.push_str(&format!("<p id=\"{id}\" class=\"{class}\">line</p>"));
                pairs.push((folded(id), folded(class)));
            }
        }
        html.push_str("</div>");
        let view = PageView::of_html(&html);
        let s = view.structure().unwrap();
        assert_eq!(s.lines(), pairs.len());
        let mut shared = 0;
        for i in 0..pairs.len() {
            for j in 0..i {
                let same = s.line_path(i) == s.line_path(j);
                assert_eq!(same, pairs[i] == pairs[j], "{:?} / {:?}", pairs[i], pairs[j]);
                shared += usize::from(same);
            }
        }
        assert!(shared > 0);
    }

    #[test]
    fn a_text_document_has_no_structure() {
        assert!(PageView::of_text("plain text").structure().is_none());
    }
}
