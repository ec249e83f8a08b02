//! Template clusters: a source with article pages and gallery pages. The gallery template is on too few
//! pages of the whole source to pass its cutoff; mined apart, it becomes rules of its cluster, which
//! clean the gallery pages and leave the article pages to the whole source's rules.

use chaff::automatic::automatic_rules;
use chaff::cleaning::Cleaner;
use chaff::corpus::{Corpus, Document};
use chaff::generate::mixed_templates;
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::rules::{MiningParams, RulesFile};
use chaff::settings::{ClusterParams, Settings};

/// Article pages, and a few gallery pages: too few for the gallery template to pass the whole source's
/// cutoff.
fn source() -> chaff::generate::GeneratedSource {
    let mut source = mixed_templates(120, 3);
    let mut galleries = 0;
    source.docs.retain(|d| {
        let gallery = d.text.contains("Photo gallery |");
        galleries += usize::from(gallery);
        !gallery || galleries <= 12
    });
    source
}

fn corpus() -> Corpus {
    Corpus::from_docs("mixed", source().docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect())
}

/// Share of the gallery pages' template bytes that cleaning removes.
fn gallery_template_removed(file: &RulesFile) -> f64 {
    let cleaner = Cleaner::new(file, true).unwrap();
    let (mut removed, mut total) = (0usize, 0usize);
    for d in source().docs.iter().filter(|d| d.text.contains("Photo gallery |")) {
        let spans = cleaner.spans(&d.text);
        for &(s, e) in &d.template_spans {
            total += e - s;
            removed += spans.iter().map(|r| r.end.min(e).saturating_sub(r.start.max(s))).sum::<usize>();
        }
    }
    removed as f64 / total as f64
}

fn rules(corpus: &Corpus, opts: &Settings) -> RulesFile {
    let mining = mine(corpus, &MiningConfig::default(), &Quiet).unwrap();
    automatic_rules(corpus, &mining, MiningParams::default(), None, opts).unwrap()
}

fn gallery_template_left(corpus: &Corpus, file: &RulesFile) -> usize {
    let cleaner = Cleaner::new(file, true).unwrap();
    corpus
        .docs
        .iter()
        .filter(|d| d.text.contains("Photo gallery |"))
        .filter(|d| cleaner.clean(&d.text).text.contains("Back to gallery"))
        .count()
}

#[test]
fn cluster_rules_clean_the_minority_template() {
    let corpus = corpus();
    let galleries = corpus.docs.iter().filter(|d| d.text.contains("Photo gallery |")).count();
    assert_eq!(galleries, 12);

    let with = rules(&corpus, &Settings::default());
    let cluster_rules = with.rules.iter().filter(|r| r.cluster.is_some()).count();
    assert!(cluster_rules > 0, "clusters were mined apart");
    let mut alone = Settings::default();
    alone.automatic.clusters = None;
    let without = rules(&corpus, &alone);
    assert!(without.rules.iter().all(|r| r.cluster.is_none()));

    let (with_share, without_share) = (gallery_template_removed(&with), gallery_template_removed(&without));
    eprintln!("gallery template removed: with clusters {with_share:.3}, without {without_share:.3}");
    assert!(
        with_share > without_share + 0.02,
        "template removed with clusters {with_share:.3}, without {without_share:.3}"
    );
    assert_eq!(gallery_template_left(&corpus, &with), 0);
}

#[test]
fn cluster_rules_survive_a_save_and_a_re_mining() {
    let corpus = corpus();
    let file = rules(&corpus, &Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.toml");
    file.save(&path).unwrap();
    let loaded = RulesFile::load(&path).unwrap();
    assert_eq!(loaded, file);
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    let again = chaff::merge::from_mining(&mining, MiningParams::default(), Some(&loaded));
    let before = file.rules.iter().filter(|r| r.cluster.is_some()).count();
    assert_eq!(again.rules.iter().filter(|r| r.cluster.is_some()).count(), before);
}

/// Two blogs of one site, six pages each; two of the first blog's six pages lack its sidebar. Article
/// words never repeat within a blog, so each blog's strings are on all its pages (its template) or on four
/// of six (the sidebar): the cluster's own histogram cuts between those two. Each page shares a related
/// link with its twin in the other blog: the whole source's histogram has a low mode too, which brings
/// its cutoff (the one a cluster's rules are held to) below four pages of six.
fn two_blogs() -> Corpus {
    let mut docs = Vec::new();
    for blog in ["Ask The Post", "Right Turn"] {
        for page in 0..6 {
            let mut text = format!("{blog} | The Washington Post\nHome Politics Opinions Local Sports\n");
            if blog == "Ask The Post" && page < 4 {
                text.push_str(
                    "Daily Roundup What we found interesting today.\n\
                     Critique What did you think of today's front page?\n",
                );
            }
            let story = ["harbor", "lantern", "orchard", "meadow", "quarry", "tundra"][page];
            text.push_str(&format!("Related: the {story} story everyone read\n"));
            for line in 0..3 {
                let words: Vec<String> = (0..12).map(|w| format!("{}p{page}l{line}w{w}", &blog[..1])).collect();
                text.push_str(&words.join(" "));
                text.push_str(".\n");
            }
            text.push_str(&format!("About {blog}\nContact the {blog} desk\n"));
            docs.push(Document { id: format!("{blog}-{page}"), text });
        }
    }
    Corpus::from_docs("post", docs)
}

#[test]
fn a_sidebar_on_most_of_a_clusters_pages_is_its_template() {
    let corpus = two_blogs();
    let sidebar_left = |opts: &Settings| {
        let file = rules(&corpus, opts);
        let cleaner = Cleaner::new(&file, true).unwrap();
        corpus.docs.iter().filter(|d| cleaner.clean(&d.text).text.contains("Daily Roundup")).count()
    };
    // rules alone: no frame cuts, no short runs; the blogs alike enough that the first blog's pages with
    // and without the sidebar make one cluster
    let blogs = ClusterParams { similarity: 0.5, ..ClusterParams::default() };
    let mut capped = Settings::default();
    (capped.automatic.cuts, capped.automatic.clusters) = (None, Some(blogs));
    capped.clean.short_runs.words = 0;
    let mut uncapped = capped.clone();
    uncapped.automatic.clusters = Some(ClusterParams { max_cutoff: 99, ..blogs });
    // the cluster's own automatic cutoff lies above four pages of six
    assert_eq!(sidebar_left(&uncapped), 4);
    assert_eq!(sidebar_left(&capped), 0);
}

/// A site redesigned: twenty pages of its old template, seven of its new one. Each page lists two related
/// headlines of its own template's pages and names one of three writers, so that two pages of a template
/// share a few lines besides their template: at linkage's similarity its pages fall into pieces of one
/// to three, and the new template, on a quarter of the pages, is below the whole source's cutoff.
fn redesigned() -> Vec<Document> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let headline = |i: u64| format!("Council h{i}a weighs h{i}b plan as h{i}c meets");
    let mut docs = Vec::new();
    for i in 0..27u64 {
        let new = i >= 20;
        let (first, count) = if new { (20, 7) } else { (0, 20) };
        let mut text = if new {
            "Daily Wire Service\nSkip to content\nHome News Sport Weather\n".to_string()
        } else {
            "The Daily Ledger\nHome | World | Politics | Business\n".to_string()
        };
        text.push_str(&headline(i));
        text.push('\n');
        text.push_str(&format!(
            "By {}\n",
            ["Ann Foy", "Bo Lund", "Cy Ode", "Di Ray", "Ed Ash", "Flo Tam"][(next(3) + u64::from(new) * 3) as usize]
        ));
        for line in 0..4 {
            let words: Vec<String> = (0..14).map(|w| format!("p{i}l{line}w{w}")).collect();
            text.push_str(&words.join(" "));
            text.push_str(".\n");
        }
        text.push_str(if new { "More on this story\n" } else { "Related stories\n" });
        for _ in 0..2 {
            text.push_str(&headline(first + next(count)));
            text.push('\n');
        }
        text.push_str(if new {
            "Copyright Daily Wire Service. Read about our approach to external linking.\n"
        } else {
            "© The Daily Ledger. All rights reserved.\nPrivacy | Terms | Contact us\n"
        });
        docs.push(Document { id: format!("{i:02}"), text });
    }
    docs
}

#[test]
fn a_new_template_split_by_related_headlines_is_mined_as_one_cluster() {
    let mut docs = redesigned();
    let page = docs.remove(23);
    let corpus = Corpus::from_docs("redesigned", docs);
    let left = |rest: Option<f64>| {
        let mut settings = Settings::default();
        settings.automatic.clusters = Some(ClusterParams { rest_similarity: rest, ..ClusterParams::default() });
        let cleaner = Cleaner::new(&rules(&corpus, &settings), true).unwrap();
        let text = cleaner.clean(&page.text).text;
        ["Skip to content", "More on this story", "Copyright Daily Wire Service"]
            .into_iter()
            .filter(|l| text.contains(l))
            .count()
    };
    assert_eq!(left(None), 3, "the new template's pieces are too small to mine");
    assert_eq!(left(ClusterParams::default().rest_similarity), 0);
}
