//! The source picker: choosing a source and mining it in the background before it opens.

use crate::tui::action::Action;
use crate::tui::miner::{MineRequest, Prepare};
use crate::tui::ready::CleanSettings;
use crate::tui::state::{App, Mode, Opening, Screen};

pub(super) fn picker(app: &mut App, action: Action) {
    let Screen::Picker(p) = &mut app.screen else { return };
    match action {
        Action::Quit => app.quit = true,
        Action::Help => app.mode = Mode::Help { scroll: 0 },
        Action::Up => p.selected = p.selected.saturating_sub(1),
        Action::Down => p.selected = (p.selected + 1).min(p.entries.len().saturating_sub(1)),
        Action::OpenSource => open_selected(app),
        _ => {}
    }
}

pub(super) fn open_selected(app: &mut App) {
    let Screen::Picker(p) = &mut app.screen else { return };
    if p.opening.is_some() {
        return;
    }
    let Some(entry) = p.entries.get(p.selected) else { return };
    match crate::tui::source::open(&entry.path, app.rules_override.as_deref(), &app.rules_dir, app.preset) {
        Ok(opened) => {
            let settings = opened.previous.as_ref().map_or(CleanSettings::default(), |p| p.clean_settings());
            let request = MineRequest {
                corpus: std::sync::Arc::new(opened.corpus.clone()),
                config: opened.config.clone(),
                reload: None,
                prepare: Prepare { idioms: opened.idioms.clone(), settings, previous: None },
            };
            let generation = app.miner.request(request);
            let name = opened.spec.name.clone();
            p.opening =
                Some(Opening { generation, stage: None, started: std::time::Instant::now(), opened: Box::new(opened) });
            app.info(format!("mining {name}…"));
        }
        Err(e) => app.error(format!("{e:#}")),
    }
}
