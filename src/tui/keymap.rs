//! Key bindings as data: each binding names its context, its keys, the [`Action`] and what it does. The
//! help screen is rendered from this table, so keys, names and descriptions cannot drift apart.
//!
//! A key is looked up in a stack of contexts, innermost first (e.g. the candidates pane, then the tuning
//! screen), so a pane may give a key its own meaning (`n` adds a pattern in the patterns pane, and shows
//! the next document elsewhere).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Tune,
    Candidates,
    Patterns,
    Preview,
    Detail,
    Explain,
    Stages,
    Regions,
    Help,
    Input,
    PatternInput,
    QuitPrompt,
    ResetPrompt,
    ExportPrompt,
    MarkPrompt,
    ActionPrompt,
    CutoffPrompt,
    ConflictPrompt,
    JournalPrompt,
    /// Every prompt above, under its own keys.
    Dialog,
    Picker,
}

impl Context {
    pub const ALL: [Context; 21] = [
        Context::Tune,
        Context::Candidates,
        Context::Patterns,
        Context::Preview,
        Context::Detail,
        Context::Explain,
        Context::Stages,
        Context::Regions,
        Context::Input,
        Context::PatternInput,
        Context::QuitPrompt,
        Context::ResetPrompt,
        Context::ExportPrompt,
        Context::MarkPrompt,
        Context::ActionPrompt,
        Context::CutoffPrompt,
        Context::ConflictPrompt,
        Context::JournalPrompt,
        Context::Dialog,
        Context::Picker,
        Context::Help,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Context::Tune => "Anywhere",
            Context::Candidates => "Candidates pane",
            Context::Patterns => "Mutable patterns pane",
            Context::Preview => "Preview pane",
            Context::Detail => "Candidate detail",
            Context::Explain => "Why a span is removed (the explain list)",
            Context::Stages => "Cleaning stages of this source",
            Context::Regions => "Region rules of this source (blocks named by their element)",
            Context::Help => "This help",
            Context::Input => {
                "Filter, go-to, search and regex inputs (other keys edit: ←/→, Home/End, Backspace, Ctrl-w, Ctrl-u)"
            }
            Context::PatternInput => "Pattern editor (other keys edit the text)",
            Context::QuitPrompt => "Quit with unsaved changes",
            Context::ResetPrompt => "Reset every decision to the automatic rules",
            Context::ExportPrompt => "Export: what it holds, before it is written",
            Context::MarkPrompt => "Mark a line as template (T), or keep it (K): its impact first",
            Context::ActionPrompt => "Make a candidate a cut: its evidence, warnings and impact first",
            Context::CutoffPrompt => "Weigh a cutoff (C): its impact before it is taken",
            Context::ConflictPrompt => "Rules file changed on disk while you have unsaved work",
            Context::JournalPrompt => "Unsaved work found from an earlier session",
            Context::Dialog => "Any of these dialogs, on a screen too small for it (its keys stay in sight)",
            Context::Picker => "Sources table",
        }
    }
}

/// A key with its modifiers (Shift is implied by an upper-case character and not listed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn ch(c: char) -> Key {
    Key { code: KeyCode::Char(c), mods: KeyModifiers::NONE }
}

const fn code(code: KeyCode) -> Key {
    Key { code, mods: KeyModifiers::NONE }
}

/// The digits that show the documents an impact changed most.
const DIGITS: &[Key] = &[ch('1'), ch('2'), ch('3'), ch('4'), ch('5')];

const fn ctrl(c: char) -> Key {
    Key { code: KeyCode::Char(c), mods: KeyModifiers::CONTROL }
}

#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub context: Context,
    pub keys: &'static [Key],
    pub action: Action,
    pub desc: &'static str,
}

const fn bind(context: Context, keys: &'static [Key], action: Action, desc: &'static str) -> Binding {
    Binding { context, keys, action, desc }
}

use Context as C;
use KeyCode as K;

/// Every binding, in the order the help screen lists them.
pub static BINDINGS: &[Binding] = &[
    bind(
        C::Tune,
        &[ch('q'), ctrl('c')],
        Action::Quit,
        "Quit (back to the sources table, if opened from it); with unsaved changes it asks: w saves, d discards, \
         q again or Esc stays",
    ),
    bind(C::Tune, &[ch('?')], Action::Help, "Show every key"),
    bind(C::Tune, &[ch('w')], Action::Save, "Save the rules file: every candidate with its status, cutoffs, patterns"),
    bind(C::Tune, &[ch('x')], Action::Export, "Export the accepted rules alone (for `chaff clean --rules`)"),
    bind(C::Tune, &[code(K::Tab)], Action::FocusNext, "Focus the next pane"),
    bind(C::Tune, &[code(K::BackTab)], Action::FocusPrev, "Focus the previous pane"),
    bind(C::Tune, &[code(K::Left)], Action::CutoffDown, "Lower the cutoff a bin that holds strings"),
    bind(C::Tune, &[code(K::Right)], Action::CutoffUp, "Raise the cutoff past a bin of strings"),
    bind(C::Tune, &[ch('0')], Action::CutoffAuto, "Return the cutoff to the automatic one"),
    bind(C::Tune, &[ch('C')], Action::WeighCutoff, "Weigh a cutoff: move it and see its impact before Enter takes it"),
    bind(C::Tune, &[ch('u'), ctrl('z')], Action::Undo, "Undo the last decision or cutoff move"),
    bind(C::Tune, &[ctrl('r')], Action::Redo, "Redo what was undone"),
    bind(C::Tune, &[ch('n')], Action::NextDoc, "Preview the next document"),
    bind(C::Tune, &[ch('p')], Action::PrevDoc, "Preview the previous document"),
    bind(C::Tune, &[ch('g')], Action::GotoDoc, "Go to a document by id (or number)"),
    bind(
        C::Tune,
        &[ch('v')],
        Action::ToggleCleaned,
        "Preview: removed spans highlighted, or the cleaned text only (HTML rendered)",
    ),
    bind(
        C::Tune,
        &[ch('+')],
        Action::TogglePending,
        "Preview's cleaned text: the accepted rules (as exported), or accepted + pending (the status bar says which)",
    ),
    bind(C::Tune, &[ch(']')], Action::NextSpan, "Preview: cursor to the next removed span, or the kept text before it"),
    bind(
        C::Tune,
        &[ch('[')],
        Action::PrevSpan,
        "Preview: cursor to the previous removed span, or the kept text after it",
    ),
    bind(
        C::Tune,
        &[ch('e')],
        Action::OpenExplain,
        "Explain the preview's cursor: why its span is removed (every rule and stage), or why its text is kept",
    ),
    bind(
        C::Tune,
        &[ch('G')],
        Action::OpenRegions,
        "Region rules: blocks named by their element, decided as candidates",
    ),
    bind(
        C::Tune,
        &[ch('B')],
        Action::NameRegion,
        "Name a region rule (a block) from the element around the preview's line: its impact first, a accepts it",
    ),
    bind(C::Tune, &[ch('S')], Action::OpenStages, "Cleaning stages: turn each on or off for this source"),
    bind(C::Tune, &[ch('Z')], Action::ResetToAutomatic, "Reset every decision to the automatic rules (asks; u undoes)"),
    bind(
        C::Tune,
        DIGITS,
        Action::Jump(1),
        "Show a document the last decision (or the open dialog) changes most, 1 the most, at its first change",
    ),
    bind(C::Tune, &[ch('b')], Action::Back, "Back to the page the preview was on before 1–5"),
    bind(
        C::Tune,
        &[ch('Y')],
        Action::ToggleVerified,
        "Mark the previewed page verified: its cleaned text now is right (saved with w); on a verified page, unmark it",
    ),
    bind(
        C::Tune,
        &[ch('D')],
        Action::MarkReviewed,
        "Done: mark the source reviewed and save its rules (the review is kept in its rules file)",
    ),
    bind(C::Candidates, &[ch('h')], Action::CutoffDown, "Lower the chosen cutoff (as ←)"),
    bind(C::Candidates, &[ch('l')], Action::CutoffUp, "Raise the chosen cutoff (as →)"),
    bind(C::Candidates, &[code(K::Up), ch('k')], Action::Up, "Previous candidate"),
    bind(C::Candidates, &[code(K::Down), ch('j')], Action::Down, "Next candidate"),
    bind(C::Candidates, &[code(K::PageUp)], Action::PageUp, "A page up"),
    bind(C::Candidates, &[code(K::PageDown)], Action::PageDown, "A page down"),
    bind(C::Candidates, &[code(K::Home)], Action::Top, "First candidate"),
    bind(C::Candidates, &[code(K::End)], Action::Bottom, "Last candidate"),
    bind(C::Candidates, &[ch('a')], Action::Accept, "Accept: a template rule (✓)"),
    bind(C::Candidates, &[ch('r')], Action::Reject, "Reject: not template (✗)"),
    bind(C::Candidates, &[code(K::Backspace)], Action::Unmark, "Back to pending (·)"),
    bind(
        C::Candidates,
        &[ch('c')],
        Action::CycleRuleAction,
        "Cycle the rule's action: remove, cut-before (header), cut-after (footer), keep (never removed); a cut asks \
         first, with its evidence and impact",
    ),
    bind(
        C::Candidates,
        &[ch('(')],
        Action::TrimFront,
        "Trim a token from the candidate's start (the trim is accepted, the candidate rejected)",
    ),
    bind(C::Candidates, &[ch(')')], Action::TrimBack, "Trim a token from the candidate's end"),
    bind(C::Candidates, &[code(K::Char(' '))], Action::ToggleMark, "Mark or unmark for a bulk action"),
    bind(C::Candidates, &[ch('*')], Action::MarkShown, "Mark every candidate shown (after a filter)"),
    bind(C::Candidates, &[code(K::Esc)], Action::ClearMarks, "Clear the marks and the filter"),
    bind(C::Candidates, &[ch('A')], Action::BulkAccept, "Accept the marked candidates (none marked: all shown)"),
    bind(C::Candidates, &[ch('R')], Action::BulkReject, "Reject the marked candidates (none marked: all shown)"),
    bind(C::Candidates, &[ch('U')], Action::BulkPending, "Marked candidates back to pending (none marked: all shown)"),
    bind(C::Candidates, &[ch('/')], Action::Filter, "Filter candidates by text"),
    bind(C::Candidates, &[ch('P')], Action::PendingOnly, "Show only pending candidates, or all again"),
    bind(
        C::Candidates,
        &[ch('M')],
        Action::EditorOnly,
        "Show only the rules made by the editor ([mine]: marked, kept, trimmed) and stale ones, or all again",
    ),
    bind(C::Candidates, &[ch('s')], Action::CycleSort, "Sort by df, coverage, new coverage or length"),
    bind(
        C::Candidates,
        &[ch('E')],
        Action::EditRegex,
        "Edit the rule's regex in place: Enter checks it, says on how many documents it matches, accepts it",
    ),
    bind(
        C::Candidates,
        &[code(K::Enter)],
        Action::OpenDetail,
        "Detail: full regex, occurrences in context, and what accepting, rejecting or each action would change",
    ),
    bind(C::Patterns, &[code(K::Up), ch('k')], Action::Up, "Previous pattern"),
    bind(C::Patterns, &[code(K::Down), ch('j')], Action::Down, "Next pattern"),
    bind(
        C::Patterns,
        &[ch('e'), code(K::Enter)],
        Action::EditPattern,
        "Edit the pattern in place (re-mines when valid)",
    ),
    bind(C::Patterns, &[ch('n')], Action::AddPattern, "Add a pattern"),
    bind(C::Patterns, &[ch('d')], Action::DeletePattern, "Delete the pattern (re-mines)"),
    bind(C::Preview, &[code(K::Up), ch('k')], Action::Up, "Line cursor up (with a selection: extends it)"),
    bind(C::Preview, &[code(K::Down), ch('j')], Action::Down, "Line cursor down (with a selection: extends it)"),
    bind(C::Preview, &[code(K::PageUp)], Action::PageUp, "A page up"),
    bind(C::Preview, &[code(K::PageDown)], Action::PageDown, "A page down"),
    bind(C::Preview, &[code(K::Home)], Action::Top, "Line cursor to the first line"),
    bind(C::Preview, &[code(K::End)], Action::Bottom, "Line cursor to the last line"),
    bind(C::Preview, &[ch('/')], Action::Search, "Search the preview's text (case ignored)"),
    bind(C::Preview, &[ch('n')], Action::SearchNext, "Next line with the search (nothing searched: next document)"),
    bind(C::Preview, &[ch('N')], Action::SearchPrev, "Previous line with the search"),
    bind(C::Preview, &[code(K::Enter)], Action::OpenExplain, "Explain the cursor: its span, or why its text is kept"),
    bind(C::Preview, &[ch('o')], Action::ShowSpanRule, "Select the first rule behind the span under the cursor"),
    bind(
        C::Preview,
        &[ch('K')],
        Action::KeepSpan,
        "Keep the selection, else the span under the cursor: a keep rule of its text (shows its impact first)",
    ),
    bind(
        C::Preview,
        &[ch('V')],
        Action::Select,
        "Select the cursor line (j/k extend it; a mouse drag selects whole words too), or drop the selection",
    ),
    bind(C::Preview, &[ch('>')], Action::SelectWordForward, "Selection: its end a word further"),
    bind(C::Preview, &[ch('<')], Action::SelectWordBack, "Selection: its end a word back"),
    bind(
        C::Preview,
        &[ch('T')],
        Action::MarkLine,
        "Mark the selection, else the cursor line, as template (shows the documents and words it changes first)",
    ),
    bind(C::Detail, &[code(K::Esc), code(K::Enter), ch('q')], Action::Close, "Close the detail"),
    bind(C::Detail, &[code(K::Up), ch('k')], Action::Up, "Scroll up"),
    bind(C::Detail, &[code(K::Down), ch('j')], Action::Down, "Scroll down"),
    bind(C::Detail, &[code(K::PageUp)], Action::PageUp, "A page up"),
    bind(C::Detail, &[code(K::PageDown)], Action::PageDown, "A page down"),
    bind(C::Detail, &[ch('a')], Action::Accept, "Accept this candidate"),
    bind(C::Detail, &[ch('r')], Action::Reject, "Reject this candidate"),
    bind(C::Detail, &[code(K::Backspace)], Action::Unmark, "This candidate back to pending"),
    bind(C::Detail, &[ch('c')], Action::CycleRuleAction, "Cycle this rule's action"),
    bind(C::Detail, DIGITS, Action::Jump(1), "Close, and show a document the first choice changes most"),
    bind(C::Explain, &[code(K::Esc), ch('q'), ch('e')], Action::Close, "Close the list"),
    bind(C::Explain, &[code(K::Up), ch('k')], Action::Up, "Previous reason"),
    bind(C::Explain, &[code(K::Down), ch('j')], Action::Down, "Next reason"),
    bind(
        C::Explain,
        &[code(K::Enter)],
        Action::Submit,
        "On a rule: select it in the candidates; on a stage: turn it off for this source",
    ),
    bind(C::Explain, &[ch('K')], Action::KeepSpan, "Keep the span: a keep rule of its text (its impact first)"),
    bind(C::Stages, &[code(K::Esc), ch('q'), ch('S')], Action::Close, "Close the stages"),
    bind(C::Regions, &[code(K::Esc), ch('q'), ch('G')], Action::Close, "Close the region rules"),
    bind(C::Regions, &[code(K::Up), ch('k')], Action::Up, "Previous region rule (its lines selected in the preview)"),
    bind(C::Regions, &[code(K::Down), ch('j')], Action::Down, "Next region rule"),
    bind(
        C::Regions,
        &[ch('a')],
        Action::Accept,
        "Accept the region rule: its lines go (or stay, or cut, by its action)",
    ),
    bind(C::Regions, &[ch('r')], Action::Reject, "Reject the region rule"),
    bind(C::Regions, &[ch('B')], Action::NameRegion, "Naming a region: the element around it instead (outward)"),
    bind(C::Regions, &[code(K::Backspace)], Action::Unmark, "The region rule back to pending"),
    bind(
        C::Regions,
        &[ch('c')],
        Action::CycleRuleAction,
        "Its action: remove, cut-before, cut-after, keep (measured again)",
    ),
    bind(C::Regions, &[ch('u'), ctrl('z')], Action::Undo, "Undo the last decision (as on the tuning screen)"),
    bind(C::Regions, &[ctrl('r')], Action::Redo, "Redo what was undone"),
    bind(C::Regions, DIGITS, Action::Jump(1), "Close, and show a page it changes most (b comes back)"),
    bind(C::Stages, &[code(K::Up), ch('k')], Action::Up, "Previous stage"),
    bind(C::Stages, &[code(K::Down), ch('j')], Action::Down, "Next stage"),
    bind(C::Stages, &[code(K::Enter), code(K::Char(' '))], Action::ToggleStage, "Turn the stage on or off"),
    bind(C::Stages, DIGITS, Action::Jump(1), "Close, and show a document turning it changes most (b comes back)"),
    bind(C::Input, &[code(K::Enter)], Action::Submit, "Apply"),
    bind(C::Input, &[code(K::Esc)], Action::Close, "Cancel"),
    bind(C::PatternInput, &[code(K::Enter)], Action::Submit, "Apply the pattern (refused while invalid)"),
    bind(C::PatternInput, &[code(K::Tab), code(K::BackTab)], Action::SwitchField, "Switch between name and regex"),
    bind(C::PatternInput, &[code(K::Esc)], Action::Close, "Cancel the edit"),
    bind(C::QuitPrompt, &[ch('w')], Action::SaveAndQuit, "Save, then quit"),
    bind(C::QuitPrompt, &[ch('d')], Action::QuitWithoutSaving, "Discard the unsaved changes and quit"),
    // a second q must never lose work: it stays, as Esc does
    bind(C::QuitPrompt, &[ch('q'), code(K::Esc), ch('n')], Action::Close, "Stay (nothing is lost)"),
    bind(C::ResetPrompt, &[ch('y')], Action::Submit, "Reset to the automatic rules (u undoes it)"),
    bind(C::MarkPrompt, &[ch('y'), code(K::Enter)], Action::Submit, "Add the rule, accepted, with the action shown"),
    bind(
        C::MarkPrompt,
        &[ch('c')],
        Action::CycleRuleAction,
        "Its action: remove, cut-before, cut-after, keep (measured again)",
    ),
    bind(C::MarkPrompt, DIGITS, Action::Jump(1), "Close, and show a document it changes most (b comes back)"),
    bind(C::MarkPrompt, &[ch('n'), ch('q'), code(K::Esc)], Action::Close, "Do not add it: nothing changes"),
    bind(C::ActionPrompt, &[ch('y'), code(K::Enter)], Action::Submit, "Accept the candidate with the action shown"),
    bind(C::ActionPrompt, &[ch('c')], Action::CycleRuleAction, "The next action (measured again)"),
    bind(C::ActionPrompt, DIGITS, Action::Jump(1), "Close, and show a document it changes most (b comes back)"),
    bind(C::ActionPrompt, &[ch('n'), ch('q'), code(K::Esc)], Action::Close, "Leave the action as it is"),
    bind(C::CutoffPrompt, &[code(K::Left), ch('h')], Action::CutoffDown, "Weigh the cutoff a bin of strings lower"),
    bind(C::CutoffPrompt, &[code(K::Right), ch('l')], Action::CutoffUp, "Weigh the cutoff a bin of strings higher"),
    bind(C::CutoffPrompt, &[ch('0')], Action::CutoffAuto, "Weigh the automatic cutoff"),
    bind(
        C::CutoffPrompt,
        &[ch('+')],
        Action::TogglePending,
        "Count the pending rules (as the preview's +): the cutoff decides which are in force",
    ),
    bind(C::CutoffPrompt, &[ch('y'), code(K::Enter)], Action::Submit, "Take the cutoff weighed (u undoes it)"),
    bind(C::CutoffPrompt, DIGITS, Action::Jump(1), "Close, and show a document it changes most (b comes back)"),
    bind(C::CutoffPrompt, &[ch('n'), ch('q'), code(K::Esc)], Action::Close, "Leave the cutoff as it is"),
    bind(C::ResetPrompt, &[ch('n'), ch('q'), code(K::Esc)], Action::Close, "Keep the decisions"),
    bind(C::ExportPrompt, &[ch('y'), ch('x'), code(K::Enter)], Action::Submit, "Write the export as said above"),
    bind(C::ExportPrompt, &[ch('n'), ch('q'), code(K::Esc)], Action::Close, "Cancel: nothing is written"),
    bind(C::ConflictPrompt, &[ch('k')], Action::KeepMine, "Keep mine where both decided (theirs is merged in)"),
    bind(
        C::ConflictPrompt,
        &[ch('t')],
        Action::TakeTheirs,
        "Take theirs (reload the file; your unsaved decisions are dropped)",
    ),
    bind(C::JournalPrompt, &[ch('r')], Action::RestoreJournal, "Restore the unsaved decisions"),
    bind(C::JournalPrompt, &[ch('d')], Action::DiscardJournal, "Discard them"),
    bind(C::Dialog, &[code(K::Up)], Action::Up, "Scroll the dialog up"),
    bind(C::Dialog, &[code(K::Down)], Action::Down, "Scroll the dialog down"),
    bind(C::Dialog, &[code(K::PageUp)], Action::PageUp, "A page up"),
    bind(C::Dialog, &[code(K::PageDown)], Action::PageDown, "A page down"),
    bind(C::Picker, &[code(K::Up), ch('k')], Action::Up, "Previous source"),
    bind(C::Picker, &[code(K::Down), ch('j')], Action::Down, "Next source"),
    bind(C::Picker, &[code(K::PageUp)], Action::PageUp, "A page up"),
    bind(C::Picker, &[code(K::PageDown)], Action::PageDown, "A page down"),
    bind(C::Picker, &[code(K::Home)], Action::Top, "First source"),
    bind(C::Picker, &[code(K::End)], Action::Bottom, "Last source"),
    bind(C::Picker, &[code(K::Enter)], Action::OpenSource, "Mine the source and open it"),
    bind(
        C::Picker,
        &[ch('n')],
        Action::NextToReview,
        "Open the next source to review: unreviewed, its rules changed since, or drifted",
    ),
    bind(C::Picker, &[ch('s')], Action::CycleSort, "Sort by name, to review first, documents, pending, removed, drift"),
    bind(C::Picker, &[ch('/')], Action::Filter, "Filter the sources by name"),
    bind(C::Picker, &[ch('?')], Action::Help, "Show every key"),
    bind(C::Picker, &[ch('q'), code(K::Esc), ctrl('c')], Action::Quit, "Quit"),
    bind(C::Help, &[code(K::Esc), ch('?'), ch('q')], Action::Close, "Close the help"),
    bind(C::Help, &[code(K::Up), ch('k')], Action::Up, "Scroll up"),
    bind(C::Help, &[code(K::Down), ch('j')], Action::Down, "Scroll down"),
    bind(C::Help, &[code(K::PageUp)], Action::PageUp, "A page up"),
    bind(C::Help, &[code(K::PageDown)], Action::PageDown, "A page down"),
];

/// The key as bindings spell it: Shift dropped from characters (it is in the character already).
fn normalize(key: &KeyEvent) -> Key {
    let mut mods = key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
    if matches!(key.code, KeyCode::Char(_) | KeyCode::BackTab) {
        mods.remove(KeyModifiers::SHIFT);
    }
    Key { code: key.code, mods }
}

/// The action bound to `key` in the innermost context of `contexts` that binds it. A digit bound to
/// [`Action::Jump`] jumps to its number.
pub fn lookup(contexts: &[Context], key: &KeyEvent) -> Option<Action> {
    let key = normalize(key);
    let action = contexts
        .iter()
        .find_map(|&c| BINDINGS.iter().find(|b| b.context == c && b.keys.contains(&key)).map(|b| b.action))?;
    Some(match (action, key.code) {
        (Action::Jump(_), KeyCode::Char(d)) => Action::Jump(d.to_digit(10).map_or(1, |n| n as usize)),
        (a, _) => a,
    })
}

/// The bindings of a context, in help order.
pub fn bindings(context: Context) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| b.context == context)
}

pub fn key_label(key: &Key) -> String {
    let base = match key.code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::Backspace => "Backspace".into(),
        other => format!("{other:?}"),
    };
    if key.mods.contains(KeyModifiers::CONTROL) { format!("Ctrl-{base}") } else { base }
}

/// All keys of a binding, e.g. `←/h`.
pub fn keys_label(keys: &[Key]) -> String {
    keys.iter().map(key_label).collect::<Vec<_>>().join("/")
}

/// The first key bound to `action` in `context`, for hints ("w save").
pub fn hint(context: Context, action: Action) -> String {
    BINDINGS
        .iter()
        .find(|b| b.context == context && b.action == action)
        .and_then(|b| b.keys.first())
        .map(key_label)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for c in Context::ALL {
            let keys: Vec<Key> = bindings(c).flat_map(|b| b.keys.iter().copied()).collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[..i].contains(k), "{:?} bound twice in {c:?}", key_label(k));
            }
        }
    }

    #[test]
    fn inner_context_wins() {
        let n = KeyEvent::new(KeyCode::Char('n'), KeyModifiers::NONE);
        assert_eq!(lookup(&[Context::Patterns, Context::Tune], &n), Some(Action::AddPattern));
        assert_eq!(lookup(&[Context::Candidates, Context::Tune], &n), Some(Action::NextDoc));
        let big_a = KeyEvent::new(KeyCode::Char('A'), KeyModifiers::SHIFT);
        assert_eq!(lookup(&[Context::Candidates], &big_a), Some(Action::BulkAccept));
    }

    #[test]
    fn a_digit_jumps_to_its_document() {
        let three = KeyEvent::new(KeyCode::Char('3'), KeyModifiers::NONE);
        assert_eq!(lookup(&[Context::Candidates, Context::Tune], &three), Some(Action::Jump(3)));
        assert_eq!(lookup(&[Context::MarkPrompt], &three), Some(Action::Jump(3)));
    }
}
