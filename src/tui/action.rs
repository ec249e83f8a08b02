//! What the editor can do, by name. Keys and mouse events become [`Action`]s (see [`super::keymap`]), and
//! [`super::update::update`] applies them to the state; the help screen shows the same names.

/// A named user action. Key bindings map to these; the update function is the only place they act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    // Anywhere on the tuning screen
    Quit,
    Help,
    Save,
    Export,
    FocusNext,
    FocusPrev,
    CutoffDown,
    CutoffUp,
    CutoffAuto,
    /// Weigh a cutoff before taking it: its impact, measured as the editor moves it.
    WeighCutoff,
    NextDoc,
    PrevDoc,
    GotoDoc,
    ToggleCleaned,
    /// The cleaned text of the accepted rules (what is exported), or of accepted + pending ones.
    TogglePending,
    NextSpan,
    PrevSpan,
    /// Search the preview's text (`/`), and find it again after or before the cursor.
    Search,
    SearchNext,
    SearchPrev,
    // Moving in the focused pane (or a popup)
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Undo,
    Redo,
    // Candidates
    Accept,
    Reject,
    Unmark,
    CycleRuleAction,
    ToggleMark,
    MarkShown,
    ClearMarks,
    BulkAccept,
    BulkReject,
    BulkPending,
    Filter,
    PendingOnly,
    /// Only the rules the editor made (and stale ones), or all again.
    EditorOnly,
    CycleSort,
    OpenDetail,
    // Mutable patterns
    EditPattern,
    AddPattern,
    DeletePattern,
    // Preview
    ShowSpanRule,
    /// The explain list of the span under the preview's cursor.
    OpenExplain,
    /// Keep the span: a keep rule of its text (no rule nor stage removes it).
    KeepSpan,
    /// The stages popup: the cleaning pipeline's stages, on or off for this source.
    OpenStages,
    OpenRegions,
    /// Name a region rule from the element around the preview's line (again, in the list: the element
    /// around that one).
    NameRegion,
    /// Turn the selected stage on or off.
    ToggleStage,
    /// Every decision back to the automatic rules (asks first).
    ResetToAutomatic,
    /// Drop a token from the selected candidate's start, or its end.
    TrimFront,
    TrimBack,
    /// Mark the preview's cursor line, or the selection, as template (asks first).
    MarkLine,
    /// Start a selection in the preview at its cursor line, or drop it.
    Select,
    /// Move the selection's end a word forward, or back.
    SelectWordForward,
    SelectWordBack,
    /// Edit the selected rule's regex in place.
    EditRegex,
    /// Show the n-th (from 1) document the last impact shown changed most.
    Jump(usize),
    /// Back to the page the preview was on before the first jump.
    Back,
    /// Mark the previewed page verified (its cleaned text now is right), or unmark it.
    ToggleVerified,
    // Popups, prompts and text inputs
    Close,
    Submit,
    SwitchField,
    SaveAndQuit,
    QuitWithoutSaving,
    KeepMine,
    TakeTheirs,
    RestoreJournal,
    DiscardJournal,
    // Sources table
    OpenSource,
    /// Open the next source that is unreviewed or drifted.
    NextToReview,
    /// Mark the open source reviewed (saved with its rules).
    MarkReviewed,
    // Mouse and terminal (no key)
    Click {
        column: u16,
        row: u16,
    },
    /// The mouse moved with its button down: selects text in the preview.
    Drag {
        column: u16,
        row: u16,
    },
    ScrollUp {
        column: u16,
        row: u16,
    },
    ScrollDown {
        column: u16,
        row: u16,
    },
    Resize {
        width: u16,
        height: u16,
    },
}

impl Action {
    /// The action's name, as the help screen shows it.
    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Help => "help",
            Action::Save => "save",
            Action::Export => "export",
            Action::FocusNext => "focus-next",
            Action::FocusPrev => "focus-prev",
            Action::CutoffDown => "cutoff-down",
            Action::CutoffUp => "cutoff-up",
            Action::CutoffAuto => "cutoff-auto",
            Action::WeighCutoff => "weigh-cutoff",
            Action::NextDoc => "next-document",
            Action::PrevDoc => "prev-document",
            Action::GotoDoc => "goto-document",
            Action::ToggleCleaned => "toggle-cleaned",
            Action::TogglePending => "toggle-pending",
            Action::NextSpan => "next-span",
            Action::PrevSpan => "prev-span",
            Action::Search => "search",
            Action::SearchNext => "search-next",
            Action::SearchPrev => "search-prev",
            Action::Up => "up",
            Action::Down => "down",
            Action::PageUp => "page-up",
            Action::PageDown => "page-down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::Accept => "accept",
            Action::Undo => "undo",
            Action::Redo => "redo",
            Action::Reject => "reject",
            Action::Unmark => "pending",
            Action::CycleRuleAction => "cycle-action",
            Action::ToggleMark => "mark",
            Action::MarkShown => "mark-shown",
            Action::ClearMarks => "clear-marks",
            Action::BulkAccept => "accept-all",
            Action::BulkReject => "reject-all",
            Action::BulkPending => "pending-all",
            Action::Filter => "filter",
            Action::PendingOnly => "pending-only",
            Action::EditorOnly => "editors-only",
            Action::CycleSort => "sort",
            Action::OpenDetail => "detail",
            Action::EditPattern => "edit-pattern",
            Action::AddPattern => "add-pattern",
            Action::DeletePattern => "delete-pattern",
            Action::ShowSpanRule => "select-span-rule",
            Action::OpenExplain => "explain",
            Action::KeepSpan => "keep-span",
            Action::OpenStages => "stages",
            Action::OpenRegions => "regions",
            Action::NameRegion => "name-region",
            Action::ToggleStage => "toggle-stage",
            Action::ResetToAutomatic => "reset",
            Action::TrimFront => "trim-front",
            Action::TrimBack => "trim-back",
            Action::MarkLine => "mark-line",
            Action::Select => "select",
            Action::SelectWordForward => "select-word-forward",
            Action::SelectWordBack => "select-word-back",
            Action::EditRegex => "edit-regex",
            Action::Jump(_) => "most-changed",
            Action::Back => "back",
            Action::ToggleVerified => "verified",
            Action::Drag { .. } => "drag",
            Action::Close => "close",
            Action::Submit => "submit",
            Action::SwitchField => "next-field",
            Action::SaveAndQuit => "save-and-quit",
            Action::QuitWithoutSaving => "quit-without-saving",
            Action::KeepMine => "keep-mine",
            Action::TakeTheirs => "take-theirs",
            Action::RestoreJournal => "restore",
            Action::DiscardJournal => "discard",
            Action::OpenSource => "open-source",
            Action::NextToReview => "next-to-review",
            Action::MarkReviewed => "mark-reviewed",
            Action::Click { .. } => "click",
            Action::ScrollUp { .. } => "scroll-up",
            Action::ScrollDown { .. } => "scroll-down",
            Action::Resize { .. } => "resize",
        }
    }
}
