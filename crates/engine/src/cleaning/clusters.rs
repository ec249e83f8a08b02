//! Stage `clusters`: a source mined as several template clusters (a gallery page, an article page) has
//! rules of each; a document gets the rules of the cluster whose own rules cover most of it, and the other
//! clusters' matches are dropped. Rules of the whole source always apply.

use super::stage::MatchFilter;
use super::{ActiveRule, Cleaner, Layout, Match};

/// Drops the matches of every cluster but the one covering most of the document (ties: the lower).
pub(super) fn keep_one_cluster(rules: &[ActiveRule], matches: &mut Vec<Match>) {
    let mut cover: Vec<(u32, usize)> = Vec::new();
    for m in matches.iter() {
        if let Some(k) = rules[m.rule as usize].cluster {
            match cover.iter_mut().find(|c| c.0 == k) {
                Some(c) => c.1 += m.end - m.start,
                None => cover.push((k, m.end - m.start)),
            }
        }
    }
    let best = cover.iter().max_by_key(|c| (c.1, std::cmp::Reverse(c.0))).map(|c| c.0);
    matches.retain(|m| rules[m.rule as usize].cluster.is_none_or(|k| Some(k) == best));
}

/// The stage: nothing to do where no rule belongs to a cluster.
pub(super) struct Clusters;

impl MatchFilter for Clusters {
    fn filter(&self, cleaner: &Cleaner, _: &Layout, matches: &mut Vec<Match>) {
        if cleaner.any_cluster {
            keep_one_cluster(&cleaner.rules, matches);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::Cleaner;
    use crate::cleaning::tests::rule;
    use crate::mutable::MutableSet;
    use crate::rules::Action;
    use crate::tokens::Tokenizer;

    #[test]
    fn a_document_gets_the_rules_of_the_cluster_that_covers_it_most() {
        let m = MutableSet::defaults();
        let mut gallery = rule("g", "Photo gallery", Action::Remove, &m);
        gallery.cluster = Some(1);
        let mut image = rule("i", "Image", Action::Remove, &m);
        image.cluster = Some(1);
        let mut article = rule("a", "Article page", Action::Remove, &m);
        article.cluster = Some(0);
        let whole = rule("r", "read more", Action::Remove, &m);
        let rules = [gallery, image, article, whole];
        let c = Cleaner::from_rules(Tokenizer::Text, m.patterns(), &rules, 0).unwrap();
        // cluster 1 covers more of this page: its rules apply, cluster 0's do not
        assert_eq!(c.clean("Photo gallery Image one Article page read more").text, "one Article page");
        assert_eq!(c.clean("Article page Image two read more").text, "Image two");
        let c = c.with_stage(Stage::Clusters, false);
        assert_eq!(c.clean("Photo gallery Image one Article page read more").text, "one", "off: every rule applies");
    }
}
