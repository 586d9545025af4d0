//! The Bevy example (`examples/game.rs`) driven end to end in a window under Xvfb, through the
//! harness and through the CLI: a verified menu click opens the game, arrow keys move the marked
//! player in the tree, a drag moves the volume slider, screenshots hold the frame's pixels, and
//! `quit` ends the app; the `action` verb on the widgets; the virtual clock drives Bevy's time;
//! headless, with no window system, Bevy drawing into an image; a pinch through Bevy's touches;
//! a script.
//!
//! Needs `xvfb-run` (Debian package `xvfb`) and a Vulkan driver (`mesa-vulkan-drivers`):
//! `bash scripts/setup-system.sh` installs both.

// A test is a client: it reads files and waits, as the render side never does.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "the test process is a client of the app, not its render side"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use winit_automation_testing::{App, Spawn};

fn have(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
}

/// The example in a window on a virtual X server, with a private drop-box (the harness kills
/// the process group when the `App` is dropped).
fn start() -> App {
    spawn().start()
}

fn spawn() -> Spawn {
    assert!(
        have("xvfb-run") && have("Xvfb"),
        "xvfb-run is not installed: run `bash scripts/setup-system.sh` (or `apt-get install xvfb xauth`)"
    );
    Spawn::example("game")
        .startup(Duration::from_secs(120))
        .under("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24"])
}

/// A node's bounds from its line: x, y, width, height in logical pixels.
fn bounds(app: &App, role: &str, name: &str) -> [f64; 4] {
    let node = app.get_by_role_and_name(role, name);
    node.line().bounds.expect("a node with bounds")
}

/// Whether two colours are within a few steps of each other (lavapipe's blending rounds).
fn near(a: [u8; 4], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
}

#[test]
fn the_harness_clicks_into_the_game_and_moves_the_player_with_keys() {
    let app = start();
    let answer = app.get_by_role_and_name("button", "Play").click();
    assert!(answer.contains("hit verified"), "{answer}");
    // The click's effect: the menu is gone, the game's player and hint are in the tree.
    assert!(
        app.query_by_role_and_name("button", "Play").is_none(),
        "{}",
        app.tree()
    );
    let before = bounds(&app, "image", "Player");
    assert_eq!((before[2], before[3]), (48.0, 48.0), "the sprite's size");
    app.key("ArrowRight");
    let right = bounds(&app, "image", "Player");
    assert_eq!((right[0], right[1]), (before[0] + 40.0, before[1]));
    app.key("ArrowUp");
    let up = bounds(&app, "image", "Player");
    assert_eq!(
        (up[0], up[1]),
        (right[0], right[1] - 40.0),
        "world y up is screen y down"
    );

    // The screenshot is the frame the tree shows: the player's orange where its node is.
    let shot = app.screenshot();
    let centre = |b: [f64; 4]| ((b[0] + b[2] / 2.0) as u32, (b[1] + b[3] / 2.0) as u32);
    let (x, y) = centre(up);
    let pixel = shot.pixel(x, y).expect("inside the frame");
    assert!(
        near(pixel, [230, 153, 26]),
        "the player's colour: {pixel:?}"
    );
    let (x, y) = centre(before);
    let pixel = shot.pixel(x, y).expect("inside the frame");
    assert!(!near(pixel, [230, 153, 26]), "the player left: {pixel:?}");

    // A letter with nothing focused: a game reads its keyboard whatever has the focus (the
    // plugin says so), so the key goes out, and the answer says it went without a focus.
    let answer = app.ok("key d --settle");
    assert!(answer.contains("\nno focus: sent to the app\n"), "{answer}");
    let d = bounds(&app, "image", "Player");
    assert_eq!((d[0], d[1]), (up[0] + 40.0, up[1]), "{answer}");
    app.quit();
}

/// The CLI cargo built beside this test (`target/<profile>/winit-automation`): the workspace's
/// `cargo test` builds it.
fn cli() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("winit-automation");
    assert!(
        path.is_file(),
        "{} is missing: build the CLI first (`cargo build -p winit-automation-cli`)",
        path.display()
    );
    path
}

/// Runs one CLI command against the app's drop-box; its output, which must be an `ok`.
fn run(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(cli())
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("the CLI runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "winit-automation {args:?} failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn the_cli_drags_the_slider_screenshots_the_frame_and_quits() {
    let app = start();
    let dir = app.dir().to_owned();
    // The controls are what the interactive projection lists.
    let interactive = run(&dir, &["snapshot", "-i"]);
    assert!(
        interactive.contains(r#"button "Play""#) && interactive.contains(r#"slider "Volume""#),
        "{interactive}"
    );
    let slider = bounds(&app, "slider", "Volume");
    let (y, from) = (slider[1] + slider[3] / 2.0, slider[0] + slider[2] / 2.0);
    let to = format!("{},{}", from + 56.0, y);
    let drag = run(&dir, &["drag", "role=slider", &to, "--settle"]);
    assert!(drag.contains("hit verified"), "{drag}");
    // 56 of the 224 pixels the thumb travels: a quarter of the range more.
    let snapshot = run(&dir, &["snapshot"]);
    assert!(
        snapshot.contains(r#"slider "Volume" value=75"#),
        "{snapshot}"
    );

    let shot = run(&dir, &["screenshot", "menu"]);
    let frame = shot
        .lines()
        .find_map(|l| l.strip_prefix("frame "))
        .and_then(|f| f.parse::<u64>().ok());
    assert!(
        frame.is_some_and(|f| f > 0),
        "the answer names its frame:\n{shot}"
    );
    let png = dir.join("screenshot-menu.png");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (640, 480));
    // The Play button's blue, left of its caption, where the tree puts the button.
    let play = bounds(&app, "button", "Play");
    let (x, y) = ((play[0] + 6.0) as usize, (play[1] + play[3] / 2.0) as usize);
    let at = (y * 640 + x) * 4;
    let pixel = [buf[at], buf[at + 1], buf[at + 2], buf[at + 3]];
    assert!(
        near(pixel, [51, 102, 204]),
        "the button's colour: {pixel:?}"
    );

    let bye = run(&dir, &["quit"]);
    assert!(bye.contains("quit"), "{bye}");
    // The app exits: the service removes ready.txt as the plugin's render end goes.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while dir.join("ready.txt").exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the app did not exit after quit:\n{}",
            app.output()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn actions_move_the_slider_focus_it_and_activate_the_button() {
    let app = start();
    let volume = || app.get_by_role_and_name("slider", "Volume");
    volume().action("set_value", Some("30"));
    assert_eq!(volume().value(), Some("30"), "{}", app.tree());
    volume().action("increment", None);
    assert_eq!(volume().value(), Some("31"));
    volume().action("decrement", None);
    volume().action("decrement", None);
    assert_eq!(volume().value(), Some("29"));
    // Past the range: the widget clamps.
    volume().action("set_value", Some("250"));
    assert_eq!(volume().value(), Some("100"));

    // What a node cannot do is refused with what it can.
    let refused = app.send("action role=slider click");
    let text = refused.error_text().expect("refused");
    assert!(
        text.contains("action_not_supported")
            && text.contains("does not support click")
            && text.contains("set_value"),
        "{text}"
    );
    let play = app.get_by_role_and_name("button", "Play").r#ref();
    let refused = app.send(&format!("action {play} set_value 3"));
    let text = refused.error_text().expect("refused");
    assert!(text.contains("does not support set_value"), "{text}");

    // Focus moves Bevy's `InputFocus`; the slider's own key handling then takes the arrows.
    assert!(!volume().is_focused());
    volume().focus();
    assert!(volume().is_focused(), "{}", app.tree());
    app.key("ArrowLeft");
    assert_eq!(volume().value(), Some("99"));

    // A click activates the button, as a press on it would: the game opens.
    app.get_by_role_and_name("button", "Play")
        .action("click", None);
    assert!(
        app.query_by_role_and_name("button", "Play").is_none(),
        "{}",
        app.tree()
    );
    app.get_by_role_and_name("image", "Player");
    app.quit();
}

#[test]
fn the_virtual_clock_drives_bevy_time() {
    let app = spawn().virtual_clock().start();
    app.get_by_role_and_name("button", "Play").click();
    app.key("Enter");
    let ball = || bounds(&app, "image", "Ball");
    let start = ball();
    // Paused: frames come (a screenshot and keys ask for them) and the ball stays.
    app.screenshot();
    app.key("ArrowRight");
    assert_eq!(ball(), start, "time stood still");
    // 500 ms at 100 pixels a second: 50 pixels, whatever the frames.
    app.clock().run_for(Duration::from_millis(500));
    let moved = ball();
    assert!(
        (moved[0] - (start[0] + 50.0)).abs() < 0.01 && moved[1] == start[1],
        "{start:?} -> {moved:?}"
    );
    // One long step moves it as far as many short ones.
    app.clock()
        .run_for_in_steps(Duration::from_millis(1000), Duration::from_millis(1000));
    let far = ball();
    assert!(
        (far[0] - (moved[0] + 100.0)).abs() < 0.01,
        "{moved:?} -> {far:?}"
    );
    app.quit();
}

#[test]
fn headless_with_no_window_system_the_menu_clicks_and_the_image_is_the_screenshot() {
    // `--headless --size 640x480`, DISPLAY and WAYLAND_DISPLAY removed: no X server at all.
    let app = Spawn::example("game")
        .startup(Duration::from_secs(120))
        .headless(640, 480)
        .start();
    // The window is the image's size, in the window list and in the tree's root.
    let snapshot = app.snapshot();
    assert!(
        snapshot.contains(r#"window 1 "Bevy game" size=640x480"#),
        "{snapshot}"
    );
    assert_eq!(
        bounds(&app, "window", "Bevy game"),
        [0.0, 0.0, 640.0, 480.0]
    );
    // The slider's value from a drag over the image: bevy_picking hit it there.
    let slider = bounds(&app, "slider", "Volume");
    let (y, from) = (slider[1] + slider[3] / 2.0, slider[0] + slider[2] / 2.0);
    let drag = app.ok(&format!("drag role=slider {},{y} --settle", from + 56.0));
    assert!(drag.contains("hit verified"), "{drag}");
    assert_eq!(
        app.get_by_role_and_name("slider", "Volume").value(),
        Some("75")
    );
    let answer = app.get_by_role_and_name("button", "Play").click();
    assert!(answer.contains("hit verified"), "{answer}");
    assert!(app.query_by_role_and_name("button", "Play").is_none());
    let player = bounds(&app, "image", "Player");
    app.key("ArrowRight");
    let moved = bounds(&app, "image", "Player");
    assert_eq!(moved[0], player[0] + 40.0);

    // The screenshot is the image Bevy drew: the player where the tree says.
    let shot = app.screenshot();
    let (x, y) = (
        (moved[0] + moved[2] / 2.0) as u32,
        (moved[1] + moved[3] / 2.0) as u32,
    );
    let pixel = shot.pixel(x, y).expect("inside the frame");
    assert!(
        near(pixel, [230, 153, 26]),
        "the player's colour: {pixel:?}"
    );
    let (x, y) = (
        (player[0] + player[2] / 2.0) as u32,
        (player[1] + player[3] / 2.0) as u32,
    );
    let pixel = shot.pixel(x, y).expect("inside the frame");
    assert!(!near(pixel, [230, 153, 26]), "the player left: {pixel:?}");
    app.quit();
}

#[test]
fn two_fingers_pinch_the_player_larger_through_bevy_s_touches() {
    let app = start();
    app.get_by_role_and_name("button", "Play").click();
    let before = bounds(&app, "image", "Player");
    // Two touches 40 px either side of the centre spread to twice that distance.
    app.get_by_role_and_name("image", "Player").pinch(2.0);
    let after = bounds(&app, "image", "Player");
    let grown = after[2] / before[2];
    assert!(
        (1.8..=2.2).contains(&grown),
        "the player doubles: {before:?} -> {after:?}"
    );
    let centre = |b: [f64; 4]| (b[0] + b[2] / 2.0, b[1] + b[3] / 2.0);
    assert_eq!(
        centre(after),
        centre(before),
        "a pinch with no pan keeps it in place"
    );
    app.quit();
}

#[test]
fn a_script_plays_the_menu_and_moves_the_player() {
    let app = start();
    let dir = app.dir().to_owned();
    let script = dir.join("play.script");
    std::fs::write(
        &script,
        "# The game through a script, as for any app.\n\
         click role=button name=\"Play\"\n\
         expect role=image name=\"Player\"\n\
         expect gone role=button name=\"Play\"\n\
         key ArrowRight\n\
         expect audit clean --allow keyboard --allow focus-order\n",
    )
    .unwrap();
    let before_run = bounds_or_none(&app);
    assert!(before_run.is_none(), "the menu shows, not the game");
    let out = run(&dir, &["run", script.to_str().unwrap()]);
    assert!(out.contains("passed: 2 commands, 3 expectations"), "{out}");
    // The key the script sent moved the player one step from the middle.
    let player = bounds(&app, "image", "Player");
    assert_eq!(player[0] + player[2] / 2.0, 320.0 + 40.0, "{player:?}");
    app.quit();
}

/// The player's bounds, when the game shows.
fn bounds_or_none(app: &App) -> Option<[f64; 4]> {
    app.query_by_role_and_name("image", "Player")
        .and_then(|n| n.line().bounds)
}
