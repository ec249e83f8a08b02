//! The document-frequency histogram: 100 bins (grouped when the pane is narrower), counts on a log scale
//! so the template mode on the right stays visible beside the power law, the auto cutoff (^) and the
//! chosen one (▲) marked, candidate bins in green; a cutoff being weighed (△) marked too.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use crate::cutoff::{BINS, CutoffBin};

use super::super::session::Session;
use super::{theme, thousands};

const EIGHTHS: [&str; 9] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/// Bins per column, and columns, for an inner width.
fn geometry(width: u16) -> (usize, usize) {
    let k = [1, 2, 4, 5, 10, 20, 25, 50, 100].into_iter().find(|&k| BINS / k <= width as usize).unwrap_or(100);
    (k, BINS / k)
}

fn inner(area: Rect) -> Rect {
    Block::bordered().inner(area)
}

/// The bin under column `x` of the pane, if `x` is on the bars.
pub fn bin_at(area: Rect, x: u16) -> Option<CutoffBin> {
    let inner = inner(area);
    let (k, cols) = geometry(inner.width);
    let c = x.checked_sub(inner.x)? as usize;
    (c < cols).then(|| ((c * k).min(BINS - 1)) as CutoffBin)
}

/// `weighed`: a cutoff the editor weighs before taking it (the cutoff dialog), marked `△`.
pub fn draw(frame: &mut Frame, area: Rect, s: &Session, weighed: Option<CutoffBin>) {
    let m = &s.mining;
    let (auto, chosen) = (m.auto_cutoff, s.cutoff);
    let mut title = vec![
        Span::styled(" Document frequency ", theme::title()),
        Span::styled("(log count) ", theme::dim()),
        Span::styled(format!("^ auto {auto}% "), theme::auto_marker()),
        Span::styled(format!("▲ chosen {chosen}% "), theme::chosen_marker()),
    ];
    if let Some(w) = weighed {
        title.push(Span::styled(format!("△ weighed {w}% "), theme::key()));
    }
    let title = Line::from(title);
    let block = Block::bordered().title(title).border_style(theme::border(false));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 3 || inner.width < 10 {
        return;
    }
    let (k, cols) = geometry(inner.width);
    let rows = (inner.height - 2) as usize;
    let counts: Vec<u64> = (0..cols).map(|c| m.histogram.counts[c * k..(c + 1) * k].iter().sum()).collect();
    let max = counts.iter().copied().max().unwrap_or(0);
    let lmax = ((max + 1) as f64).ln().max(f64::MIN_POSITIVE);
    let buf = frame.buffer_mut();
    for (c, &n) in counts.iter().enumerate() {
        // eighths of a cell, at least one for a non-empty bin
        let level =
            if n == 0 { 0 } else { ((((n + 1) as f64).ln() / lmax) * (rows * 8) as f64).round().max(1.0) as usize };
        let style = theme::bar(c * k + k > chosen as usize);
        for r in 0..rows {
            let fill = level.saturating_sub(r * 8).min(8);
            let y = inner.y + (rows - 1 - r) as u16;
            buf[(inner.x + c as u16, y)].set_symbol(EIGHTHS[fill]).set_style(style);
        }
    }
    // markers and axis
    let marker_y = inner.y + rows as u16;
    let (ca, cc) = (auto as usize / k, chosen as usize / k);
    buf[(inner.x + ca as u16, marker_y)].set_symbol("^").set_style(theme::auto_marker());
    buf[(inner.x + cc as u16, marker_y)].set_symbol("▲").set_style(theme::chosen_marker());
    if let Some(w) = weighed.filter(|&w| w as usize / k != cc) {
        buf[(inner.x + (w as usize / k) as u16, marker_y)].set_symbol("△").set_style(theme::key());
    }
    let axis_y = marker_y + 1;
    buf.set_string(inner.x, axis_y, "0%", theme::dim());
    if cols >= 20 {
        buf.set_string(inner.x + (cols / 2) as u16 - 1, axis_y, "50%", theme::dim());
    }
    buf.set_string(inner.x + cols as u16 - 4, axis_y, "100%", theme::dim());
    // legend to the right of the bars, where there is room
    let legend_x = inner.x + cols as u16 + 2;
    if inner.right() > legend_x + 18 {
        let above = m.candidates(chosen).count();
        let lines = [
            (format!("auto cutoff   {auto:>3}%"), theme::auto_marker()),
            (format!("chosen cutoff {chosen:>3}%"), theme::chosen_marker()),
            (format!("strings  {:>9}", thousands(m.histogram.total())), theme::info()),
            (format!("above ▲  {:>9}", thousands(above as u64)), theme::info()),
            (format!("kept down to {:>3}%", m.min_kept_bin), theme::dim()),
        ];
        let width = inner.right() - legend_x;
        for (i, (text, style)) in lines.iter().enumerate().take(inner.height as usize) {
            let text: String = text.chars().take(width as usize).collect();
            buf.set_string(legend_x, inner.y + i as u16, text, *style);
        }
    }
}
