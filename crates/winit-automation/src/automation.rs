//! The plugin facade the app talks to: [`Automation`] and its [`Builder`].
//!
//! Each method is written once and hands its work to [`crate::feature`], which is the real plugin
//! with the `automation` feature and a no-op without it (no thread, no file, no cost). Per-frame
//! work goes through a [`Frame`]; what stays here is set-up and what happens between frames (a
//! window's state and events, the adapter, the surface). Every method but [`Builder::start`] and
//! dropping the handle is non-blocking.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use winit::window::WindowId;

use crate::feature;
use crate::frame::Frame;
use winit_automation_link::{ClockMode, ClockReading, Options};

/// Whether this build carries the automation plugin (the `automation` feature).
pub const ENABLED: bool = cfg!(feature = "automation");

/// The default bound on waiting command entries.
pub const DEFAULT_QUEUE_CAPACITY: usize = 256;

/// The default time after which an entry without its final newline is reaped.
pub const DEFAULT_REAP_AFTER: Duration = Duration::from_secs(2);

/// The default time a response may wait to be read before the app removes it.
pub const DEFAULT_RESPONSE_TTL: Duration = Duration::from_secs(60);

/// The longest [`Automation::run_headless`] waits between frames with no wake-up, so a headless
/// app runs a frame at least this often (its own timers, a deadline an order carries).
pub const HEADLESS_IDLE: Duration = Duration::from_millis(500);

/// Configures and starts the plugin.
#[must_use = "call start() to start automation"]
pub struct Builder {
    options: Options,
}

impl Builder {
    /// The app name published in `ready.txt` (default: the executable's name).
    pub fn app_name(mut self, name: impl Into<String>) -> Self {
        self.options.name = Some(name.into());
        self
    }

    /// The drop-box directory. Without it, `$WINIT_AUTOMATION_DIR`, else `target/winit-automation`
    /// under the current directory.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.options.dir = Some(dir.into());
        self
    }

    /// How many command entries may wait before writers get "queue full" (default 256, at least 1).
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.options.capacity = capacity.max(1);
        self
    }

    /// The size cap of one command file in bytes (default 64 KiB, at least 64).
    pub fn max_command_bytes(mut self, max: usize) -> Self {
        self.options.max_bytes = max.max(64);
        self
    }

    /// How long an entry may stay without its final newline, not growing, before it is answered
    /// `incomplete` and removed (default 2 s).
    pub fn reap_after(mut self, after: Duration) -> Self {
        self.options.reap_after = after;
        self
    }

    /// How long a response may wait in the directory to be read before the app removes it
    /// (default 60 s, at least 100 ms): the answer to a client that gave up or died does not stay
    /// for good.
    pub fn response_ttl(mut self, ttl: Duration) -> Self {
        self.options.response_ttl = ttl.max(Duration::from_millis(100));
        self
    }

    /// Lets the app answer `screenshot` itself: it arrives as [`Input::Request`](crate::Input::Request)
    /// and the app replies with a body naming the file it wrote (`file screenshot-<label>.png`).
    /// For apps that have their pixels at hand without a GPU copy (a software renderer). By
    /// default the plugin captures the texture handed to [`Frame::capture`].
    pub fn app_screenshots(mut self, yes: bool) -> Self {
        self.options.app_screenshots = yes;
        self
    }

    /// The clock frames start on: [`ClockMode::Real`] (the wall clock, the default) or
    /// [`ClockMode::Virtual`] (the plugin's own time, standing still until a `clock` command, a
    /// settle or a gesture's hold moves it: the same commands see the same times).
    /// `WINIT_AUTOMATION_CLOCK=virtual` (or `real`) in the environment wins over it. Read a
    /// frame's time with [`Frame::time`](crate::Frame::time).
    pub fn clock(mut self, clock: ClockMode) -> Self {
        self.options.clock = Some(clock);
        self
    }

    /// Pointer gestures move the pointer in a frame of their own before they press or turn the
    /// wheel: a `click` takes two frames (move, then press and release), a `scroll` two. For a
    /// toolkit that decides what is under the pointer only from an earlier frame's hover state.
    /// By default (off) the move and the press share one frame, which the custom demo and egui
    /// handle (their events are processed in order); a `drag` always moves in frames of its own.
    pub fn hover_frame(mut self, yes: bool) -> Self {
        self.options.hover_frame = yes;
        self
    }

    /// The app reads keys without a focused node, as a game reads its keyboard: `key d` with
    /// nothing focused goes out and answers `no focus: sent to the app`. By default (off) a key
    /// that would only type text is refused `no_focus` while the app's tree says nothing is
    /// focused (a GUI drops it); keys with ctrl, alt or meta, Tab, Enter and the like always go
    /// out.
    pub fn keys_without_focus(mut self, yes: bool) -> Self {
        self.options.keys_without_focus = yes;
        self
    }

    /// Called from the service thread when commands arrive for the render thread, so an idle event
    /// loop wakes up: typically `move || window.request_redraw()`. It must not block, and must not
    /// call back into [`Automation`]. A winit app passes its event loop instead
    /// ([`Builder::wake_event_loop`]); a headless one needs none ([`Automation::run_headless`]).
    pub fn waker(mut self, waker: impl Fn() + Send + Sync + 'static) -> Self {
        self.options.waker = Some(Arc::new(waker));
        self
    }

    /// Wakes a winit event loop when commands arrive: sends `event` through a proxy of
    /// `event_loop`, for the app's `ApplicationHandler::user_event` to ask its windows for a
    /// redraw.
    pub fn wake_event_loop<T>(self, event_loop: &winit::event_loop::EventLoop<T>, event: T) -> Self
    where
        T: Clone + Send + Sync + 'static,
    {
        let proxy = event_loop.create_proxy();
        // A closed event loop has nobody left to wake.
        self.waker(move || proxy.send_event(event.clone()).unwrap_or_default())
    }

    /// Creates the directory (mode 0700) or checks it, takes its lock, recovers what a previous run
    /// left, publishes `ready.txt` and starts the service thread. With the feature off it does
    /// nothing and succeeds.
    pub fn start(self) -> Result<Automation, StartError> {
        let render = feature::start(self.options).map_err(|kind| StartError { kind })?;
        Ok(Automation {
            render: Arc::new(render),
        })
    }
}

/// A running plugin. Dropping it (and any [`Frame`] still open) stops the service thread,
/// answers whatever is still owed and removes `ready.txt`.
pub struct Automation {
    render: Arc<feature::Render>,
}

impl fmt::Debug for Automation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Automation")
            .field("enabled", &ENABLED)
            .field("frame", &self.frame_number())
            .finish()
    }
}

impl Default for Builder {
    /// [`Automation::builder`]: the drop-box in `$WINIT_AUTOMATION_DIR` (else
    /// `target/winit-automation`), the default queue and limits.
    fn default() -> Builder {
        Automation::builder()
    }
}

impl Automation {
    /// A builder with the defaults.
    pub fn builder() -> Builder {
        Builder {
            options: Options {
                name: None,
                dir: None,
                capacity: DEFAULT_QUEUE_CAPACITY,
                max_bytes: crate::protocol::Command::DEFAULT_MAX_BYTES,
                reap_after: DEFAULT_REAP_AFTER,
                response_ttl: DEFAULT_RESPONSE_TTL,
                waker: None,
                app_screenshots: false,
                hover_frame: false,
                keys_without_focus: false,
                clock: None,
            },
        }
    }

    /// Opens a frame; [`Frame::input`] takes the input injected for it. Call it once per frame,
    /// before the app handles its own input; the frame ends when it is dropped or submitted
    /// ([`Frame::submit`]). Non-blocking.
    ///
    /// One frame is open at a time, until it is published ([`Frame::publish`]) or ends: a
    /// published frame may still be drawn, here or on another thread, while the next one is
    /// built (pipelined drawing, [`Frame::publish`]). Called while a frame is open, it returns a
    /// frame that joins the open one: it yields no input (the open frame took it), what it is
    /// handed (trees, layers, press reports, captures) belongs to the open frame, and publishing
    /// or ending it does nothing; the open frame's own publish or end publishes. A joined frame
    /// kept past that belongs to whichever frame is open next (its number and its captures):
    /// end it with the frame it joined.
    pub fn frame(&self) -> Frame {
        Frame::open(&self.render)
    }

    /// How the clock stands: its mode, whether the virtual clock is paused (time moves only when
    /// a command moves it, so a frame the app would draw by itself for an animation shows
    /// nothing new: a toolkit adapter may skip asking for one), the open frame's time (the last
    /// one's between frames: what [`Frame::time`] says, for code with no frame at hand) and the
    /// virtual clock's step.
    pub fn clock(&self) -> ClockReading {
        self.render.clock()
    }

    /// Runs a headless app (no window system): opens a frame, hands it to `frame`, and waits for
    /// the next wake-up (a command arrived, an answer waits for a frame) or
    /// [`HEADLESS_IDLE`], until `frame` returns `false` (after [`Input::Quit`](crate::Input::Quit),
    /// say). With the feature off it returns at once: nothing could ever drive the app.
    pub fn run_headless(&self, mut frame: impl FnMut(Frame) -> bool) {
        if !ENABLED {
            return;
        }
        while frame(self.frame()) {
            self.wait_for_work(HEADLESS_IDLE);
        }
    }

    /// Waits, between frames, until there is work for a frame (a command arrived, an answer waits
    /// for the next frame) or `timeout` passes: the idle wait of a headless loop that decides its
    /// own frame times (an animating egui app, say), where [`Automation::run_headless`] does not
    /// fit. A wake-up that came since the last wait returns at once; none is lost. Never call it
    /// while a [`Frame`] is open. With the feature off nothing wakes it: it waits `timeout`.
    pub fn wait_for_work(&self, timeout: Duration) {
        self.render.wait_for_work(timeout);
    }

    /// Tells the plugin a window's title, logical size, scale factor and focus, for the snapshot
    /// header, the visible-area projection and logical coordinates ([`window_state_of`] reads
    /// them from a winit window). Call it when the window is created and whenever its title
    /// changes; [`Automation::window_event`] follows the rest. Snapshots number windows 1, 2, ...
    /// in the order the app first reports them (here, or with a tree, widgets, layers, a surface);
    /// input for a window ([`Input::window`](crate::Input::window)) carries its `WindowId`.
    pub fn window_state(&self, window: WindowId, state: crate::WindowState) {
        self.render.window_state(u64::from(window), state);
    }

    /// Shows the plugin a window event: resizes, scale-factor changes, focus and destruction keep
    /// the snapshot's window line, the visible-area projection and the logical-to-physical
    /// conversion of injected pointer input right. Call it for every event of every window
    /// (events it does not need cost a `match`). Events of a window the plugin was not told about
    /// ([`Automation::window_state`]) are ignored.
    pub fn window_event(&self, window: WindowId, event: &winit::event::WindowEvent) {
        self.render.window_event(u64::from(window), event);
    }

    /// Tells the plugin a window is gone: its tree leaves the snapshot and its refs go stale. Its
    /// number is not given to another window; the same `WindowId` reported again is a new window.
    pub fn window_closed(&self, window: WindowId) {
        self.render.window_closed(u64::from(window));
    }

    /// Tells the plugin which GPU adapter renders the app, for the snapshot's metrics line. Call it
    /// once after choosing the adapter.
    pub fn adapter(&self, info: &wgpu::AdapterInfo) {
        self.render.adapter(info);
    }

    /// Tells the plugin a window's surface size and format, for its window line. Call it whenever
    /// the surface is configured.
    pub fn surface(&self, window: WindowId, config: &wgpu::SurfaceConfiguration) {
        self.render.surface(u64::from(window), config);
    }

    /// The number of the frame being built (1 before the first frame is published; 0 with the
    /// feature off).
    pub fn frame_number(&self) -> u64 {
        self.render.frame_number()
    }

    /// The drop-box directory, or `None` with the feature off.
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.render.dir()
    }
}

/// What a winit window says of itself: its title, logical inner size, scale factor and focus, for
/// [`Automation::window_state`]. winit reads no title back on X11, Wayland and the web (`title`
/// is empty there): set it from the app's own, `WindowState { title: ..., ..window_state_of(&window) }`.
pub fn window_state_of(window: &winit::window::Window) -> crate::WindowState {
    let scale = window.scale_factor();
    let size = window.inner_size().to_logical::<f64>(scale);
    crate::WindowState {
        title: window.title(),
        width: size.width,
        height: size.height,
        scale_factor: scale,
        focused: window.has_focus(),
    }
}

/// Why the plugin could not start.
#[derive(Debug)]
pub struct StartError {
    kind: feature::StartFailure,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.kind, f)
    }
}

impl StartError {
    /// How to fix it, if there is a fix to suggest. `Display` never holds it (see
    /// [`Failure`](crate::protocol::Failure) for the rule), so print it yourself, e.g. on a
    /// `hint:` line of its own.
    pub fn hint(&self) -> Option<String> {
        self.kind.hint()
    }

    /// The directory problem, if that is what stopped the start (a lock held by another app, a
    /// symlinked or foreign directory). `None` without the feature, which never fails to start.
    pub fn dir_error(&self) -> Option<&crate::protocol::DirError> {
        self.kind.dir_error()
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}
