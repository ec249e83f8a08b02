//! Sentence grammar for invented news prose.
//!
//! Every sentence is assembled from the tables in `words` through several
//! independent random slots (names, places, numbers), so two documents
//! practically never share a sentence and no article text looks like template.
//! Text is appended to the caller's `String`: no allocation per word, which
//! keeps the benchmark corpus fast to generate.

use super::Rng;
use super::words::*;

/// Appends prose to `out`, drawing every choice from `rng`.
pub(super) struct Writer<'a> {
    pub(super) rng: &'a mut Rng,
    pub(super) out: &'a mut String,
}

/// Appends `n` in decimal, with thousands separators if `commas`.
pub(super) fn push_uint(out: &mut String, mut n: u64, commas: bool) {
    let mut buf = [0u8; 32];
    let mut i = buf.len();
    let mut digits = 0;
    loop {
        if commas && digits > 0 && digits % 3 == 0 {
            i -= 1;
            buf[i] = b',';
        }
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        digits += 1;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).expect("ASCII digits"));
}

/// Upper-cases the character at byte `start` (after an opening quote) if it is
/// an ASCII letter; a sentence starting with a number stays as it is.
pub(super) fn capitalize_from(out: &mut String, start: usize) {
    let i = if out.as_bytes().get(start) == Some(&b'"') { start + 1 } else { start };
    if out.as_bytes().get(i).is_some_and(u8::is_ascii_lowercase) {
        out[i..i + 1].make_ascii_uppercase();
    }
}

fn word_count(text: &str) -> usize {
    text.split_ascii_whitespace().count()
}

fn indefinite(word: &str) -> &'static str {
    match word.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => "an ",
        _ => "a ",
    }
}

impl Writer<'_> {
    fn s(&mut self, text: &str) -> &mut Self {
        self.out.push_str(text);
        self
    }
    fn pick(&mut self, items: &[&str]) -> &mut Self {
        let t = self.rng.pick(items);
        self.s(t)
    }
    fn num(&mut self, lo: usize, hi: usize) -> &mut Self {
        let n = self.rng.range(lo, hi);
        push_uint(self.out, n as u64, true);
        self
    }
    fn year(&mut self) -> &mut Self {
        let y = self.rng.range(1988, 2005);
        push_uint(self.out, y as u64, false);
        self
    }
    fn adj(&mut self) -> &mut Self {
        self.pick(ADJECTIVES)
    }
    fn a_adj(&mut self) -> &mut Self {
        let adj = self.rng.pick(ADJECTIVES);
        self.s(indefinite(adj)).s(adj)
    }
    fn noun(&mut self) -> &mut Self {
        let n = self.rng.pick(NOUNS).0;
        self.s(n)
    }
    fn nouns(&mut self) -> &mut Self {
        let n = self.rng.pick(NOUNS).1;
        self.s(n)
    }
    fn verb(&mut self) -> (&'static str, &'static str, &'static str, &'static str) {
        self.rng.pick(VERBS)
    }
    fn place(&mut self) -> &mut Self {
        self.pick(PLACES)
    }
    fn org(&mut self) -> &mut Self {
        self.pick(ORGS)
    }
    /// An organisation as a headline names it: "Harbour authority", "Alden Holdings".
    fn org_headline(&mut self) -> &mut Self {
        let org = self.rng.pick(ORGS);
        let start = self.out.len();
        self.s(org.strip_prefix("the ").unwrap_or(org));
        capitalize_from(self.out, start);
        self
    }
    fn person(&mut self, male: bool) -> &mut Self {
        self.pick(if male { MALE_NAMES } else { FEMALE_NAMES }).s(" ").pick(SURNAMES)
    }
    pub(super) fn any_person(&mut self) -> &mut Self {
        let male = self.rng.chance(50);
        self.person(male)
    }
    fn street(&mut self) -> &mut Self {
        self.pick(STREET_STEMS).s(" ").pick(STREET_KINDS)
    }
    fn weekday(&mut self) -> &mut Self {
        self.pick(&WEEKDAYS)
    }
    fn month(&mut self) -> &mut Self {
        self.pick(&MONTHS)
    }
    /// How many people: from a dozen to tens of thousands.
    fn crowd(&mut self) -> &mut Self {
        match self.rng.below(3) {
            0 => self.num(12, 95),
            1 => self.num(100, 990),
            _ => self.num(1000, 25000),
        }
    }
    fn money(&mut self) -> &mut Self {
        match self.rng.below(3) {
            0 => self.s("$").num(2, 950).s(" million"),
            1 => self.s("$").num(1, 9).s(".").num(1, 9).s(" billion"),
            _ => self.s("$").num(12, 990).s(",000"),
        }
    }
    fn pct(&mut self) -> &mut Self {
        self.num(2, 45);
        if self.rng.chance(50) {
            self.s(".").num(1, 9);
        }
        self.s(" per cent")
    }
    fn np(&mut self) -> &mut Self {
        self.s("the ");
        if self.rng.chance(50) {
            self.adj().s(" ");
        }
        self.noun()
    }
    /// Someone who can act: an organisation, an official, a person, a crowd.
    fn subject(&mut self) -> &mut Self {
        match self.rng.below(7) {
            0..=2 => self.org(),
            3 => self.s("the ").pick(ROLES).s(" of ").org(),
            4 => self.any_person(),
            5 => self.crowd().s(" ").pick(GROUPS),
            _ => self.s("residents of ").place(),
        }
    }
    fn object(&mut self) -> &mut Self {
        match self.rng.below(4) {
            0 | 1 => self.np(),
            2 => {
                self.num(2, 40).s(" ");
                if self.rng.chance(50) {
                    self.adj().s(" ");
                }
                self.nouns()
            }
            _ => self.a_adj().s(" ").noun(),
        }
    }
    fn place_phrase(&mut self) -> &mut Self {
        match self.rng.below(9) {
            0 | 1 => self.s("in ").place(),
            2 => self.s("near ").place(),
            3 => self.pick(&["on the edge of ", "on the outskirts of ", "just outside "]).place(),
            4 => self.pick(&["north", "south", "east", "west"]).s(" of ").place(),
            5 => self.s("outside ").place(),
            6 => self.s("along ").street(),
            7 => self.s("for ").crowd().s(" ").pick(GROUPS),
            _ => self.pick(&["at a cost of ", "costing ", "worth "]).money(),
        }
    }
    fn time_past(&mut self) -> &mut Self {
        match self.rng.below(5) {
            0 | 1 => self.pick(TIME_PAST),
            2 => self.s("on ").weekday(),
            3 => self.s("in ").month(),
            _ => self.s("in ").month().s(" ").year(),
        }
    }
    fn time_future(&mut self) -> &mut Self {
        match self.rng.below(3) {
            0 | 1 => self.pick(TIME_FUTURE),
            _ => self.s("by ").month(),
        }
    }
    fn attribution(&mut self) -> &mut Self {
        match self.rng.below(4) {
            0 => self.s("officials"),
            1 => self.pick(&["a spokesman for ", "a spokeswoman for ", "sources at "]).org(),
            2 => self.org(),
            _ => self.s("the ").pick(ROLES).s(" of ").org(),
        }
    }

    /// One declarative news sentence, capitalised, ending in `.`; returns its word count.
    ///
    /// Each pattern's fixed words come in several wordings, so no phrase of more
    /// than three or four words recurs in most documents (which would look like template).
    pub(super) fn sentence(&mut self) -> usize {
        let start = self.out.len();
        match self.rng.below(17) {
            0 => {
                let v = self.verb();
                self.subject().s(" ").s(v.1).s(" ").object().s(" ").place_phrase();
            }
            1 => {
                let v = self.verb();
                self.subject().s(" ").s(v.1).s(" ").object().s(" ").time_past().s(", ");
                self.attribution().s(" ").pick(&["said", "confirmed", "reported", "announced"]);
            }
            2 => {
                let v = self.verb();
                self.time_past().s(", ").subject().s(" ").s(v.1).s(" ").object();
            }
            3 => {
                self.crowd().s(" ").pick(GROUPS).s(" ").pick(GROUP_ACTIONS).s(" the ");
                self.adj().s(" ").noun().s(" ").place_phrase().s(" ").time_past();
            }
            4 => {
                let v = self.verb();
                self.s("the ").adj().s(" ").noun().s(" ");
                self.pick(&["will cost", "could cost", "is budgeted at", "is to cost"]);
                self.s(" ").money().s(" ");
                self.pick(&["and is expected to", "and should", "and is due to", "and aims to"]);
                self.s(" ").s(v.0).s(" ").object().s(" ").time_future();
            }
            5 => {
                self.pick(&["prices for", "rents for", "demand for", "the cost of new"]);
                self.s(" ").nouns().s(" in ").place().s(" ");
                self.pick(&["rose by", "fell by", "climbed by", "dropped by", "went up by"]);
                self.s(" ").pct().s(" in ").month().s(", the ");
                if self.rng.chance(50) {
                    self.pick(&["second", "third", "fourth", "fifth"]).s(" ");
                    self.pick(&["change", "move", "shift"]).s(" in a row");
                } else {
                    self.pick(&["largest", "smallest", "sharpest", "biggest"]).s(" ");
                    self.pick(&["change", "move", "shift"]).s(" since ").year();
                }
            }
            6 => {
                let (v, w) = (self.verb(), self.verb());
                self.subject().s(" ").s(v.1).s(" ").object().s(", ");
                self.pick(&["but", "while", "and", "although"]).s(" ");
                self.subject().s(" ").s(w.1).s(" ").object();
            }
            7 => {
                match self.rng.below(4) {
                    0 => {
                        self.s("according to a ").pick(&["survey", "poll", "study"]);
                        self.s(" by ").org().s(", ")
                    }
                    1 => self.s("according to ").org().s(", "),
                    2 => self.s("a report by ").org().s(" found that "),
                    _ => self.org().s(" ").pick(&["estimates", "believes", "says"]).s(" that "),
                };
                self.crowd().s(" ").pick(GROUPS).s(" ").pick(GROUP_ACTIONS);
                self.s(" the ").noun().s(" ").time_past();
            }
            8 => {
                let v = self.verb();
                self.s("the ").noun().s(" ").place_phrase();
                match self.rng.below(3) {
                    0 => self.s(" was ").s(v.2).s(" ").time_past(),
                    1 => self.s(" will be ").s(v.2).s(" ").time_future(),
                    _ => self.s(" has been ").s(v.2).s(" twice since ").year(),
                };
                self.s(", ").attribution().s(" said");
            }
            9 => {
                self.pick(&["work on the", "construction of the", "repairs to the", "the upgrade of the"]);
                self.s(" ").adj().s(" ").noun().s(" ").place_phrase().s(" ");
                self.pick(&["began", "started", "resumed", "stopped"]).s(" ").time_past();
                match self.rng.below(3) {
                    0 => self.s(" and ").pick(&["will take", "could last", "may need"]).s(" about "),
                    1 => self.s(" and should be finished ").time_future(),
                    _ => self.s(", ").num(2, 20).s(" weeks behind schedule"),
                };
                if self.out.ends_with("about ") {
                    self.num(3, 30).s(" months");
                }
            }
            10 => {
                let v = self.verb();
                self.any_person().s(", ").pick(ROLES).s(" of ").org().s(", ");
                self.pick(&["said", "warned", "believes", "told reporters"]).s(" the ").noun().s(" ");
                self.pick(&["would", "could", "might", "should"]).s(" ");
                self.s(v.0).s(" ").object().s(" ").place_phrase();
            }
            11 => {
                self.pick(&["there are now", "today there are", "officials count"]).s(" ");
                self.num(3, 900).s(" ").nouns().s(" in ").place().s(", ");
                self.pick(&["up from", "compared with", "against", "down from"]).s(" ");
                self.num(1, 400).s(" in ").year();
            }
            12 => {
                let v = self.verb();
                self.pick(&["many", "some", "most", "younger", "older"]).s(" ").pick(GROUPS);
                self.s(" in ").place().s(" ").pick(&["say", "complain", "believe", "feel"]);
                self.s(" the ").noun().s(" ").pick(&["is too", "has become too", "is far too"]);
                self.s(" ").pick(QUALITIES).s(" and ");
                self.pick(&["should be", "needs to be", "must be", "ought to be"]).s(" ").s(v.2);
                self.s(" ").time_future();
            }
            13 => {
                let v = self.verb();
                self.org().s(" has ").s(v.2).s(" ").num(2, 60).s(" ").nouns().s(" ");
                self.place_phrase().s(" since ").year();
            }
            14 => {
                let v = self.verb();
                self.any_person().s(", who ").pick(&["has run", "manages", "has owned", "opened"]);
                self.s(" ").a_adj().s(" ").noun().s(" in ").place().s(", said ").subject();
                self.s(" ").s(v.1).s(" ").object().s(" ").time_past();
            }
            15 => {
                // "The pier in Foxley is now the oldest wooden one on the coast."
                self.s("the ").noun().s(" ").place_phrase();
                self.pick(&[" is now the ", " is the ", " was the "]);
                self.pick(&["first", "only", "largest", "oldest", "newest"]);
                self.s(" ").adj().s(" one ");
                match self.rng.below(3) {
                    0 => self.pick(&["on the coast", "in the region", "in the country"]),
                    1 => self.pick(&["north", "south", "east", "west"]).s(" of ").place(),
                    _ => self.pick(&["to open since ", "built since ", "approved since "]).year(),
                };
            }
            _ => {
                let v = self.verb();
                self.pick(GROUPS).s(" ").pick(&["in", "from", "near"]).s(" ").place();
                self.s(" ").pick(&["will be able to", "can soon", "will finally"]).s(" ");
                self.pick(&["use", "visit", "see", "reach"]).s(" the ").s(v.2).s(" ").noun();
                self.s(" ").time_future();
            }
        }
        self.s(".");
        capitalize_from(self.out, start);
        word_count(&self.out[start..])
    }

    /// A speaker's introduction then a quote ending `he said.` or another attribution, like the thesis example.
    pub(super) fn quote_pair(&mut self) -> usize {
        let start = self.out.len();
        self.person(true).s(", ").pick(ROLES).s(" of ").org().s(", ").pick(SAY_VERBS);
        self.s(" the ").pick(TOPICS).s(". \"");
        let quote = self.out.len();
        match self.rng.below(6) {
            0 => {
                self.s("we expect ").crowd().s(" ").pick(GROUPS).s(" to ");
                self.pick(&["use", "visit", "benefit from", "pass through"]).s(" the ").adj();
                self.s(" ").noun().s(" ").time_future()
            }
            1 => {
                self.s("this is a ").pick(&["good", "big", "proud", "long-awaited", "difficult"]);
                self.s(" day for ").place().s(", and the ").noun().s(" ");
                self.pick(&["is only the start", "will change the town", "shows what we can do"])
            }
            2 => {
                let v = self.verb();
                self.s("the ").noun().s(" will ").s(v.0).s(" ").object().s(" ").place_phrase()
            }
            3 => {
                let v = self.verb();
                self.s("we are ").pick(FEELINGS).s(" that ").subject().s(" will ").s(v.0);
                self.s(" ").object()
            }
            4 => {
                self.pick(GROUPS).s(" in ").place().s(" have waited ").num(2, 30);
                self.s(" years for ").a_adj().s(" ").noun()
            }
            _ => {
                let v = self.verb();
                self.s("nobody wants to ").s(v.0).s(" ").object().s(" ").time_future().s(", but ");
                self.pick(&["we have no choice", "the money has run out", "the law is clear"])
            }
        };
        // Varied attributions: one fixed "he said." in every body would be mined as template.
        self.s(".\" ").pick(&[
            "he said.",
            "she said.",
            "he added.",
            "she added.",
            "they said.",
            "he told reporters.",
            "she told the paper.",
            "said the chairman.",
        ]);
        capitalize_from(self.out, start);
        capitalize_from(self.out, quote);
        word_count(&self.out[start..])
    }

    /// A single paragraph of about `target_words` words (whole sentences), with a
    /// quote somewhere in the middle if `quote`; never ends with the quote, so
    /// `he said.` is not glued to whatever template follows.
    pub(super) fn body(&mut self, target_words: usize, quote: bool) -> usize {
        let quote_at = target_words * self.rng.range(25, 65) / 100;
        let mut quoted = !quote;
        let mut words = 0;
        loop {
            if words > 0 {
                self.s(" ");
            }
            if !quoted && words >= quote_at {
                words += self.quote_pair();
                quoted = true;
                continue;
            }
            words += self.sentence();
            if words >= target_words && quoted {
                return words;
            }
        }
    }

    /// A paragraph of `sentences` sentences (at least two, so at least ~10 words).
    pub(super) fn paragraph(&mut self, sentences: usize, quote: bool) {
        for i in 0..sentences.max(2) {
            if i > 0 {
                self.s(" ");
            }
            if quote && i == 1 {
                self.quote_pair();
                self.s(" ");
            }
            self.sentence();
        }
    }

    /// A headline for an article (present tense, no final period).
    pub(super) fn headline(&mut self) {
        let start = self.out.len();
        match self.rng.below(6) {
            0 => {
                let v = self.verb();
                self.org_headline().s(" ").s(v.3).s(" ").adj().s(" ").noun().s(" in ").place();
            }
            1 => {
                self.adj().s(" ").noun().s(" for ").place().s(" to cost ").money();
            }
            2 => {
                self.place().s(" ").nouns().s(" face ").num(2, 18).s("-month delay");
            }
            3 => {
                let v = self.verb();
                self.s("plans for ").a_adj().s(" ").noun().s(" in ").place().s(" ").s(v.2);
            }
            4 => {
                let v = self.verb();
                self.org_headline().s(" to ").s(v.0).s(" ").num(2, 40).s(" ").nouns();
                self.s(" by ").num(2026, 2031);
            }
            _ => {
                self.s("prices for ").nouns().s(" in ").place().s(" up ").pct();
            }
        }
        capitalize_from(self.out, start);
    }

    /// A photo caption: one or two sentences.
    pub(super) fn caption(&mut self) {
        let start = self.out.len();
        self.crowd().s(" ").pick(GROUPS).s(" ").pick(GROUP_ACTIONS).s(" the ").adj();
        self.s(" ").noun().s(" in ").place().s(" on ").weekday().s(".");
        capitalize_from(self.out, start);
        if self.rng.chance(40) {
            self.s(" ").sentence();
        }
    }

    /// A reader's comment: one to three chatty sentences.
    pub(super) fn comment(&mut self) {
        let n = self.rng.range(1, 3);
        for i in 0..n {
            if i > 0 {
                self.s(" ");
            }
            let start = self.out.len();
            match self.rng.below(8) {
                0 => {
                    self.s("I have lived in ").place().s(" for ").num(2, 40).s(" years and ");
                    self.s("I have never seen the ").noun().s(" so ").pick(QUALITIES).s(".")
                }
                1 => {
                    self.s("does anyone know when the ").noun().s(" on ").street();
                    self.s(" will ").pick(EVENTS).s("?")
                }
                2 => self.s("who is paying the ").money().s(" for this?"),
                3 => {
                    let v = self.verb();
                    self.s("my ").pick(RELATIVES).s(" works at the ").noun().s(" in ").place();
                    self.s(" and says ").subject().s(" ").s(v.1).s(" ").object().s(".")
                }
                4 => self.s("thanks for posting this, ").pick(FEMALE_NAMES).s("!"),
                5 => {
                    self.s("the ").noun().s(" near my ").pick(DWELLINGS).s(" has been ");
                    self.pick(QUALITIES).s(" since ").month().s(".")
                }
                6 => {
                    self.s("good to see ").org().s(" finally doing something about the ");
                    self.noun().s(" on ").street().s(".")
                }
                _ => {
                    let v = self.verb();
                    self.subject().s(" should ").s(v.0).s(" ").object().s(" ").place_phrase();
                    self.s(" instead.")
                }
            };
            capitalize_from(self.out, start);
        }
    }
}
