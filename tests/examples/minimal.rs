//! `examples/minimal.rs` driven end to end, the way a newcomer's copy of it would be: started as a
//! subprocess (headless with `DISPLAY` unset, and in a window under Xvfb on Vulkan and on GL),
//! snapshotted through the client library, its button clicked, and the tree and the screenshot's
//! pixels checked for the new clear colour.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`) and, for the windowed runs, `xvfb-run` (`xvfb`);
//! `scripts/setup-system.sh` installs both. Without them these tests fail and say so. The example
//! binary is the one `cargo test --all-features` builds next to this test.
use crate::common::demo::{check_adapter, have, wait_for};

use std::time::Duration;

use winit_automation_protocol::{ErrorCode, NodeLine};
use winit_automation_testing::{App, Spawn};

/// The clear colours the example switches between, as the sRGB bytes a screenshot holds.
const BLUE: [u8; 3] = [0, 0, 255];
const YELLOW: [u8; 3] = [255, 255, 0];

/// How the example runs.
enum Mode {
    /// `--headless` with `DISPLAY` unset.
    Headless,
    /// In a window under `xvfb-run`, on this wgpu backend (`WGPU_BACKEND`): `vulkan` takes
    /// `FrameTarget`'s copy path, `gl` its blit path.
    Window(&'static str),
}

/// Starts the example with the test harness (a private drop-box; the process group, xvfb-run and
/// Xvfb included, killed when the `App` is dropped) and checks the adapter it draws on.
fn start(mode: Mode) -> App {
    let spawn = Spawn::example("minimal")
        .startup(Duration::from_secs(120))
        .settle_actions(false);
    let (spawn, backend) = match mode {
        Mode::Headless => (
            spawn
                .arg("--headless")
                .env_remove("DISPLAY")
                .env_remove("WAYLAND_DISPLAY"),
            "vulkan",
        ),
        Mode::Window(backend) => {
            assert!(
                have("xvfb-run") && have("Xvfb"),
                "xvfb-run is not installed: run `bash scripts/setup-system.sh` (or `apt-get install xvfb xauth`)"
            );
            (
                spawn.under("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24"]),
                backend,
            )
        }
    };
    let app = spawn.env("WGPU_BACKEND", backend).start();
    // The adapter in use, so a silent fall-back (wgpu takes GL when no Vulkan driver is
    // installed) is visible in the test output and fails here.
    check_adapter(&app, backend);
    app
}

/// A screenshot's pixel at the centre of the frame, as sRGB bytes.
fn centre_pixel(app: &App) -> [u8; 3] {
    let shot = app.screenshot();
    let (w, h) = (shot.image.width, shot.image.height);
    let [r, g, b, _] = shot.pixel(w / 2, h / 2).unwrap();
    [r, g, b]
}

/// Within 2 of each other per channel: 0 and 255 are exact on lavapipe and llvmpipe (Mesa 22.3),
/// the margin is for a driver that dithers.
fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 2)
}

/// Snapshot, click the button by its ref, and see the label and the cleared pixels change.
fn switches_its_colour(app: App) {
    let before = wait_for(
        &app,
        "text \"Colour: blue\"",
        "the example shows its colour",
    );
    let pixel = centre_pixel(&app);
    assert!(close(pixel, BLUE), "before the click: {pixel:?}");
    let switch = NodeLine::all(&before)
        .into_iter()
        .find(|n| n.role == "button" && n.name == "Switch")
        .unwrap_or_else(|| panic!("no ref on the button in\n{before}"))
        .r#ref;
    let body = app.ok(&format!("click {switch}"));
    assert!(body.contains("path pointer\n"), "{body}");
    // The click is answered after the frame that applied it published its records.
    let after = app.ok("snapshot --force");
    assert!(after.contains("text \"Colour: yellow\""), "{after}");
    assert!(!after.contains("Colour: blue"), "{after}");
    let pixel = centre_pixel(&app);
    assert!(close(pixel, YELLOW), "after the click: {pixel:?}");
    // The example leaves `Input::Resize` alone: a resize is refused, naming the size the window
    // kept, rather than answered `ok` over a frame of the old size.
    let before = app.screenshot().image;
    let response = app.send("resize 640 400");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::NotApplied),
        "{response:?}"
    );
    let size = format!("still {}x{}", before.width, before.height);
    assert!(format!("{response:?}").contains(&size), "{response:?}");
    let after = app.screenshot().image;
    assert_eq!((after.width, after.height), (before.width, before.height));
    app.quit();
}

#[test]
fn the_minimal_example_switches_its_colour_headless() {
    switches_its_colour(start(Mode::Headless));
}

#[test]
fn the_minimal_example_switches_its_colour_in_a_window_on_vulkan_under_xvfb() {
    switches_its_colour(start(Mode::Window("vulkan")));
}

#[test]
fn the_minimal_example_switches_its_colour_in_a_window_on_gl_through_the_blit_under_xvfb() {
    switches_its_colour(start(Mode::Window("gl")));
}

/// The example reads its time from the frame (`Frame::time`): on the virtual clock the label's
/// "for N s" moves only as `clock run` moves the clock, and a switch starts it again from 0.
#[test]
fn the_example_s_time_is_the_frames_and_follows_the_virtual_clock() {
    let app = Spawn::example("minimal")
        .startup(Duration::from_secs(120))
        .settle_actions(false)
        .virtual_clock()
        .arg("--headless")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .start();
    let value = |app: &App| {
        let snapshot = app.ok("snapshot --force");
        let colour = NodeLine::all(&snapshot)
            .into_iter()
            .find(|n| n.name.starts_with("Colour: "))
            .unwrap_or_else(|| panic!("no colour label in\n{snapshot}"));
        let value = colour.value.as_ref().map(|v| v.as_str().to_owned());
        format!("{} {}", colour.name, value.unwrap_or_default())
    };
    wait_for(
        &app,
        "text \"Colour: blue\"",
        "the example shows its colour",
    );
    assert_eq!(value(&app), "Colour: blue for 0 s", "time stands still");
    app.ok("clock run 3000 --step 500");
    assert_eq!(value(&app), "Colour: blue for 3 s");
    app.ok("click role=button name=Switch");
    app.ok("clock run 1500 --step 500");
    assert_eq!(
        value(&app),
        "Colour: yellow for 1 s",
        "from the switch's frame"
    );
    app.quit();
}
