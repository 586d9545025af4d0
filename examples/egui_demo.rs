//! An egui 0.37 app (egui-winit for the window's own input and its accesskit_winit adapter,
//! egui-wgpu to draw, or headless into an offscreen texture) on the egui plugin: one
//! `ctx.add_plugin(Plugin::new(automation).app_ends_frames())` does the automation (input, egui's
//! own AccessKit tree, layers, clips, the pressed widget, animation, window state), and the frame
//! (examples/shared/egui_app.rs, shared with the gallery, in the window of
//! examples/shared/shell.rs) takes each frame the plugin published (`Plugin::take_frame`), hands
//! it the exact texture (`Frame::capture`) and submits through it. Its "Rest" button is an egui
//! timer: disabled for 2 seconds of wall-clock time, in a window or headless.
//!
//! ```text
//! cargo run --features automation --example egui_demo -- --dir /tmp/egui-box
//! winit-automation --dir /tmp/egui-box snapshot -i
//! winit-automation --dir /tmp/egui-box click 'role=button name="Count"' --settle
//! ```
#![allow(clippy::print_stderr)]

#[path = "shared/egui_app.rs"]
mod egui_app;
#[path = "shared/setup.rs"]
mod setup;
#[path = "shared/shell.rs"]
mod shell;

/// The app's own state, drawn by egui every frame.
struct Model {
    count: u32,
    name: String,
    enabled: bool,
    /// egui's time (seconds) until which "Rest" stays disabled: a timer egui keeps.
    resting_until: Option<f64>,
}

impl Model {
    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("egui demo");
        ui.horizontal(|ui| {
            if ui.button("Count").clicked() {
                self.count += 1;
            }
            ui.label(format!("Clicked {} times", self.count));
        });
        ui.horizontal(|ui| {
            let label = ui.label("Name");
            ui.text_edit_singleline(&mut self.name).labelled_by(label.id);
        });
        ui.checkbox(&mut self.enabled, "Enabled");
        let greeting = if self.name.is_empty() {
            "Hello, nobody".to_owned()
        } else {
            format!("Hello, {}", self.name)
        };
        ui.label(greeting);
        // A 2-second timer: the button disables itself and egui asks for the frame that ends it.
        let now = ui.input(|i| i.time);
        let resting = self.resting_until.is_some_and(|t| now < t);
        if ui.add_enabled(!resting, egui::Button::new("Rest")).clicked() {
            self.resting_until = Some(now + 2.0);
        }
        match self.resting_until {
            Some(until) if now < until => {
                ui.label("Resting");
                ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(until - now));
            }
            Some(_) => drop(ui.label("Rested")),
            None => {}
        }
    }
}

fn main() {
    let mut model = Model { count: 0, name: String::new(), enabled: true, resting_until: None };
    let spec =
        egui_app::Spec { name: "egui_demo", title: "winit-automation egui demo", size: (640, 400) };
    egui_app::main(spec, move |ui| model.ui(ui));
}
