//! The virtual clock on egui's gallery, through the harness (`Spawn::virtual_clock`,
//! `App::clock`): the same commands give the same frames and the same tree, time moves only when
//! told, and a tooltip's delay passes in frames.
use std::time::Duration;

use winit_automation_testing::{App, By, Spawn};

/// The gallery on the virtual clock, once its side panel is there. Actions do not settle: a
/// settle moves virtual time, and these tests move it themselves.
fn gallery_on_the_virtual_clock() -> App {
    let app = Spawn::example("egui_gallery")
        .headless(1280, 800)
        .virtual_clock()
        .settle_actions(false)
        .start();
    app.wait_for(&By::role("button").and_name("♫ Dancing Strings"));
    // The start-up frames done (egui lays out and fades its windows in over its first frames):
    // every run acts on the same state at the same time.
    app.settle();
    app
}

/// A hash of bytes (FNV-1a): equal frames, equal hashes.
fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn five_runs_on_the_virtual_clock_draw_the_same_frames_of_an_animation_a_collapsing_header_and_a_tooltip()
 {
    let mut runs = Vec::new();
    for _ in 0..5 {
        let app = gallery_on_the_virtual_clock();
        let start = app.clock().now();
        // A collapsing header opens over egui's time: caught half open.
        app.wait_for(&By::role("disclosuretriangle").and_name("Theme"))
            .click();
        app.clock().run_for(Duration::from_millis(48));
        let half_open = app.screenshot();
        // Dancing Strings redraws forever, its strings a function of egui's time.
        app.get_by_role_and_name("button", "♫ Dancing Strings")
            .click();
        let at = app.clock().run_for(Duration::from_millis(500));
        assert!(at.virtual_clock && at.paused, "{at:?}");
        assert_eq!(at.time - start.time, Duration::from_millis(548));
        let first = app.screenshot();
        // The start-up settle moved the clock as far in every run.
        let tree = format!("settled at {:?}\n{}", start.time, app.tree_with("--raw"));
        app.clock()
            .run_for_in_steps(Duration::from_millis(100), Duration::from_millis(50));
        let later = app.screenshot();
        // A tooltip shown after its delay, with the strings still dancing behind it.
        app.get_by_role_and_name("button", "💬 Tooltips").click();
        app.clock().run_for(Duration::from_millis(300));
        app.get(&By::text("All labels in this demo have tooltips."))
            .hover();
        app.clock().run_for(Duration::from_millis(700));
        app.wait_for(&By::role("tooltip"));
        let shown = app.screenshot();
        runs.push((
            [
                hash(&half_open.image.pixels),
                hash(&first.image.pixels),
                hash(&later.image.pixels),
                hash(&shown.image.pixels),
            ],
            tree,
        ));
    }
    // The frames drawn differ (start-up frames come as fast as the machine draws); what they
    // show at a time does not.
    let ([_, first, later, _], tree) = &runs[0];
    assert_ne!(first, later, "100 ms later the strings have moved");
    for (i, (hashes, run_tree)) in runs.iter().enumerate().skip(1) {
        for (at, (hash, first)) in ["48 ms", "548 ms", "648 ms", "1648 ms"]
            .iter()
            .zip(hashes.iter().zip(&runs[0].0))
        {
            assert_eq!(hash, first, "run {i}'s frame at {at} differs from run 0's");
        }
        assert_eq!(run_tree, tree, "run {i}'s tree differs from run 0's");
    }
}

#[test]
fn a_tooltip_waits_for_virtual_time_and_appears_once_the_clock_runs_past_its_delay() {
    let app = gallery_on_the_virtual_clock();
    app.get_by_role_and_name("button", "💬 Tooltips").click();
    app.clock().run_for(Duration::from_millis(500));
    app.get(&By::text("All labels in this demo have tooltips."))
        .hover();
    // Time stands still: however long the test waits, egui's tooltip delay never passes.
    let waited = app.send("wait role=tooltip --timeout 1500");
    assert!(waited.error_text().is_some(), "{waited:?}");
    let before = app.clock().now();
    let after = app.clock().run_for(Duration::from_millis(700));
    assert_eq!(after.time - before.time, Duration::from_millis(700));
    app.wait_for(&By::role("tooltip"));
    // Back on the wall clock, time goes on from where the virtual clock left it.
    let real = app.clock().set_real();
    assert!(!real.virtual_clock && real.time >= after.time, "{real:?}");
    let refused = app.send("clock run 100");
    assert_eq!(
        refused.error_code().map(|c| c.as_str()),
        Some("clock_state"),
        "{refused:?}"
    );
}

#[test]
fn a_settle_on_the_virtual_clock_moves_time_itself_and_times_out_in_virtual_time() {
    let app = gallery_on_the_virtual_clock();
    // A collapsing header opens at once in egui 0.37 (no window animates): the settle waits for
    // the trees to hold still and moves no time.
    let before = app.clock().now();
    let opened = app.ok("click role=disclosuretriangle name=Theme --settle");
    assert!(opened.contains("settled frame"), "{opened}");
    assert!(opened.contains("expanded"), "{opened}");
    let settled = app.clock().now();
    assert_eq!(settled.time, before.time, "nothing animated");
    assert!(settled.paused, "a settle leaves the clock as it found it");
    // A demo that animates forever never settles: the settle moves the clock a step at a time,
    // and its timeout is virtual time.
    // (A window egui fades in shows once time moves: a settle alone moves none while nothing
    // says it animates.)
    app.ok("click role=button name=\"♫ Dancing Strings\"");
    let settled = app.clock().run_for(Duration::from_millis(100));
    let refused = app.send("settle --timeout 400");
    let message = refused.error_text().unwrap_or_default();
    assert!(
        message.contains("not_settled")
            && message.contains("ms of virtual time")
            && message.contains("animating: window 1"),
        "{refused:?}"
    );
    let after = app.clock().now();
    assert!(
        after.time - settled.time >= Duration::from_millis(400),
        "{settled:?} -> {after:?}"
    );
}
