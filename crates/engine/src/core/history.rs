//! Undo and redo without limit, for the level editor: each edit, applied,
//! hands back the edit that undoes it, so the history keeps only what each
//! edit changed (a painted tile is a few bytes), never whole levels.

/// A change to a level of type `L` that can be applied once.
pub trait Edit<L>: Sized {
    /// Makes the change and returns the edit that takes it back.
    fn apply(self, level: &mut L) -> Self;
}

/// A level being edited, with everything done to it and undone.
#[derive(Clone, Debug)]
pub struct History<L, E> {
    level: L,
    undo: Vec<E>,
    redo: Vec<E>,
}

impl<L, E: Edit<L>> History<L, E> {
    pub fn new(level: L) -> History<L, E> {
        History { level, undo: Vec::new(), redo: Vec::new() }
    }

    pub fn level(&self) -> &L {
        &self.level
    }

    /// Makes an edit; what was undone can no longer be redone.
    pub fn edit(&mut self, edit: E) {
        let back = edit.apply(&mut self.level);
        self.undo.push(back);
        self.redo.clear();
    }

    /// Takes back the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(edit) = self.undo.pop() else { return false };
        let again = edit.apply(&mut self.level);
        self.redo.push(again);
        true
    }

    /// Makes the last edit undone again; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(edit) = self.redo.pop() else { return false };
        let back = edit.apply(&mut self.level);
        self.undo.push(back);
        true
    }

    /// The edits made since the history was `since` edits deep, joined into
    /// one by `join` (given their undoings, last first): a drag across many
    /// tiles is then undone in one step.
    pub fn squash(&mut self, since: usize, join: impl FnOnce(Vec<E>) -> E) {
        if self.undo.len() > since + 1 {
            let mut backs = self.undo.split_off(since);
            backs.reverse();
            self.undo.push(join(backs));
        }
    }

    /// Edits that can be undone, and redone.
    pub fn depth(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// The level as it stands, the history dropped.
    pub fn into_level(self) -> L {
        self.level
    }
}
