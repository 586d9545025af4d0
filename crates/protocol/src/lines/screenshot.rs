//! The `screenshot` answer (docs/protocol.md, section 5): [`ScreenshotAnswer`], written and
//! parsed back.

use std::fmt;

use super::malformed::malformed;
use crate::lexer::tokenize;
use crate::target::parse_number;
use crate::{Label, ParseError};

/// The body of a `screenshot` answer:
///
/// ```text
/// frame 31
/// file screenshot-form.png
/// size 800x600
/// scale 1
/// bytes 45629
/// ```
///
/// An app that answers screenshots itself (`Builder::app_screenshots`) writes the `file` line
/// alone (after the `frame` line every app-side answer starts with).
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenshotAnswer {
    /// The frame the pixels come from.
    pub frame: u64,
    /// The file, `screenshot-<label>.png` in the directory: only a name of that shape is taken.
    pub file: Label,
    /// `size WxH`: the PNG's width and height in physical pixels.
    pub size: Option<(u32, u32)>,
    /// `scale`: the window's scale factor (finite).
    pub scale: Option<f64>,
    /// `bytes`: the file's size.
    pub bytes: Option<u64>,
}

impl ScreenshotAnswer {
    /// Parses the body of a `screenshot` answer.
    pub fn parse(body: &str) -> Result<ScreenshotAnswer, ParseError> {
        let hint = "a screenshot answer is `frame N`, `file screenshot-<label>.png`, then `size WxH`, `scale S` and `bytes B`";
        let (mut frame, mut file, mut size, mut scale, mut bytes) = (None, None, None, None, None);
        for line in body.lines() {
            let Some((key, value)) = line.split_once(' ') else {
                continue;
            };
            let bad = || malformed("screenshot answer line", line, hint);
            match key {
                "frame" => frame = Some(value.parse().map_err(|_| bad())?),
                "file" => {
                    let name = match tokenize(value)?.as_slice() {
                        [t] => t.text(),
                        _ => return Err(bad()),
                    };
                    file = Some(Label::from_file_name(&name).ok_or_else(|| {
                        malformed(
                            "screenshot answer: a file that is not a screenshot",
                            &name,
                            "the app only names files screenshot-<label>.png in its directory",
                        )
                    })?);
                }
                "size" => {
                    let (w, h) = value.split_once('x').ok_or_else(bad)?;
                    size = Some((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?));
                }
                "scale" => scale = Some(parse_number(value).ok_or_else(bad)?),
                "bytes" => bytes = Some(value.parse().map_err(|_| bad())?),
                // A newer app's line.
                _ => {}
            }
        }
        Ok(ScreenshotAnswer {
            frame: frame.ok_or_else(|| malformed("screenshot answer: no frame", body, hint))?,
            file: file.ok_or_else(|| malformed("screenshot answer: no file", body, hint))?,
            size,
            scale,
            bytes,
        })
    }
}

impl fmt::Display for ScreenshotAnswer {
    /// The body, each line ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "frame {}", self.frame)?;
        writeln!(f, "file {}", self.file.file_name())?;
        if let Some((w, h)) = self.size {
            writeln!(f, "size {w}x{h}")?;
        }
        if let Some(scale) = self.scale {
            writeln!(f, "scale {scale}")?;
        }
        if let Some(bytes) = self.bytes {
            writeln!(f, "bytes {bytes}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    const GOLDEN_SCREENSHOT: &str =
        "frame 31\nfile screenshot-form.png\nsize 800x600\nscale 1.5\nbytes 45629\n";

    #[test]
    fn the_golden_screenshot_answer_parses_and_writes_back() {
        let answer = ScreenshotAnswer::parse(GOLDEN_SCREENSHOT).unwrap();
        assert_eq!(
            answer,
            ScreenshotAnswer {
                frame: 31,
                file: Label::new("form").unwrap(),
                size: Some((800, 600)),
                scale: Some(1.5),
                bytes: Some(45629),
            }
        );
        assert_eq!(answer.to_string(), GOLDEN_SCREENSHOT);
        // An app that answers screenshots itself names the file alone.
        let own = ScreenshotAnswer::parse("frame 4\nfile screenshot-x.png").unwrap();
        assert_eq!((own.size, own.scale, own.bytes), (None, None, None));
        assert_eq!(own.to_string(), "frame 4\nfile screenshot-x.png\n");
    }

    #[test]
    fn a_screenshot_answer_names_only_a_screenshot_in_the_directory() {
        for body in [
            "frame 1\nfile ../../etc/passwd\n",
            "frame 1\nfile screenshot-../x.png\n",
            "frame 1\nfile notes.txt\n",
            "frame 1\n",
            "file screenshot-x.png\n",
            "frame 1\nfile screenshot-x.png\nsize 10\n",
            "frame 1\nfile screenshot-x.png\nscale inf\n",
        ] {
            let e = ScreenshotAnswer::parse(body).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSyntax, "{body:?}");
        }
        // The name may come quoted.
        let quoted = ScreenshotAnswer::parse("frame 1\nfile \"screenshot-x.png\"\n").unwrap();
        assert_eq!(quoted.file.as_str(), "x");
    }
}
