//! What a block's id and classes name (`div#comments`, `li.comment`, `div.related-stories`), read from
//! an element label (`tag#id.class…`): the stages that drop blocks by name (`comments`, `author-box`,
//! `furniture`, `link-boxes`, `regions`) and the article block's `threads` ask it. `<html>` and `<body>`
//! never count: a page's body class says what the page allows (`no-comments`), not what a block holds.

use crate::view::{PathId, Structure};

/// Whether an id or class names comments.
pub(super) fn names_comments(name: &str) -> bool {
    // every block of every page is asked: compared in place, nothing lowercased into a copy
    name.split(['-', '_'])
        .any(|part| ["comment", "comments", "commentlist"].iter().any(|w| part.eq_ignore_ascii_case(w)))
}

/// Whether an element label (`tag#id.class…`) is a comment block's.
pub(super) fn is_comment_block(label: &str) -> bool {
    // each name it looks for holds "mm", which most labels lack: those are refused at one scan
    let b = label.as_bytes();
    memchr::memchr2_iter(b'm', b'M', b).any(|i| matches!(b.get(i + 1), Some(b'm' | b'M')))
        && is_named_block(label, names_comments)
}

/// Whether `path` lies inside a block whose id or class names comments (or is one). One step per
/// ancestor.
pub(super) fn in_comment_block(structure: &Structure, path: PathId) -> bool {
    comment_blocks_around(structure, path, 1) == 1
}

/// Per path of a page, how many blocks whose id or class names comments it lies inside (or is), counted
/// up to `most`: one pass over the page's paths (a path's parent has a lower number).
pub(super) fn comment_blocks_per_path(structure: &Structure, most: u8) -> Vec<u8> {
    let mut around = vec![0u8; structure.paths()];
    for p in 1..around.len() {
        let path = p as PathId;
        let parent = structure.parent(path) as usize;
        let own = u8::from(structure.breaks_line(path) && is_comment_block(structure.label(path)));
        around[p] = (if parent < p { around[parent] } else { 0 }).saturating_add(own).min(most);
    }
    super::work::add(around.len());
    around
}

/// How many blocks whose id or class names comments `path` lies inside (or is), counted up to `most`.
/// One step per ancestor.
pub(super) fn comment_blocks_around(structure: &Structure, mut path: PathId, most: usize) -> usize {
    let mut found = 0;
    loop {
        if structure.breaks_line(path) && is_comment_block(structure.label(path)) {
            found += 1;
            if found == most {
                return found;
            }
        }
        let parent = structure.parent(path);
        if parent >= path {
            return found;
        }
        path = parent;
    }
}

/// Whether an element label (`tag#id.class…`) has an id or a class `names` accepts. `<html>` and
/// `<body>` never: a page's body class says what the page allows (`no-comments`), not what a block holds.
pub(super) fn is_named_block(label: &str, names: fn(&str) -> bool) -> bool {
    block_names(label).any(names)
}

/// The id and classes of an element label (`tag#id.class…`), for [`is_named_block`]: none of `<html>` or
/// `<body>`.
pub(super) fn block_names(label: &str) -> impl Iterator<Item = &str> {
    let (tag, names) = crate::view::split_label(label);
    let page = tag.eq_ignore_ascii_case("html") || tag.eq_ignore_ascii_case("body");
    names.split(['#', '.']).filter(move |name| !page && !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::{is_comment_block, names_comments};

    #[test]
    fn names_are_read_by_their_parts() {
        for yes in ["comment", "comments", "comment-content", "comments_area", "commentlist", "Comment-0"] {
            assert!(names_comments(yes), "{yes}");
        }
        for no in ["commentary", "recommend", "comm", "post"] {
            assert!(!names_comments(no), "{no}");
        }
        assert!(is_comment_block("div#comments.area"));
        assert!(is_comment_block("li.comment.odd"));
        assert!(!is_comment_block("body.no-comments"));
        assert!(!is_comment_block("div.commentary"));
        assert!(is_comment_block("div.COMMENTS") && is_comment_block("div#x.CoMment-body"));
        assert!(!is_comment_block("div.summary") && !is_comment_block("div.community"));
    }
}
