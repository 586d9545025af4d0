//! The one switch between the plugin and its no-op build: [`crate::Automation`], [`crate::Frame`]
//! and [`crate::ToolkitCapture`] are written once against the types named here, which are the real
//! render side with the `automation` feature (`on`) and empty ones without it (`off`: no thread,
//! no file, and `ToolkitCapture` uninhabited).

#[cfg(not(feature = "automation"))]
mod off;
#[cfg(feature = "automation")]
mod on;

#[cfg(not(feature = "automation"))]
pub(crate) use off::{
    Injected, PublishedFrame, Render, Request, StartFailure, ToolkitCapture, split, start,
};
#[cfg(feature = "automation")]
pub(crate) use on::{
    Injected, PublishedFrame, Render, Request, StartFailure, ToolkitCapture, split, start,
};
