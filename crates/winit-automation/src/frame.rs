//! [`Frame`]: one frame of the app, as a value it gets from [`Automation::frame`] and gives back.
//!
//! The order of a frame is in its type, not in prose:
//!
//! 1. [`Automation::frame`] opens it; [`Frame::input`] takes the input injected for it (a frame
//!    that never asks takes none: it waits for the next frame that does).
//! 2. While it is [`Building`], the app hands over what the frame shows: the AccessKit update or
//!    widget records, the layers, the node that took a press, whether it animates.
//! 3. [`Frame::publish`] (optional) sends the tree before the drawing, so answers do not wait for
//!    the GPU; the [`Published`] frame takes no more tree, only the capture. Publishing also lets
//!    the next frame open: a `Frame<Published>` is `Send`, and may be drawn on a thread of the
//!    app's own while the next frame is built (pipelined drawing).
//! 4. [`Frame::capture`] encodes the copy of the frame's texture into the app's encoder (the copy
//!    is read back when that encoder is submitted, whenever that is);
//!    [`Frame::submit`] submits and ends the frame, and dropping a frame ends it too.
//!
//! So a frame cannot be published twice (publishing takes it), a tree cannot follow its frame's
//! publication (a [`Published`] frame has no method for it), a capture cannot follow the submit
//! (submitting takes the frame) and an ending cannot be forgotten (the drop is the ending).
//! Headless and windowed apps make the same calls:
//!
//! ```no_run
//! # use winit_automation::{Automation, Widget};
//! # use winit::window::WindowId;
//! fn draw(automation: &Automation, window: WindowId, device: &wgpu::Device, queue: &wgpu::Queue,
//!         texture: &wgpu::Texture, widgets: Vec<Widget>) {
//!     let mut frame = automation.frame();
//!     for input in frame.input() { /* the app handles it as its own */ }
//!     frame.widgets(window, widgets);
//!     let mut encoder = device.create_command_encoder(&Default::default());
//!     // ... draw into `texture` ...
//!     frame.capture(window, device, &mut encoder, texture);
//!     frame.submit(queue, [encoder.finish()]); // the frame ends: its answers go out
//! }
//! ```
//!
//! What the type refuses to compile: publishing twice,
//!
//! ```compile_fail
//! # fn f(automation: &winit_automation::Automation) {
//! let frame = automation.frame();
//! let published = frame.publish();
//! let again = frame.publish(); // error: `frame` was moved by the first publish
//! # }
//! ```
//!
//! handing over a tree once the frame is published,
//!
//! ```compile_fail
//! # fn f(automation: &winit_automation::Automation, window: winit::window::WindowId) {
//! let mut published = automation.frame().publish();
//! published.widgets(window, Vec::new()); // error: no `widgets` on `Frame<Published>`
//! # }
//! ```
//!
//! and capturing after the submit:
//!
//! ```compile_fail
//! # fn f(automation: &winit_automation::Automation, window: winit::window::WindowId,
//! #      device: &wgpu::Device, queue: &wgpu::Queue, texture: &wgpu::Texture) {
//! let mut frame = automation.frame();
//! let mut encoder = device.create_command_encoder(&Default::default());
//! frame.submit(queue, []);
//! frame.capture(window, device, &mut encoder, texture); // error: `frame` was moved by submit
//! # }
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use winit::window::WindowId;

use crate::feature;
use crate::input::{Input, from_injected};

/// Where a [`Frame`] is: [`Building`] (its tree may still change) or [`Published`].
pub trait FrameStage: sealed::Sealed {}

/// A frame whose tree, layers and press report may still be handed over.
#[derive(Debug)]
pub enum Building {}

/// A frame whose tree is out ([`Frame::publish`]): only its capture and its ending are left.
#[derive(Debug)]
pub enum Published {}

impl FrameStage for Building {}
impl FrameStage for Published {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Building {}
    impl Sealed for super::Published {}
}

/// One frame of the app: from [`Automation::frame`](crate::Automation::frame) to its drop (or
/// [`Frame::submit`], [`Frame::finish`]). See the module docs for the order its type keeps.
#[must_use = "a frame ends when it is dropped: keep it until the frame is drawn and submitted"]
pub struct Frame<S: FrameStage = Building> {
    end: End,
    stage: PhantomData<fn() -> S>,
}

// A published frame may be drawn on another thread (pipelined drawing): it must stay `Send`.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Frame<Published>>();
};

/// Ends the frame when it goes: publishes it unless it was, and hands its captures over.
struct End {
    render: Arc<feature::Render>,
    /// Whether this value opened the frame; `false` for one that joined a frame already open,
    /// whose end does nothing.
    opened: bool,
    /// The frame [`Frame::publish`] published, with its pictures.
    published: Option<feature::PublishedFrame>,
    /// Whether [`Frame::input`] was called (it takes the input once).
    asked: bool,
}

impl Drop for End {
    fn drop(&mut self) {
        if self.opened {
            self.render.end_frame(self.published.take(), self.asked);
        }
    }
}

impl Frame<Building> {
    pub(crate) fn open(render: &Arc<feature::Render>) -> Frame<Building> {
        Frame {
            end: End {
                render: Arc::clone(render),
                opened: render.open_frame(),
                published: None,
                asked: false,
            },
            stage: PhantomData,
        }
    }

    /// This frame's time since the plugin started: animate by it, not by `Instant::now()`. On
    /// the real clock (the default) it follows the wall clock; on the virtual clock
    /// ([`Builder::clock`](crate::Builder::clock), `WINIT_AUTOMATION_CLOCK=virtual`) it is the
    /// plugin's own and moves only in steps, so the same commands see the same times. Read it
    /// after [`Frame::input`]: a `clock` command moves it there.
    pub fn time(&self) -> Duration {
        self.end.render.frame_time().0
    }

    /// The time since the frame before: [`Frame::time`]'s step (zero while a virtual clock
    /// stands still).
    pub fn delta(&self) -> Duration {
        self.end.render.frame_time().1
    }

    /// The input injected for this frame, in command order, taken when asked for: once (a second
    /// call yields nothing), and a frame that never asks takes none, so a frame that only hands
    /// over a tree cannot swallow a command's input. Feed each [`Input`] to the handler its kind
    /// belongs to (see [`Input`]'s variants); one dropped unread is lost to the app (a dropped
    /// [`Input::Request`] is answered `not_handled`).
    ///
    /// The plugin answers each command once its last input was handed over and its frame is
    /// published: a click is one frame (a move, a press and a release, in order; see
    /// [`Builder::hover_frame`](crate::Builder::hover_frame)), a drag one frame per step. Only
    /// [`Input::Request`] needs an answer from the app. A frame that joined an open one
    /// ([`Automation::frame`](crate::Automation::frame)) yields nothing.
    pub fn input(&mut self) -> Inputs {
        let inner = if self.end.opened && !std::mem::replace(&mut self.end.asked, true) {
            self.end.render.take_input()
        } else {
            Vec::new().into_iter()
        };
        Inputs { inner }
    }

    /// Hands over an AccessKit update the app's toolkit produced for `window` (full or
    /// incremental, in the order produced). Feed every update, whether or not an assistive
    /// technology is connected: `accesskit_winit` forwards updates only while one is, and the
    /// mirror needs all of them. The update moves into a channel.
    pub fn tree_update(&mut self, window: WindowId, update: accesskit::TreeUpdate) {
        self.end.render.tree_update(u64::from(window), update);
    }

    /// Hands over this frame's widget records for `window`, for apps with no AccessKit tree. Each
    /// call replaces the previous set.
    pub fn widgets(&mut self, window: WindowId, widgets: Vec<crate::Widget>) {
        self.end.render.widgets(u64::from(window), widgets);
    }

    /// What `window`'s AccessKit tree cannot say: the paint order of its layers, the modal one and
    /// the containers that clip (see [`crate::Layers`]). They hold until the next call (an empty
    /// value goes back to tree order). A value equal to the last one is neither copied nor sent,
    /// so an app that keeps its `Layers` and refills it in place allocates nothing.
    pub fn layers(&mut self, window: WindowId, layers: &crate::Layers) {
        self.end.render.layers(u64::from(window), layers);
    }

    /// Which node of `window`'s tree took the pointer press this frame's input held (`None`: none
    /// took it, the press fell on empty space), once the toolkit has handled it. Ignored in a
    /// frame that delivered no press, so reporting the toolkit's answer every frame is fine. A
    /// `click` or `drag` whose press another node took is answered `missed`; with no report the
    /// answer says `hit unverified` (protocol section 4.6). Never allocates.
    pub fn pointer_hit(&mut self, window: WindowId, node: Option<accesskit::NodeId>) {
        self.end.render.pointer_hit(u64::from(window), node);
    }

    /// `window`'s toolkit ran its pass in this frame: it handled the input delivered to `window`
    /// so far, and its [`Frame::pointer_hit`] report, if any, is in. For adapters whose windows
    /// run their passes in winit redraws of their own, after the frame that took the input (egui's
    /// deferred viewports; the egui plugin calls it for every viewport's pass): once a window has
    /// announced a pass, the answer to a press delivered to it waits for its next pass, for at
    /// least 3 frames and 1 s, before it says `hit unverified` (protocol section 4.6, "Verified
    /// hits"). A window never announced is answered when its press's frame ends. Never allocates
    /// after the window's first call.
    pub fn window_pass(&mut self, window: WindowId) {
        self.end.render.window_pass(u64::from(window));
    }

    /// Whether `window` is animating: it wants more frames with no input (egui: a zero repaint
    /// delay, see `winit_automation_egui::is_animating`). `settle` waits until no window
    /// animates as well as for an unchanged tree. Unchanged, it costs a comparison.
    pub fn animating(&mut self, window: WindowId, animating: bool) {
        self.end.render.animating(u64::from(window), animating);
    }

    /// Publishes the frame before it is drawn: its tree is complete, so the answers of the
    /// actions it applied are written now, not after the GPU work; screenshots still wait for
    /// their pixels. Without it, the frame is published when it ends.
    ///
    /// The published frame no longer holds the frame loop: the next
    /// [`Automation::frame`](crate::Automation::frame) opens a new frame while this one is still
    /// drawn, and the screenshots this frame owes travel with it. An app whose drawing is slow
    /// (a software rasterizer, a large scene) can send the `Frame<Published>` with what it draws
    /// to a render thread of its own, so that the next command is taken while the last one's
    /// picture is drawn (docs/integration.md, "Drawing on another thread"). Such a thread may
    /// skip a frame when a newer one is already waiting for it, unless
    /// [`Frame::wants_capture`] says a screenshot waits for its picture.
    pub fn publish(self) -> Frame<Published> {
        let Frame { mut end, .. } = self;
        if end.opened {
            end.published = Some(end.render.publish(end.asked));
        }
        Frame {
            end,
            stage: PhantomData,
        }
    }
}

impl<S: FrameStage> Frame<S> {
    /// The number of this frame, as answers and snapshots name it (0 with the feature off).
    pub fn number(&self) -> u64 {
        match &self.end.published {
            Some(published) => published.number(),
            None => self.end.render.frame_number(),
        }
    }

    /// Whether a screenshot of `window` waits for this frame's texture: an app can skip making
    /// its texture copyable when not, and a headless app, whose frames nobody sees, can skip
    /// drawing altogether.
    pub fn wants_capture(&self, window: WindowId) -> bool {
        self.end
            .render
            .wants_capture(u64::from(window), self.end.published.as_ref())
    }

    /// Whether this frame's picture is drawn over before anyone could see it: every command whose
    /// input it carries has more input, or another command that draws, queued behind it (a
    /// burst), and no screenshot waits for it. The app may then skip drawing and presenting it:
    /// its tree is published and its answers go out as for any frame, and the next frame comes
    /// with the next command. The last frame of a burst, a frame a screenshot or a trace wants,
    /// a frame with no injected input and every frame with the feature off are never superseded;
    /// if the command meant to follow never goes out (it expired, say), the app is woken for a
    /// frame that is drawn (docs/protocol.md, section 4.1, "Bursts").
    ///
    /// Skipping a frame leaves its changes to the next frame to draw: an app that redraws only
    /// what changed keeps what this frame changed marked dirty, in every window (the next
    /// command may go to another window). An app that answers screenshot requests itself
    /// (`Builder::app_screenshots`) draws before it answers one.
    pub fn superseded(&self) -> bool {
        self.end.opened && self.end.render.superseded(self.end.published.as_ref())
    }

    /// Hands over the texture `window`'s frame ends in (the surface texture, or the texture the
    /// frame is drawn into, [`FrameTarget::texture`](crate::FrameTarget::texture)), after drawing
    /// into `encoder`. When a screenshot waits for this frame, a copy into a staging buffer is
    /// encoded, mapped when `encoder` is submitted and read back on the service thread; nothing
    /// here waits or copies pixels.
    ///
    /// The texture needs `TextureUsages::COPY_SRC` and an 8-bit RGBA or BGRA format; otherwise
    /// the screenshot is answered with an error that says so. A screenshot whose frame was not
    /// captured is answered `unsupported`.
    pub fn capture(
        &mut self,
        window: WindowId,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) {
        let published = self.end.published.as_mut();
        self.end
            .render
            .capture(u64::from(window), device, encoder, texture, published);
    }

    /// For a toolkit that reads its frame back itself (egui's screenshot path in eframe): takes
    /// the screenshots of `window` waiting for this frame, to be answered with the pixels of the
    /// next frame through [`ToolkitCapture::deliver`](crate::ToolkitCapture::deliver). `None` when
    /// none waits. In place of [`Frame::capture`].
    pub fn toolkit_capture(&mut self, window: WindowId) -> Option<crate::ToolkitCapture> {
        // The toolkit reads back the frame after this one.
        let next = self.number() + 1;
        let published = self.end.published.as_mut();
        self.end
            .render
            .toolkit_capture(u64::from(window), next, published)
            .map(|inner| crate::ToolkitCapture { inner })
    }

    /// Submits the frame's command buffers and ends the frame: the way to end a frame that was
    /// captured, since no capture can follow it.
    pub fn submit<I>(self, queue: &wgpu::Queue, buffers: I) -> wgpu::SubmissionIndex
    where
        I: IntoIterator<Item = wgpu::CommandBuffer>,
    {
        queue.submit(buffers)
    }

    /// Ends the frame (as dropping it does): publishes it unless [`Frame::publish`] did, and
    /// hands its screenshot copies to the service thread. For a frame whose encoder the app (or
    /// its toolkit) submits itself.
    pub fn finish(self) {}
}

impl<S: FrameStage> fmt::Debug for Frame<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Frame")
            .field("number", &self.number())
            .field("published", &self.end.published.is_some())
            .finish()
    }
}

/// The input of one frame, from [`Frame::input`].
pub struct Inputs {
    inner: std::vec::IntoIter<feature::Injected>,
}

impl Iterator for Inputs {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        self.inner.next().map(from_injected)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl fmt::Debug for Inputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inputs")
            .field("left", &self.inner.len())
            .finish()
    }
}
