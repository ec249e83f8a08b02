//! New coverage: a periodic archive list ("November 2012 / October 2012 / …", one line per month, as
//! long as the blog is old) is mined as many overlapping strings, one per list length. By coverage they
//! fill the top of the candidate list; by new coverage only one of them does.

use chaff::corpus::{Corpus, Document};
use chaff::generate::MONTHS;
use chaff::mining::{MinedString, MiningConfig, Quiet, mine};
use chaff::symbol::display;

fn archive_blog() -> Corpus {
    let docs = (0..12)
        .map(|i| {
            let article: Vec<String> = (0..60).map(|w| format!("word{i}x{w}")).collect();
            let archive: Vec<String> =
                (0..20 + 2 * i).map(|m| format!("{} {}", MONTHS[m % 12], 2012 - m / 12)).collect();
            let text =
                format!("Home | About\n{}\nArchives\n{}\nPowered by nothing", article.join(" "), archive.join("\n"));
            Document { id: format!("p{i}"), text }
        })
        .collect();
    Corpus::from_docs("archive", docs)
}

fn archive_strings(strings: &[MinedString]) -> Vec<&MinedString> {
    strings.iter().filter(|s| display(&s.symbols).matches("«month»").count() >= 3).collect()
}

#[test]
fn an_archive_list_adds_once_however_many_strings_it_is_mined_as() {
    let mining = mine(&archive_blog(), &MiningConfig::default(), &Quiet).unwrap();
    let mut list = archive_strings(&mining.strings);
    assert!(list.len() >= 5, "the list is mined as many strings: {}", list.len());

    list.sort_by_key(|s| std::cmp::Reverse(s.coverage));
    assert!(list[1].coverage * 2 > list[0].coverage, "by coverage, the second list string is close to the first");
    let widest = list[0].id.clone();

    list.sort_by_key(|s| std::cmp::Reverse(s.adds));
    assert!(list[0].adds > 0);
    assert!(
        list[1].adds * 4 < list[0].adds,
        "by new coverage, the second adds little: {} vs {}",
        list[1].adds,
        list[0].adds
    );
    assert_eq!(list[0].id, widest, "the string of most coverage adds the most");
}
