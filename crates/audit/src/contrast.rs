//! Text contrast (WCAG 2.2, 1.4.3) measured in a frame's pixels: the colours inside a text's
//! bounds, the background and the text colour estimated from them, and their contrast ratio.
//!
//! The estimate (docs/accessibility.md says the same): the background is the colour most pixels
//! inside the bounds have; the text colour is, among the colours at least [`MIN_SHARE`] of the
//! other pixels have, the one that contrasts most with the background. Anti-aliasing blends a
//! glyph's edges into the background, so edge pixels lie between the two colours and never
//! contrast more than the glyph's own colour: taking the most contrasting colour finds the core
//! of the strokes. Thin strokes of small text may have no pixel of the full colour, so the ratio
//! measured can be lower than the one the app asked for; never higher, unless something else
//! inside the bounds (an icon, a focus ring) contrasts more than the text.
//!
//! Pure: pixels in, numbers out.

use std::collections::HashMap;

use winit_automation_link::FrameImage;

/// The share of the non-background pixels that must contrast at least as much as the colour
/// taken for the text's (so that one stray pixel of a neighbour's outline does not count): 2%.
const MIN_SHARE: f64 = 0.02;

/// The fewest pixels that must differ from the background for a text to be measured: a lone
/// full stop has no pixel of its full colour once anti-aliased.
const MIN_TEXT_PIXELS: u32 = 16;

/// The least share of a text's bounds, across and down, that must lie inside the frame.
const MIN_VISIBLE: f64 = 0.5;

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// One text's measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// The estimated text colour.
    pub text: Rgb,
    /// The estimated background colour.
    pub background: Rgb,
    /// Their contrast ratio, 1 to 21.
    pub ratio: f64,
}

/// Why a text could not be measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unmeasured {
    /// Less than half its bounds (across or down) lie inside the frame, or less than half its
    /// area is clear of other nodes drawn over it.
    Outside,
    /// Fewer than `MIN_TEXT_PIXELS` pixels inside its bounds differ from the most common
    /// colour: nothing is drawn there, or too little to tell its colour.
    TooLittle,
}

/// The relative luminance of an sRGB colour, as WCAG 2.2 defines it.
pub fn luminance([r, g, b]: Rgb) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// The contrast ratio of two colours: (lighter + 0.05) / (darker + 0.05), 1 to 21.
pub fn ratio(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `#rrggbb`.
pub fn hex([r, g, b]: Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Measures the text inside `bounds` (logical x, y, width, height), shrunk by `inset` logical
/// pixels on each side (a button's border is not its text), less the pixels inside `mask` (other
/// nodes' boxes over part of it: a link inside a paragraph's box, a window on top).
pub fn measure(
    frame: &FrameImage<'_>,
    bounds: [f64; 4],
    inset: f64,
    mask: &[[f64; 4]],
) -> Result<Measured, Unmeasured> {
    let [x, y, w, h] = bounds;
    let k = frame.scale;
    let inset = inset.min(w / 4.0).min(h / 4.0).max(0.0);
    let clamp = |v: f64, max: u32| (v.max(0.0) as u32).min(max);
    let x0 = clamp(((x + inset) * k).ceil(), frame.width);
    let y0 = clamp(((y + inset) * k).ceil(), frame.height);
    let x1 = clamp(((x + w - inset) * k).floor(), frame.width);
    let y1 = clamp(((y + h - inset) * k).floor(), frame.height);
    let (wanted_w, wanted_h) = ((w - 2.0 * inset) * k, (h - 2.0 * inset) * k);
    if x1 <= x0
        || y1 <= y0
        || f64::from(x1 - x0) < wanted_w * MIN_VISIBLE
        || f64::from(y1 - y0) < wanted_h * MIN_VISIBLE
    {
        return Err(Unmeasured::Outside);
    }
    // Physical rectangles, x0, y0, x1, y1 (exclusive), rounded outwards.
    let mask: Vec<[u32; 4]> = mask
        .iter()
        .map(|&[mx, my, mw, mh]| {
            [
                clamp((mx * k).floor(), frame.width),
                clamp((my * k).floor(), frame.height),
                clamp(((mx + mw) * k).ceil(), frame.width),
                clamp(((my + mh) * k).ceil(), frame.height),
            ]
        })
        .collect();
    let masked = |col: u32, row: u32| {
        mask.iter()
            .any(|m| (m[0]..m[2]).contains(&col) && (m[1]..m[3]).contains(&row))
    };
    let mut counts: HashMap<Rgb, u32> = HashMap::new();
    let mut taken = 0u64;
    for row in y0..y1 {
        let start = row as usize * frame.stride;
        for col in x0..x1 {
            if masked(col, row) {
                continue;
            }
            taken += 1;
            let p = start + col as usize * 4;
            let px = &frame.bytes[p..p + 3];
            let rgb = if frame.bgra {
                [px[2], px[1], px[0]]
            } else {
                [px[0], px[1], px[2]]
            };
            *counts.entry(rgb).or_default() += 1;
        }
    }
    let area = u64::from(x1 - x0) * u64::from(y1 - y0);
    if (taken as f64) < area as f64 * MIN_VISIBLE {
        return Err(Unmeasured::Outside);
    }
    estimate(&counts).ok_or(Unmeasured::TooLittle)
}

/// The background (the most common colour) and the text colour, from a histogram: the colours
/// other than the background, most contrasting first, are counted until they cover
/// [`MIN_SHARE`] of the other pixels, and the colour reached is the text's. So a stray pixel does
/// not count, nor does the spread of colours anti-aliasing gives one glyph's edges. `None` when
/// fewer than [`MIN_TEXT_PIXELS`] pixels differ from the background. Ties go to the smaller
/// colour, so the same pixels always give the same answer.
fn estimate(counts: &HashMap<Rgb, u32>) -> Option<Measured> {
    let (&background, &most) = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))?;
    let total: u32 = counts.values().sum();
    let rest = total - most;
    if rest < MIN_TEXT_PIXELS {
        return None;
    }
    let mut others: Vec<(Rgb, u32, f64)> = counts
        .iter()
        .filter(|&(&c, _)| c != background)
        .map(|(&c, &n)| (c, n, ratio(c, background)))
        .collect();
    others.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    let floor = (f64::from(rest) * MIN_SHARE).max(1.0);
    let mut covered = 0.0;
    let (text, _, ratio) = *others.iter().find(|&&(_, n, _)| {
        covered += f64::from(n);
        covered >= floor
    })?;
    Some(Measured {
        text,
        background,
        ratio,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Within this of WCAG's published figures: the ratios are computed, not looked up.
    const TOLERANCE: f64 = 0.01;

    #[test]
    fn known_pairs_have_their_published_ratios() {
        let cases: [(Rgb, Rgb, f64); 5] = [
            ([0, 0, 0], [255, 255, 255], 21.0),
            ([0x77, 0x77, 0x77], [255, 255, 255], 4.48),
            ([0x76, 0x76, 0x76], [255, 255, 255], 4.54),
            ([255, 255, 255], [255, 255, 255], 1.0),
            ([0, 0, 255], [255, 255, 255], 8.59),
        ];
        for (a, b, want) in cases {
            let got = ratio(a, b);
            assert!(
                (got - want).abs() < TOLERANCE,
                "{} on {}: {got}",
                hex(a),
                hex(b)
            );
            assert_eq!(got, ratio(b, a), "the order of the pair does not matter");
        }
    }

    /// The bytes of a frame `w` by `h` pixels: where `pick` says 2 the text colour, 1 half way
    /// between text and background (an anti-aliased edge), 0 the background.
    fn frame(
        w: u32,
        h: u32,
        bg: Rgb,
        text: Rgb,
        pick: impl Fn(u32, u32) -> u8,
        bgra: bool,
    ) -> Vec<u8> {
        let mut bytes = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let c = match pick(x, y) {
                    2 => text,
                    1 => [0, 1, 2].map(|i| ((u16::from(text[i]) + u16::from(bg[i])) / 2) as u8),
                    _ => bg,
                };
                let c = if bgra { [c[2], c[1], c[0]] } else { c };
                bytes.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        bytes
    }

    fn image(bytes: &[u8], w: u32, h: u32, scale: f64, bgra: bool) -> FrameImage<'_> {
        FrameImage {
            width: w,
            height: h,
            scale,
            stride: w as usize * 4,
            bgra,
            bytes,
        }
    }

    #[test]
    fn anti_aliased_strokes_give_the_strokes_colour_not_their_edges() {
        // Vertical strokes two pixels wide with a blended pixel on each side.
        let pick = |x: u32, _y: u32| match x % 6 {
            1 | 4 => 1,
            2 | 3 => 2,
            _ => 0,
        };
        for bgra in [false, true] {
            let bytes = frame(60, 20, [0x1b, 0x1b, 0x1b], [0x8c, 0x8c, 0x8c], pick, bgra);
            let m = measure(
                &image(&bytes, 60, 20, 2.0, bgra),
                [0.0, 0.0, 30.0, 10.0],
                0.0,
                &[],
            )
            .unwrap();
            assert_eq!(m.background, [0x1b, 0x1b, 0x1b]);
            assert_eq!(m.text, [0x8c, 0x8c, 0x8c]);
            assert!((m.ratio - ratio([0x8c; 3], [0x1b; 3])).abs() < 1e-9);
        }
    }

    #[test]
    fn a_stray_pixel_is_not_the_text_and_one_colour_is_not_measured() {
        let pick = |x: u32, y: u32| match (x, y) {
            (0, 0) => 2,
            (_, 5..=7) if x > 3 => 1,
            _ => 0,
        };
        let bytes = frame(40, 12, [255; 3], [0; 3], pick, false);
        let m = measure(
            &image(&bytes, 40, 12, 1.0, false),
            [0.0, 0.0, 40.0, 12.0],
            0.0,
            &[],
        )
        .unwrap();
        assert_eq!(
            m.text, [127; 3],
            "the blended rows, not the lone black pixel"
        );
        let blank = frame(10, 10, [40; 3], [40; 3], |_, _| 0, false);
        let one = measure(
            &image(&blank, 10, 10, 1.0, false),
            [0.0, 0.0, 10.0, 10.0],
            0.0,
            &[],
        );
        assert_eq!(one, Err(Unmeasured::TooLittle));
        let dot = frame(
            10,
            10,
            [255; 3],
            [0; 3],
            |x, y| u8::from(x == 5 && y == 5) * 2,
            false,
        );
        let dot = measure(
            &image(&dot, 10, 10, 1.0, false),
            [0.0, 0.0, 10.0, 10.0],
            0.0,
            &[],
        );
        assert_eq!(dot, Err(Unmeasured::TooLittle));
        let outside = measure(
            &image(&blank, 10, 10, 1.0, false),
            [20.0, 0.0, 5.0, 5.0],
            0.0,
            &[],
        );
        assert_eq!(outside, Err(Unmeasured::Outside));
        let mostly = measure(
            &image(&blank, 10, 10, 1.0, false),
            [0.0, 7.0, 10.0, 10.0],
            0.0,
            &[],
        );
        assert_eq!(
            mostly,
            Err(Unmeasured::Outside),
            "7 of its 10 rows lie below the frame"
        );
    }

    #[test]
    fn a_masked_box_s_pixels_are_not_the_text_s() {
        // Grey text on white at the left, a blue link at the right, both in the one box.
        let pick = |x: u32, y: u32| u8::from((8..12).contains(&y) && x % 4 < 2 && x != 0) * 2;
        let mut bytes = frame(40, 20, [255; 3], [0x77; 3], pick, false);
        for (i, px) in bytes.chunks_exact_mut(4).enumerate() {
            let (x, y) = (i as u32 % 40, i as u32 / 40);
            if x >= 30 && (8..12).contains(&y) {
                px[..3].copy_from_slice(&[0, 0, 255]);
            }
        }
        let img = image(&bytes, 40, 20, 1.0, false);
        let whole = measure(&img, [0.0, 0.0, 40.0, 20.0], 0.0, &[]).unwrap();
        assert_eq!(whole.text, [0, 0, 255], "the link contrasts more");
        let text = measure(
            &img,
            [0.0, 0.0, 40.0, 20.0],
            0.0,
            &[[30.0, 0.0, 10.0, 20.0]],
        )
        .unwrap();
        assert_eq!(text.text, [0x77; 3]);
        let covered = measure(&img, [0.0, 0.0, 40.0, 20.0], 0.0, &[[0.0, 0.0, 25.0, 20.0]]);
        assert_eq!(
            covered,
            Err(Unmeasured::Outside),
            "most of it is under another box"
        );
    }

    #[test]
    fn the_inset_keeps_a_border_out() {
        // A black one-pixel border around grey text on white.
        let pick = |x: u32, y: u32| {
            if x == 0 || y == 0 || x == 29 || y == 19 {
                3
            } else if (10..20).contains(&x) && (8..12).contains(&y) {
                2
            } else {
                0
            }
        };
        let mut bytes = frame(30, 20, [255; 3], [0x77; 3], |x, y| pick(x, y).min(2), false);
        for (i, px) in bytes.chunks_exact_mut(4).enumerate() {
            if pick(i as u32 % 30, i as u32 / 30) == 3 {
                px[..3].copy_from_slice(&[0, 0, 0]);
            }
        }
        let img = image(&bytes, 30, 20, 1.0, false);
        let whole = measure(&img, [0.0, 0.0, 30.0, 20.0], 0.0, &[]).unwrap();
        assert_eq!(
            whole.text,
            [0, 0, 0],
            "the border contrasts more and covers enough"
        );
        let inside = measure(&img, [0.0, 0.0, 30.0, 20.0], 2.0, &[]).unwrap();
        assert_eq!(inside.text, [0x77; 3]);
    }
}
