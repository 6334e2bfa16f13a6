//! Text decoded from markup (XML references, RTF escapes), joined from several pieces of a
//! source, with the place in the source each part was written at, so that a link found in
//! the decoded text gets its range as written.

use std::ops::Range;

/// Decoded text and where it came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct MappedText {
    /// The decoded text.
    text: String,
    /// Where each part of `text` was written, in order of `text`.
    pieces: Vec<Piece>,
}

/// A part of a [`MappedText`] and its source.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    /// Byte offset in the decoded text where the piece starts; it runs to the next piece.
    at: usize,
    /// The bytes of the source it was decoded from (0-based, half-open).
    source: Range<usize>,
    /// True when the piece is the source's bytes as they are, so that every offset inside
    /// it maps to one in the source; false for an escape or a reference, which maps whole.
    literal: bool,
}

impl MappedText {
    /// The decoded text.
    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// Its length in bytes.
    pub(super) fn len(&self) -> usize {
        self.text.len()
    }

    /// Appends `text`, written as it is at `source_start` in the source.
    pub(super) fn push_literal(&mut self, text: &str, source_start: usize) {
        if text.is_empty() {
            return;
        }
        let source = source_start..source_start.saturating_add(text.len());
        let extends = self
            .pieces
            .last()
            .is_some_and(|last| last.literal && last.source.end == source.start);
        if extends {
            if let Some(last) = self.pieces.last_mut() {
                last.source.end = source.end;
            }
        } else {
            self.pieces.push(Piece {
                at: self.text.len(),
                source,
                literal: true,
            });
        }
        self.text.push_str(text);
    }

    /// Appends `text`, which the bytes at `source` of the source (an escape, a reference)
    /// decode to.
    pub(super) fn push_decoded(&mut self, text: &str, source: Range<usize>) {
        if text.is_empty() {
            return;
        }
        self.pieces.push(Piece {
            at: self.text.len(),
            source,
            literal: false,
        });
        self.text.push_str(text);
    }

    /// The bytes of the source that the bytes `range` of the decoded text were written as
    /// (0-based, half-open): from the start of the part that holds `range.start` to the end
    /// of the part that holds the last byte of `range`. An empty range maps to an empty one.
    pub(super) fn source(&self, range: Range<usize>) -> Range<usize> {
        let start = self.source_of(range.start, false);
        if range.end <= range.start {
            return start..start;
        }
        let end = self.source_of(range.end - 1, true).max(start);
        start..end
    }

    /// Where the byte `offset` of the decoded text starts in the source (or, with `after`,
    /// where it ends).
    fn source_of(&self, offset: usize, after: bool) -> usize {
        let index = self.pieces.partition_point(|piece| piece.at <= offset);
        let Some(piece) = index
            .checked_sub(1)
            .and_then(|index| self.pieces.get(index))
        else {
            return self.pieces.first().map_or(0, |piece| piece.source.start);
        };
        match (piece.literal, after) {
            (true, false) => piece.source.start.saturating_add(offset - piece.at),
            (true, true) => piece.source.start.saturating_add(offset - piece.at + 1),
            (false, false) => piece.source.start,
            (false, true) => piece.source.end,
        }
    }
}
