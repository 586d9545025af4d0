//! winit-automation for egui and eframe apps: injected input becomes egui events, and
//! [`EguiScene`] hands the plugin what egui knows and its AccessKit tree does not say. An eframe
//! app needs one line, [`Plugin::install`]; the feature `automation` turns the plugin on (off,
//! it compiles to no-ops like `winit-automation` itself).
//!
//! egui reads its input from [`egui::RawInput`], so an egui app pushes each
//! [`Input`](winit_automation::Input) there instead of feeding winit events through `egui_winit::State`.
//! This works the same in a window and headless (where there is no winit window to hand to
//! egui-winit). Pointer input keeps its position here, because winit's button events carry none
//! and egui's do.
//!
//! ```ignore
//! let mut raw = egui_state.take_egui_input(&window);
//! let mut frame = automation.frame();
//! for input in frame.input() {
//!     if !adapter.push(&input, ctx.pixels_per_point(), &mut raw) {
//!         // Resize, Quit and app-answered requests are the app's own business.
//!     }
//! }
//! let output = ctx.run_ui(raw, |ui| app_ui(ui));
//! // Layers, the modal layer, the pressed widget and animation (an `EguiScene` per window).
//! scene.report(&ctx, &output, &mut frame, window.id());
//! if let Some(update) = output.platform_output.accesskit_update.clone() {
//!     frame.tree_update(window.id(), update);
//! }
//! ```
//!
//! Enable egui's AccessKit output (`Context::enable_accesskit`) so the plugin sees the tree.
//!
//! The adapter is in `input.rs`, the animation check in `animating.rs`, the scene in `scene.rs`
//! and the all-in-one [`Plugin`] in `plugin.rs`; this file only declares them and re-exports.

mod animating;
mod input;
mod plugin;
mod scene;

pub use animating::{is_animating, is_animating_viewport};
pub use input::EguiInput;
pub use plugin::{Plugin, window_id};
pub use scene::EguiScene;
