//! The cleaner's stages and settings, as data: which stages are on, each stage's own settings, and the
//! merge gap. Rules files store them (`merge_gap`, `[clean] off`, a `[clean.<stage>]` table for a stage
//! with settings), the CLI and the UI switch stages by name, and the cleaner reads them.
//!
//! The stages are listed once, in `stage_list!`, in the order the pipeline runs them: a line each with
//! the stage's name, its one-line doc, its settings (if it has any) and what runs it. This module makes the
//! [`Stage`] enum, its names and docs, [`CleanSettings`] and the rules file's `[clean]` table from the
//! list; the cleaner (`src/cleaning/registry.rs`) makes its pipeline from the same list. The list names
//! the cleaner's types as tokens only: nothing here imports the cleaner.
//!
//! **A stage with a threshold**: its file in `src/cleaning/` reading `cleaner.settings.<field>`, its line
//! below with `[<field>: <Type>]`, and `<Type>` beside the list (a serde struct implementing
//! [`StageSetting`]). It is then read and written as `[clean.<stage>]` in rules files, merged field by
//! field when two writers save, checked for unknown keys, and `Default` leaves it doing nothing.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Every cleaning stage, in the order the pipeline runs them, one line each: its variant, its name (the
/// one used everywhere: `[clean] off`, `--off` and its help, `--explain`, the UI), its one-line doc, its
/// settings (`[field: Type]`, read as `[clean.<name>]` in a rules file), and what runs it (see
/// `src/cleaning/stage.rs`). `$then` is the macro that makes something of the list.
macro_rules! stage_list {
    ($then:ident) => {
        $then! {
            LineBoundary "line-boundary" "a match counts only where it starts or ends a line (idioms sit inside sentences)"
                => Step::Filter(&line_boundary::LineBoundary),
            SentenceHeads "sentence-heads" "a short match heading a line of prose is a name, not template"
                => Step::Filter(&sentence_heads::SentenceHeads),
            SentenceTails "sentence-tails" "a short match closing a sentence of prose is an idiom, not template"
                => Step::Filter(&sentence_tails::SentenceTails),
            OwnLine "own-line" "a cut string mined as a line of its own cuts only where it is one (a name in a sidebar, not opening a sentence)"
                => Step::Filter(&own_line::OwnLine),
            Clusters "clusters" "a document gets the rules of the template cluster that covers it most"
                => Step::Filter(&clusters::Clusters),
            Regions "regions" "the lines under an element a region rule names (div#comments) go, or stay"
                => Step::Spans(&regions::Regions),
            ListItems "list-items" "runs opened by list markers (a comment's name and date) are not the article"
                => Step::Switch,
            Threads "threads" "a run starting in a comment thread (a comment's block inside another) is the article only where no other run has words"
                => Step::Switch,
            CutLines "cut-lines" "a line of a cut string found alone outside the article cuts there (a footer whose top changed)"
                => Step::Switch,
            ArticleElement "article-element" "a footer string inside the article's element, with more of its paragraphs after it, cuts nothing (a gallery's link between paragraphs); a short paragraph set as the article's between two of its parts stays"
                => Step::Switch,
            Cuts "cuts" "header strings cut everything before them, footer strings everything after"
                => Step::Spans(&cuts::Cuts),
            Islands "islands" "a few words kept between two removals go too" [islands: IslandsSettings]
                => Step::Spans(&islands::Islands),
            Title "title" "a header cut stops at the line repeating the page's title"
                => Step::Spans(&title::Title),
            Slots "slots" "a few words on a cut string's line, beside it, are its slots (a name, a date, a title)"
                => Step::Spans(&slots::Slots),
            LineSlots "line-slots" "a few words on a template string's line, beside it, are its slots (a video's title before \"Watch Video\")"
                => Step::Spans(&line_slots::LineSlots),
            Headline "headline" "the headline above the article is given back when a rule took it"
                => Step::Spans(&headline::Headline),
            Datelines "datelines" "the dateline and byline right above the article are given back"
                => Step::Spans(&datelines::Datelines),
            ShortRuns "short-runs" "kept runs outside the article with no sentence or few words go" [short_runs: ShortRunsSettings]
                => Step::Spans(&short_runs::ShortRuns),
            LinkDensity "link-density" "lines mostly inside links (menus, related stories, tags) go where the article is not" [link_density: LinkDensitySettings]
                => Step::Spans(&link_density::LinkDensity),
            LinkBoxes "link-boxes" "a box of links set apart inside the article (related stories, page numbers) goes"
                => Step::Spans(&link_boxes::LinkBoxes),
            Comments "comments" "reader comments go: lines inside a block whose class or id names comments"
                => Step::Spans(&comments::Comments),
            Furniture "furniture" "the page's furniture goes: lines inside a block whose class or id (or tag: `<nav>`, `<aside>`) names related stories, a sidebar, a promotion, sharing, a newsletter, navigation or a gallery"
                => Step::Spans(&furniture::Furniture),
            AuthorBox "author-box" "the author's box goes: lines inside a block whose class or id names it (div#author-bio)"
                => Step::Spans(&author_box::AuthorBox),
            Reprints "reprints" "long lines printed a second time, two or more in a row, go"
                => Step::Spans(&reprints::Reprints),
            Repeats "repeats" "a short line printed three times or more on a page (a photo credit, a button) goes"
                => Step::Spans(&repeats::Repeats),
            Preformatted "preformatted" "a `<pre>` holds code or verse: a cut string in it cuts nothing, and in the article's element it keeps what rules and word counts took of it"
                => Step::Spans(&preformatted::Preformatted),
            Specks "specks" "a few characters removed inside a line of kept text are given back" [specks: SpecksSettings]
                => Step::Spans(&specks::Specks),
        }
    };
}
pub(crate) use stage_list;

/// `[clean.islands]`: kept text of fewer than `words` words between two removed spans goes too (0: none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct IslandsSettings {
    pub words: usize,
}

/// `[clean.short-runs]`: kept runs outside the article block with fewer than `words` words on long lines
/// go (0: none): menus and link lists no rule matched. The title's run stays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShortRunsSettings {
    pub words: usize,
}

/// `[clean.link-density]`: lines with at least `share` percent of their text inside links are link-dense,
/// and stretches of them go outside the article block, at a kept run's end, or as a list (0: none). HTML
/// pages only: text has no links.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkDensitySettings {
    pub share: usize,
}

/// `[clean.specks]`: removed spans of fewer than `chars` characters inside a line of kept text come back
/// (0: none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpecksSettings {
    pub chars: usize,
}

/// A stage's settings: `Default` does nothing (a rules file without the table), `AUTOMATIC` is what a
/// source mined afresh gets.
pub trait StageSetting: Default + Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned {
    /// chaff's automatic configuration for the stage.
    const AUTOMATIC: Self;

    /// The settings a rules file of format 2 wrote as one number (`[clean] specks = 10`), if it did.
    fn from_number(_n: usize) -> Option<Self> {
        None
    }
}

impl StageSetting for IslandsSettings {
    // with short runs on, islands cost more than they gain (docs/results.md): an option
    const AUTOMATIC: Self = IslandsSettings { words: 0 };
}

impl StageSetting for ShortRunsSettings {
    const AUTOMATIC: Self = ShortRunsSettings { words: 20 };
}

impl StageSetting for LinkDensitySettings {
    // half a line's text inside links: the setting docs/results.md measured per site
    const AUTOMATIC: Self = LinkDensitySettings { share: 50 };
}

impl StageSetting for SpecksSettings {
    const AUTOMATIC: Self = SpecksSettings { chars: 0 };

    fn from_number(n: usize) -> Option<Self> {
        Some(SpecksSettings { chars: n })
    }
}

/// Makes [`Stage`], [`CleanSettings`] and [`CleanTable`] from the stage list.
macro_rules! stage_data {
    ($($variant:ident $name:literal $doc:literal $([$field:ident: $ty:ty])? => $step:expr,)*) => {
        /// A named stage of the cleaning pipeline, in the order they run. Rules' matches are found first;
        /// each stage then filters the matches or changes what is removed. The name is the one used
        /// everywhere: `[clean] off = [...]` in a rules file, `--off` on the command line, `--explain`,
        /// the UI.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Stage {
            $(#[serde(rename = $name)] $variant,)*
        }

        impl Stage {
            /// Every stage, in the order the pipeline runs them.
            pub const ALL: [Stage; [$($name),*].len()] = [$(Stage::$variant),*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Stage::$variant => $name,)*
                }
            }

            /// One line: what the stage does.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Stage::$variant => $doc,)*
                }
            }
        }

        /// The settings the cleaner runs with: the merge gap, the stages that are on, and each stage's own
        /// settings (a field per stage that has any, named in the stage list).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct CleanSettings {
            /// Removed intervals fewer than this many characters apart are joined.
            pub merge_gap: usize,
            /// The stages that are on.
            pub stages: Stages,
            $($(
                #[doc = concat!("Stage `", $name, "`'s settings (`[clean.", $name, "]`).")]
                pub $field: $ty,
            )?)*
        }

        impl Default for CleanSettings {
            /// The settings of a bare rule set (a fresh mining's, before the automatic rules choose):
            /// [`Stages::default`], and every stage's settings doing nothing.
            fn default() -> Self {
                CleanSettings { merge_gap: 0, stages: Stages::default(), $($($field: <$ty>::default(),)?)* }
            }
        }

        impl CleanSettings {
            /// chaff's automatic configuration, before a source's documents decide (see
            /// [`crate::automatic`]): every stage on, each stage's [`StageSetting::AUTOMATIC`] settings.
            pub fn automatic() -> CleanSettings {
                CleanSettings { merge_gap: 0, stages: Stages::all(), $($($field: <$ty>::AUTOMATIC,)?)* }
            }

            /// Takes `from`'s settings of the stages in `stages` (their `[clean.<stage>]` tables).
            pub fn take_stage_settings(&mut self, from: &CleanSettings, stages: Stages) {
                $($(
                    if stages.contains(Stage::$variant) {
                        self.$field = from.$field;
                    }
                )?)*
            }

            /// Merges each stage's settings that `theirs` changed since `base` into these, where `take`
            /// says so given whether these changed too. Returns whether any was taken.
            pub fn merge_stage_settings(
                &mut self,
                theirs: &CleanSettings,
                base: &CleanSettings,
                take: impl Fn(bool) -> bool,
            ) -> bool {
                let mut taken = false;
                $($(
                    if theirs.$field != base.$field && self.$field != theirs.$field && take(self.$field != base.$field) {
                        self.$field = theirs.$field;
                        taken = true;
                    }
                )?)*
                taken
            }

            /// The `[clean]` table of these settings (the merge gap is a key of its own).
            pub fn table(&self) -> CleanTable {
                CleanTable { off: self.stages.off(), $($($field: self.$field,)?)* }
            }

            /// The settings a rules file's `merge_gap` and `[clean]` table say: every stage on but those
            /// `off` names.
            pub fn of_table(merge_gap: usize, table: &CleanTable) -> CleanSettings {
                let mut stages = Stages::all();
                for s in &table.off {
                    stages.set(*s, false);
                }
                CleanSettings { merge_gap, stages, $($($field: table.$field,)?)* }
            }
        }

        /// A rules file's `[clean]` table: the stages turned off (`off = ["reprints"]`), and a table of
        /// settings for each stage that has them (`[clean.short-runs] words = 20`), left out when it does
        /// nothing.
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        pub struct CleanTable {
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub off: Vec<Stage>,
            $($(
                #[serde(rename = $name, default, skip_serializing_if = "is_default", deserialize_with = "stage_table")]
                pub $field: $ty,
            )?)*
        }

        impl CleanTable {
            pub fn is_empty(&self) -> bool {
                *self == CleanTable::default()
            }

            /// Each stage with settings: its name and the keys of its table.
            pub fn stage_keys() -> Vec<(&'static str, &'static [&'static str])> {
                vec![$($(($name, serde_fields::<$ty>()),)?)*]
            }

            /// Whether a stage's table was written as one number (format 2's `[clean] specks = 10`).
            pub fn number_keys() -> Vec<&'static str> {
                let mut keys = Vec::new();
                $($(
                    if <$ty>::from_number(0).is_some() {
                        keys.push($name);
                    }
                )?)*
                keys
            }
        }
    };
}

stage_list!(stage_data);

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

/// A stage's `[clean.<stage>]` table, or the one number a format-2 file wrote for it.
fn stage_table<'de, D: serde::Deserializer<'de>, T: StageSetting>(d: D) -> Result<T, D::Error> {
    struct Written<T>(std::marker::PhantomData<T>);
    impl<'de, T: StageSetting> serde::de::Visitor<'de> for Written<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a table of the stage's settings")
        }

        fn visit_map<M: serde::de::MapAccess<'de>>(self, map: M) -> Result<T, M::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }

        fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<T, E> {
            let n = usize::try_from(n).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))?;
            T::from_number(n).ok_or_else(|| E::invalid_type(serde::de::Unexpected::Unsigned(n as u64), &self))
        }

        fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<T, E> {
            let number = usize::try_from(n).ok().and_then(T::from_number);
            number.ok_or_else(|| E::invalid_type(serde::de::Unexpected::Unsigned(n), &self))
        }
    }
    d.deserialize_any(Written(std::marker::PhantomData))
}

/// The keys serde reads for struct `T`, taken from its own `deserialize_struct` call, so the list of
/// known keys never drifts from the types.
pub fn serde_fields<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    struct Probe<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Probe<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(serde::de::Error::custom("probed"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Probe(&mut fields));
    fields
}

impl Stage {
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Stage {
    type Err = String;

    fn from_str(s: &str) -> Result<Stage, String> {
        Stage::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
            format!("no stage named {s:?}; the stages are {}", names.join(", "))
        })
    }
}

/// A set of stages: the ones that are on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stages(u32);

impl Stages {
    /// Every stage on.
    pub fn all() -> Stages {
        Stages(Stage::ALL.iter().fold(0, |b, s| b | s.bit()))
    }

    /// No stage on: the rules' matches alone (the thesis's cleaner).
    pub fn none() -> Stages {
        Stages(0)
    }

    pub fn contains(self, stage: Stage) -> bool {
        self.0 & stage.bit() != 0
    }

    pub fn set(&mut self, stage: Stage, on: bool) {
        if on {
            self.0 |= stage.bit();
        } else {
            self.0 &= !stage.bit();
        }
    }

    pub fn with(mut self, stage: Stage, on: bool) -> Stages {
        self.set(stage, on);
        self
    }

    /// The stages that are off, in pipeline order.
    pub fn off(self) -> Vec<Stage> {
        Stage::ALL.into_iter().filter(|s| !self.contains(*s)).collect()
    }
}

impl Default for Stages {
    /// The stages a bare rule set runs with (a fresh mining's, before the automatic rules choose): all
    /// but those that read the document's lines and sentences (`line-boundary`, `sentence-heads`,
    /// `sentence-tails`), the title's (`title`, `headline`, `datelines`), `line-slots`, `reprints` and
    /// `repeats` (they remove text no rule matched); the stages that
    /// do nothing until their settings are set (`islands`, `short-runs`, `specks`) are on.
    fn default() -> Stages {
        Stages::all()
            .with(Stage::LineBoundary, false)
            .with(Stage::SentenceHeads, false)
            .with(Stage::SentenceTails, false)
            .with(Stage::Title, false)
            .with(Stage::Headline, false)
            .with(Stage::Datelines, false)
            .with(Stage::LineSlots, false)
            .with(Stage::Reprints, false)
            .with(Stage::Repeats, false)
    }
}

impl fmt::Debug for Stages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on: Vec<&str> = Stage::ALL.iter().filter(|s| self.contains(**s)).map(|s| s.name()).collect();
        write!(f, "Stages({})", on.join(", "))
    }
}

/// The stages the line-boundary filter is (format 1's `line_boundary` switch, `--[no-]line-boundary`).
pub const LINE_BOUNDARY_STAGES: [Stage; 3] = [Stage::LineBoundary, Stage::SentenceHeads, Stage::SentenceTails];
/// The stages that keep the page's title and what stands above the article (format 1's `keep_title`).
pub const TITLE_STAGES: [Stage; 3] = [Stage::Title, Stage::Headline, Stage::Datelines];
/// The stages that remove text no rule matched: a source's safety nets for pages whose template was not
/// mined (a section laid out otherwise, a redesign). On the pages mined, whose template the rules cover,
/// they can only take an article's stray lines, so what they are worth never shows there: turning one
/// off is judged on pages that cannot show it (the tuning UI says so; the oracle editor does not).
pub const SAFETY_NETS: [Stage; 11] = [
    Stage::Islands,
    Stage::Slots,
    Stage::LineSlots,
    Stage::ShortRuns,
    Stage::LinkDensity,
    Stage::LinkBoxes,
    Stage::Comments,
    Stage::Furniture,
    Stage::AuthorBox,
    Stage::Reprints,
    Stage::Repeats,
];

impl CleanSettings {
    pub fn on(&self, stage: Stage) -> bool {
        self.stages.contains(stage)
    }

    /// Turns the line-boundary filter's stages on or off together.
    pub fn set_line_boundary(&mut self, on: bool) {
        for s in LINE_BOUNDARY_STAGES {
            self.stages.set(s, on);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_has_a_distinct_name_that_reads_back() {
        let mut names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
        for s in Stage::ALL {
            assert_eq!(Stage::from_name(s.name()), Some(s));
            assert_eq!(s.name().parse::<Stage>(), Ok(s));
            // the serde name is the same one
            assert_eq!(toml::Value::try_from(s).unwrap().as_str(), Some(s.name()));
        }
        names.dedup();
        assert_eq!(names.len(), Stage::ALL.len());
        let err = "reprint".parse::<Stage>().unwrap_err();
        assert!(err.contains("reprints") && err.contains("\"reprint\""), "{err}");
    }

    #[test]
    fn a_set_switches_each_stage_alone() {
        for s in Stage::ALL {
            let off = Stages::all().with(s, false);
            assert_eq!(off.off(), vec![s]);
            assert!(Stage::ALL.iter().all(|t| off.contains(*t) == (*t != s)));
        }
        assert_eq!(Stages::none().off().len(), Stage::ALL.len());
    }

    #[test]
    fn a_clean_table_reads_back_what_it_writes_and_leaves_out_stages_that_do_nothing() {
        let mut s = CleanSettings::automatic();
        s.stages.set(Stage::Reprints, false);
        s.specks.chars = 7;
        let text = toml::to_string(&s.table()).unwrap();
        assert!(text.contains("[short-runs]\nwords = 20") && text.contains("[specks]\nchars = 7"), "{text}");
        assert!(!text.contains("islands"), "islands at 0 do nothing: no table\n{text}");
        let table: CleanTable = toml::from_str(&text).unwrap();
        assert_eq!(CleanSettings::of_table(0, &table), s);
    }

    #[test]
    fn every_stage_with_settings_has_a_table_whose_keys_are_known() {
        let keys = CleanTable::stage_keys();
        let names: Vec<&str> = keys.iter().map(|k| k.0).collect();
        assert_eq!(names, ["islands", "short-runs", "link-density", "specks"]);
        assert!(keys.iter().all(|(_, fields)| !fields.is_empty()));
        assert_eq!(CleanTable::number_keys(), ["specks"], "format 2 wrote specks alone as a number");
    }
}
