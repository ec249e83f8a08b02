//! The tokenizer the page view was built on, html5gum, driving a [`Handler`]: the reference the view's
//! own tokenizer is compared with. An emitter that keeps html5gum's callback emitter's positions step
//! for step (where a text run starts and ends, which tag name an end tag is checked against), and its
//! default emitter's attributes (the first of a name wins), so every event is the one html5gum's default
//! emitter gives; the state a start tag's content is read in is switched by hand, as the view did.

use html5gum::{Emitter, Error, State, Tokenizer};

use super::{Handler, Raw, Tag};

/// Tokenizes `input` with html5gum, handing its text runs and tags to `handler`.
pub(crate) fn tokenize<H: Handler>(input: &str, handler: &mut H) {
    let mut tokens = Tokenizer::new_with_emitter(input, Spans::new(handler));
    if let Some(Ok(never)) = tokens.next() {
        match never {}
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Current {
    None,
    Start,
    End,
}

/// Which attribute's value is being kept.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kept {
    None,
    Id,
    Class,
}

/// The emitter (see the module doc). Positions and buffers follow html5gum's callback emitter.
struct Spans<'h, H> {
    handler: &'h mut H,
    position: usize,
    /// Bytes of text read since the last flush, and where they start and end.
    characters: usize,
    characters_start: usize,
    characters_end: usize,
    taglike_start: usize,
    current: Current,
    self_closing: bool,
    tag_name: Vec<u8>,
    /// The name of the last start tag emitted: an end tag in raw text must match it.
    last_start_tag: Vec<u8>,
    attribute_name: Vec<u8>,
    kept: Kept,
    /// The tag's first `id` and `class` values, when it has them (buffers kept from tag to tag).
    id: Vec<u8>,
    class: Vec<u8>,
    has_id: bool,
    has_class: bool,
}

impl<'h, H: Handler> Spans<'h, H> {
    fn new(handler: &'h mut H) -> Spans<'h, H> {
        Spans {
            handler,
            position: 0,
            characters: 0,
            characters_start: 0,
            characters_end: 0,
            taglike_start: 0,
            current: Current::None,
            self_closing: false,
            tag_name: Vec::new(),
            last_start_tag: Vec::new(),
            attribute_name: Vec::new(),
            kept: Kept::None,
            id: Vec::new(),
            class: Vec::new(),
            has_id: false,
            has_class: false,
        }
    }

    fn flush_characters(&mut self) {
        if self.characters > 0 {
            self.handler.text(self.characters_start..self.characters_end);
            self.characters = 0;
        }
    }

    /// The start tag's name is known once its first attribute begins or it closes: it becomes the last
    /// start tag's (and the tag's own name is left empty).
    fn flush_open_start_tag(&mut self) {
        self.flush_characters();
        if self.current == Current::Start && !self.tag_name.is_empty() {
            self.last_start_tag.clear();
            std::mem::swap(&mut self.last_start_tag, &mut self.tag_name);
        }
    }

    /// The attribute's name is complete: the first `id` and the first `class` keep their values.
    fn flush_attribute_name(&mut self) {
        self.flush_open_start_tag();
        if !self.attribute_name.is_empty() {
            self.kept = match &self.attribute_name[..] {
                b"id" if !self.has_id => {
                    self.has_id = true;
                    self.id.clear();
                    Kept::Id
                }
                b"class" if !self.has_class => {
                    self.has_class = true;
                    self.class.clear();
                    Kept::Class
                }
                _ => Kept::None,
            };
            self.attribute_name.clear();
        }
    }

    fn flush_attribute(&mut self) {
        self.flush_attribute_name();
        self.kept = Kept::None;
    }
}

impl<H: Handler> Emitter for Spans<'_, H> {
    type Token = std::convert::Infallible;

    #[inline]
    fn move_position(&mut self, offset: isize) {
        self.position = self.position.saturating_add_signed(offset);
    }

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start_tag.clear();
        self.last_start_tag.extend(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_characters();
    }

    fn emit_error(&mut self, _: Error) {}

    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        // a reader has no use for parse errors, and checking every character for them is slow
        false
    }

    fn pop_token(&mut self) -> Option<Self::Token> {
        None
    }

    #[inline]
    fn init_string(&mut self) {
        if self.characters == 0 {
            self.characters_start = self.position;
        }
    }

    #[inline]
    fn emit_string(&mut self, s: &[u8]) {
        self.characters_end = self.position;
        self.characters += s.len();
    }

    fn init_start_tag(&mut self) {
        self.tag_name.clear();
        self.current = Current::Start;
        self.self_closing = false;
        (self.has_id, self.has_class) = (false, false);
    }

    fn init_end_tag(&mut self) {
        self.tag_name.clear();
        self.current = Current::End;
        (self.has_id, self.has_class) = (false, false);
    }

    fn init_comment(&mut self) {
        self.flush_characters();
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.flush_attribute();
        match self.current {
            Current::Start => {
                self.flush_open_start_tag();
                let tag = Tag {
                    span: self.taglike_start..self.position,
                    name: &self.last_start_tag,
                    self_closing: self.self_closing,
                    id: self.has_id.then_some(&self.id[..]),
                    class: self.has_class.then_some(&self.class[..]),
                };
                self.handler.start_tag(&tag).map(|raw| match raw {
                    Raw::RcData => State::RcData,
                    Raw::Text => State::RawText,
                    Raw::ScriptData => State::ScriptData,
                })
            }
            Current::End => {
                self.last_start_tag.clear();
                let tag = Tag {
                    span: self.taglike_start..self.position,
                    name: &self.tag_name,
                    self_closing: false,
                    id: None,
                    class: None,
                };
                self.handler.end_tag(&tag);
                None
            }
            Current::None => None,
        }
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {
        if self.current != Current::End {
            self.self_closing = true;
        }
    }

    fn set_force_quirks(&mut self) {}

    #[inline]
    fn push_tag_name(&mut self, s: &[u8]) {
        self.tag_name.extend_from_slice(s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {
        self.flush_characters();
    }

    fn init_attribute(&mut self) {
        self.flush_open_start_tag();
        self.flush_attribute();
    }

    #[inline]
    fn push_attribute_name(&mut self, s: &[u8]) {
        self.attribute_name.extend_from_slice(s);
    }

    fn init_attribute_value(&mut self) {}

    #[inline]
    fn push_attribute_value(&mut self, s: &[u8]) {
        self.flush_attribute_name();
        match self.kept {
            Kept::Id => self.id.extend_from_slice(s),
            Kept::Class => self.class.extend_from_slice(s),
            Kept::None => {}
        }
    }

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

    #[inline]
    fn start_open_tag(&mut self) {
        self.taglike_start = self.position.saturating_sub(1);
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        !self.last_start_tag.is_empty() && self.current == Current::End && self.last_start_tag == self.tag_name
    }
}
