//! A page built for `audit`: each row breaks one WCAG rule the audit checks, beside a widget that
//! keeps it (tests/examples/audit.rs drives it). On a white panel:
//!
//! - 4.1.2: a button with no name, beside "Save";
//! - 2.5.8: two 16 px buttons side by side, beside 96 by 32 buttons with room around them;
//! - 1.4.3: #777777 text (4.48:1, just under 4.5:1) and #949494 text at 16 px (3.03:1), beside
//!   black text and the same #949494 at 32 px (large text needs only 3:1);
//! - 1.1.1: an image with no alt text, beside one with;
//! - 2.1.1: a button the pointer clicks but Tab never focuses;
//! - 2.4.3: "First" drawn below "Second" though Tab reaches it first.
//!
//! The frame is examples/egui_demo.rs's (examples/shared/egui_app.rs), with the same flags.
//!
//! ```text
//! cargo run --features automation --example egui_audit -- --headless --dir /tmp/audit-box
//! winit-automation --dir /tmp/audit-box audit --keyboard --screenshot found
//! ```
#![allow(clippy::print_stderr)]

#[path = "shared/egui_app.rs"]
mod egui_app;
#[path = "shared/setup.rs"]
mod setup;
#[path = "shared/shell.rs"]
mod shell;

use egui::{Button, Color32, Image, RichText, Sense, Vec2, vec2};

/// A button large enough and far enough from the next one.
const ROOMY: Vec2 = vec2(96.0, 32.0);

#[derive(Default)]
struct Page {
    /// A small red square for the two images.
    dot: Option<egui::TextureHandle>,
    /// Clicks on the button Tab never reaches: the pointer works.
    pointer_clicks: u32,
}

impl Page {
    fn ui(&mut self, ui: &mut egui::Ui) {
        let dot = self
            .dot
            .get_or_insert_with(|| {
                let image =
                    egui::ColorImage::new([16, 16], vec![Color32::from_rgb(200, 30, 30); 256]);
                ui.ctx().load_texture("dot", image, egui::TextureOptions::NEAREST)
            })
            .clone();
        let panel = egui::Frame::new().fill(Color32::WHITE).inner_margin(16.0);
        egui::CentralPanel::default().frame(panel).show(ui, |ui| {
            ui.spacing_mut().item_spacing = vec2(24.0, 16.0);
            ui.horizontal(|ui| {
                ui.add(Button::new("").min_size(ROOMY));
                ui.add(Button::new("Save").min_size(ROOMY));
            });
            ui.horizontal(|ui| {
                ui.add(Button::new("Wide").min_size(ROOMY));
                ui.spacing_mut().item_spacing.x = 2.0;
                ui.spacing_mut().button_padding = Vec2::ZERO;
                ui.add(Button::new("a").min_size(vec2(16.0, 16.0)));
                ui.add(Button::new("b").min_size(vec2(16.0, 16.0)));
            });
            let text = |s: &str, grey: u8, size: f32| {
                RichText::new(s).color(Color32::from_gray(grey)).size(size)
            };
            ui.horizontal(|ui| {
                ui.label(text("Faint text", 0x77, 20.0));
                ui.label(text("Black text", 0x00, 20.0));
            });
            ui.horizontal(|ui| {
                ui.label(text("Small grey", 0x94, 16.0));
                ui.label(text("Large grey", 0x94, 32.0));
            });
            ui.horizontal(|ui| {
                let texture = egui::load::SizedTexture::from_handle(&dot);
                ui.add(Image::from_texture(texture).fit_to_exact_size(vec2(32.0, 32.0)));
                ui.add(
                    Image::from_texture(texture)
                        .fit_to_exact_size(vec2(32.0, 32.0))
                        .alt_text("Red square"),
                );
            });
            self.pointer_only(ui);
            // Tab goes First then Second (the order they are added), but Second is drawn above.
            let at = ui.cursor().min;
            let rect = |dy: f32| egui::Rect::from_min_size(at + vec2(0.0, dy), ROOMY);
            ui.put(rect(48.0), Button::new("First"));
            ui.put(rect(0.0), Button::new("Second"));
        });
    }

    /// A button that takes clicks but not the focus: Tab never reaches it.
    fn pointer_only(&mut self, ui: &mut egui::Ui) {
        let label = format!("Pointer only ({})", self.pointer_clicks);
        let (rect, response) = ui.allocate_exact_size(vec2(160.0, 32.0), Sense::CLICK);
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::Button, true, &label));
        ui.painter().rect_filled(rect, 4.0, Color32::from_gray(0xdd));
        let font = egui::FontId::proportional(16.0);
        ui.painter().text(rect.center(), egui::Align2::CENTER_CENTER, &label, font, Color32::BLACK);
        if response.clicked() {
            self.pointer_clicks += 1;
        }
    }
}

fn main() {
    let mut page = Page::default();
    let spec = egui_app::Spec {
        name: "egui_audit",
        title: "winit-automation audit page",
        size: (640, 480),
    };
    egui_app::main(spec, move |ui| page.ui(ui));
}
