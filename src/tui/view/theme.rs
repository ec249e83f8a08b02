//! Colours and styles, in one place.

use ratatui::style::{Color, Modifier, Style};

use crate::cleaning::SpanKind;
use crate::rules::Status;

use super::super::document::Mark;

pub fn border(focused: bool) -> Style {
    if focused { Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD) } else { Style::new().fg(Color::DarkGray) }
}

pub fn title() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

pub fn status(s: Status) -> Style {
    match s {
        Status::Accepted => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        Status::Rejected => Style::new().fg(Color::Red),
        Status::Pending => Style::new().fg(Color::Gray),
    }
}

pub fn mutable_token() -> Style {
    Style::new().fg(Color::Cyan)
}

pub fn idiom() -> Style {
    Style::new().fg(Color::Magenta)
}

pub fn selected(focused: bool) -> Style {
    if focused {
        Style::new().add_modifier(Modifier::REVERSED)
    } else {
        Style::new().add_modifier(Modifier::BOLD).bg(Color::DarkGray)
    }
}

pub fn header() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn error() -> Style {
    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
}

pub fn info() -> Style {
    Style::new().fg(Color::Gray)
}

pub fn key() -> Style {
    Style::new().fg(Color::Yellow)
}

/// A span of the preview: removals on red, header/footer cuts on magenta, pending ones underlined.
pub fn mark(m: Mark) -> Style {
    match m {
        Mark::Accepted(SpanKind::Removed) => Style::new().fg(Color::White).bg(Color::Red),
        Mark::Accepted(SpanKind::CutBefore) | Mark::Accepted(SpanKind::CutAfter) => {
            Style::new().fg(Color::White).bg(Color::Magenta)
        }
        Mark::Pending(_) => Style::new().fg(Color::Yellow).add_modifier(Modifier::UNDERLINED),
    }
}

/// Text selected in the preview.
pub fn selection() -> Style {
    Style::new().bg(Color::Rgb(68, 71, 90)).add_modifier(Modifier::UNDERLINED)
}

/// A verified page: its cleaned text was marked right.
pub fn verified() -> Style {
    Style::new().fg(Color::Green).add_modifier(Modifier::BOLD)
}

pub fn cursor() -> Style {
    Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
}

pub fn bar(candidate: bool) -> Style {
    if candidate { Style::new().fg(Color::Green) } else { Style::new().fg(Color::Blue) }
}

pub fn auto_marker() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

pub fn chosen_marker() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}
