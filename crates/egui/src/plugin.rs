//! [`Plugin`]: the whole integration for an egui app, as an `egui::Plugin` registered on its
//! `Context`. egui calls it around every pass of every viewport; it does what an app would
//! otherwise write by hand with [`EguiInput`] and [`EguiScene`].

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::{Mutex, PoisonError};

use egui::{Context, FullOutput, RawInput, ViewportClass, ViewportCommand, ViewportId};
use winit::window::WindowId;

use super::input::EguiInput;
use super::scene::EguiScene;
use winit_automation::protocol::{ErrorCode, Failure};
use winit_automation::{Automation, ClockMode, Frame, Input, Published, StartError, WindowState};

/// How soon the plugin asks egui for a frame it needs (the service thread's wake-ups, a
/// screenshot egui has yet to read back). Not zero: egui reports a zero repaint delay as animation
/// (`is_animating`), which `--settle` waits out.
const WAKE: std::time::Duration = std::time::Duration::from_millis(1);

/// How long egui may take to read a screenshot's frame back before the screenshot is answered
/// with why (a window egui does not paint, a surface format it cannot read).
const READ_BACK: std::time::Duration = std::time::Duration::from_secs(5);

/// The window id the plugin gives an egui viewport: egui's id for it, since egui (eframe above
/// all) does not say which winit window shows it. An app that captures frames itself
/// ([`Plugin::app_ends_frames`]) passes this id to [`Frame::capture`]. Snapshots print the
/// plugin's numbers, not these ids: the root viewport, whose pass comes first, is window 1, the
/// others 2, 3, ... as they first run a pass.
pub fn window_id(viewport: ViewportId) -> WindowId {
    WindowId::from(viewport.0.value())
}

/// The egui plugin: register it once and every viewport of the app is a window
/// of the drop-box, with nothing else to call.
///
/// - `input_hook`: opens the plugin's [`Frame`] ([`Automation::frame`]) at the root viewport's
///   pass and turns its injected input into egui events ([`EguiInput`]); `resize` becomes
///   `ViewportCommand::InnerSize`, `quit` `ViewportCommand::Close`. Each viewport's window state
///   (size, scale, focus, title) comes from egui's `ViewportInfo`.
/// - `on_end_pass`: reads egui's layers while its memory is still that viewport's.
/// - `output_hook`: hands over the AccessKit update, egui's layers, clips, modal layer, pressed
///   widget and animation ([`EguiScene`]); answers `screenshot` through egui's own screenshot
///   path (`ViewportCommand::Screenshot`: eframe reads the next presented frame back) and ends
///   the frame.
///
/// A pass egui discards and runs again (a layout that settles in a second pass) is not a frame:
/// only the last pass of a frame is handed over.
///
/// For eframe, in the app creator:
///
/// ```ignore
/// winit_automation_egui::Plugin::install(&cc.egui_ctx, Automation::builder().app_name("my_app"))?;
/// ```
///
/// An app that draws with wgpu itself and captures the exact frame uses
/// [`Plugin::app_ends_frames`]: the plugin publishes the frame ([`Frame::publish`]) at the end of
/// egui's pass, before the app draws it, and the app takes it ([`Plugin::take_frame`]) to capture
/// into and submit, as without the plugin.
pub struct Plugin {
    /// Given up on exit (`on_exit`): the waker holds the `Context`, which holds this plugin, so
    /// the handle would otherwise never be dropped and the service never stopped.
    automation: Option<Arc<Automation>>,
    /// Whether the plugin ends each frame (and takes screenshots through egui), or the app does.
    ends_frames: bool,
    /// The frame being built: opened by the first pass that needs it (the root's, or a deferred
    /// viewport's between the root's frames), ended or published by the root's output.
    frame: Option<Frame>,
    /// The frame published for the app to capture and end ([`Plugin::take_frame`]).
    published: Option<Frame<Published>>,
    viewports: HashMap<ViewportId, Viewport>,
    /// Input for viewports whose pass has not run yet this frame.
    waiting: Vec<Input>,
    /// The viewports whose pass is running, innermost last (an immediate viewport's pass runs
    /// inside its parent's); egui no longer says whose output `output_hook` gets.
    passes: Vec<ViewportId>,
    /// The title of a window nobody names ([`program_name`]), read once: the frame loop asks the
    /// file system nothing.
    program: String,
}

/// What the plugin keeps per viewport.
struct Viewport {
    input: EguiInput,
    scene: EguiScene,
    /// The state last told to the plugin.
    state: Option<WindowState>,
    /// egui's scale: physical pixels per point (the window's scale times egui's zoom).
    pixels_per_point: f32,
    /// The title the app gave the viewport (`ViewportBuilder::title`), for a platform that does
    /// not say it in `ViewportInfo`.
    title: Option<String>,
    /// Screenshots handed to egui and not yet delivered, with when: until they are, the viewport
    /// is asked for frames (eframe reads a frame back when it paints the next, which an idle app
    /// would not do); one egui has not read back within [`READ_BACK`] is answered with why.
    shots: Vec<(std::time::Instant, Shot)>,
    /// The time its last pass was given (`clock_time`).
    time: Option<f64>,
}

impl Viewport {
    /// `viewport`'s entry in `map`, made on first use.
    fn of(map: &mut HashMap<ViewportId, Viewport>, viewport: ViewportId) -> &mut Viewport {
        map.entry(viewport)
            .or_insert_with(|| Viewport::new(viewport))
    }

    fn new(viewport: ViewportId) -> Viewport {
        Viewport {
            input: EguiInput::new(),
            scene: EguiScene::for_viewport(viewport),
            state: None,
            pixels_per_point: 1.0,
            title: None,
            shots: Vec::new(),
            time: None,
        }
    }
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("ends_frames", &self.ends_frames)
            .field("viewports", &self.viewports.len())
            .finish()
    }
}

/// A window's logical size from egui's rectangle for it (in points: logical pixels over egui's
/// zoom). `None` when egui gives none (a repeated pass, whose input is taken).
fn logical_size(
    inner_rect: Option<egui::Rect>,
    screen_rect: Option<egui::Rect>,
    zoom: f32,
) -> Option<(f64, f64)> {
    let rect = inner_rect.or(screen_rect)?;
    Some((
        f64::from(rect.width() * zoom),
        f64::from(rect.height() * zoom),
    ))
}

impl Plugin {
    /// A plugin that drives `automation` from egui's hooks and ends each frame itself; screenshots
    /// go through egui's screenshot path (what eframe carries out).
    pub fn new(automation: Arc<Automation>) -> Plugin {
        Plugin {
            automation: Some(automation),
            ends_frames: true,
            frame: None,
            published: None,
            viewports: HashMap::new(),
            waiting: Vec::new(),
            passes: Vec::new(),
            program: program_name(),
        }
    }

    /// For an app that draws with wgpu itself: the plugin publishes each frame when egui's pass
    /// ends (answers do not wait for the drawing), and the app takes it with
    /// [`Plugin::take_frame`] after `Context::run_ui`, hands it the frame's texture
    /// ([`Frame::capture`], the exact frame, read back off the render thread) and submits through
    /// it ([`Frame::submit`]).
    pub fn app_ends_frames(mut self) -> Plugin {
        self.ends_frames = false;
        self
    }

    /// The frame the last root pass published, for an app that ends its frames
    /// ([`Plugin::app_ends_frames`]); `None` when no pass ran since, or with no plugin on `ctx`.
    /// A frame the app does not take ends at the next root pass.
    pub fn take_frame(ctx: &Context) -> Option<Frame<Published>> {
        ctx.plugin_opt::<Plugin>()?.lock().published.take()
    }

    /// Starts automation for the egui app on `ctx` and registers the plugin: the builder gets a
    /// waker that repaints the root viewport within a millisecond (an idle egui app sleeps until
    /// asked), and egui's AccessKit output is turned on. Returns the handle, which the plugin
    /// shares until egui exits (`Context::on_exit`, which eframe calls); the service stops when
    /// every handle is gone.
    pub fn install(
        ctx: &Context,
        builder: winit_automation::Builder,
    ) -> Result<Arc<Automation>, StartError> {
        let automation = Arc::new(Self::start(ctx, builder)?);
        ctx.add_plugin(Plugin::new(Arc::clone(&automation)));
        Ok(automation)
    }

    /// Starts automation with a waker that repaints `ctx`'s root viewport, without registering a
    /// plugin (for [`Plugin::app_ends_frames`]: build the plugin, then `ctx.add_plugin`).
    pub fn start(
        ctx: &Context,
        builder: winit_automation::Builder,
    ) -> Result<Automation, StartError> {
        let waker = ctx.clone();
        builder
            .waker(move || waker.request_repaint_after_for(WAKE, ViewportId::ROOT))
            .start()
    }

    /// The automation handle the plugin drives; `None` once egui has exited.
    pub fn automation(&self) -> Option<&Arc<Automation>> {
        self.automation.as_ref()
    }

    fn viewport(&mut self, viewport: ViewportId) -> &mut Viewport {
        Viewport::of(&mut self.viewports, viewport)
    }

    /// Tells the plugin `viewport`'s window state when it changed: its size from egui's
    /// `ViewportInfo` (else the screen rectangle, headless), egui's scale, focus and title.
    fn window_state(&mut self, viewport: ViewportId, ctx: &Context, raw: &RawInput) {
        let Some(automation) = self.automation.clone() else {
            return;
        };
        let info = raw.viewports.get(&viewport);
        let native = info.and_then(|i| i.native_pixels_per_point).unwrap_or(1.0);
        let zoom = ctx.zoom_factor();
        let size = logical_size(info.and_then(|i| i.inner_rect), raw.screen_rect, zoom);
        // The map's entry, beside the program's name (two fields, two borrows).
        let v = Viewport::of(&mut self.viewports, viewport);
        v.pixels_per_point = native * zoom;
        let Some((width, height)) = size.or(v.state.as_ref().map(|s| (s.width, s.height))) else {
            return;
        };
        let title = info
            .and_then(|i| i.title.as_deref())
            .filter(|t| !t.is_empty())
            .or(v.title.as_deref())
            .unwrap_or(&self.program);
        let (scale_factor, focused) = (
            f64::from(native),
            info.and_then(|i| i.focused).unwrap_or(raw.focused),
        );
        // Compared in place: an unchanged window costs no allocation.
        let unchanged = v.state.as_ref().is_some_and(|s| {
            s.title == title
                && s.width == width
                && s.height == height
                && s.scale_factor == scale_factor
                && s.focused == focused
        });
        if !unchanged {
            let state = WindowState {
                title: title.to_owned(),
                width,
                height,
                scale_factor,
                focused,
            };
            automation.window_state(window_id(viewport), state.clone());
            v.state = Some(state);
        }
    }

    /// Hands each viewport's waiting screenshots to egui's screenshot path, in the root's last
    /// pass (whose output carries every viewport's commands). eframe reads the next frame of a
    /// root or deferred viewport back; it reads no immediate viewport back, so a screenshot of
    /// one is answered `unsupported` at once.
    fn screenshots(&mut self, output: &mut FullOutput) {
        let Some(frame) = self.frame.as_mut() else {
            return;
        };
        let mut shots = Vec::new();
        for (&id, out) in output.viewport_output.iter_mut() {
            let Some(capture) = frame.toolkit_capture(window_id(id)) else {
                continue;
            };
            // egui leaves an immediate viewport's class at its default: it is the one other than
            // the root with no callback of its own (a deferred one has its `viewport_ui_cb`).
            let immediate = out.class == ViewportClass::Immediate
                || (id != ViewportId::ROOT && out.viewport_ui_cb.is_none());
            if immediate {
                let window = capture.window();
                capture.refuse(Failure::new(
                    ErrorCode::Unsupported,
                    format!(
                        "eframe does not read back the frames of an immediate viewport (window {window})"
                    ),
                    "screenshot the root window, or show this content in a deferred viewport",
                ));
                continue;
            }
            let shot: Shot = Arc::new(Mutex::new(Some(capture)));
            let delivered = Arc::clone(&shot);
            // egui reads the frame back once it is painted and calls back with its pixels, from
            // the painter's thread; the service thread encodes them. A callback egui drops
            // uncalled answers the screenshot with why (`ToolkitCapture`'s drop).
            let callback = egui::ScreenshotCallback::new(move |image: Arc<egui::ColorImage>| {
                let [w, h] = image.size;
                if let Some(capture) = take(&delivered) {
                    capture.deliver(w as u32, h as u32, Arc::new(Pixels(image)));
                }
            });
            shots.push((id, shot));
            out.commands.push(ViewportCommand::Screenshot(callback));
        }
        for (id, shot) in shots {
            self.viewport(id)
                .shots
                .push((std::time::Instant::now(), shot));
        }
    }

    /// Asks for the frames that screenshots handed to egui wait for: the viewport's own (egui
    /// reads a frame back when it next paints it) and the root's (the answer names a frame the
    /// root publishes). One egui has not read back within [`READ_BACK`] is answered with why.
    fn await_screenshots(&mut self, ctx: &Context) {
        let mut any = false;
        for (&id, v) in &mut self.viewports {
            v.shots.retain(|(since, shot)| {
                // Kept while egui has yet to deliver it and there is time left.
                if since.elapsed() < READ_BACK {
                    return lock(shot).is_some();
                }
                if let Some(capture) = take(shot) {
                    let window = capture.window();
                    capture.refuse(Failure::new(
                        ErrorCode::AppError,
                        format!(
                            "egui did not read window {window}'s frame back within {} s",
                            READ_BACK.as_secs()
                        ),
                        "the window may be hidden, minimized or never repainted; show it and try again",
                    ));
                }
                false
            });
            if !v.shots.is_empty() {
                ctx.request_repaint_after_for(WAKE, id);
                any = true;
            }
        }
        if any {
            ctx.request_repaint_after_for(WAKE, ViewportId::ROOT);
        }
    }
}

impl egui::Plugin for Plugin {
    fn debug_name(&self) -> &'static str {
        "winit_automation"
    }

    fn setup(&mut self, ctx: &Context) {
        ctx.enable_accesskit();
    }

    fn input_hook(&mut self, ctx: &Context, raw: &mut RawInput) {
        let viewport = raw.viewport_id;
        self.passes.push(viewport);
        // A repeated pass of the same frame: its input was given to the first.
        if ctx.viewport_for(viewport, |v| v.output.num_completed_passes) > 0 {
            return;
        }
        let Some(automation) = self.automation.clone() else {
            return;
        };
        if viewport == ViewportId::ROOT {
            // The app's frame, if it did not take it, ends before the next one opens.
            self.published = None;
            let frame = self.frame.get_or_insert_with(|| automation.frame());
            self.waiting.extend(frame.input());
        }
        self.window_state(viewport, ctx, raw);
        clock_time(&automation, &mut self.viewport(viewport).time, raw);
        let window = window_id(viewport);
        let mut waiting = std::mem::take(&mut self.waiting);
        let v = self.viewport(viewport);
        waiting.retain(|input| {
            let mine = input
                .window()
                .map_or(viewport == ViewportId::ROOT, |w| w == window);
            if !mine {
                return true;
            }
            if !v.input.push(input, v.pixels_per_point, raw) {
                match input {
                    Input::Resize { size, .. } => {
                        // egui points: logical pixels over egui's zoom.
                        let zoom = f64::from(ctx.zoom_factor());
                        let points = |l: f64| (l / zoom) as f32;
                        ctx.send_viewport_cmd_to(
                            viewport,
                            ViewportCommand::InnerSize(egui::vec2(
                                points(size.width),
                                points(size.height),
                            )),
                        );
                    }
                    Input::Quit => {
                        ctx.send_viewport_cmd_to(ViewportId::ROOT, ViewportCommand::Close)
                    }
                    _ => {}
                }
            }
            false
        });
        // Only `screenshot` with `Builder::app_screenshots` is a request here; egui apps leave
        // screenshots to the plugin.
        let (requests, rest): (Vec<Input>, Vec<Input>) = waiting
            .into_iter()
            .partition(|i| matches!(i, Input::Request(_)));
        for input in requests {
            if let Input::Request(request) = input {
                let verb = request.command().verb();
                request.reply(Err(Failure::new(
                    ErrorCode::Unsupported,
                    format!("the egui plugin does not answer {verb} itself"),
                    "leave Builder::app_screenshots off: the plugin takes screenshots through egui",
                )));
            }
        }
        // Input for another viewport waits for its pass; that viewport is asked to run one.
        for input in &rest {
            if let Some(w) = input.window()
                && let Some(&other) = self.viewports.keys().find(|&&id| window_id(id) == w)
            {
                ctx.request_repaint_after_for(WAKE, other);
            }
        }
        self.waiting = rest;
    }

    fn on_end_pass(&mut self, ui: &mut egui::Ui) {
        // Inside the pass, egui's memory is this viewport's (after an immediate viewport's pass
        // it is its parent's again).
        let ctx = ui.ctx().clone();
        self.viewport(ctx.viewport_id()).scene.read_memory(&ctx);
    }

    fn output_hook(&mut self, ctx: &Context, output: &mut FullOutput) {
        let viewport = self.passes.pop().unwrap_or(ViewportId::ROOT);
        let Some(automation) = self.automation.clone() else {
            return;
        };
        // egui runs the pass again when it asked to discard this one: that one is the frame.
        let max_passes = ctx.options(|o| o.max_passes.get());
        let platform = &output.platform_output;
        if platform.requested_discard() && platform.num_completed_passes < max_passes {
            return;
        }
        let window = window_id(viewport);
        if self.frame.is_none() {
            // A deferred viewport's pass between the root's frames: the root's frame, if the app
            // did not take it, ends before the next one opens (as in `input_hook`).
            self.published = None;
        }
        let frame = self.frame.get_or_insert_with(|| automation.frame());
        let v = self
            .viewports
            .entry(viewport)
            .or_insert_with(|| Viewport::new(viewport));
        if let Some(title) = output
            .viewport_output
            .get(&viewport)
            .and_then(|o| o.builder.title.clone())
        {
            v.title = Some(title);
        }
        v.scene.report(ctx, output, frame, window);
        if let Some(mut update) = output.platform_output.accesskit_update.clone() {
            v.scene.annotate(&mut update);
            frame.tree_update(window, update);
        }
        if viewport != ViewportId::ROOT {
            // A deferred viewport's pass runs between the root's frames: the root's next frame
            // publishes what it changed.
            if self.passes.is_empty() {
                ctx.request_repaint_after_for(WAKE, ViewportId::ROOT);
                self.await_screenshots(ctx);
            }
            return;
        }
        if self.ends_frames {
            self.screenshots(output);
            self.await_screenshots(ctx);
            // Ends the frame.
            self.frame = None;
        } else {
            // The app draws and ends the frame; the tree is complete already, so the answers of
            // this frame's actions go out now, not after the app's GPU work.
            self.published = self.frame.take().map(Frame::publish);
        }
        // A viewport egui no longer lists is closed: its window leaves the snapshot, and input
        // for it has nowhere to go.
        let open = &output.viewport_output;
        self.viewports.retain(|id, _| {
            let alive = open.contains_key(id);
            if !alive {
                automation.window_closed(window_id(*id));
            }
            alive
        });
        let open: Vec<WindowId> = open.keys().map(|&id| window_id(id)).collect();
        self.waiting
            .retain(|i| i.window().is_none_or(|w| open.contains(&w)));
    }

    fn on_exit(&mut self, _ctx: &Context) {
        self.frame = None;
        self.published = None;
        if let Some(automation) = self.automation.take() {
            for &viewport in self.viewports.keys() {
                automation.window_closed(window_id(viewport));
            }
        }
    }
}

/// egui's time is the plugin's clock's (after the root's input, which a `clock` command moves):
/// the wall clock's by default, the virtual clock's when the run is on it. On the virtual clock
/// egui's predicted frame time is the time since the viewport's last pass too (0 in a frame that
/// did not move the clock): egui's animations step by `stable_dt`, which is that time or the
/// predicted one depending on whether the frame before asked for a repaint; equal, they move by
/// the clock alone, however many frames the app draws at one time.
fn clock_time(automation: &Automation, last: &mut Option<f64>, raw: &mut RawInput) {
    let clock = automation.clock();
    let now = clock.time.as_secs_f64();
    raw.time = Some(now);
    if clock.mode == ClockMode::Virtual {
        let since = last.map_or(clock.step.as_secs_f64(), |last| (now - last).max(0.0));
        raw.predicted_dt = since as f32;
    }
    *last = Some(now);
}

/// The title of a window whose title nobody says (winit cannot read a title back on X11 and
/// Wayland, and eframe keeps the root viewport's to itself): the program's name. Read once, when
/// the plugin is made.
#[allow(
    clippy::disallowed_methods,
    reason = "once, in Plugin::new, before any frame: the frame loop reads the stored name"
)]
fn program_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "egui".to_owned())
}

/// A screenshot handed to egui, shared by the callback that delivers it and the plugin, which
/// answers it if egui takes too long: whichever takes it first answers it.
type Shot = Arc<Mutex<Option<winit_automation::ToolkitCapture>>>;

fn lock(shot: &Shot) -> std::sync::MutexGuard<'_, Option<winit_automation::ToolkitCapture>> {
    shot.lock().unwrap_or_else(PoisonError::into_inner)
}

fn take(shot: &Shot) -> Option<winit_automation::ToolkitCapture> {
    lock(shot).take()
}

/// An egui screenshot's pixels as bytes (RGBA, as the frame held them).
struct Pixels(Arc<egui::ColorImage>);

impl AsRef<[u8]> for Pixels {
    fn as_ref(&self) -> &[u8] {
        self.0.as_raw()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_s_logical_size_is_egui_s_points_times_its_zoom() {
        let rect = |w, h| {
            Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(w, h),
            ))
        };
        // egui-winit's inner rectangle first; headless, the screen rectangle.
        assert_eq!(
            logical_size(rect(400.0, 300.0), rect(1.0, 1.0), 1.0),
            Some((400.0, 300.0))
        );
        assert_eq!(
            logical_size(None, rect(640.0, 400.0), 1.0),
            Some((640.0, 400.0))
        );
        // At 1.5 zoom egui's points are larger: 400 points span 600 logical pixels (and 1200
        // physical ones at scale 2, which the window's scale factor says).
        assert_eq!(
            logical_size(rect(400.0, 300.0), None, 1.5),
            Some((600.0, 450.0))
        );
        // A repeated pass has no rectangle: no size, rather than 0x0.
        assert_eq!(logical_size(None, None, 1.0), None);
    }
}
