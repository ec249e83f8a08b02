//! A page of HTML as the seeds' methods read it: tags, and the text between two consecutive tags. One
//! linear pass, no parsing: comments are skipped, and the content of `script`, `style` and the like is one
//! raw token (it is not text a reader sees, and a `<` inside it is no tag).

/// What a token of a page is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Tag,
    /// Text a reader may see (entities undecoded).
    Text,
    /// The content of an element whose content is not text: script, style, …
    Raw,
}

/// One token: its kind and byte span in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HtmlToken {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// Elements whose content is not text a reader sees.
const RAW: [&str; 5] = ["script", "style", "noscript", "template", "textarea"];

/// The tokens of `html`, in order. Blank text between tags is no token.
pub fn html_tokens(html: &str) -> Vec<HtmlToken> {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut text_start = 0;
    let push_text = |out: &mut Vec<HtmlToken>, start: usize, end: usize| {
        if start < end && !html[start..end].trim().is_empty() {
            out.push(HtmlToken { kind: Kind::Text, start, end });
        }
    };
    while let Some(k) = find_byte(b'<', &bytes[i..]) {
        let lt = i + k;
        let next = bytes.get(lt + 1).copied().unwrap_or(b' ');
        if !(next.is_ascii_alphabetic() || next == b'/' || next == b'!') {
            i = lt + 1;
            continue;
        }
        push_text(&mut out, text_start, lt);
        if bytes[lt..].starts_with(b"<!--") {
            i = html[lt + 4..].find("-->").map_or(bytes.len(), |k| lt + 4 + k + 3);
            text_start = i;
            continue;
        }
        let gt = find_byte(b'>', &bytes[lt..]).map_or(bytes.len(), |k| lt + k + 1);
        out.push(HtmlToken { kind: Kind::Tag, start: lt, end: gt });
        i = gt;
        text_start = gt;
        let name = tag_name(&html[lt..gt]);
        if next != b'/' && !html[lt..gt].ends_with("/>") && RAW.iter().any(|r| name.eq_ignore_ascii_case(r)) {
            let close = find_close(bytes, gt, name.as_bytes());
            if close > gt && !html[gt..close].trim().is_empty() {
                out.push(HtmlToken { kind: Kind::Raw, start: gt, end: close });
            }
            i = close;
            text_start = close;
        }
    }
    push_text(&mut out, text_start, bytes.len());
    out
}

/// The element name of a tag (`<a href=…>` → `a`, `</p>` → `p`).
pub fn tag_name(tag: &str) -> &str {
    let inner = tag.trim_start_matches('<').trim_start_matches('/');
    let end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':')).unwrap_or(inner.len());
    &inner[..end]
}

/// Where the end tag `</name` at or after `from` starts (case-insensitively), or the end of the page.
pub fn find_close(bytes: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(k) = find_byte(b'<', &bytes[i..]) {
        let lt = i + k;
        let after = lt + 2 + name.len();
        if bytes.get(lt + 1) == Some(&b'/') && after <= bytes.len() && bytes[lt + 2..after].eq_ignore_ascii_case(name) {
            return lt;
        }
        i = lt + 1;
    }
    bytes.len()
}

fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

/// Byte spans of the words (`\S+`) of `text[start..end]`.
pub fn words_in(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
    let mut word: Option<usize> = None;
    for (k, c) in text[start..end].char_indices() {
        match (c.is_whitespace(), word) {
            (true, Some(s)) => {
                out.push((s, start + k));
                word = None;
            }
            (false, None) => word = Some(start + k),
            _ => {}
        }
    }
    if let Some(s) = word {
        out.push((s, end));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_text_and_raw_content_apart() {
        let html = "<p>Hi <b>you</b></p><!-- x --><SCRIPT>a<b;</script> 1 < 2";
        let t: Vec<(Kind, &str)> = html_tokens(html).iter().map(|t| (t.kind, &html[t.start..t.end])).collect();
        assert_eq!(
            t,
            [
                (Kind::Tag, "<p>"),
                (Kind::Text, "Hi "),
                (Kind::Tag, "<b>"),
                (Kind::Text, "you"),
                (Kind::Tag, "</b>"),
                (Kind::Tag, "</p>"),
                (Kind::Tag, "<SCRIPT>"),
                (Kind::Raw, "a<b;"),
                (Kind::Tag, "</script>"),
                (Kind::Text, " 1 < 2"),
            ]
        );
    }

    #[test]
    fn words_keep_their_spans() {
        let mut w = Vec::new();
        words_in("ab  c\nd", 0, 7, &mut w);
        assert_eq!(w, [(0, 2), (4, 5), (6, 7)]);
    }
}
