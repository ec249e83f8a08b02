//! A source whose template changes halfway: the site is redesigned, so rules mined on its older pages
//! stop matching the newer ones. For testing drift (`chaff check`).

use super::prose::push_uint;
use super::{Date, DocBuilder, GeneratedSource, Rng, doc_id, sorted_dates};

/// "Tuesday, 4 March 2025".
fn push_date(out: &mut String, date: Date) {
    out.push_str(date.weekday_name());
    out.push_str(", ");
    push_uint(out, date.day as u64, false);
    out.push(' ');
    out.push_str(date.month_name());
    out.push(' ');
    push_uint(out, date.year as u64, false);
}

/// The Riverside Ledger's pages, a headline and paragraphs of article each: the first `n_docs / 2` in
/// its old template, the rest in its new one (another header, byline and footer; nothing in common).
pub fn redesigned(n_docs: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 7);
    let dates = sorted_dates(&mut rng, n_docs, 2021, 2023);
    let mut docs = Vec::with_capacity(n_docs);
    for (i, &date) in dates.iter().enumerate() {
        let old = i < n_docs / 2;
        let mut b = DocBuilder::new(3072);
        let start = b.mark();
        if old {
            b.text.push_str("The Riverside Ledger | Home | Local | Sports | Weather | Classifieds\nPublished ");
            push_date(&mut b.text, date);
            b.text.push_str(" by ");
            b.writer(&mut rng).any_person();
            b.text.push('\n');
        } else {
            b.text.push_str(
                "LEDGER NOW: news for the river valley, all day\nMenu / Latest / Opinion / Video / Podcasts\n",
            );
        }
        b.template_from(start);
        let start = b.mark();
        b.writer(&mut rng).headline();
        b.text.push('\n');
        let paragraphs = rng.range(3, 5);
        for k in 0..paragraphs {
            if k > 0 {
                b.text.push('\n');
            }
            let sentences = rng.range(2, 4);
            b.writer(&mut rng).paragraph(sentences, false);
        }
        b.body_from(start);
        let start = b.mark();
        if old {
            b.text.push_str("\nShare this story: Facebook | Twitter | Email\nComments are closed for this article.\n");
            b.text.push_str("Copyright The Riverside Ledger. All rights reserved.\n");
        } else {
            b.text.push_str("\nWritten by ");
            b.writer(&mut rng).any_person();
            b.text.push_str(" for Ledger Now\nSign up for the morning newsletter and never miss a story\n");
            b.text.push_str("(c) Riverside Media Group, publishers of Ledger Now\n");
        }
        b.template_from(start);
        docs.push(b.finish(doc_id(i, n_docs)));
    }
    GeneratedSource { name: "redesigned".into(), extension: "txt", docs }
}
