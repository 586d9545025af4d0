//! Images the unit tests of the comparison share.

use super::rgba::Rgba;

pub(super) const WHITE: [u8; 4] = [255, 255, 255, 255];
pub(super) const BLACK: [u8; 4] = [0, 0, 0, 255];
pub(super) const RED: [u8; 4] = [255, 0, 0, 255];

/// An 8x6 white image.
pub(super) fn white() -> Rgba {
    Rgba::filled(8, 6, WHITE)
}

/// [`white`] with one black pixel at (3, 2).
pub(super) fn one_black() -> Rgba {
    let mut image = white();
    image.set_pixel(3, 2, BLACK);
    image
}
