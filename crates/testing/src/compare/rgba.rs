//! The images compared: [`Rgba`], 8-bit RGBA pixels, and its PNG decoding, encoding, reading and
//! writing.

use std::io::{self, Cursor};
use std::path::Path;

use super::CompareError;

/// An 8-bit RGBA image: `pixels` holds `width * height` pixels, row by row, 4 bytes each
/// (non-premultiplied, as in a PNG).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, row by row.
    pub pixels: Vec<u8>,
}

impl Rgba {
    /// An image from its pixels; `None` when `pixels` does not hold exactly `width * height * 4`
    /// bytes.
    #[must_use]
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Option<Self> {
        let len = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?;
        (pixels.len() == len).then_some(Self {
            width,
            height,
            pixels,
        })
    }

    /// An image of one colour.
    ///
    /// # Panics
    ///
    /// When `width * height * 4` does not fit in memory.
    #[must_use]
    pub fn filled(width: u32, height: u32, colour: [u8; 4]) -> Self {
        let count = (width as usize)
            .checked_mul(height as usize)
            .expect("image size overflows usize");
        Self {
            width,
            height,
            pixels: colour.repeat(count),
        }
    }

    /// The pixel at `(x, y)`, `[r, g, b, a]`; `None` outside the image.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        let i = self.index(x, y)?;
        self.pixels.get(i..i + 4)?.try_into().ok()
    }

    /// Sets the pixel at `(x, y)`; does nothing outside the image.
    pub fn set_pixel(&mut self, x: u32, y: u32, colour: [u8; 4]) {
        if let Some(i) = self.index(x, y)
            && let Some(px) = self.pixels.get_mut(i..i + 4)
        {
            px.copy_from_slice(&colour);
        }
    }

    fn index(&self, x: u32, y: u32) -> Option<usize> {
        (x < self.width && y < self.height)
            .then(|| (y as usize * self.width as usize + x as usize) * 4)
    }

    /// Decodes a PNG of any colour type and bit depth into 8-bit RGBA (palette and transparency
    /// chunks expanded, 16-bit samples stripped to 8, grey copied into R, G and B). An animated
    /// PNG gives its default image. The error is the reason, for a message.
    pub fn decode_png(bytes: &[u8]) -> Result<Self, String> {
        let mut decoder = png::Decoder::new(Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let size = reader
            .output_buffer_size()
            .ok_or("the image is too large to decode")?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(format!(
                "unsupported bit depth {:?} after expansion",
                info.bit_depth
            ));
        }
        // 8-bit samples rows are packed: the image crate converts any channel layout to RGBA.
        buf.truncate(info.buffer_size());
        let (w, h) = (info.width, info.height);
        let image = match info.color_type {
            png::ColorType::Grayscale => {
                image::GrayImage::from_raw(w, h, buf).map(image::DynamicImage::ImageLuma8)
            }
            png::ColorType::GrayscaleAlpha => {
                image::GrayAlphaImage::from_raw(w, h, buf).map(image::DynamicImage::ImageLumaA8)
            }
            png::ColorType::Rgb => {
                image::RgbImage::from_raw(w, h, buf).map(image::DynamicImage::ImageRgb8)
            }
            png::ColorType::Rgba => {
                image::RgbaImage::from_raw(w, h, buf).map(image::DynamicImage::ImageRgba8)
            }
            png::ColorType::Indexed => {
                return Err("a palette image was not expanded".to_owned());
            }
        }
        .ok_or("the decoder returned a short frame")?;
        Self::new(w, h, image.to_rgba8().into_raw())
            .ok_or_else(|| "the decoder returned a frame of the wrong size".to_owned())
    }

    /// Encodes the image as an 8-bit RGBA PNG.
    pub fn encode_png(&self) -> Result<Vec<u8>, String> {
        let len = (self.width as usize)
            .checked_mul(self.height as usize)
            .and_then(|n| n.checked_mul(4));
        if len != Some(self.pixels.len()) {
            return Err(format!(
                "{} bytes do not make a {}x{} RGBA image",
                self.pixels.len(),
                self.width,
                self.height
            ));
        }
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let result = (|| {
            let mut writer = encoder.write_header()?;
            writer.write_image_data(&self.pixels)?;
            writer.finish()
        })();
        result.map_err(|e| e.to_string())?;
        Ok(bytes)
    }

    /// Reads and decodes a PNG file (see [`Rgba::decode_png`]).
    pub fn read(path: impl AsRef<Path>) -> Result<Self, CompareError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| CompareError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::decode_png(&bytes).map_err(|reason| CompareError::Decode {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Encodes the image as an 8-bit RGBA PNG and writes it to `path` (replacing a file there).
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), CompareError> {
        let path = path.as_ref();
        let write_error = |source| CompareError::Write {
            path: path.to_path_buf(),
            source,
        };
        let bytes = self
            .encode_png()
            .map_err(|e| write_error(io::Error::other(e)))?;
        std::fs::write(path, bytes).map_err(write_error)
    }

    pub(super) fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    pub(super) fn to_image(&self) -> Option<image::RgbaImage> {
        image::RgbaImage::from_raw(self.width, self.height, self.pixels.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip_and_other_colour_types() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.png");
        // An 8x6 white image with one black pixel, built here: the shared fixtures
        // (`compare/fixtures.rs`) are made of `Rgba`s and so sit above this file.
        let mut image = Rgba::filled(8, 6, [255, 255, 255, 255]);
        image.set_pixel(3, 2, [0, 0, 0, 255]);
        image.set_pixel(0, 0, [10, 20, 30, 40]);
        image.write(&path).unwrap();
        assert_eq!(Rgba::read(&path).unwrap(), image);

        // 16-bit grey with alpha and 8-bit RGB normalise to RGBA8.
        let mut bytes = Vec::new();
        let mut e = png::Encoder::new(&mut bytes, 2, 1);
        e.set_color(png::ColorType::GrayscaleAlpha);
        e.set_depth(png::BitDepth::Sixteen);
        let mut w = e.write_header().unwrap();
        w.write_image_data(&[0x80, 0x00, 0xff, 0xff, 0x10, 0x00, 0x00, 0x00])
            .unwrap();
        w.finish().unwrap();
        let grey = Rgba::decode_png(&bytes).unwrap();
        assert_eq!(grey.pixels, [0x80, 0x80, 0x80, 0xff, 0x10, 0x10, 0x10, 0]);

        let mut bytes = Vec::new();
        let mut e = png::Encoder::new(&mut bytes, 1, 1);
        e.set_color(png::ColorType::Rgb);
        let mut w = e.write_header().unwrap();
        w.write_image_data(&[1, 2, 3]).unwrap();
        w.finish().unwrap();
        assert_eq!(Rgba::decode_png(&bytes).unwrap().pixels, [1, 2, 3, 255]);
    }
}
