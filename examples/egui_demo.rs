//! An egui 0.37 app (egui-winit for the window's own input and its accesskit_winit adapter,
//! egui-wgpu to draw) wired to the plugin with a few lines (the frame loop is
//! examples/shared/egui_app.rs, shared with the gallery):
//! - egui's own AccessKit output feeds the mirror (`Context::enable_accesskit` turns it on even
//!   when no screen reader is connected);
//! - the plugin's input becomes egui events through `winit_automation::egui::EguiInput`
//!   (feature `egui`), so clicks and typing drive real egui widgets;
//! - `winit_automation::egui::EguiScene::report`, once per frame, hands over egui's layers, its
//!   modal layer and the widget that took a press.
//!
//! ```text
//! cargo run --features automation,egui --example egui_demo -- --dir /tmp/egui-box
//! winit-automation --dir /tmp/egui-box snapshot -i
//! winit-automation --dir /tmp/egui-box click 'role=button name="Count"' --settle
//! ```
#![allow(clippy::print_stderr)]

#[path = "shared/egui_app.rs"]
mod egui_app;
#[path = "shared/setup.rs"]
mod setup;

/// The app's own state, drawn by egui every frame.
struct Model {
    count: u32,
    name: String,
    enabled: bool,
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
            ui.text_edit_singleline(&mut self.name)
                .labelled_by(label.id);
        });
        ui.checkbox(&mut self.enabled, "Enabled");
        let greeting = if self.name.is_empty() {
            "Hello, nobody".to_owned()
        } else {
            format!("Hello, {}", self.name)
        };
        ui.label(greeting);
    }
}

fn main() {
    let mut model = Model {
        count: 0,
        name: String::new(),
        enabled: true,
    };
    let spec = egui_app::Spec {
        name: "egui_demo",
        title: "winit-automation egui demo",
        size: (640, 400),
    };
    egui_app::main(spec, move |ui| model.ui(ui));
}
