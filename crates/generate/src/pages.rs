//! The other bundled sources: an HTML news site, a site mixing two templates,
//! a template with optional parts, and a blog whose comments are template.

use super::prose::{Writer, push_uint};
use super::words::*;
use super::{Date, DocBuilder, GeneratedDoc, GeneratedSource, Rng, doc_id, sorted_dates};
use std::fmt::Write as _;

/// "Monday, 3 March 2025".
fn push_date_plain(out: &mut String, date: Date) {
    let _ = write!(out, "{}, {} {} {}", date.weekday_name(), date.day, date.month_name(), date.year);
}

/// Appends `/news/<slug>` for a headline.
fn push_slug(out: &mut String, headline: &str) {
    out.push_str("/news/");
    for c in headline.chars() {
        if c == ' ' {
            out.push('-');
        } else if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        }
    }
}

/// One Harbour Gazette page.
///
/// Template is everything except the text of the `<h1>` headline and of the
/// article's `<p>` paragraphs. The headline's copy inside `<title>` counts as
/// template (page metadata): a reader's view of the article has the headline
/// once. The byline, date, active nav item and related links vary per page but
/// are template too.
fn html_doc(rng: &mut Rng, id: String, date: Date) -> GeneratedDoc {
    let mut title = String::new();
    Writer { rng, out: &mut title }.headline();
    let section = rng.range(1, 6);
    let mut b = DocBuilder::new(8192);

    let start = b.mark();
    let t = &mut b.text;
    t.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    t.push_str(&title);
    t.push_str(" | The Harbour Gazette</title>\n");
    t.push_str("<link rel=\"stylesheet\" href=\"/static/gazette.css\">\n</head>\n<body>\n");
    t.push_str("<header class=\"masthead\">\n<a class=\"logo\" href=\"/\">The Harbour Gazette</a>\n");
    t.push_str("<span class=\"date\">");
    push_date_plain(t, date);
    t.push_str("</span>\n</header>\n<nav>\n<ul>\n");
    for (i, (label, href)) in GAZETTE_SECTIONS.iter().enumerate() {
        let li = if i == section { "<li class=\"active\">" } else { "<li>" };
        let _ = writeln!(t, "{li}<a href=\"{href}\">{label}</a></li>");
    }
    t.push_str("</ul>\n</nav>\n<main>\n<article>\n<h1>");
    b.template_from(start);

    let start = b.mark();
    b.text.push_str(&title);
    b.body_from(start);

    let start = b.mark();
    b.text.push_str("</h1>\n<p class=\"byline\">By ");
    b.writer(rng).any_person();
    let _ = write!(b.text, ", {} desk</p>\n<p>", GAZETTE_SECTIONS[section].0);
    b.template_from(start);

    let paragraphs = rng.range(3, 8);
    let quote_in = if rng.chance(60) { Some(rng.below(paragraphs)) } else { None };
    for k in 0..paragraphs {
        if k > 0 {
            b.template("</p>\n<p>");
        }
        let start = b.mark();
        let sentences = rng.range(2, 5);
        b.writer(rng).paragraph(sentences, quote_in == Some(k));
        b.body_from(start);
    }

    let start = b.mark();
    let t = &mut b.text;
    t.push_str("</p>\n</article>\n<aside class=\"related\">\n<h2>Related</h2>\n<ul>\n");
    let mut related: Vec<usize> = Vec::with_capacity(3);
    while related.len() < 3 {
        let r = rng.below(GAZETTE_RELATED.len());
        if !related.contains(&r) {
            related.push(r);
        }
    }
    for r in related {
        t.push_str("<li><a href=\"");
        push_slug(t, GAZETTE_RELATED[r]);
        let _ = writeln!(t, "\">{}</a></li>", GAZETTE_RELATED[r]);
    }
    t.push_str("</ul>\n</aside>\n</main>\n<footer>\n<p>&copy; ");
    push_uint(t, date.year as u64, false);
    t.push_str(" The Harbour Gazette. All rights reserved.</p>\n<ul class=\"links\">\n");
    t.push_str("<li><a href=\"/about/\">About us</a></li>\n<li><a href=\"/contact/\">Contact</a></li>\n");
    t.push_str("<li><a href=\"/privacy/\">Privacy</a></li>\n<li><a href=\"/terms/\">Terms</a></li>\n");
    t.push_str("</ul>\n<p>Follow us on Mastodon, by RSS and in our weekly newsletter.</p>\n");
    t.push_str("</footer>\n</body>\n</html>\n");
    b.template_from(start);
    b.finish(id)
}

/// Full HTML pages of "The Harbour Gazette": head, nav, dated masthead, article,
/// a related-links box and a footer. Default size: 60 documents.
pub fn html_news(n_docs: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 2);
    let dates = sorted_dates(&mut rng, n_docs, 2024, 2025);
    let docs = (0..n_docs).map(|i| html_doc(&mut rng, doc_id(i, n_docs), dates[i])).collect();
    GeneratedSource { name: "html_news".into(), extension: "html", docs }
}

/// Appends `n` paragraphs (one per line) as the article; one may carry a quote.
fn text_article(rng: &mut Rng, b: &mut DocBuilder, n: usize, quote_percent: usize) {
    let quote_in = if rng.chance(quote_percent) { Some(rng.below(n)) } else { None };
    let start = b.mark();
    for k in 0..n {
        if k > 0 {
            b.text.push('\n');
        }
        let sentences = rng.range(2, 4);
        b.writer(rng).paragraph(sentences, quote_in == Some(k));
    }
    b.body_from(start);
}

/// "3 March 2025".
fn push_date_short(out: &mut String, date: Date) {
    let _ = write!(out, "{} {} {}", date.day, date.month_name(), date.year);
}

/// Two templates from one site: ~60% article pages (header/footer A) and ~40%
/// photo-gallery pages (header/footer B) whose body is a short caption.
/// Default size: 80 documents.
pub fn mixed_templates(n_docs: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 3);
    let dates = sorted_dates(&mut rng, n_docs, 2023, 2024);
    let mut docs = Vec::with_capacity(n_docs);
    for (i, &date) in dates.iter().enumerate() {
        let mut b = DocBuilder::new(2048);
        let start = b.mark();
        if rng.chance(60) {
            let t = &mut b.text;
            t.push_str("Valley Courier | News | Business | Sport | Weather | Contact\nFiled under ");
            t.push_str(rng.pick(COURIER_SECTIONS));
            t.push_str(" on ");
            push_date_short(t, date);
            t.push_str(" · By ");
            b.writer(&mut rng).any_person();
            b.text.push('\n');
            b.template_from(start);
            let paragraphs = rng.range(2, 5);
            text_article(&mut rng, &mut b, paragraphs, 50);
            let start = b.mark();
            let t = &mut b.text;
            t.push_str("\nShare this article: Email · Print · Copy link\n© ");
            push_uint(t, date.year as u64, false);
            t.push_str(" Valley Courier. All rights reserved. | Terms | Privacy\n");
            b.template_from(start);
        } else {
            let total = rng.range(8, 30);
            let image = rng.range(1, total);
            let t = &mut b.text;
            let _ = write!(
                t,
                "Valley Courier Photos\nPhoto gallery | Image {image} of {total} | Back to gallery: {}\n",
                rng.pick(GALLERY_TITLES)
            );
            b.template_from(start);
            let start = b.mark();
            b.writer(&mut rng).caption();
            b.body_from(start);
            let start = b.mark();
            b.text.push_str("\nPhoto: ");
            b.writer(&mut rng).any_person();
            b.text.push_str(" / Valley Courier\nPrevious image | Next image | Buy this photo | More galleries\n");
            b.template_from(start);
        }
        docs.push(b.finish(doc_id(i, n_docs)));
    }
    GeneratedSource { name: "mixed_templates".into(), extension: "txt", docs }
}

/// A template with optional parts: header and footer always, a "Breaking news"
/// banner on ~30% of pages and a "Sponsored" block on ~50%; the spans include
/// whichever are present. Default size: 80 documents.
pub fn optional_parts(n_docs: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 4);
    let dates = sorted_dates(&mut rng, n_docs, 2025, 2025);
    let mut docs = Vec::with_capacity(n_docs);
    for (i, &date) in dates.iter().enumerate() {
        let mut b = DocBuilder::new(2048);
        let start = b.mark();
        let t = &mut b.text;
        t.push_str("RIVERSIDE DAILY | Home | World | Local | Money | Sport | Life\n");
        let _ = writeln!(
            t,
            "{} {} {} {} | Updated {:02}:{:02}",
            date.weekday_name(),
            date.day,
            date.month_name(),
            date.year,
            rng.range(6, 22),
            rng.below(60)
        );
        if rng.chance(30) {
            let _ = writeln!(t, "Breaking news: {} | Live updates", rng.pick(BREAKING));
        }
        b.template_from(start);
        let paragraphs = rng.range(2, 5);
        text_article(&mut rng, &mut b, paragraphs, 40);
        let start = b.mark();
        let t = &mut b.text;
        if rng.chance(50) {
            let _ = write!(t, "\nSponsored | {} | Learn more", rng.pick(SPONSORED));
        }
        t.push_str("\nMore from Riverside Daily | Newsletter | Contact us | Terms of use\n© ");
        push_uint(t, date.year as u64, false);
        t.push_str(" Riverside Daily Ltd\n");
        b.template_from(start);
        docs.push(b.finish(doc_id(i, n_docs)));
    }
    GeneratedSource { name: "optional_parts".into(), extension: "txt", docs }
}

/// Blog posts followed by readers' comments. The comment section (from
/// "`<N>` responses" to the end) varies wildly but is template, not article.
/// Default size: 60 documents.
pub fn comments(n_docs: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 5);
    let dates = sorted_dates(&mut rng, n_docs, 2019, 2021);
    let mut docs = Vec::with_capacity(n_docs);
    for (i, &date) in dates.iter().enumerate() {
        let mut b = DocBuilder::new(3072);
        let start = b.mark();
        b.text.push_str("Cedar Heights Community Blog | Home | Events | Notices | About\nPosted by ");
        b.writer(&mut rng).any_person();
        b.text.push_str(" on ");
        push_date_short(&mut b.text, date);
        b.text.push_str(" in ");
        b.text.push_str(rng.pick(BLOG_CATEGORIES));
        b.text.push('\n');
        b.template_from(start);
        let paragraphs = rng.range(2, 4);
        text_article(&mut rng, &mut b, paragraphs, 30);

        let start = b.mark();
        let n = rng.range(1, 6);
        b.text.push('\n');
        push_uint(&mut b.text, n as u64, false);
        b.text.push_str(if n == 1 { " response" } else { " responses" });
        for _ in 0..n {
            b.text.push('\n');
            b.writer(&mut rng).any_person();
            b.text.push_str(" says: ");
            b.writer(&mut rng).comment();
        }
        b.text.push_str("\nLeave a reply | Powered by Quillpress\n");
        b.template_from(start);
        docs.push(b.finish(doc_id(i, n_docs)));
    }
    GeneratedSource { name: "comments".into(), extension: "txt", docs }
}
