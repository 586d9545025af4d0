//! What `screenshot --refs` draws onto the image (docs/protocol.md section 5), for vision models
//! that match refs to what they see: each interactive node's box, outlined, and its ref (`@e12`)
//! in a label at the box's top left corner, white on the outline's colour. Drawn row by row into
//! the rows the PNG encoder writes, on the service thread, after the copy.

use font8x8::legacy::BASIC_LEGACY;

/// The outline's and the label's colour: magenta, which UIs rarely use, so marks stand out.
pub(crate) const MARK: [u8; 3] = [255, 0, 255];
/// The label's text colour.
pub(crate) const TEXT: [u8; 3] = [255, 255, 255];

/// The nodes to mark: each one's ref and logical bounds (x, y, width, height), as `snapshot -i
/// --bounds` prints them.
pub(crate) type Boxes = Vec<(String, [f64; 4])>;

/// What `screenshot --refs` draws, per command: the refs and boxes of its window's `-i`
/// projection when it was planned, kept until its screenshot comes back.
#[derive(Default)]
pub(crate) struct PendingOverlays(Vec<(u64, Boxes)>);

impl PendingOverlays {
    /// Command `seq` draws `boxes` (replacing what an earlier attempt planned).
    pub fn set(&mut self, seq: u64, boxes: Boxes) {
        self.forget(seq);
        self.0.push((seq, boxes));
    }

    /// What command `seq`'s screenshot draws, taken.
    pub fn take(&mut self, seq: u64) -> Option<Boxes> {
        let i = self.0.iter().position(|(s, _)| *s == seq)?;
        Some(self.0.swap_remove(i).1)
    }

    /// Command `seq` was answered: it draws nothing any more.
    pub fn forget(&mut self, seq: u64) {
        self.0.retain(|(s, _)| *s != seq);
    }
}

/// One node's mark in physical pixels of the whole frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mark {
    /// The box: x0, y0, x1, y1 (x1, y1 exclusive).
    pub rect: [i64; 4],
    /// The ref, `@e12`.
    pub text: String,
}

/// The marks of a screenshot, and their sizes at its scale factor.
#[derive(Debug, Clone)]
pub(crate) struct Overlay {
    marks: Vec<Mark>,
    /// The frame's width: labels are kept inside it.
    width: i64,
    /// The outline's width.
    line: i64,
    /// A glyph's pixel size (8x8 glyphs of `glyph` by `glyph` pixels each).
    glyph: i64,
}

impl Overlay {
    /// The marks of boxes given in logical pixels (x, y, width, height), at scale factor `scale`,
    /// on a frame `width` physical pixels wide.
    pub fn new(boxes: &[(String, [f64; 4])], scale: f64, width: u32) -> Overlay {
        let px = |v: f64| (v * scale).round() as i64;
        let marks = boxes
            .iter()
            .map(|(text, [x, y, w, h])| Mark {
                rect: [px(*x), px(*y), px(x + w), px(y + h)],
                text: text.clone(),
            })
            .collect();
        let unit = scale.round().max(1.0) as i64;
        Overlay {
            marks,
            width: i64::from(width),
            line: 2 * unit,
            glyph: unit,
        }
    }

    /// The label of `mark`: x0, y0, x1, y1 in physical pixels (one glyph pixel of padding). It
    /// sits on the box's top left corner, above the box where there is room (so it hides none of
    /// the node's own text), else inside it, and is moved left to stay inside the frame.
    pub fn label_rect(&self, mark: &Mark) -> [i64; 4] {
        let [x0, y0, ..] = mark.rect;
        let pad = self.glyph;
        let w = 8 * self.glyph * mark.text.chars().count() as i64 + 2 * pad;
        let h = 8 * self.glyph + 2 * pad;
        let x = x0.min(self.width - w).max(0);
        let y = if y0 >= h { y0 - h } else { y0 };
        [x, y, x + w, y + h]
    }

    /// Whether the text pixel at (`x`, `y`) of `mark`'s label is set: the glyph's bit there.
    pub fn text_at(&self, mark: &Mark, x: i64, y: i64) -> bool {
        let [lx, ly, ..] = self.label_rect(mark);
        let (gx, gy) = ((x - lx - self.glyph), (y - ly - self.glyph));
        if gx < 0 || gy < 0 {
            return false;
        }
        let (col, row) = ((gx / self.glyph) % 8, gy / self.glyph);
        let Some(c) = mark.text.chars().nth((gx / self.glyph / 8) as usize) else {
            return false;
        };
        row < 8
            && BASIC_LEGACY
                .get(c as usize)
                .is_some_and(|g| g[row as usize] & (1 << col) != 0)
    }

    /// Paints the marks that cross frame row `y` into `row`, which holds the frame's RGBA pixels
    /// from column `x0` on. Later marks are drawn over earlier ones, labels over outlines.
    pub fn paint_row(&self, y: i64, x0: i64, row: &mut [u8]) {
        let width = (row.len() / 4) as i64;
        let mut put = |x: i64, rgb: [u8; 3]| {
            let i = x - x0;
            if (0..width).contains(&i) {
                let at = i as usize * 4;
                row[at..at + 3].copy_from_slice(&rgb);
                row[at + 3] = 255;
            }
        };
        for mark in &self.marks {
            let [bx0, by0, bx1, by1] = mark.rect;
            if y < by0 || y >= by1 {
                continue;
            }
            let t = self.line.min((bx1 - bx0) / 2).min((by1 - by0) / 2).max(1);
            if y < by0 + t || y >= by1 - t {
                for x in bx0..bx1 {
                    put(x, MARK);
                }
            } else {
                for x in (bx0..bx0 + t).chain(bx1 - t..bx1) {
                    put(x, MARK);
                }
            }
        }
        for mark in &self.marks {
            let [lx0, ly0, lx1, ly1] = self.label_rect(mark);
            if y < ly0 || y >= ly1 {
                continue;
            }
            for x in lx0..lx1 {
                put(x, if self.text_at(mark, x, y) { TEXT } else { MARK });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_an_outline_and_a_label_whose_pixels_spell_the_ref() {
        let marks = Overlay::new(&[("@e1".to_owned(), [10.0, 20.0, 60.0, 20.0])], 1.0, 100);
        let mark = &marks.marks[0];
        assert_eq!(mark.rect, [10, 20, 70, 40]);
        // The label: three 8-pixel glyphs and a pixel of padding each side, above the box.
        assert_eq!(marks.label_rect(mark), [10, 10, 36, 20]);
        // Where there is no room above, inside the box; at the right edge, moved left.
        let edge = Overlay::new(&[("@e1".to_owned(), [90.0, 5.0, 10.0, 10.0])], 1.0, 100);
        assert_eq!(edge.label_rect(&edge.marks[0]), [74, 5, 100, 15]);
        let mut rows = vec![vec![0u8; 100 * 4]; 50];
        for (y, row) in rows.iter_mut().enumerate() {
            marks.paint_row(y as i64, 0, row);
        }
        let at = |x: usize, y: usize| [rows[y][x * 4], rows[y][x * 4 + 1], rows[y][x * 4 + 2]];
        // The outline at the bottom left and right; nothing inside or outside.
        assert_eq!(at(10, 39), MARK);
        assert_eq!(at(69, 30), MARK);
        assert_eq!(at(40, 30), [0, 0, 0]);
        assert_eq!(at(75, 30), [0, 0, 0]);
        // The label's padding, and its text: '1' (the third glyph) has its stem in column 3 or 4
        // of each of its first seven rows.
        assert_eq!(at(10, 10), MARK);
        let one = 11 + 16;
        let stem = (11..18).all(|y| (one..one + 8).any(|x| at(x, y) == TEXT));
        assert!(stem);
        // What is text is exactly the glyphs' bits.
        for y in 10..20 {
            for x in 10..36 {
                let want = if marks.text_at(mark, x as i64, y as i64) {
                    TEXT
                } else {
                    MARK
                };
                assert_eq!(at(x, y), want, "{x},{y}");
            }
        }
    }
}
