//! An ordinary eframe app, driven through the egui plugin: eframe owns the event loop, the window
//! and the frame, and the app adds one line to its creator (marked below; the adapter line after
//! it is optional) and a dependency on `winit-automation-egui` in its Cargo.toml. Every verb works: the tree, pointer
//! input, text and key chords, settle, and screenshots of the presented frame (through egui's
//! screenshot path).
//!
//! ```text
//! WINIT_AUTOMATION_DIR=/tmp/eframe-box cargo run -p winit-automation-egui -F automation --example eframe_app
//! winit-automation --dir /tmp/eframe-box snapshot -i
//! winit-automation --dir /tmp/eframe-box fill role=textbox "Ada" --settle
//! winit-automation --dir /tmp/eframe-box click role=button name=Greet --settle
//! winit-automation --dir /tmp/eframe-box screenshot
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("eframe app")
            .with_inner_size([480.0, 320.0]),
        renderer: eframe::Renderer::Wgpu,
        ..Default::default()
    };
    eframe::run_native(
        "eframe_app",
        options,
        Box::new(|cc| {
            // winit-automation: the plugin drives the app through its drop-box.
            let automation =
                winit_automation_egui::Plugin::install(&cc.egui_ctx, Default::default())?;
            // Optional: names the GPU in the snapshot's metrics line.
            if let Some(wgpu) = &cc.wgpu_render_state {
                automation.adapter(&wgpu.adapter.get_info());
            }
            Ok(Box::new(Greeter::default()))
        }),
    )
}

/// A small form: a name, a greeting, a count, a setting and a level; a settings window of its own
/// (a deferred viewport: a second native window) and an about window (an immediate one).
#[derive(Default)]
struct Greeter {
    name: String,
    greeting: String,
    greeted: u32,
    loud: bool,
    /// A form row's unnamed checkbox: its label is the text before it.
    snap: bool,
    level: f32,
    settings: Arc<Settings>,
    /// Whether the about window (an immediate viewport) is open.
    about: bool,
}

/// What the settings window changes; it runs on its own, so it shares this.
#[derive(Default)]
struct Settings {
    open: AtomicBool,
    sparkles: AtomicBool,
}

impl eframe::App for Greeter {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("Greeter");
            ui.horizontal(|ui| {
                ui.label("Name");
                ui.text_edit_singleline(&mut self.name);
            });
            let greet = ui.button("Greet").clicked();
            // Enter in the name field greets too.
            let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
            if greet || enter {
                self.greeted += 1;
                self.greeting = format!("Hello, {}!", self.name);
                if self.loud {
                    self.greeting = self.greeting.to_uppercase();
                }
            }
            ui.label(&self.greeting);
            ui.label(format!("Greeted {} times", self.greeted));
            ui.checkbox(&mut self.loud, "Loud");
            ui.horizontal(|ui| {
                ui.label("Snap to grid:");
                ui.checkbox(&mut self.snap, "");
            });
            ui.add(egui::Slider::new(&mut self.level, 0.0..=10.0).text("Level"));
            if ui.button("Settings").clicked() {
                self.settings.open.store(true, Ordering::Relaxed);
            }
            let sparkles = self.settings.sparkles.load(Ordering::Relaxed);
            ui.label(format!("Sparkles: {}", if sparkles { "on" } else { "off" }));
            ui.toggle_value(&mut self.about, "About");
        });
        if self.about {
            // An immediate viewport: drawn inside this pass, in a native window of its own.
            ui.ctx().show_viewport_immediate(
                egui::ViewportId::from_hash_of("about"),
                egui::ViewportBuilder::default().with_title("About").with_inner_size([200.0, 80.0]),
                |ui, _class| {
                    egui::CentralPanel::default().show(ui, |ui| {
                        ui.label("A greeter, driven from outside.");
                        if ui.button("Close").clicked()
                            || ui.input(|i| i.viewport().close_requested())
                        {
                            self.about = false;
                        }
                    });
                },
            );
        }
        if self.settings.open.load(Ordering::Relaxed) {
            let settings = Arc::clone(&self.settings);
            ui.ctx().show_viewport_deferred(
                egui::ViewportId::from_hash_of("settings"),
                egui::ViewportBuilder::default()
                    .with_title("Settings")
                    .with_inner_size([240.0, 120.0]),
                move |ui, _class| {
                    egui::CentralPanel::default().show(ui, |ui| {
                        let mut on = settings.sparkles.load(Ordering::Relaxed);
                        if ui.checkbox(&mut on, "Sparkles").changed() {
                            settings.sparkles.store(on, Ordering::Relaxed);
                            // The main window shows the setting: it draws again.
                            ui.ctx().request_repaint_of(egui::ViewportId::ROOT);
                        }
                    });
                    if ui.ctx().input(|i| i.viewport().close_requested()) {
                        settings.open.store(false, Ordering::Relaxed);
                    }
                },
            );
        }
    }
}
