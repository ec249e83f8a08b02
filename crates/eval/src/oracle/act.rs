//! A decision made through the draft's actions, the methods the tuning UI calls: accept a candidate with
//! an action, reject it, trim it, mark a span as template or keep it, turn a stage off; accept or reject
//! a region rule, or set its action. Each is a step of
//! the draft's undo history; the oracle undoes them when the decision's impact refuses it.

use crate::rules::region::RegionRule;
use crate::rules::{Action, Status};

use super::choices::Choice;
use super::editor::{Editor, Made};

/// Makes `choice` in the editor's draft. Returns how many undo steps it took, or why the draft could
/// not make it (a rule it does not hold, a trim it refuses).
pub(super) fn make(editor: &mut Editor<'_>, choice: &Choice) -> Result<usize, String> {
    let mut steps = 0;
    for &(r, action) in &choice.sets {
        let id = editor.rules[r].id.clone();
        let held = editor.draft.position(&id).is_some();
        match (editor.made_as(r), action) {
            (Made::Region, action) => {
                let element = id.strip_prefix(crate::rules::region::REGION_PREFIX).unwrap_or(&id);
                let change = match action {
                    // a region the editor names herself, or a mined one accepted
                    Some(a) => editor.draft.name_region(RegionRule::accepted(element, a))?,
                    None => editor.draft.decide_region(element, Some(Status::Rejected), None),
                };
                steps += usize::from(!change.is_empty());
            }
            // a marked span is made as the UI makes it, an editor's rule (which no stage overrules), even
            // when the draft holds a mined string of the same text: accepting that string instead would
            // leave it to the stages, and clean otherwise than the trial did
            (Made::Mark { text, start, end }, Some(a)) => {
                editor.draft.mark_span(text, start, end, a)?;
                steps += 1;
            }
            (Made::Trim { of, front, back }, Some(a)) if !held => {
                let i = editor.draft.position(&editor.rules[of].id).ok_or("the trimmed rule is not in the draft")?;
                for front_side in std::iter::repeat_n(true, front).chain(std::iter::repeat_n(false, back)) {
                    editor.draft.trim(i, front_side)?;
                    steps += 1;
                }
                steps += decide(editor, &id, Some(a))?;
            }
            // a rule the draft does not hold applies nowhere: nothing to turn off
            (_, None) if !held => {}
            (_, action) => steps += decide(editor, &id, action)?,
        }
    }
    if let Some(stage) = choice.stage_off
        && !editor.draft.set_stage(stage, false).is_empty()
    {
        steps += 1;
    }
    Ok(steps)
}

/// Accepts rule `id` with `action`, or rejects it (`None`): one step, none when nothing changes.
fn decide(editor: &mut Editor<'_>, id: &str, action: Option<Action>) -> Result<usize, String> {
    let i = editor.draft.position(id).ok_or_else(|| format!("rule {id} is not in the draft"))?;
    let change = match action {
        Some(a) => editor.draft.decide(&[i], Some(Status::Accepted), Some(a)),
        None => editor.draft.decide(&[i], Some(Status::Rejected), None),
    };
    Ok(usize::from(!change.is_empty()))
}
