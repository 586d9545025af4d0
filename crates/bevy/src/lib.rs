//! winit-automation for Bevy: one plugin makes a Bevy app's UI and its marked game objects an
//! accessibility tree that the drop-box publishes every frame, drives the app with Bevy's own
//! input messages, and screenshots it through Bevy's screenshot path.
//!
//! ```ignore
//! app.add_plugins(bevy_winit_automation::AutomationPlugin::default());
//! ```
//!
//! With the crate's `automation` feature off (the default), the plugin adds nothing: no thread,
//! no file, no system. An app forwards its own `automation` feature to it.
//!
//! What the plugin adds (feature on), on the main world:
//! - `First`, before Bevy's time and picking input: opens the frame, takes the commands' input
//!   and writes it as Bevy's messages (`CursorMoved`, `MouseButtonInput`, `MouseWheel`,
//!   `KeyboardInput`, `TouchInput` with their `WindowEvent`s; a [`Headless`] window's pointer as
//!   bevy_picking's `PointerInput` on its image), actions as the widgets' events (or an
//!   `ActionRequest`), `AppExit`; moves the `Window`'s cursor, and drives `Time` from the
//!   plugin's clock when it is virtual.
//! - `PreUpdate`, after bevy_picking's hover step, in a frame with a press: which node took it
//!   (its `HoverMap`), before a state transition can despawn it.
//! - `Last`, one exclusive system: window state, the tree (UI nodes with an `AccessibilityNode`
//!   or a `Text`, and entities marked [`Automated`], from Bevy's change detection), the frame's
//!   publication and its screenshots (a `Screenshot` entity per window asked for;
//!   `RequestRedraw` while Bevy has yet to read one back).
//!
//! `ButtonInput::just_pressed` sees one press of a key per frame: `key ArrowRight ArrowRight`
//! taps twice in one frame, so a game that counts presses that way sees one (send one chord per
//! command, or read `KeyboardInput` messages).

use bevy::prelude::*;

#[cfg(feature = "automation")]
mod actions;
#[cfg(feature = "automation")]
mod convert;
#[cfg(feature = "automation")]
mod input;
#[cfg(feature = "automation")]
mod nodes;
#[cfg(feature = "automation")]
mod plugin;
#[cfg(feature = "automation")]
mod shots;
#[cfg(feature = "automation")]
mod tree;

/// Marks a game object (a sprite, a mesh, a tile) as a node of the tree: named by its `Name`,
/// with the role of its `AccessibilityNode` if it has one (else an image), and bounds projected
/// through the camera from its `Aabb` (a point at its position without one).
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct Automated;

/// Put on the primary `Window` of an app that runs with no window system (Bevy's `WinitPlugin`
/// disabled, `ScheduleRunnerPlugin` running its frames) and draws into an image instead: the
/// handle its camera renders to (`RenderTarget::Image(handle.into())`, scale factor 1), as large
/// as the window. The window entity stays the drop-box's window (its title and size); the
/// plugin's pointer then moves over the image (bevy_picking's `PointerInput` with the image as
/// its target, as the UI and sprite picking match it against the camera's), and screenshots read
/// the image back. The image needs `TextureUsages::COPY_SRC`.
#[derive(Component, Debug, Clone)]
pub struct Headless(pub Handle<Image>);

/// The plugin. Add it after Bevy's own plugins (it reads their resources when the app
/// finishes building).
#[derive(Debug, Default, Clone)]
pub struct AutomationPlugin {
    /// The app's name in `ready.txt` (default: the executable's name).
    pub app_name: Option<String>,
    /// The drop-box (default: `$WINIT_AUTOMATION_DIR`, else `target/winit-automation`).
    pub dir: Option<std::path::PathBuf>,
}

impl Plugin for AutomationPlugin {
    fn build(&self, app: &mut App) {
        #[cfg(feature = "automation")]
        plugin::build(app);
        #[cfg(not(feature = "automation"))]
        let _ = app;
    }

    fn finish(&self, app: &mut App) {
        #[cfg(feature = "automation")]
        plugin::finish(self, app);
        #[cfg(not(feature = "automation"))]
        let _ = app;
    }
}
