//! The plugin facade the app talks to: [`Automation`] and its [`Builder`].
//!
//! Runs on the render thread. With the `automation` feature, every method but [`Builder::start`]
//! (once, at start-up) and dropping the handle (which stops the service thread) is non-blocking;
//! what one costs per frame is stated in `src/render.rs`. With the feature off, the same API
//! compiles to no-ops: the handle holds nothing, `start` creates nothing, `begin_frame` yields
//! nothing and no thread is spawned.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

#[cfg(feature = "automation")]
use crate::link::SceneChange;

/// Whether this build carries the automation plugin (the `automation` feature).
pub const ENABLED: bool = cfg!(feature = "automation");

/// The default bound on waiting command entries.
pub const DEFAULT_QUEUE_CAPACITY: usize = 256;

/// The default time after which an entry without its final newline is reaped.
pub const DEFAULT_REAP_AFTER: Duration = Duration::from_secs(2);

/// The default time a response may wait to be read before the app removes it.
pub const DEFAULT_RESPONSE_TTL: Duration = Duration::from_secs(60);

/// Configures and starts the plugin.
#[must_use = "call start() to start automation"]
pub struct Builder {
    #[cfg(feature = "automation")]
    name: Option<String>,
    #[cfg(feature = "automation")]
    dir: Option<PathBuf>,
    #[cfg(feature = "automation")]
    capacity: usize,
    #[cfg(feature = "automation")]
    max_bytes: usize,
    #[cfg(feature = "automation")]
    reap_after: Duration,
    #[cfg(feature = "automation")]
    response_ttl: Duration,
    #[cfg(feature = "automation")]
    waker: Option<crate::link::Waker>,
    #[cfg(feature = "automation")]
    app_screenshots: bool,
    #[cfg(feature = "automation")]
    hover_frame: bool,
}

#[cfg_attr(not(feature = "automation"), allow(unused_variables, unused_mut))]
impl Builder {
    /// The app name published in `ready.txt` (default: the executable's name).
    pub fn app_name(mut self, name: impl Into<String>) -> Self {
        #[cfg(feature = "automation")]
        {
            self.name = Some(name.into());
        }
        self
    }

    /// The drop-box directory. Without it, `$WINIT_AUTOMATION_DIR`, else `target/winit-automation`
    /// under the current directory.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        #[cfg(feature = "automation")]
        {
            self.dir = Some(dir.into());
        }
        self
    }

    /// How many command entries may wait before writers get "queue full" (default 256, at least 1).
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        #[cfg(feature = "automation")]
        {
            self.capacity = capacity.max(1);
        }
        self
    }

    /// The size cap of one command file in bytes (default 64 KiB, at least 64).
    pub fn max_command_bytes(mut self, max: usize) -> Self {
        #[cfg(feature = "automation")]
        {
            self.max_bytes = max.max(64);
        }
        self
    }

    /// How long an entry may stay without its final newline, not growing, before it is answered
    /// `incomplete` and removed (default 2 s).
    pub fn reap_after(mut self, after: Duration) -> Self {
        #[cfg(feature = "automation")]
        {
            self.reap_after = after;
        }
        self
    }

    /// How long a response may wait in the directory to be read before the app removes it
    /// (default 60 s, at least 100 ms): the answer to a client that gave up or died does not stay
    /// for good.
    pub fn response_ttl(mut self, ttl: Duration) -> Self {
        #[cfg(feature = "automation")]
        {
            self.response_ttl = ttl.max(Duration::from_millis(100));
        }
        self
    }

    /// Lets the app answer `screenshot` itself: it arrives as [`Input::Request`](crate::Input::Request)
    /// and the app replies with a body naming the file it wrote (`file screenshot-<label>.png`).
    /// For apps that have their pixels at hand without a GPU copy (a software renderer). By
    /// default the plugin captures the texture handed to [`Automation::capture`].
    pub fn app_screenshots(mut self, yes: bool) -> Self {
        #[cfg(feature = "automation")]
        {
            self.app_screenshots = yes;
        }
        self
    }

    /// Pointer gestures move the pointer in a frame of their own before they press or turn the
    /// wheel: a `click` takes two frames (move, then press and release), a `scroll` two (move,
    /// then the wheel). For a toolkit that decides what is under the pointer only from an earlier
    /// frame's hover state. By default (off) the move and the press share one frame, which the
    /// custom demo and egui handle (their events are processed in order); a `drag` always moves
    /// in frames of its own.
    pub fn hover_frame(mut self, yes: bool) -> Self {
        #[cfg(feature = "automation")]
        {
            self.hover_frame = yes;
        }
        self
    }

    /// Called from the service thread when commands arrive for the render thread, so an idle event
    /// loop wakes up: typically `move || window.request_redraw()` or an `EventLoopProxy::send_event`.
    /// It must not block, and must not call back into [`Automation`].
    pub fn waker(mut self, waker: impl Fn() + Send + Sync + 'static) -> Self {
        #[cfg(feature = "automation")]
        {
            self.waker = Some(std::sync::Arc::new(waker));
        }
        self
    }

    /// Creates the directory (mode 0700) or checks it, takes its lock, recovers what a previous run
    /// left, publishes `ready.txt` and starts the service thread. With the feature off it does
    /// nothing and succeeds.
    pub fn start(self) -> Result<Automation, StartError> {
        #[cfg(feature = "automation")]
        return self.start_service();
        #[cfg(not(feature = "automation"))]
        Ok(Automation {})
    }

    #[cfg(feature = "automation")]
    fn start_service(self) -> Result<Automation, StartError> {
        use crate::dropbox::dir;
        let dir = dir::resolve_dir(self.dir.as_deref());
        let app_name = self.name.unwrap_or_else(default_name);
        let err = |kind| StartError { kind };
        dir::prepare(&dir).map_err(|e| err(StartErrorKind::Dir(e)))?;
        let lock = dir::lock(&dir, &app_name).map_err(|e| err(StartErrorKind::Dir(e)))?;
        let service = crate::service::start(crate::service::Config {
            dir: dir.clone(),
            app_name,
            queue_capacity: self.capacity,
            max_command_bytes: self.max_bytes,
            reap_after: self.reap_after,
            response_ttl: self.response_ttl,
            waker: self.waker.clone(),
            app_screenshots: self.app_screenshots,
            hover_frame: self.hover_frame,
        })
        .map_err(|e| err(StartErrorKind::Io(dir.clone(), e)))?;
        Ok(Automation {
            render: crate::render::RenderSide::new(dir, service, self.waker, lock),
        })
    }
}

#[cfg(feature = "automation")]
fn default_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "app".to_owned())
}

/// A running plugin. Dropping it stops the service thread, answers whatever is still owed and
/// removes `ready.txt`.
pub struct Automation {
    #[cfg(feature = "automation")]
    render: crate::render::RenderSide,
}

impl fmt::Debug for Automation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Automation")
            .field("enabled", &ENABLED)
            .field("frame", &self.frame())
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

#[cfg_attr(not(feature = "automation"), allow(unused_variables))]
impl Automation {
    /// A builder with the defaults.
    pub fn builder() -> Builder {
        Builder {
            #[cfg(feature = "automation")]
            name: None,
            #[cfg(feature = "automation")]
            dir: None,
            #[cfg(feature = "automation")]
            capacity: DEFAULT_QUEUE_CAPACITY,
            #[cfg(feature = "automation")]
            max_bytes: crate::protocol::Command::DEFAULT_MAX_BYTES,
            #[cfg(feature = "automation")]
            reap_after: DEFAULT_REAP_AFTER,
            #[cfg(feature = "automation")]
            response_ttl: DEFAULT_RESPONSE_TTL,
            #[cfg(feature = "automation")]
            waker: None,
            #[cfg(feature = "automation")]
            app_screenshots: false,
            #[cfg(feature = "automation")]
            hover_frame: false,
        }
    }

    /// Starts a frame: returns the input injected for it, in command order. Call it once per
    /// frame, before the app handles its own input, and feed each [`Input`](crate::Input) to the
    /// handler its kind belongs to (see [`crate::input`]). Non-blocking.
    ///
    /// The plugin answers each command itself once its last input has been handed over and the
    /// frame is published ([`Automation::publish`] or [`Automation::end_frame`]); a click is one
    /// frame (a move, a press and a release, in order; see [`Builder::hover_frame`]), multi-step
    /// gestures (a drag's moves) take one frame per step. Only
    /// [`Input::Request`](crate::Input::Request) needs an answer from the app.
    pub fn begin_frame(&self) -> Inputs {
        #[cfg(feature = "automation")]
        return Inputs {
            inner: self.render.begin_frame(),
        };
        #[cfg(not(feature = "automation"))]
        Inputs {
            inner: Vec::new().into_iter(),
        }
    }

    /// Publishes the current frame before it is drawn: call it once the frame's tree update or
    /// widget records, layers and [`Automation::pointer_hit`] report are handed over, before the
    /// app draws, acquires a swapchain image or presents. The answers of the actions this frame
    /// applied are written now, so a client does not wait for the GPU work; screenshots still
    /// wait for their pixels ([`Automation::capture`], then [`Automation::end_frame`]).
    /// Optional: without it, [`Automation::end_frame`] publishes the frame. Non-blocking.
    pub fn publish(&self) {
        #[cfg(feature = "automation")]
        self.render.publish();
    }

    /// Ends the current frame, after it was submitted: publishes it unless
    /// [`Automation::publish`] already did (answers given during it are written now), and hands
    /// the frame's screenshot copies to the service thread. Call it after the frame is submitted
    /// and its tree update or widget records were handed over.
    pub fn end_frame(&self) {
        #[cfg(feature = "automation")]
        self.render.end_frame();
    }

    /// Whether a screenshot of `window` waits for this frame's texture: an app can skip making
    /// its texture copyable when not, and a headless app, whose frames nobody sees, can skip
    /// drawing the frame altogether (the demos do). Call it after [`Automation::begin_frame`].
    pub fn wants_capture(&self, window: winit::window::WindowId) -> bool {
        #[cfg(feature = "automation")]
        return self.render.wants_capture(u64::from(window));
        #[cfg(not(feature = "automation"))]
        false
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
        #[cfg(feature = "automation")]
        self.render
            .capture(u64::from(window), device, encoder, texture);
    }

    /// For a toolkit that reads its frame back itself (egui's screenshot path in eframe, where
    /// the app has no texture to hand to [`Automation::capture`]): takes the screenshots of
    /// `window` waiting for this frame, to be answered with the pixels of the next frame (a
    /// screenshot command takes effect when the toolkit paints next, as egui's does) through
    /// [`crate::LaterCapture::deliver`] once the toolkit has them. `None` when none waits. Call
    /// it after [`Automation::begin_frame`] and before [`Automation::end_frame`], in place of
    /// `capture`; a screenshot neither captured nor taken is answered `unsupported`.
    pub fn capture_later(&self, window: winit::window::WindowId) -> Option<crate::LaterCapture> {
        #[cfg(feature = "automation")]
        return self
            .render
            .capture_later(u64::from(window))
            .map(|inner| crate::LaterCapture { inner });
        #[cfg(not(feature = "automation"))]
        None
    }

    /// Tells the plugin about a window: its title, size, scale factor and focus. Call it once after
    /// creating the window (and after changing its title); [`Automation::window_event`] keeps the
    /// rest up to date. Non-blocking: it reads the window's properties and moves them into a
    /// channel.
    pub fn track_window(&self, window: &winit::window::Window) {
        #[cfg(feature = "automation")]
        {
            let scale = window.scale_factor();
            let size = window.inner_size().to_logical::<f64>(scale);
            let state = crate::WindowState {
                title: window.title(),
                width: size.width,
                height: size.height,
                scale_factor: scale,
                focused: window.has_focus(),
            };
            self.render
                .update_window(u64::from(window.id()), true, |s| *s = state);
        }
    }

    /// Shows the plugin a window event: resizes, scale-factor changes, focus and destruction keep
    /// the snapshot's window line, the visible-area projection and the logical-to-physical
    /// conversion of injected pointer input right. Call it for every event of every window (events
    /// it does not need are ignored at the cost of a `match`). Events of a window the plugin was
    /// not told about ([`Automation::track_window`] or [`Automation::window_state`]) are ignored.
    pub fn window_event(&self, window: winit::window::WindowId, event: &winit::event::WindowEvent) {
        #[cfg(feature = "automation")]
        self.render.window_event(u64::from(window), event);
    }

    /// Hands over an AccessKit update the app's toolkit produced for `window` (full or incremental,
    /// in the order produced). Feed every update, whether or not an assistive technology is
    /// connected: `accesskit_winit` forwards updates only while one is, and the mirror needs all of
    /// them. Non-blocking: the update moves into a channel.
    pub fn tree_update(&self, window: winit::window::WindowId, update: accesskit::TreeUpdate) {
        #[cfg(feature = "automation")]
        self.render
            .send_scene(SceneChange::Update(u64::from(window), update));
    }

    /// Hands over this frame's widget records for `window`, for apps with no AccessKit tree. Each
    /// call replaces the previous set. Non-blocking.
    pub fn widgets(&self, window: winit::window::WindowId, widgets: Vec<crate::Widget>) {
        #[cfg(feature = "automation")]
        self.render
            .send_scene(SceneChange::Widgets(u64::from(window), widgets));
    }

    /// Tells the plugin what `window`'s AccessKit tree cannot say: the paint order of its layers,
    /// the modal one, and the containers that clip (see [`crate::Layers`]). The hit test takes
    /// them over tree order from then on; they hold until the next call (an empty value goes back
    /// to tree order). Call it every frame, after the frame's `tree_update`, or whenever they
    /// change: a value equal to the last one is neither copied nor sent, so an app that keeps
    /// its `Layers` and refills it in place allocates nothing when nothing changed. Non-blocking.
    pub fn layers(&self, window: winit::window::WindowId, layers: &crate::Layers) {
        #[cfg(feature = "automation")]
        self.render.layers(u64::from(window), layers);
    }

    /// Reports which node of `window`'s AccessKit tree took the pointer press this frame
    /// delivered (`None`: none took it, the press fell on empty space). Call it between
    /// [`Automation::begin_frame`] and [`Automation::end_frame`] of the frame whose input held the
    /// press, once the toolkit has handled it; calls in other frames are ignored, so calling it
    /// every frame with the toolkit's answer is fine. A `click` or `drag` whose press was taken by
    /// another node than its target is answered `missed` instead of `ok`; with no report the
    /// answer says `hit unverified` (protocol section 4.6). Non-blocking; never allocates.
    pub fn pointer_hit(&self, window: winit::window::WindowId, node: Option<accesskit::NodeId>) {
        #[cfg(feature = "automation")]
        self.render.pointer_hit(u64::from(window), node);
    }

    /// Tells the plugin a window's title, logical size, scale factor and focus, for the snapshot
    /// header, the visible-area projection and logical coordinates. Call it when the window is
    /// created and whenever one of these changes. Non-blocking.
    pub fn window_state(&self, window: winit::window::WindowId, state: crate::WindowState) {
        #[cfg(feature = "automation")]
        self.render
            .update_window(u64::from(window), true, |s| *s = state);
    }

    /// Tells the plugin which GPU adapter renders the app, for the snapshot's metrics line. Call it
    /// once after choosing the adapter.
    pub fn adapter(&self, info: &wgpu::AdapterInfo) {
        #[cfg(feature = "automation")]
        self.render.send_scene(SceneChange::Gpu(crate::GpuInfo {
            adapter: info.name.clone(),
            backend: info.backend.to_str().to_owned(),
            device_type: format!("{:?}", info.device_type).to_lowercase(),
        }));
    }

    /// Tells the plugin a window's surface size and format, for its window line. Call it whenever
    /// the surface is configured.
    pub fn surface(&self, window: winit::window::WindowId, config: &wgpu::SurfaceConfiguration) {
        #[cfg(feature = "automation")]
        self.render.send_scene(SceneChange::Surface(
            u64::from(window),
            crate::SurfaceInfo {
                width: config.width,
                height: config.height,
                format: format!("{:?}", config.format),
            },
        ));
    }

    /// Tells the plugin whether a window is animating: it wants more frames even with no input
    /// (egui: its repaint delay is zero, see `winit_automation::egui::is_animating`). `--settle`
    /// and `settle` wait until no window is animating as well as for an unchanged tree, so an
    /// animation whose tree stays the same (a window closing, a fade) is waited out. Call it every
    /// frame or on change; unchanged, it costs a lock and a comparison.
    pub fn animating(&self, window: winit::window::WindowId, animating: bool) {
        #[cfg(feature = "automation")]
        self.render.animating(u64::from(window), animating);
    }

    /// Tells the plugin a window is gone: its tree leaves the snapshot and its refs go stale.
    pub fn window_closed(&self, window: winit::window::WindowId) {
        #[cfg(feature = "automation")]
        self.render.window_closed(u64::from(window));
    }

    /// The number of the frame being built (1 before the first `end_frame`; 0 with the feature off).
    pub fn frame(&self) -> u64 {
        #[cfg(feature = "automation")]
        return self.render.frame();
        #[cfg(not(feature = "automation"))]
        0
    }

    /// The drop-box directory, or `None` with the feature off.
    pub fn dir(&self) -> Option<&std::path::Path> {
        #[cfg(feature = "automation")]
        return Some(self.render.dir());
        #[cfg(not(feature = "automation"))]
        None
    }
}

/// The input of one frame, from [`Automation::begin_frame`].
pub struct Inputs {
    inner: std::vec::IntoIter<crate::Input>,
}

impl Iterator for Inputs {
    type Item = crate::Input;

    fn next(&mut self) -> Option<crate::Input> {
        self.inner.next()
    }
}

/// Why the plugin could not start.
#[derive(Debug)]
pub struct StartError {
    kind: StartErrorKind,
}

/// Uninhabited with the feature off: the no-op plugin never fails to start.
#[derive(Debug)]
enum StartErrorKind {
    /// A lock held by another app, a symlinked or foreign directory.
    #[cfg(feature = "automation")]
    Dir(crate::dropbox::DirError),
    /// Creating files in the directory or starting the thread failed.
    #[cfg(feature = "automation")]
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for StartError {
    #[cfg_attr(not(feature = "automation"), allow(unused_variables))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            #[cfg(feature = "automation")]
            StartErrorKind::Dir(ref e) => write!(f, "winit-automation cannot start: {e}"),
            #[cfg(feature = "automation")]
            StartErrorKind::Io(ref dir, ref e) => {
                write!(f, "winit-automation cannot start in {}: {e}", dir.display())
            }
        }
    }
}

impl StartError {
    /// How to fix it, if there is a fix to suggest. `Display` never holds it (see
    /// [`Failure`](crate::protocol::Failure) for the rule), so print it yourself, e.g. on a
    /// `hint:` line of its own.
    pub fn hint(&self) -> Option<String> {
        match self.kind {
            #[cfg(feature = "automation")]
            StartErrorKind::Dir(ref e) => e.hint(),
            #[cfg(feature = "automation")]
            StartErrorKind::Io(..) => {
                Some("check the directory's permissions and free space".to_owned())
            }
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.kind {
            #[cfg(feature = "automation")]
            StartErrorKind::Dir(ref e) => Some(e),
            #[cfg(feature = "automation")]
            StartErrorKind::Io(_, ref e) => Some(e),
        }
    }
}

#[cfg(feature = "automation")]
impl StartError {
    /// The directory problem, if that is what stopped the start (a lock held by another app, a
    /// symlinked or foreign directory).
    pub fn dir_error(&self) -> Option<&crate::dropbox::DirError> {
        match &self.kind {
            StartErrorKind::Dir(e) => Some(e),
            StartErrorKind::Io(..) => None,
        }
    }
}
