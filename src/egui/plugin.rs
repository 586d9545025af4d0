//! [`Plugin`]: the whole integration for an egui app, as an `egui::Plugin` registered on its
//! `Context`. egui calls it around every pass of every viewport; it does what an app would
//! otherwise write by hand with [`EguiInput`] and [`EguiScene`].

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use egui::{Context, FullOutput, RawInput, ViewportCommand, ViewportId};
use winit::window::WindowId;

use super::{EguiInput, EguiScene};
use crate::{Automation, Input, StartError, WindowState};

/// How soon the service thread's waker asks egui for the next frame.
const WAKE: std::time::Duration = std::time::Duration::from_millis(1);

/// The window id the plugin gives an egui viewport: its own, since egui (eframe above all) does
/// not say which winit window shows it. An app that captures frames itself
/// ([`Plugin::app_ends_frames`]) passes this id to [`Automation::capture`].
pub fn window_id(viewport: ViewportId) -> WindowId {
    // The root viewport is window 1 (its egui id is `u64::MAX`, a number that helps nobody in a
    // snapshot); the others keep their egui id.
    if viewport == ViewportId::ROOT {
        WindowId::from(1)
    } else {
        WindowId::from(viewport.0.value())
    }
}

/// The egui plugin (feature `egui`): register it once and every viewport of the app is a window
/// of the drop-box, with nothing else to call.
///
/// - `input_hook`: starts the plugin's frame ([`Automation::begin_frame`]) at the root
///   viewport's pass and turns injected input into egui events ([`EguiInput`]); `resize` becomes
///   `ViewportCommand::InnerSize`, `quit` `ViewportCommand::Close`.
/// - `output_hook`: hands over the AccessKit update, egui's layers, clips, modal layer, pressed
///   widget and animation ([`EguiScene`]) and each viewport's window state (size in points and
///   pixels, scale, focus, title, from egui's `ViewportInfo`); answers `screenshot` through
///   egui's own screenshot path (`ViewportCommand::Screenshot`: eframe and egui-wgpu read the
///   presented frame back) and ends the frame ([`Automation::end_frame`]).
///
/// For eframe, in the app creator:
///
/// ```ignore
/// winit_automation::egui::Plugin::install(&cc.egui_ctx, Automation::builder().app_name("my_app"))?;
/// ```
///
/// An app that draws with wgpu itself and captures the exact frame uses
/// [`Plugin::app_ends_frames`]: it then calls [`Automation::capture`] (with [`window_id`]) and
/// [`Automation::end_frame`] after its submit, as without the plugin.
pub struct Plugin {
    automation: Arc<Automation>,
    /// Whether the plugin ends each frame (and takes screenshots through egui), or the app does.
    ends_frames: bool,
    viewports: HashMap<ViewportId, Viewport>,
    /// Input for viewports whose pass has not run yet this frame.
    waiting: Vec<Input>,
    /// Screenshots handed to egui and not yet delivered: until they are, the app is asked for
    /// frames (egui-wgpu reads a frame back when it next polls the device, which an idle app
    /// would not do).
    shots: Arc<AtomicUsize>,
    /// The viewports whose pass is running, innermost last (an immediate viewport's pass runs
    /// inside its parent's); egui no longer says whose output `output_hook` gets.
    passes: Vec<ViewportId>,
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
}

impl Viewport {
    fn new(viewport: ViewportId) -> Viewport {
        Viewport {
            input: EguiInput::new(),
            scene: EguiScene::for_viewport(viewport),
            state: None,
            pixels_per_point: 1.0,
            title: None,
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

impl Plugin {
    /// A plugin that drives `automation` from egui's hooks and ends each frame itself; screenshots
    /// go through egui's screenshot path (what eframe and egui-wgpu's winit painter carry out).
    pub fn new(automation: Arc<Automation>) -> Plugin {
        Plugin {
            automation,
            ends_frames: true,
            viewports: HashMap::new(),
            waiting: Vec::new(),
            shots: Arc::new(AtomicUsize::new(0)),
            passes: Vec::new(),
        }
    }

    /// For an app that draws with wgpu itself: the app hands each frame's texture to
    /// [`Automation::capture`] (the exact frame, read back off the render thread) and calls
    /// [`Automation::end_frame`] after submitting it; the plugin does the rest.
    pub fn app_ends_frames(mut self) -> Plugin {
        self.ends_frames = false;
        self
    }

    /// Starts automation for the egui app on `ctx` and registers the plugin: the builder gets a
    /// waker that repaints the root viewport within a millisecond (an idle egui app sleeps until
    /// asked), and egui's
    /// AccessKit output is turned on. Returns the handle, which the plugin shares; the service
    /// stops when the context and every handle are gone.
    pub fn install(ctx: &Context, builder: crate::Builder) -> Result<Arc<Automation>, StartError> {
        let automation = Arc::new(Self::start(ctx, builder)?);
        ctx.add_plugin(Plugin::new(Arc::clone(&automation)));
        Ok(automation)
    }

    /// Starts automation with a waker that repaints `ctx`'s root viewport, without registering a
    /// plugin (for [`Plugin::app_ends_frames`]: build the plugin, then `ctx.add_plugin`).
    pub fn start(ctx: &Context, builder: crate::Builder) -> Result<Automation, StartError> {
        let waker = ctx.clone();
        // A millisecond, not zero: egui reports a zero repaint delay as animation
        // (`is_animating`), and `--settle` waits for that to stop while it wakes the app itself.
        builder
            .waker(move || waker.request_repaint_after_for(WAKE, ViewportId::ROOT))
            .start()
    }

    /// The automation handle the plugin drives.
    pub fn automation(&self) -> &Arc<Automation> {
        &self.automation
    }

    /// Tells the plugin `viewport`'s window state when it changed: its size from egui's
    /// `ViewportInfo` (else the screen rectangle, headless), egui's scale, focus and title.
    fn window_state(&mut self, viewport: ViewportId, ctx: &Context, raw: &RawInput) {
        let info = raw.viewports.get(&viewport);
        let native = info.and_then(|i| i.native_pixels_per_point).unwrap_or(1.0);
        let ppp = native * ctx.zoom_factor();
        let rect = info
            .and_then(|i| i.inner_rect)
            .or(raw.screen_rect)
            .unwrap_or(egui::Rect::ZERO);
        let v = self
            .viewports
            .entry(viewport)
            .or_insert_with(|| Viewport::new(viewport));
        let state = WindowState {
            title: info
                .and_then(|i| i.title.clone())
                .filter(|t| !t.is_empty())
                .or_else(|| v.title.clone())
                .unwrap_or_else(program_name),
            // Logical pixels: egui points times egui's zoom.
            width: f64::from(rect.width() * ppp / native),
            height: f64::from(rect.height() * ppp / native),
            scale_factor: f64::from(native),
            focused: info.and_then(|i| i.focused).unwrap_or(raw.focused),
        };
        v.pixels_per_point = ppp;
        if v.state.as_ref() != Some(&state) {
            self.automation
                .window_state(window_id(viewport), state.clone());
            v.state = Some(state);
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
        if viewport == ViewportId::ROOT {
            self.waiting.extend(self.automation.begin_frame());
        }
        self.window_state(viewport, ctx, raw);
        let window = window_id(viewport);
        let v = self
            .viewports
            .entry(viewport)
            .or_insert_with(|| Viewport::new(viewport));
        let mut rest = Vec::new();
        for input in self.waiting.drain(..) {
            let mine = input
                .window()
                .map_or(viewport == ViewportId::ROOT, |w| w == window);
            if !mine {
                rest.push(input);
                continue;
            }
            if v.input.push(&input, v.pixels_per_point, raw) {
                continue;
            }
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
                Input::Quit => ctx.send_viewport_cmd_to(ViewportId::ROOT, ViewportCommand::Close),
                // Only `screenshot` with `Builder::app_screenshots` comes here; egui apps leave
                // screenshots to the plugin.
                Input::Request(request) => {
                    let verb = request.command().verb();
                    request.reply(Err(crate::protocol::Failure::new(
                        crate::protocol::ErrorCode::Unsupported,
                        format!("the egui plugin does not answer {verb} itself"),
                        "leave Builder::app_screenshots off: the plugin takes screenshots through egui",
                    )));
                }
                _ => {}
            }
        }
        // Input for another viewport waits for its pass; that viewport is asked to run one.
        for input in &rest {
            if let Some(w) = input.window()
                && let Some(&other) = self.viewports.keys().find(|&&id| window_id(id) == w)
            {
                ctx.request_repaint_of(other);
            }
        }
        self.waiting = rest;
    }

    fn output_hook(&mut self, ctx: &Context, output: &mut FullOutput) {
        let viewport = self.passes.pop().unwrap_or(ViewportId::ROOT);
        let window = window_id(viewport);
        let automation = &self.automation;
        let v = self
            .viewports
            .entry(viewport)
            .or_insert_with(|| Viewport::new(viewport));
        if let Some(title) = output
            .viewport_output
            .get(&viewport)
            .and_then(|o| o.builder.title.as_ref())
        {
            v.title.clone_from(&Some(title.clone()));
        }
        v.scene.report(ctx, output, automation, window);
        if let Some(mut update) = output.platform_output.accesskit_update.clone() {
            v.scene.annotate(&mut update);
            automation.tree_update(window, update);
        }
        if self.ends_frames
            && let Some(later) = automation.capture_later(window)
            && let Some(out) = output.viewport_output.get_mut(&viewport)
        {
            // egui reads the frame back once it is painted and calls back with its pixels, from
            // the painter's thread; the service thread encodes them. (With no output for the
            // viewport, `later` is dropped here and its screenshots are answered with why.)
            self.shots.fetch_add(1, Ordering::SeqCst);
            let mut shot = Shot {
                later: Some(later),
                shots: Arc::clone(&self.shots),
            };
            let callback = egui::ScreenshotCallback::new(move |image: Arc<egui::ColorImage>| {
                let [w, h] = image.size;
                if let Some(later) = shot.later.take() {
                    later.deliver(w as u32, h as u32, Arc::new(Pixels(image)));
                }
            });
            out.commands.push(ViewportCommand::Screenshot(callback));
        }
        if self.shots.load(Ordering::SeqCst) > 0 {
            ctx.request_repaint_after_for(WAKE, viewport);
        }
        if viewport == ViewportId::ROOT {
            if self.ends_frames {
                automation.end_frame();
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
    }

    fn on_exit(&mut self, _ctx: &Context) {
        for &viewport in self.viewports.keys() {
            self.automation.window_closed(window_id(viewport));
        }
    }
}

/// The title of a window whose title nobody says (winit cannot read a title back on X11 and
/// Wayland, and eframe keeps the root viewport's to itself): the program's name.
fn program_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "egui".to_owned())
}

/// A screenshot handed to egui: counted in [`Plugin::shots`] until egui calls back or drops the
/// callback uncalled (a surface format it cannot read back), when the screenshot is answered
/// with the reason ([`crate::LaterCapture`]'s drop).
struct Shot {
    later: Option<crate::LaterCapture>,
    shots: Arc<AtomicUsize>,
}

impl Drop for Shot {
    fn drop(&mut self) {
        self.shots.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An egui screenshot's pixels as bytes (RGBA, as the frame held them).
struct Pixels(Arc<egui::ColorImage>);

impl AsRef<[u8]> for Pixels {
    fn as_ref(&self) -> &[u8] {
        self.0.as_raw()
    }
}
