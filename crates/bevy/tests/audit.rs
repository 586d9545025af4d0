//! `audit` on the Bevy example (`examples/game.rs`) in a window under Xvfb: the tree's rules run
//! on Bevy's UI nodes, the contrast of its texts is measured in the pixels Bevy's screenshot path
//! hands over, and the keyboard's rules say they could not run, with why (Bevy 0.19's UI moves no
//! focus on Tab unless the app adds tab navigation), never that they passed.
//!
//! Needs `xvfb-run` (Debian package `xvfb`) and a Vulkan driver (`mesa-vulkan-drivers`):
//! `bash scripts/setup-system.sh` installs both.

// A test is a client: it looks for programs on disk and waits, as the render side never does.
#![allow(
    clippy::disallowed_methods,
    reason = "the test process is a client of the app, not its render side"
)]

use std::time::Duration;

use winit_automation_testing::{Rule, Spawn};

#[test]
fn the_menu_is_audited_from_bevy_s_tree_and_pixels_and_tab_is_not_run() {
    let on_path = |program: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
    };
    assert!(
        on_path("xvfb-run") && on_path("Xvfb"),
        "xvfb-run is not installed: run `bash scripts/setup-system.sh` (or `apt-get install xvfb xauth`)"
    );
    let app = Spawn::example("game")
        .startup(Duration::from_secs(120))
        .under("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24"])
        .start();
    app.get_by_role_and_name("button", "Play");
    app.settle();
    let answer = app.audit().keyboard().run();
    // The menu's button and slider are named and large enough, and its texts contrast.
    assert!(answer.findings.is_empty(), "{answer}");
    assert_eq!(answer.checked.controls, 2, "{answer}");
    assert!(
        answer.checked.texts >= 1 && answer.checked.unmeasured == 0,
        "the texts are measured in Bevy's pixels: {answer}"
    );
    let not_run: Vec<Rule> = answer.not_run.iter().map(|n| n.rule).collect();
    assert_eq!(not_run, [Rule::Keyboard, Rule::FocusOrder], "{answer}");
    assert!(
        answer.not_run[0].why.contains("Tab focused nothing"),
        "{answer}"
    );
    assert!(!answer.is_clean(), "a rule that did not run is never clean");
}
