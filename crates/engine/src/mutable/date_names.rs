//! Month and weekday names of the languages a source's pages write dates in. The thesis's mutable
//! patterns read English names only, so a German site's "Mittwoch, 15. August 2026" keeps its weekday as
//! a literal: its date line is seven strings to the miner, one per weekday, each on a seventh of the
//! pages. A source mined with the bundled patterns gets the names of each language its documents write
//! dates in added to its `month`, `weekday` and `month_abbr` patterns (in its rules file, so cleaning
//! reads them too); an English source's patterns stay the thesis's, byte for byte.

use std::collections::HashMap;
use std::sync::LazyLock;

use rayon::prelude::*;

use crate::corpus::Document;
use crate::mutable::MutablePattern;

/// A language's date names, in small letters: a page may write each with a capital or not.
pub struct Language {
    pub name: &'static str,
    pub months: &'static [&'static str],
    pub weekdays: &'static [&'static str],
    /// Abbreviations no English word shares ("Okt.", "févr.").
    pub month_abbr: &'static [&'static str],
    /// A date written as one token of digits and characters ("2026年4月10日"): a regex of such a token
    /// whole, a `month` once the language is read; a token it matches tells the language as a name does.
    pub dates: Option<&'static str>,
}

/// The languages read, after English. Russian, Polish, Czech, Greek and Ukrainian months as dates write
/// them (the genitive), and the nominative too.
#[rustfmt::skip]
pub const LANGUAGES: &[Language] = &[
    Language {
        name: "German",
        months: &[
            "januar", "jänner", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
            "november", "dezember",
        ],
        weekdays: &["montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag"],
        month_abbr: &["mär", "mrz", "okt", "dez"],
        dates: None,
    },
    Language {
        name: "French",
        months: &[
            "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre",
        ],
        weekdays: &["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
        month_abbr: &["janv", "févr", "avr", "juil", "déc"],
        dates: None,
    },
    Language {
        name: "Spanish",
        months: &[
            "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre",
            "octubre", "noviembre", "diciembre",
        ],
        weekdays: &["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Italian",
        months: &[
            "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
            "novembre", "dicembre",
        ],
        weekdays: &["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Portuguese",
        months: &[
            "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
            "novembro", "dezembro",
        ],
        weekdays: &["segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Dutch",
        months: &[
            "januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
            "november", "december",
        ],
        weekdays: &["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Russian",
        months: &[
            "января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября",
            "декабря", "январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь",
            "ноябрь", "декабрь",
        ],
        weekdays: &["понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Polish",
        months: &[
            "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
            "października", "listopada", "grudnia", "styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec",
            "lipiec", "sierpień", "wrzesień", "październik", "listopad", "grudzień",
        ],
        weekdays: &["poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota", "niedziela"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Swedish",
        months: &[
            "januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober",
            "november", "december",
        ],
        weekdays: &["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"],
        month_abbr: &[],
        dates: None,
    },
    // one language to its dates: Danish and Norwegian share their weekdays and most months
    Language {
        name: "Danish/Norwegian",
        months: &[
            "januar", "februar", "marts", "mars", "april", "maj", "mai", "juni", "juli", "august", "september",
            "oktober", "november", "december", "desember",
        ],
        weekdays: &["mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Czech",
        months: &[
            "ledna", "února", "března", "dubna", "května", "června", "července", "srpna", "září", "října",
            "listopadu", "prosince", "leden", "únor", "březen", "duben", "květen", "červen", "červenec", "srpen",
            "říjen", "listopad", "prosinec",
        ],
        weekdays: &["pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota", "neděle"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Turkish",
        months: &[
            "ocak", "şubat", "mart", "nisan", "mayıs", "haziran", "temmuz", "ağustos", "eylül", "ekim", "kasım",
            "aralık",
        ],
        weekdays: &["pazartesi", "salı", "çarşamba", "perşembe", "cuma", "cumartesi", "pazar"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Indonesian",
        months: &[
            "januari", "februari", "maret", "april", "mei", "juni", "juli", "agustus", "september", "oktober",
            "november", "desember",
        ],
        weekdays: &["senin", "selasa", "rabu", "kamis", "jumat", "sabtu", "minggu"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Greek",
        months: &[
            "ιανουαρίου", "φεβρουαρίου", "μαρτίου", "απριλίου", "μαΐου", "ιουνίου", "ιουλίου", "αυγούστου",
            "σεπτεμβρίου", "οκτωβρίου", "νοεμβρίου", "δεκεμβρίου", "ιανουάριος", "φεβρουάριος", "μάρτιος", "απρίλιος",
            "μάιος", "ιούνιος", "ιούλιος", "αύγουστος", "σεπτέμβριος", "οκτώβριος", "νοέμβριος", "δεκέμβριος",
        ],
        weekdays: &["δευτέρα", "τρίτη", "τετάρτη", "πέμπτη", "παρασκευή", "σάββατο", "κυριακή"],
        month_abbr: &[],
        dates: None,
    },
    Language {
        name: "Hungarian",
        months: &[
            "január", "február", "március", "április", "május", "június", "július", "augusztus", "szeptember",
            "október", "november", "december",
        ],
        weekdays: &["hétfő", "kedd", "szerda", "csütörtök", "péntek", "szombat", "vasárnap"],
        month_abbr: &[],
        dates: None,
    },
    // dates write the months' partitive ("1. joulukuuta"), and "on Monday" the essive ("maanantaina")
    Language {
        name: "Finnish",
        months: &[
            "tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta", "heinäkuuta",
            "elokuuta", "syyskuuta", "lokakuuta", "marraskuuta", "joulukuuta", "tammikuu", "helmikuu", "maaliskuu",
            "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu", "syyskuu", "lokakuu", "marraskuu", "joulukuu",
        ],
        weekdays: &[
            "maanantai", "tiistai", "keskiviikko", "torstai", "perjantai", "lauantai", "sunnuntai", "maanantaina",
            "tiistaina", "keskiviikkona", "torstaina", "perjantaina", "lauantaina", "sunnuntaina",
        ],
        month_abbr: &[],
        dates: None,
    },
    // the weekdays with a comma below as with a cedilla: pages write both
    Language {
        name: "Romanian",
        months: &[
            "ianuarie", "februarie", "martie", "aprilie", "mai", "iunie", "iulie", "august", "septembrie", "octombrie",
            "noiembrie", "decembrie",
        ],
        weekdays: &["luni", "marți", "miercuri", "joi", "vineri", "sâmbătă", "duminică", "marţi", "sîmbătă"],
        month_abbr: &[],
        dates: None,
    },
    // the genitive as dates write months, and the nominative; Friday with each apostrophe pages write
    Language {
        name: "Ukrainian",
        months: &[
            "січня", "лютого", "березня", "квітня", "травня", "червня", "липня", "серпня", "вересня", "жовтня",
            "листопада", "грудня", "січень", "лютий", "березень", "квітень", "травень", "червень", "липень",
            "серпень", "вересень", "жовтень", "листопад", "грудень",
        ],
        weekdays: &["понеділок", "вівторок", "середа", "четвер", "п'ятниця", "субота", "неділя", "пʼятниця", "п’ятниця"],
        month_abbr: &[],
        dates: None,
    },
    // the months of Egypt and the Gulf, then the single-word ones of the Levant
    Language {
        name: "Arabic",
        months: &[
            "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
            "ديسمبر", "إبريل", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول",
        ],
        weekdays: &["الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت", "الأحد", "الإثنين"],
        month_abbr: &[],
        dates: None,
    },
    // one language to the detector: the two write dates alike ("2026年4月10日"), each token a date whole;
    // Chinese weekdays ("星期四", "周四") and Japanese ones ("木曜日") both told
    Language {
        name: "Chinese/Japanese",
        months: &["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
        weekdays: &[
            "星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日", "星期天", "周一", "周二", "周三", "周四",
            "周五", "周六", "周日", "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日",
        ],
        month_abbr: &[],
        dates: Some(r"(?:\d{2,4}年)?\d{1,2}月(?:\d{1,2}日)?(?:[（(][月火水木金土日][）)])?"),
    },
];

/// A language's names are read when they stand on at least this share of a source's documents (a date
/// line is on nearly every page; an English page quoting "Montag" is not)…
pub const MIN_SHARE: f64 = 0.2;
/// …on two of them at least, and at least this many of its names in all: a site whose pages name the
/// Mayo Clinic writes no Spanish dates.
pub const MIN_NAMES: usize = 3;

/// Documents read to tell the languages: a language a source writes dates in is on a fifth of them.
pub const MAX_DOCS: usize = 400;

/// Names that English writes too ("April", "august"), which say nothing about the language.
#[rustfmt::skip]
const ENGLISH: &[&str] = &[
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
];

/// Each name that tells its language: in small letters, no English date's and no other language's
/// ("juni" is German and Dutch); the language (by index into [`LANGUAGES`]), and its index among the
/// language's names.
static NAMES: LazyLock<HashMap<&'static str, (usize, usize)>> = LazyLock::new(|| {
    let mut map: HashMap<&'static str, Vec<(usize, usize)>> = HashMap::new();
    for (l, language) in LANGUAGES.iter().enumerate() {
        for (k, name) in language.months.iter().chain(language.weekdays).enumerate() {
            if !ENGLISH.contains(name) {
                map.entry(name).or_default().push((l, k));
            }
        }
    }
    map.into_iter().filter(|(_, at)| at.len() == 1).map(|(name, at)| (name, at[0])).collect()
});

/// Of each language: on how many documents its names stand, and which of them (a bit each); on how many
/// a date token of its own ([`Language::dates`]) stands.
#[derive(Clone, Copy, Default)]
struct Found {
    docs: usize,
    names: u64,
    dated: usize,
}

/// Each language's date token ([`Language::dates`]) as a regex of a whole word, punctuation around it
/// aside: the language by index into [`LANGUAGES`].
static DATE_TOKENS: LazyLock<Vec<(usize, regex::Regex)>> = LazyLock::new(|| {
    let whole = |dates: &str| regex::Regex::new(&format!(r"^\W*(?:{dates})\W*$")).expect("a date token's regex");
    LANGUAGES.iter().enumerate().filter_map(|(l, language)| language.dates.map(|d| (l, whole(d)))).collect()
});

/// The languages whose date names `docs` write: the names that tell each language (no English date's, no
/// other language's) found on at least [`MIN_SHARE`] of the documents and two of them, [`MIN_NAMES`]
/// distinct names at least. Of a large source, [`MAX_DOCS`] documents evenly spread are read: one pass
/// over each one's words, a lookup each.
pub fn languages_of(docs: &[Document]) -> Vec<&'static Language> {
    let step = docs.len().div_ceil(MAX_DOCS).max(1);
    let read: Vec<&Document> = docs.iter().step_by(step).collect();
    let empty = || [Found::default(); LANGUAGES.len()];
    let found = read
        .par_iter()
        .fold(empty, |mut acc, doc| {
            let mut here = [false; LANGUAGES.len()];
            let mut dated = [false; LANGUAGES.len()];
            let mut lower = String::new();
            for word in doc.text.split_whitespace() {
                // every date token written so has a month's character: other words are not matched
                if word.contains('月') {
                    for (l, regex) in DATE_TOKENS.iter() {
                        dated[*l] |= regex.is_match(word);
                    }
                }
                let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
                // the longest name is 13 characters of two bytes at most
                if word.len() < 3 || word.len() > 26 || !word.starts_with(char::is_alphabetic) {
                    continue;
                }
                lower.clear();
                lower.extend(word.chars().flat_map(char::to_lowercase));
                if let Some(&(l, k)) = NAMES.get(lower.as_str()) {
                    here[l] = true;
                    acc[l].names |= 1 << k;
                }
            }
            for ((f, h), d) in acc.iter_mut().zip(here).zip(dated) {
                f.docs += usize::from(h || d);
                f.dated += usize::from(d);
            }
            acc
        })
        .reduce(empty, |mut a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                x.docs += y.docs;
                x.names |= y.names;
                x.dated += y.dated;
            }
            a
        });
    let on_enough = |docs: usize| docs >= 2 && docs as f64 >= MIN_SHARE * read.len() as f64;
    // a date token of digits and the language's characters says as much as three distinct names
    let enough = |f: &Found| on_enough(f.docs) && (f.names.count_ones() as usize >= MIN_NAMES || on_enough(f.dated));
    LANGUAGES.iter().zip(&found).filter(|(_, f)| enough(f)).map(|(l, _)| l).collect()
}

/// `patterns` with `languages`' names added to their `month`, `weekday` and `month_abbr` patterns: each
/// such pattern's regex becomes `(?:OLD|(?:NAMES)[[:punct:]]*)`, a name with its first letter in either
/// case. Other patterns, and a list without those names, are left as they are.
pub fn with_languages(patterns: &[MutablePattern], languages: &[&Language]) -> Vec<MutablePattern> {
    let alternation = |names: &mut dyn Iterator<Item = &&str>| -> Option<String> {
        let mut out: Vec<String> = Vec::new();
        for name in names {
            let mut chars = name.chars();
            let first = chars.next().expect("names are not empty");
            let (lo, up): (String, String) = (first.to_lowercase().collect(), first.to_uppercase().collect());
            let rest = regex::escape(chars.as_str());
            let alt = match (lo.chars().count(), up.chars().count()) {
                _ if lo == up => format!("{lo}{rest}"),
                (1, 1) => format!("[{up}{lo}]{rest}"),
                _ => format!("(?:{up}|{lo}){rest}"),
            };
            if !out.contains(&alt) {
                out.push(alt);
            }
        }
        (!out.is_empty()).then(|| out.join("|"))
    };
    patterns
        .iter()
        .map(|p| {
            let names = match p.name.as_str() {
                "month" => alternation(&mut languages.iter().flat_map(|l| l.months.iter())),
                "weekday" => alternation(&mut languages.iter().flat_map(|l| l.weekdays.iter())),
                "month_abbr" => alternation(&mut languages.iter().flat_map(|l| l.month_abbr.iter())),
                _ => None,
            };
            match names {
                Some(names) => {
                    // a month's date tokens as they are, any punctuation after them (a full-width comma's too)
                    let dates: String = match p.name.as_str() {
                        "month" => {
                            languages.iter().filter_map(|l| l.dates).map(|d| format!(r"|(?:{d})\p{{P}}*")).collect()
                        }
                        _ => String::new(),
                    };
                    MutablePattern::new(&p.name, format!("(?:{}|(?:{names})[[:punct:]]*{dates})", p.regex))
                }
                None => p.clone(),
            }
        })
        .collect()
}

/// The languages (after English) whose date names `patterns` read: those whose first weekday is a
/// `weekday` to them.
pub fn languages_read(patterns: &crate::mutable::MutableSet) -> Vec<&'static str> {
    let weekday = |word: &str| patterns.classify(word).is_some_and(|p| patterns.patterns()[p].name == "weekday");
    LANGUAGES.iter().filter(|l| weekday(l.weekdays[0])).map(|l| l.name).collect()
}

/// For a source mined with the bundled patterns: the date names of the languages `docs` write added to
/// them ([`languages_of`], [`with_languages`]). A list an editor made, or a rules file's, is left alone.
pub fn adopt(patterns: &mut Vec<MutablePattern>, docs: &[Document]) {
    if *patterns != crate::mutable::default_patterns() {
        return;
    }
    let languages = languages_of(docs);
    if !languages.is_empty() {
        *patterns = with_languages(patterns, &languages);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::{MutableSet, default_patterns};

    fn docs(lines: &[String]) -> Vec<Document> {
        lines.iter().enumerate().map(|(i, t)| Document { id: i.to_string(), text: t.clone() }).collect()
    }

    /// Ten pages, each with a date line in `language`'s words for the page's weekday and month.
    fn dated(language: &Language, line: impl Fn(&str, &str) -> String) -> Vec<Document> {
        let pages: Vec<String> = (0..10)
            .map(|i| {
                let (w, m) = (language.weekdays[i % 7], language.months[(3 * i) % language.months.len()]);
                format!("Home News\n{}\nThe harbour opened after ten years of work, the mayor said.", line(w, m))
            })
            .collect();
        docs(&pages)
    }

    fn names(languages: &[&Language]) -> Vec<&'static str> {
        languages.iter().map(|l| l.name).collect()
    }

    #[test]
    fn each_language_is_told_by_its_dates_and_english_pages_by_none() {
        for language in LANGUAGES {
            let pages = dated(language, |w, m| format!("{w}, 15. {m} 2026, 11:58 | 20"));
            assert_eq!(names(&languages_of(&pages)), [language.name], "{}", language.name);
            let capital = dated(language, |w, m| {
                let up = |s: &str| {
                    s[..s.chars().next().unwrap().len_utf8()].to_uppercase()
                        + &s[s.chars().next().unwrap().len_utf8()..]
                };
                format!("{}, 15 {} 2026", up(w), up(m))
            });
            assert_eq!(names(&languages_of(&capital)), [language.name], "{} in capitals", language.name);
        }
        let english = dated(&LANGUAGES[0], |_, _| "Wednesday, 15 August 2026 | 20 comments".to_string());
        assert!(languages_of(&english).is_empty());
    }

    #[test]
    fn every_language_has_names_only_it_writes() {
        // enough to be told by MIN_NAMES of them: Danish and Norwegian apart would have one or none
        for (l, language) in LANGUAGES.iter().enumerate() {
            let own = NAMES.values().filter(|&&(at, _)| at == l).count();
            assert!(own > MIN_NAMES, "{}: {own}", language.name);
        }
    }

    #[test]
    fn chinese_and_japanese_dates_written_as_one_token_tell_their_language_and_read_as_a_month() {
        let chinese = |i: usize| {
            format!(
                "首页 新闻\n2026年{}月{}日 {:02}:15 来源：港口日报\n市政府今天宣布新的港口将在明年开放。",
                1 + i % 12,
                1 + i,
                i
            )
        };
        let japanese = |i: usize| {
            format!("ホーム\n2026年{}月{}日（金） 配信\n市は新しい港を来年開くと発表した。", 1 + i % 12, 1 + i)
        };
        for pages in [(0..10).map(chinese).collect::<Vec<_>>(), (0..10).map(japanese).collect()] {
            assert_eq!(names(&languages_of(&docs(&pages))), ["Chinese/Japanese"], "{}", pages[0]);
            let mut patterns = default_patterns();
            adopt(&mut patterns, &docs(&pages));
            let set = MutableSet::new(patterns).unwrap();
            let slot = |t: &str| set.classify(t).map(|i| set.patterns()[i].name.clone());
            for token in ["2026年4月10日", "2026年4月10日（金）", "4月10日，", "12月", "星期四", "木曜日"]
            {
                let name = if token.contains('曜') || token.contains('星') { "weekday" } else { "month" };
                assert_eq!(slot(token).as_deref(), Some(name), "{token}");
            }
            // a token with more than a date after it is no date
            assert_eq!(slot("4月10日来源"), None);
        }
        // a single page's date, or one month in a Chinese sentence, is no language
        let mut pages: Vec<String> = (0..10).map(|i| format!("Page {i} of the news site.")).collect();
        pages[3] = chinese(3);
        assert!(languages_of(&docs(&pages)).is_empty());
    }

    #[test]
    fn a_few_foreign_words_are_no_language() {
        // one name on two pages of twenty (the Mayo Clinic), three on two (a quote from a week in Berlin)
        let mut pages: Vec<String> = (0..20).map(|i| format!("Page {i} of the health news site.")).collect();
        pages[2] = "Doctors at the Mayo Clinic said on Montag, as Berlin calls it, that mayo is fine.".into();
        pages[5] = "The Mayo Clinic's report.".into();
        pages[7] = "Montag, Dienstag und Mittwoch".into();
        assert!(languages_of(&docs(&pages)).is_empty());
        // on a fifth of the pages
        pages[8] = "Montag".into();
        pages[9] = "Mittwoch".into();
        assert_eq!(names(&languages_of(&docs(&pages))), ["German"]);
    }

    #[test]
    fn a_large_source_is_told_from_documents_spread_over_it() {
        // 2,000 pages, German dates from the 1,200th on: not among the first documents, but among those read
        let pages: Vec<String> = (0..2000)
            .map(|i| {
                if i >= 1200 {
                    format!("{}, {} März", LANGUAGES[0].weekdays[i % 7], i % 28)
                } else {
                    format!("Page {i}.")
                }
            })
            .collect();
        assert_eq!(names(&languages_of(&docs(&pages))), ["German"]);
        assert!(languages_of(&docs(&pages[..1200])).is_empty());
    }

    #[test]
    fn the_bundled_patterns_read_a_language_once_it_is_adopted_and_an_editors_list_is_left_alone() {
        let german = dated(&LANGUAGES[0], |w, m| format!("{w}, 15. {m} 2026"));
        let mut patterns = default_patterns();
        adopt(&mut patterns, &german);
        let set = MutableSet::new(patterns.clone()).unwrap();
        let slot = |t: &str| set.classify(t).map(|i| set.patterns()[i].name.as_str());
        for (word, name) in
            [("Mittwoch,", "weekday"), ("März", "month"), ("Dezember.", "month"), ("Okt.", "month_abbr")]
        {
            assert_eq!(slot(word), Some(name), "{word}");
        }
        // English names as before, the other patterns untouched
        assert_eq!(
            (slot("Tuesday,"), slot("February"), slot("27th")),
            (Some("weekday"), Some("month"), Some("ordinal"))
        );
        assert_eq!(languages_read(&set), ["German"]);
        assert_eq!(
            patterns.iter().filter(|p| !default_patterns().contains(p)).count(),
            3,
            "month, weekday, month_abbr"
        );
        assert!(languages_read(&MutableSet::defaults()).is_empty());
        // an English source's list stays the thesis's, byte for byte; a list an editor changed is hers
        let mut english = default_patterns();
        adopt(&mut english, &dated(&LANGUAGES[0], |_, _| "Wednesday, 15 August".into()));
        assert_eq!(english, default_patterns());
        let mut edited = default_patterns();
        edited.pop();
        let before = edited.clone();
        adopt(&mut edited, &german);
        assert_eq!(edited, before);
    }

    #[test]
    fn every_name_reads_as_its_slot_in_either_case() {
        let set = MutableSet::new(with_languages(&default_patterns(), &LANGUAGES.iter().collect::<Vec<_>>())).unwrap();
        let slot = |t: &str| set.classify(t).map(|i| set.patterns()[i].name.clone());
        for language in LANGUAGES {
            let lists =
                [(language.months, "month"), (language.weekdays, "weekday"), (language.month_abbr, "month_abbr")];
            for (list, name) in lists {
                for word in list.iter() {
                    let mut chars = word.chars();
                    let capital: String = chars.next().unwrap().to_uppercase().chain(chars).collect();
                    for w in [word.to_string(), capital, format!("{word},")] {
                        assert_eq!(slot(&w).as_deref(), Some(name), "{}: {w}", language.name);
                    }
                }
            }
        }
    }
}
