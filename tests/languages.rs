//! News sites in other languages than English, mined alone and cleaned by the real binary: their dates
//! are one template string, as an English site's are. The thesis's mutable patterns read English month
//! and weekday names only; with those, "Mittwoch, 15. August" left the weekday a literal, the date line
//! split into one string per weekday, each on a seventh of the pages, and it stayed on some pages and went
//! on others. Mining adds the names of the languages a source's pages write dates in.

use std::fs;
use std::path::Path;

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, chaff_stdin, stderr};

struct Language {
    code: &'static str,
    name: &'static str,
    words: &'static str,
    weekdays: &'static str,
    months: &'static str,
    menu: &'static str,
    /// What follows the day's number ("15. August").
    day_mark: &'static str,
    hour: &'static str,
    comments: &'static str,
    share: &'static str,
    most_read: &'static str,
    footer: &'static str,
    /// A byline's first word ("By") and the site's three authors.
    by: &'static str,
    authors: [&'static str; 3],
}

const LANGUAGES: &[Language] = &[
    Language {
        code: "de",
        name: "German",
        words: "der rat sagte am montag dass der neue hafen nächstes jahr nach langen verzögerungen öffnen \
                werde kosten steigen anwohner begrüßten den plan kritiker warnten vor verkehr lärm fähre stadt",
        weekdays: "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag",
        months: "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
        menu: "Startseite Politik Wirtschaft Sport Kultur",
        day_mark: ".",
        hour: "Uhr",
        comments: "Kommentare",
        share: "Artikel teilen: Facebook Twitter E-Mail",
        most_read: "Meistgelesen im Hafenblatt",
        footer: "© 2026 Hafenblatt Verlag. Alle Rechte vorbehalten. Impressum Datenschutz",
        by: "Von",
        authors: ["Anna Schmidt", "Jonas Weber", "Lea Fischer"],
    },
    Language {
        code: "fr",
        name: "French",
        words: "le conseil a annoncé lundi que le nouveau port ouvrira année prochaine après de longs retards \
                les habitants ont salué le projet tandis que les critiques craignent bruit circulation ville",
        weekdays: "lundi mardi mercredi jeudi vendredi samedi dimanche",
        months: "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
        menu: "Accueil Politique Économie Sport Culture",
        day_mark: "",
        hour: "h",
        comments: "commentaires",
        share: "Partager cet article : Facebook Twitter E-mail",
        most_read: "Les plus lus du Journal du Port",
        footer: "© 2026 Le Journal du Port. Tous droits réservés. Mentions légales",
        by: "Par",
        authors: ["Claire Martin", "Hugo Bernard", "Léa Petit"],
    },
    Language {
        code: "ru",
        name: "Russian",
        words: "городской совет объявил что новый порт откроется в следующем году после долгих задержек \
                жители приветствовали план критики предупреждали о шуме и пробках расходы растут город",
        weekdays: "понедельник вторник среда четверг пятница суббота воскресенье",
        months: "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
        menu: "Главная Политика Экономика Спорт Культура",
        day_mark: "",
        hour: "МСК",
        comments: "комментариев",
        share: "Поделиться: ВКонтакте Telegram",
        most_read: "Самое читаемое в Портовой газете",
        footer: "© 2026 Портовая газета. Все права защищены. Политика конфиденциальности",
        by: "Автор:",
        authors: ["Иван Петров", "Анна Смирнова", "Олег Волков"],
    },
    Language {
        code: "sv",
        name: "Swedish",
        words: "kommunen sade i går att den nya hamnen öppnar nästa år efter långa förseningar kostnaderna stiger \
                invånarna välkomnade planen kritiker varnade för trafik och buller vid färjan i staden",
        weekdays: "måndag tisdag onsdag torsdag fredag lördag söndag",
        months: "januari februari mars april maj juni juli augusti september oktober november december",
        menu: "Start Nyheter Ekonomi Sport Kultur",
        day_mark: "",
        hour: "lokaltid",
        comments: "kommentarer",
        share: "Dela artikeln: Facebook Twitter E-post",
        most_read: "Mest läst i Hamnbladet",
        footer: "© 2026 Hamnbladet AB. Alla rättigheter förbehållna. Integritetspolicy",
        by: "Av",
        authors: ["Karin Berg", "Erik Lind", "Sara Holm"],
    },
    Language {
        code: "el",
        name: "Greek",
        words: "το δημοτικό συμβούλιο ανακοίνωσε ότι το νέο λιμάνι θα ανοίξει τον επόμενο χρόνο μετά από μεγάλες \
                καθυστερήσεις οι κάτοικοι χαιρέτισαν το σχέδιο οι επικριτές προειδοποίησαν για θόρυβο και κίνηση",
        weekdays: "Δευτέρα Τρίτη Τετάρτη Πέμπτη Παρασκευή Σάββατο Κυριακή",
        months: "Ιανουαρίου Φεβρουαρίου Μαρτίου Απριλίου Μαΐου Ιουνίου Ιουλίου Αυγούστου Σεπτεμβρίου Οκτωβρίου \
                 Νοεμβρίου Δεκεμβρίου",
        menu: "Αρχική Πολιτική Οικονομία Αθλητισμός Πολιτισμός",
        day_mark: "",
        hour: "ώρα",
        comments: "σχόλια",
        share: "Μοιραστείτε το άρθρο: Facebook Twitter Email",
        most_read: "Τα πιο διαβασμένα στην Εφημερίδα του Λιμανιού",
        footer: "© 2026 Εφημερίδα του Λιμανιού. Με την επιφύλαξη παντός δικαιώματος. Όροι χρήσης",
        by: "Συντάκτης:",
        authors: ["Γιώργος Παπαδόπουλος", "Μαρία Νικολάου", "Νίκος Γεωργίου"],
    },
    Language {
        code: "hu",
        name: "Hungarian",
        words: "a városi tanács bejelentette hogy az új kikötő jövőre nyílik meg hosszú késések után a lakók \
                üdvözölték a tervet a kritikusok zajra és forgalomra figyelmeztettek a költségek nőnek",
        weekdays: "hétfő kedd szerda csütörtök péntek szombat vasárnap",
        months: "január február március április május június július augusztus szeptember október november december",
        menu: "Címlap Belföld Gazdaság Sport Kultúra",
        day_mark: ".",
        hour: "óra",
        comments: "hozzászólás",
        share: "Cikk megosztása: Facebook Twitter E-mail",
        most_read: "A Kikötői Hírlap legolvasottabb cikkei",
        footer: "© 2026 Kikötői Hírlap Kft. Minden jog fenntartva. Adatvédelem",
        by: "Szerző:",
        authors: ["Nagy Anna", "Kovács Péter", "Szabó Éva"],
    },
    Language {
        code: "ar",
        name: "Arabic",
        words: "أعلن المجلس البلدي أن الميناء الجديد سيفتح العام المقبل بعد تأخير طويل ورحب السكان بالخطة بينما \
                حذر المنتقدون من الضجيج وحركة المرور في المدينة وارتفاع التكاليف",
        weekdays: "الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت الأحد",
        months: "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر",
        menu: "الرئيسية سياسة اقتصاد رياضة ثقافة",
        day_mark: "",
        hour: "مساء",
        comments: "تعليقات",
        share: "شارك المقال: Facebook Twitter",
        most_read: "الأكثر قراءة في صحيفة الميناء",
        footer: "© 2026 صحيفة الميناء. جميع الحقوق محفوظة. سياسة الخصوصية",
        by: "بقلم",
        authors: ["أحمد حسن", "ليلى منصور", "عمر خليل"],
    },
];

const PAGES: usize = 20;

fn next(seed: &mut u64) -> usize {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (*seed >> 33) as usize
}

fn pick<'a>(list: &'a str, seed: &mut u64) -> &'a str {
    let words: Vec<&str> = list.split_whitespace().collect();
    words[next(seed) % words.len()]
}

fn paragraph(lang: &Language, seed: &mut u64) -> String {
    let sentences: Vec<String> = (0..3)
        .map(|_| {
            let n = 12 + next(seed) % 8;
            let s: Vec<&str> = (0..n).map(|_| pick(lang.words, seed)).collect();
            let s = s.join(" ");
            let mut chars = s.chars();
            let first = chars.next().unwrap().to_uppercase().collect::<String>();
            format!("{first}{}.", chars.as_str())
        })
        .collect();
    sentences.join(" ")
}

/// Page `i`: the menu, the date line, the headline, the byline, three paragraphs and the footer. The
/// text of the headline, paragraphs and byline is returned beside the page.
fn page(lang: &Language, i: usize, seed: &mut u64) -> (String, Vec<String>) {
    let date = format!(
        "{}, {}{} {} 2026, {}:{:02} {} | {} {}",
        pick(lang.weekdays, seed),
        1 + next(seed) % 28,
        lang.day_mark,
        pick(lang.months, seed),
        next(seed) % 24,
        10 + next(seed) % 50,
        lang.hour,
        next(seed) % 60,
        lang.comments
    );
    let menu: String = lang.menu.split(' ').map(|m| format!("<a href=\"/{m}\">{m}</a> ")).collect();
    // a headline is a paragraph's first words, the page's number after them
    let words = |n: usize, seed: &mut u64| paragraph(lang, seed).split(' ').take(n).collect::<Vec<_>>().join(" ");
    let mut article = vec![format!("{} {i}", words(6, seed))];
    article.extend((0..3).map(|_| paragraph(lang, seed)));
    let body: String = article[1..].iter().map(|p| format!("<p>{p}</p>")).collect();
    // three authors: each one's byline is on several pages, and mining finds it
    let byline = format!("{} {}", lang.by, lang.authors[next(seed) % 3]);
    let related: String = (0..4).map(|k| format!("<li><a href=\"/r{k}\">{}</a></li>", words(7, seed))).collect();
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{}</title></head><body>\
         <div class=\"header\">{menu}</div><main><div class=\"article\"><div class=\"date\">{date}</div>\
         <h1>{}</h1><div class=\"byline\">{byline}</div>{body}<div class=\"share\">{}</div></div>\
         <div class=\"related\"><h2>{}</h2><ul>{related}</ul></div></main>\
         <div class=\"footer\"><p>{}</p></div></body></html>",
        article[0], article[0], lang.share, lang.most_read, lang.footer
    );
    article.push(byline);
    (html, article)
}

/// Mines the language's pages alone and cleans each: its rules file, and each page's text with its
/// article's text.
fn mined_and_cleaned(dir: &Path, lang: &Language) -> (String, Vec<(String, Vec<String>)>) {
    let corpus = dir.join(lang.code);
    fs::create_dir(&corpus).unwrap();
    let mut seed = 7;
    let pages: Vec<(String, Vec<String>)> = (0..PAGES).map(|i| page(lang, i, &mut seed)).collect();
    for (i, (html, _)) in pages.iter().enumerate() {
        fs::write(corpus.join(format!("{i:02}.html")), html).unwrap();
    }
    let o = chaff(&["mine", lang.code, "--rules-dir", "rules"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains(&format!("dates read in English and {}", lang.name)), "{said}");
    let o = chaff(&["mine", lang.code, "--rules-dir", "json-rules", "--json"], dir);
    let said: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(said["date_languages"], serde_json::json!([lang.name]), "{said}");
    let rules_file = format!("rules/{}.toml", lang.code);
    let cleaned = pages
        .into_iter()
        .map(|(html, article)| {
            let args = ["clean", "--rules", &rules_file, "--include-pending", "--text", "-"];
            let o = chaff_stdin(&args, dir, html.as_bytes());
            assert!(o.status.success(), "{}", stderr(&o));
            (String::from_utf8(o.stdout).unwrap(), article)
        })
        .collect();
    (fs::read_to_string(dir.join(rules_file)).unwrap(), cleaned)
}

#[test]
fn a_date_line_in_another_language_is_one_template_string_and_goes_from_every_page() {
    let dir = tempfile::tempdir().unwrap();
    for lang in LANGUAGES {
        let (rules, cleaned) = mined_and_cleaned(dir.path(), lang);
        let date = format!(
            r#""«weekday»", "«number»", "«month»", "«number»", "«date_time»", "{}", "|", "«number»", "{}""#,
            lang.hour, lang.comments
        );
        assert!(rules.contains(&date), "{}: the date line is one string of slots: {rules}", lang.code);
        for (text, article) in cleaned {
            for p in &article[..article.len() - 1] {
                assert!(text.contains(p.as_str()), "{}: the article stays: {p:?} in {text}", lang.code);
            }
            for template in [lang.comments, lang.footer, lang.menu.split(' ').next_back().unwrap()] {
                assert!(!text.contains(template), "{}: {template:?} is template: {text}", lang.code);
            }
            assert!(
                !lang.weekdays.split(' ').any(|w| text.contains(&format!("{w},"))),
                "{}: the date line goes: {text}",
                lang.code
            );
        }
    }
}

/// A byline opens with "By" in the site's language ("Von", "Par", "Автор:", "Av"); each author's is on several
/// pages, so mining makes it a string, and stage `datelines` gives it back above the article as it does
/// "By A. Writer".
#[test]
fn a_byline_in_another_language_stays_above_the_article() {
    let dir = tempfile::tempdir().unwrap();
    for lang in LANGUAGES {
        let (rules, cleaned) = mined_and_cleaned(dir.path(), lang);
        assert!(rules.contains(&format!("\"{}\"", lang.by)), "{}: a byline is mined: {rules}", lang.code);
        for (text, article) in cleaned {
            let byline = article.last().unwrap();
            let headline = &article[0];
            assert!(
                text.contains(&format!("{headline}\n{byline}\n")),
                "{}: the byline stays under the headline: {byline:?} in {text}",
                lang.code
            );
        }
    }
}
