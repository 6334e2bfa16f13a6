//! From byte offsets of a text a reader sees back to the decoded body it was made from.
//!
//! Joining `format=flowed` lines ([`super::flowed`]) and removing `text/enriched` commands
//! ([`super::enriched`]) make a new text: some bytes of the body are copied, some dropped (a
//! soft line break, a quote marker, a formatting command) and some replaced (a lone line break
//! shown as a space, `<<` shown as `<`). An [`OffsetMap`] records, piece by piece, where each
//! byte of the new text came from, so that a link found in it can be given a byte range in the
//! body.

use std::ops::Range;

/// One piece of the shown text and the bytes of the body it stands for.
///
/// A copied piece is the body's bytes, `shown` and `source` of the same length; a replaced
/// piece (`<<` shown as `<`, a line break shown as a space) stands for its whole `source`
/// range.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    /// Bytes of the shown text, 0-based, half-open.
    shown: Range<usize>,
    /// Bytes of the body, 0-based, half-open.
    source: Range<usize>,
    /// Whether the piece is the body's bytes, unchanged.
    copied: bool,
}

/// Where each byte of a shown text came from in the body: a list of pieces in order, both
/// their shown and their source ranges ascending and not overlapping.
///
/// Offsets are bytes, 0-based; ranges are half-open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OffsetMap {
    pieces: Vec<Piece>,
}

impl OffsetMap {
    /// Records that the shown bytes from the current end, `len` of them, are the body's bytes
    /// from `source`, unchanged. Adjacent copies are merged.
    pub(crate) fn copy(&mut self, source: usize, len: usize) {
        if len == 0 {
            return;
        }
        let shown = self.shown_len();
        if let Some(last) = self.pieces.last_mut()
            && last.copied
            && last.shown.end == shown
            && last.source.end == source
        {
            last.shown.end += len;
            last.source.end += len;
            return;
        }
        self.pieces.push(Piece {
            shown: shown..shown + len,
            source: source..source + len,
            copied: true,
        });
    }

    /// Records that the next `shown_len` shown bytes stand for the body's bytes `source` as a
    /// whole (a line break shown as a space, `<<` shown as `<`).
    pub(crate) fn replace(&mut self, shown_len: usize, source: Range<usize>) {
        if shown_len == 0 {
            return;
        }
        let shown = self.shown_len();
        self.pieces.push(Piece {
            shown: shown..shown + shown_len,
            source,
            copied: false,
        });
    }

    /// The map of a text shown as it is: its `len` bytes are the body's, unchanged.
    pub(crate) fn identity(len: usize) -> Self {
        let mut map = OffsetMap::default();
        map.copy(0, len);
        map
    }

    /// The length of the shown text recorded so far, in bytes.
    pub(crate) fn shown_len(&self) -> usize {
        self.pieces.last().map_or(0, |p| p.shown.end)
    }

    /// The piece holding shown byte `offset`, if any.
    fn piece(&self, offset: usize) -> Option<&Piece> {
        let index = self.pieces.partition_point(|p| p.shown.end <= offset);
        self.pieces.get(index).filter(|p| p.shown.start <= offset)
    }

    /// The body bytes of the shown bytes `range`: from where the first shown byte came from
    /// to the end of where the last one came from, so a range that spans a dropped soft line
    /// break spans it in the body too. An empty or out-of-bounds range gives an empty range
    /// at the nearest known position.
    pub(crate) fn source_range(&self, range: Range<usize>) -> Range<usize> {
        if range.is_empty() {
            let at = self.source_start(range.start);
            return at..at;
        }
        let start = self.source_start(range.start);
        let end = match self.piece(range.end - 1) {
            Some(p) if p.copied => p.source.start + (range.end - p.shown.start),
            Some(p) => p.source.end,
            None => self.pieces.last().map_or(0, |p| p.source.end),
        };
        start..end.max(start)
    }

    /// The body offset of shown byte `offset` (for a replaced piece, the start of what it
    /// replaces); past the end, the end of the last piece.
    pub(crate) fn source_start(&self, offset: usize) -> usize {
        match self.piece(offset) {
            Some(p) if p.copied => p.source.start + (offset - p.shown.start),
            Some(p) => p.source.start,
            None => self.pieces.last().map_or(0, |p| p.source.end),
        }
    }

    /// Every piece as `(shown, source, copied)`, in order (for the fuzz target's oracles).
    pub(crate) fn pieces(&self) -> impl Iterator<Item = (Range<usize>, Range<usize>, bool)> + '_ {
        self.pieces
            .iter()
            .map(|p| (p.shown.clone(), p.source.clone(), p.copied))
    }
}

/// A text as a reader sees it, made from a decoded body, with the map back to the body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ShownText {
    /// What the reader sees.
    pub text: String,
    /// Where each byte of `text` came from in the body.
    pub map: OffsetMap,
}

impl ShownText {
    /// Appends `body[range]` unchanged.
    pub(crate) fn copy(&mut self, body: &str, range: Range<usize>) {
        if let Some(piece) = body.get(range.clone()) {
            self.text.push_str(piece);
            self.map.copy(range.start, piece.len());
        }
    }

    /// Appends `shown`, standing for the body bytes `source` as a whole.
    pub(crate) fn replace(&mut self, shown: &str, source: Range<usize>) {
        self.text.push_str(shown);
        self.map.replace(shown.len(), source);
    }
}

#[cfg(test)]
mod tests {
    use super::OffsetMap;

    #[test]
    fn copies_merge_and_ranges_span_what_was_dropped() {
        let mut map = OffsetMap::default();
        map.copy(0, 4);
        map.copy(4, 2);
        // Bytes 6..9 of the body are dropped (a soft line break).
        map.copy(9, 5);
        assert_eq!(map.pieces().count(), 2);
        assert_eq!(map.shown_len(), 11);
        assert_eq!(map.source_range(2..8), 2..11);
        assert_eq!(map.source_range(6..11), 9..14);
        assert_eq!(map.source_start(5), 5);
        assert_eq!(map.source_start(6), 9);
    }

    #[test]
    fn a_replaced_piece_stands_for_all_it_replaces() {
        let mut map = OffsetMap::default();
        map.copy(0, 3);
        map.replace(1, 3..5); // "\r\n" shown as " "
        map.copy(5, 3);
        assert_eq!(map.source_range(3..4), 3..5);
        assert_eq!(map.source_range(2..5), 2..6);
        assert_eq!(map.source_range(0..7), 0..8);
        assert_eq!(map.source_range(7..7), 8..8);
    }
}
