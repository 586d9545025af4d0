#![doc = include_str!("../README.md")]

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

/// The id a Bevy window has in the drop-box's messages: its entity's bits.
#[cfg(feature = "automation")]
fn window_id(window: Entity) -> u64 {
    window.to_bits()
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
