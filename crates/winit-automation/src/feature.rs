//! The one switch between the plugin and its no-op build: [`crate::Automation`], [`crate::Frame`]
//! and [`crate::ToolkitScreenshots`] are written once against the types named here, which are the real
//! render side with the `automation` feature (`on`) and empty ones without it (`off`: no thread,
//! no file, and `ToolkitScreenshots` uninhabited).

use winit_automation_link::Step;

#[cfg(not(feature = "automation"))]
mod off;
#[cfg(feature = "automation")]
mod on;

#[cfg(not(feature = "automation"))]
pub(crate) use off::{
    AppCommand, Injected, PublishedFrame, Render, StartFailure, ToolkitScreenshots, split, start,
};
#[cfg(feature = "automation")]
pub(crate) use on::{
    AppCommand, Injected, PublishedFrame, Render, StartFailure, ToolkitScreenshots, split, start,
};

/// A piece of injected input, split ([`split`]): a step for a window (its id, its scale, the
/// step), or a request the app answers itself. Moved as it is, never boxed.
#[cfg_attr(
    not(feature = "automation"),
    expect(
        dead_code,
        reason = "the no-op build injects nothing, so nothing is split"
    )
)]
pub(crate) enum Split {
    Step(u64, f64, Step),
    AppCommand(AppCommand),
}
