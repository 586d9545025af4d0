//! egui's own demo gallery (`egui_demo_lib::DemoWindows`: a menu bar, a side panel listing the
//! demos, and overlapping windows of widgets, popups, combo boxes and modals) driven through the
//! plugin: a real UI to test pointer targeting on, and a small "Gestures" window of its own
//! (examples/shared/gestures.rs: a multi-select list, a long-press button, an animated reorder
//! list) for the gestures egui's demos lack. The frame is examples/egui_demo.rs's
//! (examples/shared/egui_app.rs, in the window of examples/shared/shell.rs), with the same flags;
//! tests/examples/gallery.rs drives it.
//!
//! ```text
//! cargo run --features automation --example egui_gallery -- --dir /tmp/gallery-box
//! winit-automation --dir /tmp/gallery-box snapshot -i
//! winit-automation --dir /tmp/gallery-box click 'text~="Widget Gallery"' --settle
//! ```
#![allow(clippy::print_stderr)]

#[path = "shared/egui_app.rs"]
mod egui_app;
#[path = "shared/gestures.rs"]
mod gestures;
#[path = "shared/setup.rs"]
mod setup;
#[path = "shared/shell.rs"]
mod shell;

fn main() {
    let mut demos = egui_demo_lib::DemoWindows::default();
    let mut gestures = gestures::Gestures::default();
    let spec = egui_app::Spec {
        name: "egui_gallery",
        title: "winit-automation egui gallery",
        // egui_demo_lib switches to its mobile layout below 550 points wide.
        size: (1280, 800),
    };
    egui_app::main(spec, move |ui| {
        demos.ui(ui);
        gestures.show(ui.ctx());
    });
}
