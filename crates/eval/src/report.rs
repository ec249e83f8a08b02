//! Summaries and tables: per site and overall, macro averages over pages (each page counts the same).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::dataset::Input;
use super::run::{Note, PageResult, Protocol, ProtocolRun, Speed};
use super::score::Prf;
use super::spans::SpanCounts;

/// The F1 a site should reach with the oracle editor's decisions: the tables count the sites at it.
pub const SITE_GOAL: f64 = 0.97;

/// How far below its automatic figure a site's F1 after some decisions may fall before it is flagged.
pub const BELOW_TOLERANCE: f64 = 0.001;

/// A site whose F1 after some of the oracle editor's decisions is below its automatic figure (the first
/// model's) by more than [`BELOW_TOLERANCE`].
#[derive(Debug, Clone, Serialize)]
pub struct Below {
    pub site: String,
    /// Which model: an index into [`Evaluation::models`] (the decisions made).
    pub model: usize,
    pub automatic: f64,
    pub f1: f64,
}

/// The sites of `sites` below their automatic figure after some decisions, in site and model order.
fn below_automatic(sites: &[SiteSummary]) -> Vec<Below> {
    let mut out = Vec::new();
    for s in sites {
        let Some(automatic) = s.summary.scores.first().map(|p| p.f1) else { continue };
        for (model, p) in s.summary.scores.iter().enumerate().skip(1) {
            if p.f1 < automatic - BELOW_TOLERANCE {
                out.push(Below { site: s.site.clone(), model, automatic, f1: p.f1 });
            }
        }
    }
    out
}

/// Span-level removal scores of a group of pages: macro averages, and the summed counts.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SpanSummary {
    pub precision: f64,
    pub recall: f64,
    pub counts: SpanCounts,
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub pages: usize,
    pub floor: Prf,
    /// One per model (see [`Evaluation::models`]).
    pub scores: Vec<Prf>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<SpanSummary>,
}

impl Summary {
    pub fn of(pages: &[&PageResult]) -> Summary {
        let models = pages.iter().map(|p| p.scores.len()).max().unwrap_or(0);
        let scores =
            (0..models).map(|m| Prf::mean(pages.iter().filter_map(|p| p.scores.get(m))).unwrap_or_default()).collect();
        let with_spans: Vec<&&PageResult> = pages.iter().filter(|p| !p.spans.is_empty()).collect();
        let spans = if with_spans.is_empty() {
            Vec::new()
        } else {
            (0..models)
                .map(|m| {
                    let counts: Vec<SpanCounts> = with_spans.iter().filter_map(|p| p.spans.get(m).copied()).collect();
                    let n = counts.len().max(1) as f64;
                    SpanSummary {
                        precision: counts.iter().map(|c| c.precision()).sum::<f64>() / n,
                        recall: counts.iter().map(|c| c.recall()).sum::<f64>() / n,
                        counts: counts.iter().fold(SpanCounts::default(), |a, c| SpanCounts {
                            hit: a.hit + c.hit,
                            removed: a.removed + c.removed,
                            template: a.template + c.template,
                        }),
                    }
                })
                .collect()
        };
        Summary {
            pages: pages.len(),
            floor: Prf::mean(pages.iter().map(|p| &p.floor)).unwrap_or_default(),
            scores,
            spans,
        }
    }

    /// The main score: the method's (or the oracle editor's before any decision).
    pub fn main(&self) -> Prf {
        self.scores.first().copied().unwrap_or_default()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SiteSummary {
    pub site: String,
    #[serde(flatten)]
    pub summary: Summary,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    pub protocol: Protocol,
    pub folds: usize,
    pub seconds: f64,
    pub speed: Speed,
    pub overall: Summary,
    pub sites: Vec<SiteSummary>,
    /// With more than one model (the oracle editor's checkpoints): the sites flagged below their automatic
    /// figure.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub below_automatic: Vec<Below>,
    pub notes: Vec<Note>,
    pub pages: Vec<PageResult>,
}

impl RunReport {
    pub fn of(run: ProtocolRun) -> RunReport {
        let all: Vec<&PageResult> = run.pages.iter().collect();
        let mut by_site: BTreeMap<&str, Vec<&PageResult>> = BTreeMap::new();
        for p in &run.pages {
            by_site.entry(p.site.as_str()).or_default().push(p);
        }
        let sites: Vec<SiteSummary> =
            by_site.iter().map(|(s, pages)| SiteSummary { site: s.to_string(), summary: Summary::of(pages) }).collect();
        let overall = Summary::of(&all);
        let mut pages = run.pages;
        pages.sort_by(|a, b| (&a.site, &a.id).cmp(&(&b.site, &b.id)));
        RunReport {
            protocol: run.protocol,
            folds: run.folds,
            seconds: run.seconds,
            speed: run.speed,
            overall,
            below_automatic: below_automatic(&sites),
            sites,
            notes: run.notes,
            pages,
        }
    }
}

/// One method evaluated on one dataset, under one or more protocols.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    pub dataset: String,
    pub method: String,
    pub input: Input,
    /// The method's options (levers), as set.
    pub options: serde_json::Value,
    /// What each score of a page is: the method, or the oracle editor after N decisions.
    pub models: Vec<String>,
    pub runs: Vec<RunReport>,
    pub warnings: Vec<String>,
}

fn f(x: f64) -> String {
    format!("{x:.3}")
}

impl Evaluation {
    /// Each site its decisions leave below its automatic figure, one line each ("dataset input protocol:
    /// site after N: F1 < automatic"): empty when every site holds.
    pub fn below_automatic(&self) -> Vec<String> {
        self.runs
            .iter()
            .flat_map(|r| {
                r.below_automatic.iter().map(move |b| {
                    format!("{} {} {}: {}", self.dataset, self.input.name(), r.protocol.name(), self.flagged(b))
                })
            })
            .collect()
    }

    /// A flagged figure: "site after N: F1 < automatic".
    fn flagged(&self, b: &Below) -> String {
        format!("{} after {}: {} < {}", b.site, self.models[b.model], f(b.f1), f(b.automatic))
    }

    /// The tables as text.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let spans = self.runs.iter().any(|r| !r.overall.spans.is_empty());
        let width = self
            .runs
            .iter()
            .flat_map(|r| r.sites.iter().map(|s| s.site.chars().count()))
            .chain([24])
            .max()
            .unwrap_or(24);
        let _ = writeln!(
            out,
            "{}: {}, input {} — word-LCS P / R / F1 against the gold, macro average over pages",
            self.dataset,
            self.method,
            self.input.name()
        );
        let mut head = format!("{:<width$} {:>5} {:>6}", "site", "pages", "floor");
        for r in &self.runs {
            let label = match r.protocol {
                Protocol::InSample => "in-sample".to_string(),
                Protocol::HeldOut => format!("held-out {}-fold", r.folds),
                Protocol::FewPages => format!("few-pages {}-fold", r.folds),
            };
            let _ = write!(head, " | {:<w$}", label, w = if spans { 34 } else { 20 });
        }
        let _ = writeln!(out, "{}", head.trim_end());
        let mut sub = format!("{:<width$} {:>5} {:>6}", "", "", "F1");
        for _ in &self.runs {
            let _ = write!(sub, " | {:>6} {:>6} {:>6}", "P", "R", "F1");
            if spans {
                let _ = write!(sub, " {:>6} {:>6}", "span P", "span R");
            }
        }
        let _ = writeln!(out, "{}", sub.trim_end());
        let row = |out: &mut String, name: &str, pick: &dyn Fn(&RunReport) -> Option<&Summary>| {
            let Some(first) = self.runs.iter().find_map(pick) else { return };
            let mut line = format!("{:<width$} {:>5} {:>6}", name, first.pages, f(first.floor.f1));
            for r in &self.runs {
                match pick(r) {
                    Some(s) => {
                        let m = s.main();
                        let _ = write!(line, " | {:>6} {:>6} {:>6}", f(m.precision), f(m.recall), f(m.f1));
                        if spans {
                            match s.spans.first() {
                                Some(sp) => {
                                    let _ = write!(line, " {:>6} {:>6}", f(sp.precision), f(sp.recall));
                                }
                                None => line.push_str(&format!(" {:>6} {:>6}", "-", "-")),
                            }
                        }
                    }
                    None => line.push_str(" |      -      -      -"),
                }
            }
            let _ = writeln!(out, "{line}");
        };
        let mut names: Vec<&str> = Vec::new();
        for r in &self.runs {
            for s in &r.sites {
                if !names.contains(&s.site.as_str()) {
                    names.push(&s.site);
                }
            }
        }
        names.sort_unstable();
        for name in &names {
            row(&mut out, name, &|r: &RunReport| r.sites.iter().find(|s| s.site == *name).map(|s| &s.summary));
        }
        row(&mut out, "overall", &|r: &RunReport| Some(&r.overall));
        if self.models.len() > 1 {
            for r in &self.runs {
                let _ = writeln!(
                    out,
                    "\noracle editor, {}: word F1 after N decisions (each made on the training pages)",
                    r.protocol.name()
                );
                let mut head = format!("{:<width$} {:>5}", "site", "pages");
                for m in &self.models {
                    let _ = write!(head, " {:>6}", m);
                }
                let _ = writeln!(out, "{head}");
                // a figure below the site's automatic one is marked `!`
                let line = |name: &str, s: &Summary| {
                    let mut l = format!("{:<width$} {:>5}", name, s.pages);
                    for (m, p) in s.scores.iter().enumerate() {
                        let below = r.below_automatic.iter().any(|b| b.site == name && b.model == m);
                        let _ = write!(l, " {:>6}{}", f(p.f1), if below { "!" } else { "" });
                    }
                    l
                };
                for s in &r.sites {
                    let _ = writeln!(out, "{}", line(&s.site, &s.summary));
                }
                let _ = writeln!(out, "{}", line("overall", &r.overall));
                let flagged: Vec<String> = r.below_automatic.iter().map(|b| self.flagged(b)).collect();
                let _ = writeln!(
                    out,
                    "below the automatic figure (0 decisions) by more than {BELOW_TOLERANCE}: {}",
                    if flagged.is_empty() { "no site".to_string() } else { flagged.join(", ") }
                );
                let recall: Vec<String> = r.overall.scores.iter().map(|p| f(p.recall)).collect();
                let _ = writeln!(out, "{:<width$} {:>5} {}", "overall recall", "", recall.join(" "));
                // the goal is per site: how many sites each checkpoint brings to the bar
                let reached: Vec<String> = (0..self.models.len())
                    .map(|i| {
                        let n = r
                            .sites
                            .iter()
                            .filter(|s| s.summary.scores.get(i).is_some_and(|p| p.f1 >= SITE_GOAL))
                            .count();
                        format!("{:>6}", format!("{n}/{}", r.sites.len()))
                    })
                    .collect();
                let label = format!("sites at F1 ≥ {SITE_GOAL}");
                let _ = writeln!(out, "{label:<width$} {:>5}{}", "", reached.concat());
            }
        }
        for r in &self.runs {
            for n in &r.notes {
                let fold = n.fold.map(|k| format!(" fold {k}")).unwrap_or_default();
                let _ = writeln!(out, "note: {} {}{}: {}", r.protocol.name(), n.site, fold, n.message);
            }
        }
        for r in &self.runs {
            let _ = writeln!(
                out,
                "{}: {} pages in {:.1} s; learning {:.1} MB/s, cleaning {:.1} MB/s (one thread)",
                r.protocol.name(),
                r.overall.pages,
                r.seconds,
                r.speed.learn_mb_s(),
                r.speed.clean_mb_s()
            );
        }
        out
    }
}
