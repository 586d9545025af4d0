//! The plugin facade the app talks to: [`Automation`], its [`Builder`], and the [`Request`]s it hands
//! to the render thread.
//!
//! Runs on the render thread: every method here is non-blocking (channel `try_recv`/`try_send` and
//! atomics only) and never touches the file system, except [`Builder::start`], which runs once at
//! start-up, and dropping the handle, which stops the service thread.
//!
//! With the `automation` feature off, the same API compiles to no-ops: `start` creates nothing,
//! [`Automation::requests`] is always empty, and no thread is spawned.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::protocol::{Command, Failure};

/// Whether this build carries the automation plugin (the `automation` feature).
pub const ENABLED: bool = cfg!(feature = "automation");

/// The default bound on waiting command entries.
pub const DEFAULT_QUEUE_CAPACITY: usize = 256;

/// The default time after which an entry without its final newline is reaped.
pub const DEFAULT_REAP_AFTER: Duration = Duration::from_secs(2);

/// Configures and starts the plugin.
#[must_use = "call start() to start automation"]
pub struct Builder {
    #[cfg_attr(not(feature = "automation"), allow(dead_code))]
    inner: imp::BuilderInner,
}

impl Builder {
    /// The app name published in `ready.txt` (default: the executable's name).
    pub fn app_name(mut self, name: impl Into<String>) -> Self {
        imp::set_name(&mut self.inner, name.into());
        self
    }

    /// The drop-box directory. Without it, `$WINIT_AUTOMATION_DIR`, else `target/winit-automation`
    /// under the current directory.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        imp::set_dir(&mut self.inner, dir.into());
        self
    }

    /// How many command entries may wait before writers get "queue full" (default 256, at least 1).
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        imp::set_capacity(&mut self.inner, capacity.max(1));
        self
    }

    /// The size cap of one command file in bytes (default 64 KiB, at least 64).
    pub fn max_command_bytes(mut self, max: usize) -> Self {
        imp::set_max_bytes(&mut self.inner, max.max(64));
        self
    }

    /// How long an entry may stay without its final newline, not growing, before it is answered
    /// `incomplete` and removed (default 2 s).
    pub fn reap_after(mut self, after: Duration) -> Self {
        imp::set_reap_after(&mut self.inner, after);
        self
    }

    /// Lets the app answer `screenshot` itself: it arrives as [`Input::Request`](crate::Input::Request)
    /// and the app replies with a body naming the file it wrote (`file screenshot-<label>.png`).
    /// For apps that have their pixels at hand without a GPU copy (a software renderer). By
    /// default the plugin captures the texture handed to [`Automation::capture`].
    pub fn app_screenshots(mut self, yes: bool) -> Self {
        imp::set_app_screenshots(&mut self.inner, yes);
        self
    }

    /// Called from the service thread when commands arrive for the render thread, so an idle event
    /// loop wakes up: typically `move || window.request_redraw()` or an `EventLoopProxy::send_event`.
    /// It must not block.
    pub fn waker(mut self, waker: impl Fn() + Send + Sync + 'static) -> Self {
        imp::set_waker(&mut self.inner, std::sync::Arc::new(waker));
        self
    }

    /// Creates the directory (mode 0700) or checks it, takes its lock, recovers what a previous run
    /// left, publishes `ready.txt` and starts the service thread. With the feature off it does
    /// nothing and succeeds.
    pub fn start(self) -> Result<Automation, StartError> {
        imp::start(self.inner).map(|inner| Automation { inner })
    }
}

/// A running plugin. Dropping it stops the service thread, answers whatever is still owed and
/// removes `ready.txt`.
pub struct Automation {
    #[cfg_attr(not(feature = "automation"), allow(dead_code))]
    inner: imp::AutomationInner,
}

impl fmt::Debug for Automation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Automation")
            .field("enabled", &ENABLED)
            .field("frame", &self.frame())
            .finish()
    }
}

impl Automation {
    /// A builder with the defaults.
    pub fn builder() -> Builder {
        Builder {
            inner: imp::new_builder(),
        }
    }

    /// Starts a frame: returns the input injected for it, in command order. Call it once per
    /// frame, before the app handles its own input, and feed each [`Input`](crate::Input) to the
    /// handler its kind belongs to (see [`crate::input`]). Non-blocking.
    ///
    /// The plugin answers each command itself once its last input has been handed over and the
    /// frame is published ([`Automation::end_frame`]); multi-step gestures (a click is a move, then
    /// a press and release; a drag several moves) take one frame per step. Only
    /// [`Input::Request`](crate::Input::Request) needs an answer from the app.
    pub fn begin_frame(&self) -> Inputs {
        Inputs {
            inner: imp::begin_frame(&self.inner),
        }
    }

    /// Marks the current frame as published: answers given during it are written now. Call it after
    /// the frame is submitted and its tree update or widget records were handed over.
    pub fn end_frame(&self) {
        imp::end_frame(&self.inner);
    }

    /// Whether a screenshot of `window` waits for this frame's texture: an app can skip making
    /// its texture copyable when not. Call it after [`Automation::begin_frame`].
    pub fn wants_capture(&self, window: winit::window::WindowId) -> bool {
        imp::wants_capture(&self.inner, u64::from(window))
    }

    /// Hands over the texture `window`'s frame ends in (the surface texture, or the offscreen or
    /// intermediate texture the frame is drawn into), after drawing and before the encoder is
    /// submitted. When a `screenshot` waits for this frame, it encodes a copy into a staging
    /// buffer; [`Automation::end_frame`], called after the submit, asks for it to be mapped, and
    /// the service thread reads it back and writes the PNG. Nothing here waits or copies pixels.
    ///
    /// The texture needs `TextureUsages::COPY_SRC` and an 8-bit RGBA or BGRA format; otherwise
    /// the screenshot is answered with an error that says so. Call it every frame: a screenshot
    /// whose frame was not captured is answered `unsupported`.
    pub fn capture(
        &self,
        window: winit::window::WindowId,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) {
        imp::capture(&self.inner, u64::from(window), device, encoder, texture);
    }

    /// Tells the plugin about a window: its title, size, scale factor and focus. Call it once after
    /// creating the window (and after changing its title); [`Automation::window_event`] keeps the
    /// rest up to date. Non-blocking: it reads the window's properties and moves them into a
    /// channel.
    pub fn track_window(&self, window: &winit::window::Window) {
        imp::track_window(&self.inner, window);
    }

    /// Shows the plugin a window event: resizes, scale-factor changes, focus and destruction keep
    /// the snapshot's window line, the visible-area projection and the logical-to-physical
    /// conversion of injected pointer input right. Call it for every event of every window (events
    /// it does not need are ignored at the cost of a `match`). Events of a window the plugin was
    /// not told about ([`Automation::track_window`] or [`Automation::window_state`]) are ignored.
    pub fn window_event(&self, window: winit::window::WindowId, event: &winit::event::WindowEvent) {
        imp::window_event(&self.inner, u64::from(window), event);
    }

    /// Hands over an AccessKit update the app's toolkit produced for `window` (full or incremental,
    /// in the order produced). Feed every update, whether or not an assistive technology is
    /// connected: `accesskit_winit` forwards updates only while one is, and the mirror needs all of
    /// them. Non-blocking: the update moves into a channel.
    pub fn tree_update(&self, window: winit::window::WindowId, update: accesskit::TreeUpdate) {
        imp::tree_update(&self.inner, u64::from(window), update);
    }

    /// Hands over this frame's widget records for `window`, for apps with no AccessKit tree. Each
    /// call replaces the previous set. Non-blocking.
    pub fn widgets(&self, window: winit::window::WindowId, widgets: Vec<crate::Widget>) {
        imp::widgets(&self.inner, u64::from(window), widgets);
    }

    /// Tells the plugin a window's title, logical size, scale factor and focus, for the snapshot
    /// header, the visible-area projection and logical coordinates. Call it when the window is
    /// created and whenever one of these changes. Non-blocking.
    pub fn window_state(&self, window: winit::window::WindowId, state: crate::WindowState) {
        imp::window_state(&self.inner, u64::from(window), state);
    }

    /// Tells the plugin which GPU adapter renders the app, for the snapshot's metrics line. Call it
    /// once after choosing the adapter.
    pub fn adapter(&self, info: &wgpu::AdapterInfo) {
        imp::adapter(
            &self.inner,
            crate::GpuInfo {
                adapter: info.name.clone(),
                backend: info.backend.to_str().to_owned(),
                device_type: format!("{:?}", info.device_type).to_lowercase(),
            },
        );
    }

    /// Tells the plugin a window's surface size and format, for its window line. Call it whenever
    /// the surface is configured.
    pub fn surface(&self, window: winit::window::WindowId, config: &wgpu::SurfaceConfiguration) {
        imp::surface(
            &self.inner,
            u64::from(window),
            crate::SurfaceInfo {
                width: config.width,
                height: config.height,
                format: format!("{:?}", config.format),
            },
        );
    }

    /// Tells the plugin a window is gone: its tree leaves the snapshot and its refs go stale.
    pub fn window_closed(&self, window: winit::window::WindowId) {
        imp::window_closed(&self.inner, u64::from(window));
    }

    /// The number of the frame being built (1 before the first `end_frame`; 0 with the feature off).
    pub fn frame(&self) -> u64 {
        imp::frame(&self.inner)
    }

    /// The drop-box directory, or `None` with the feature off.
    pub fn dir(&self) -> Option<&std::path::Path> {
        imp::dir(&self.inner)
    }
}

/// The input of one frame, from [`Automation::begin_frame`].
pub struct Inputs {
    inner: imp::InputsInner,
}

impl Iterator for Inputs {
    type Item = crate::Input;

    fn next(&mut self) -> Option<crate::Input> {
        imp::next_input(&mut self.inner)
    }
}

/// A command the app answers itself (see [`Input::Request`](crate::Input::Request)). Answer it
/// with [`Request::reply`]; dropping it unanswered answers `not_handled`, so every command gets
/// exactly one response.
pub struct Request {
    inner: imp::RequestInner,
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("seq", &self.seq())
            .field("command", self.command())
            .finish()
    }
}

impl Request {
    /// The seq of the command entry.
    pub fn seq(&self) -> u64 {
        imp::seq(&self.inner)
    }

    /// The command.
    pub fn command(&self) -> &Command {
        imp::command(&self.inner)
    }

    /// Answers it: `Ok(body)` with the answer's lines (may be empty), or `Err(failure)`. The
    /// response is written once the current frame is published by [`Automation::end_frame`].
    pub fn reply(self, result: Result<String, Failure>) {
        imp::reply(self.inner, result);
    }
}

/// Why the plugin could not start.
#[derive(Debug)]
pub struct StartError {
    #[cfg_attr(not(feature = "automation"), allow(dead_code))]
    kind: imp::StartErrorKind,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        imp::fmt_start_error(&self.kind, f)
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        imp::start_error_source(&self.kind)
    }
}

#[cfg(feature = "automation")]
impl StartError {
    /// The directory problem, if that is what stopped the start (a lock held by another app, a
    /// symlinked or foreign directory).
    pub fn dir_error(&self) -> Option<&crate::dropbox::DirError> {
        match &self.kind {
            imp::StartErrorKind::Dir(e) => Some(e),
            imp::StartErrorKind::Io(..) => None,
        }
    }
}

#[cfg(feature = "automation")]
#[path = "automation/on.rs"]
mod imp;

#[cfg(not(feature = "automation"))]
#[path = "automation/off.rs"]
mod imp;
