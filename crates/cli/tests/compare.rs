//! `winit-automation compare`: the real binary on PNGs written here, no app.

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output};

const WHITE: [u8; 4] = [255, 255, 255, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];
const RED: [u8; 4] = [255, 0, 0, 255];

fn cli(args: &[&str]) -> Output {
    Process::new(env!("CARGO_BIN_EXE_winit-automation"))
        .args(args)
        // No app, no directory: compare must not look for one.
        .env("WINIT_AUTOMATION_DIR", "/nonexistent/winit-automation")
        .output()
        .expect("run the CLI")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// An 8-bit RGBA PNG, written with the png crate (not the code under test).
fn write_png(path: &Path, width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) {
    let mut data = Vec::new();
    for y in 0..height {
        for x in 0..width {
            data.extend_from_slice(&pixel(x, y));
        }
    }
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
}

/// The RGBA pixels of a PNG, with its size.
fn read_png(path: &Path) -> (u32, u32, Vec<[u8; 4]>) {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgba, png::BitDepth::Eight)
    );
    let pixels = buf[..info.buffer_size()]
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    (info.width, info.height, pixels)
}

struct Images {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    white: String,
    white_copy: String,
    dot: String,
}

/// A 16x12 white image, a copy of it, and the same with one black pixel at (5, 7).
fn images() -> Images {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let white = dir.join("white.png");
    let white_copy = dir.join("white-copy.png");
    let dot = dir.join("dot.png");
    write_png(&white, 16, 12, |_, _| WHITE);
    write_png(&white_copy, 16, 12, |_, _| WHITE);
    write_png(
        &dot,
        16,
        12,
        |x, y| if (x, y) == (5, 7) { BLACK } else { WHITE },
    );
    let s = |p: PathBuf| p.to_str().unwrap().to_owned();
    Images {
        _tmp: tmp,
        dir,
        white: s(white),
        white_copy: s(white_copy),
        dot: s(dot),
    }
}

#[test]
fn identical_images_match_and_write_no_diff() {
    let im = images();
    let diff = im.dir.join("diff.png");
    let out = cli(&[
        "compare",
        &im.white,
        &im.white_copy,
        "--diff",
        diff.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("match: the images are identical (192 pixels)\n"),
        "{text}"
    );
    assert!(text.contains("no diff image written"), "{text}");
    assert!(!diff.exists());
}

#[test]
fn one_changed_pixel_fails_and_the_diff_marks_it_red() {
    let im = images();
    let diff = im.dir.join("diff.png");
    let out = cli(&[
        "compare",
        &im.white,
        &im.dot,
        "--diff",
        diff.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "mismatch: 1 of 192 pixels differ by more than threshold 0.6 (budget 0)\n"
        ),
        "{text}"
    );
    let (w, h, pixels) = read_png(&diff);
    assert_eq!((w, h), (16, 12));
    assert_eq!(pixels[7 * 16 + 5], RED, "the changed pixel");
    let red = pixels.iter().filter(|&&p| p == RED).count();
    assert_eq!(red, 1, "only the changed pixel is red");
    assert_eq!(pixels[0][3], 0, "an unchanged pixel is transparent");
}

#[test]
fn a_budget_of_one_failed_pixel_passes() {
    let im = images();
    let out = cli(&["compare", &im.white, &im.dot, "--max-failed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "match: 1 of 192 pixels differ by more than threshold 0.6 (budget 1)\n"
    );
}

#[test]
fn the_threshold_is_a_float() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a.png");
    let b = tmp.path().join("b.png");
    write_png(&a, 4, 4, |_, _| WHITE);
    // 255 -> 254 in the red channel: a squared YIQ distance of about 0.16.
    write_png(&b, 4, 4, |x, y| {
        if (x, y) == (1, 1) {
            [254, 255, 255, 255]
        } else {
            WHITE
        }
    });
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = cli(&["compare", a, b, "--threshold", "0.05"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("1 of 16 pixels differ by more than threshold 0.05"));
    let out = cli(&["compare", a, b, "--threshold", "0.25"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("match: 0 of 16 pixels"),
        "{}",
        stdout(&out)
    );
    // Not a number, or a negative one: a usage error.
    for bad in ["x", "-1", "nan"] {
        let out = cli(&["compare", a, b, "--threshold", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--threshold"), "{}", stderr(&out));
    }
}

#[test]
fn a_missing_or_undecodable_file_is_exit_two_naming_it() {
    let im = images();
    let missing = im.dir.join("missing.png");
    let out = cli(&["compare", &im.white, missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("cannot read {}", missing.display())),
        "{err}"
    );

    let junk = im.dir.join("junk.png");
    std::fs::write(&junk, b"GIF89a").unwrap();
    let out = cli(&["--json", "compare", junk.to_str().unwrap(), &im.white]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["code"], "not_png");
    assert!(v["message"].as_str().unwrap().contains("junk.png"), "{v}");
}

#[test]
fn different_sizes_mismatch_with_both_sizes() {
    let im = images();
    let small = im.dir.join("small.png");
    write_png(&small, 10, 8, |_, _| WHITE);
    let diff = im.dir.join("diff.png");
    let out = cli(&[
        "compare",
        &im.white,
        small.to_str().unwrap(),
        "--diff",
        diff.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("size mismatch: expected 16x12, got 10x8\n"),
        "{}",
        stdout(&out)
    );
    assert!(!diff.exists());
}

#[test]
fn json_reports_the_counts() {
    let im = images();
    let diff = im.dir.join("diff.png");
    let out = cli(&[
        "--json",
        "compare",
        &im.white,
        &im.dot,
        "--threshold",
        "0.5",
        "--diff",
        diff.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["matched"], false);
    assert_eq!(v["failed"], 1);
    assert_eq!(v["total"], 192);
    assert_eq!(v["threshold"], 0.5);
    assert_eq!(v["max_failed"], 0);
    assert_eq!(v["diff"], diff.to_str().unwrap());
    assert_eq!(read_png(&diff).2[7 * 16 + 5], RED);

    let out = cli(&["--json", "compare", &im.white, &im.white_copy]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["matched"].clone()),
        (true.into(), true.into())
    );
    assert_eq!(v["identical"], true);
    assert_eq!(v["diff"], serde_json::Value::Null);
}
