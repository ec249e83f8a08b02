//! The rules of a crawl's sources, from a folder of rules files (`DIR/<source>.toml`, as `chaff mine
//! --all` writes it): each file loaded and compiled when its source is first met, and kept while it is
//! used. At most `capacity` sources' rules are kept, the least recently used forgotten first, so memory
//! holds a bounded number of compiled rules files whatever the number of sources; a source met again
//! after it was forgotten is loaded again (the same file gives the same cleaner). `chaff clean
//! --rules-dir` and Python's `chaff.Workspace` route with it.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lru::LruCache;
use rayon::prelude::*;

use crate::rules::rules_path;

/// Sources whose rules are kept at once by default: a source's compiled rules (its cleaner, the
/// pattern set shared) take tens of kilobytes, so this bounds them to tens of megabytes.
pub const DEFAULT_KEPT: usize = 1024;

/// A source's rules as found.
#[derive(Debug)]
pub enum Found<T> {
    Rules(Arc<T>),
    /// The source has no rules file.
    Missing,
    /// Its rules file is unusable (said once, when first met).
    Unusable,
}

impl<T> Clone for Found<T> {
    fn clone(&self) -> Self {
        match self {
            Found::Rules(r) => Found::Rules(Arc::clone(r)),
            Found::Missing => Found::Missing,
            Found::Unusable => Found::Unusable,
        }
    }
}

/// A folder of rules files and the compiled rules of the sources met lately.
pub struct RulesDir<T> {
    dir: PathBuf,
    kept: LruCache<String, Arc<T>>,
    /// Sources without a rules file, and sources whose file is unusable: names only, remembered so a
    /// file is looked for, and an unusable one reported, once.
    missing: HashSet<String>,
    unusable: HashSet<String>,
    /// Rules files loaded so far, again after being forgotten included.
    loads: usize,
}

impl<T: Send + Sync> RulesDir<T> {
    /// The rules files of `dir`, at most `capacity` sources' rules kept (at least one).
    pub fn new(dir: &Path, capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        RulesDir {
            dir: dir.to_path_buf(),
            kept: LruCache::new(capacity),
            missing: HashSet::new(),
            unusable: HashSet::new(),
            loads: 0,
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Rules files loaded so far (a source forgotten and met again counts again).
    pub fn loads(&self) -> usize {
        self.loads
    }

    /// Sources whose rules are kept now.
    pub fn kept(&self) -> usize {
        self.kept.len()
    }

    /// The rules of each of `sources` (names may repeat), loading those not kept with `load` (given the
    /// source and its rules file's path), in parallel: compiling a source's rules costs about as much as
    /// cleaning a few of its pages. `load`'s errors come back as `(source, message)`, each the first
    /// time its source is met. What is returned stays valid however many sources are forgotten
    /// meanwhile.
    pub fn get_many<E: Send>(
        &mut self,
        sources: &[&str],
        load: impl Fn(&str, &Path) -> Result<T, E> + Sync,
    ) -> (Vec<Found<T>>, Vec<(String, E)>) {
        // this batch's rules, held whatever the bound forgets while new ones come in
        let mut held: HashMap<&str, Arc<T>> = HashMap::new();
        let mut new: Vec<&str> = Vec::new();
        for &s in sources {
            if held.contains_key(s) || self.missing.contains(s) || self.unusable.contains(s) {
                continue;
            }
            match self.kept.get(s) {
                Some(r) => {
                    held.insert(s, Arc::clone(r));
                }
                None => new.push(s),
            }
        }
        new.sort_unstable();
        new.dedup();
        let dir = &self.dir;
        let loaded: Vec<(&str, Option<Result<T, E>>)> = new
            .par_iter()
            .map(|&source| {
                let path = rules_path(dir, source);
                (source, path.exists().then(|| load(source, &path)))
            })
            .collect();
        let mut errors = Vec::new();
        for (source, r) in loaded {
            match r {
                None => {
                    self.missing.insert(source.to_string());
                }
                Some(Ok(rules)) => {
                    self.loads += 1;
                    let rules = Arc::new(rules);
                    held.insert(source, Arc::clone(&rules));
                    self.kept.put(source.to_string(), rules);
                }
                Some(Err(e)) => {
                    self.loads += 1;
                    self.unusable.insert(source.to_string());
                    errors.push((source.to_string(), e));
                }
            }
        }
        let found = sources
            .iter()
            .map(|&s| match held.get(s) {
                Some(r) => Found::Rules(Arc::clone(r)),
                None if self.unusable.contains(s) => Found::Unusable,
                None => Found::Missing,
            })
            .collect();
        (found, errors)
    }

    /// The rules of one source (see [`RulesDir::get_many`]).
    pub fn get<E: Send>(
        &mut self,
        source: &str,
        load: impl Fn(&str, &Path) -> Result<T, E> + Sync,
    ) -> Result<Found<T>, E> {
        let (mut found, mut errors) = self.get_many(&[source], load);
        match errors.pop() {
            Some((_, e)) => Err(e),
            None => Ok(found.pop().unwrap_or(Found::Missing)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn dir_with(sources: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for s in sources {
            std::fs::write(rules_path(dir.path(), s), format!("rules of {s}")).unwrap();
        }
        dir
    }

    fn read(_: &str, path: &Path) -> Result<String, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        if text.contains("bad") { Err(format!("{}: unusable", path.display())) } else { Ok(text) }
    }

    #[test]
    fn more_sources_than_are_kept_each_get_their_own_rules_and_the_least_recent_go_first() {
        let names: Vec<String> = (0..5).map(|i| format!("s{i}.example")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let dir = dir_with(&refs);
        let mut rules = RulesDir::new(dir.path(), 2);
        let loads = AtomicUsize::new(0);
        let counted = |s: &str, p: &Path| {
            loads.fetch_add(1, Ordering::Relaxed);
            read(s, p)
        };
        for round in 0..2 {
            for s in &refs {
                let (found, errors) = rules.get_many(&[s, s], counted);
                assert!(errors.is_empty());
                for f in found {
                    assert!(matches!(f, Found::Rules(r) if *r == format!("rules of {s}")), "round {round}: {s}");
                }
                assert!(rules.kept() <= 2);
            }
        }
        assert_eq!(loads.load(Ordering::Relaxed), 10, "each source loaded once a round: two are kept of five");
        // the two used last are kept: met again, not loaded again
        rules.get_many(&[refs[3], refs[4]], counted);
        assert_eq!(rules.loads(), 10);
        // a batch larger than the bound gets every source's rules all the same
        let (found, _) = rules.get_many(&refs, counted);
        assert!(found.iter().zip(&refs).all(|(f, s)| matches!(f, Found::Rules(r) if **r == format!("rules of {s}"))));
    }

    #[test]
    fn a_missing_file_is_looked_for_once_and_an_unusable_one_reported_once() {
        let dir = dir_with(&["good.example"]);
        std::fs::write(rules_path(dir.path(), "broken.example"), "bad").unwrap();
        let mut rules: RulesDir<String> = RulesDir::new(dir.path(), 1);
        for round in 0..3 {
            let (found, errors) = rules.get_many(&["broken.example", "none.example", "good.example"], read);
            assert_eq!(errors.len(), usize::from(round == 0), "{errors:?}");
            assert!(matches!(found[0], Found::Unusable) && matches!(found[1], Found::Missing), "{found:?}");
            assert!(matches!(&found[2], Found::Rules(r) if r.as_str() == "rules of good.example"));
        }
        assert_eq!(rules.loads(), 2, "the good file kept, the broken one not read again");
    }
}
