//! The one switch between the plugin and its no-op build: [`crate::Automation`], [`crate::Frame`]
//! and [`crate::LaterCapture`] are written once against the types named here, which are the real
//! render side with the `automation` feature (`on`) and empty ones without it (`off`: no thread,
//! no file, and `Later` uninhabited).

#[cfg(feature = "automation")]
mod injected;
#[cfg(not(feature = "automation"))]
mod off;
#[cfg(feature = "automation")]
mod on;

#[cfg(feature = "automation")]
pub(crate) use injected::input;
#[cfg(not(feature = "automation"))]
pub(crate) use off::{Injected, Later, Published, Render, Request, StartFailure, input, start};
#[cfg(feature = "automation")]
pub(crate) use on::{Injected, Later, Published, Render, Request, StartFailure, start};
