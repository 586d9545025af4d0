//! The one in-process test app: the real plugin and service thread in a temporary drop-box, with a
//! render loop that does what a winit app's frame loop does, minus the window and (unless the
//! test brings one) the GPU.
//!
//! Two ways to drive it, chosen when it starts:
//! - [`TestAppBuilder::start`]: the render loop runs on its own thread, woken by the plugin's waker
//!   and ticking every few milliseconds, like an app that redraws on demand. The test talks to it
//!   through the client and feeds it with [`TestApp::feed`] / [`TestApp::publish`].
//! - [`TestAppBuilder::stepped`]: the test thread is the render thread. It owns the
//!   [`Automation`] and runs each frame itself ([`SteppedApp::frame`]), for tests that draw with a
//!   real device, need exact frames, or time the render side (the benches). The frame being built
//!   stays open between calls ([`SteppedApp::open_frame`]) until [`SteppedApp::end_frame`] ends it.
//!
//! Either way the app records what it was handed, frame by frame ([`Handed`]), answers the
//! requests it gets by the rules below, and stops cleanly when dropped, also while a test panics.
//! Answers to [`Input::Request`] (only `screenshot` arrives as one, with `app_screenshots` on,
//! the default here):
//! - `screenshot fail`: the error `app_error` (the app's error path);
//! - `screenshot drop`: dropped unanswered (the plugin answers `not_handled`);
//! - `screenshot LABEL`: writes a small file as `screenshot-LABEL.png` and answers `file <name>`;
//! - anything else: `echo <command line>`.
//!
//! Tests include it through `tests/common/mod.rs`; benches with
//! `#[path = "../tests/common/app.rs"] mod app;`. It compiles with the `automation` feature off too
//! (the plugin is then a no-op and there is no client), for the benches' baseline.
#![allow(dead_code)]

use std::cell::{RefCell, RefMut};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use accesskit::{Action, ActionData, NodeId, TreeUpdate};
use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, TouchPhase, WindowEvent};
use winit::keyboard::ModifiersState;
use winit::window::WindowId;
use winit_automation::{Automation, Builder, Input, Request, WindowState};
#[cfg(feature = "automation")]
use winit_automation_client::Client;
use winit_automation_protocol::Response;
use winit_automation_protocol::{Command, ErrorCode, Failure};

/// The plugin's frame (this file's [`Frame`] is the record of one).
type AppFrame = winit_automation::Frame;

/// The test app's window (the one [`TestAppBuilder::tree`] and [`TestApp::publish`] feed).
pub fn window_id() -> WindowId {
    WindowId::from(1)
}

/// How often the threaded render loop runs a frame when nothing wakes it.
const TICK: Duration = Duration::from_millis(5);

/// How long the harness waits for anything before it fails the test.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// An 800x600 focused window.
pub fn window_state(title: &str, scale_factor: f64) -> WindowState {
    WindowState {
        title: title.into(),
        width: 800.0,
        height: 600.0,
        scale_factor,
        focused: true,
    }
}

/// What the app was handed, simplified so tests can compare it.
#[derive(Debug, Clone, PartialEq)]
pub enum Handed {
    /// A cursor move, in physical pixels.
    Move(f64, f64),
    /// A button press (`true`) or release.
    Button(MouseButton, bool),
    /// A wheel turn in pixels, with winit's signs.
    Wheel(f64, f64),
    /// The modifiers `ModifiersChanged` says are held from now on (empty: all let go).
    Modifiers(ModifiersState),
    /// A finger (its id) touches, moves or lifts, at a point in physical pixels.
    Touch(u64, TouchPhase, f64, f64),
    Text(String),
    /// A key chord, pressed (`true`) or released.
    Key(String, bool),
    Action(Action, NodeId, Option<ActionData>),
    Resize(f64, f64),
    Quit,
    /// A request, as its command line (answered by the rules in the module doc).
    Request(String),
    /// Anything else, as its debug text, so an unexpected input shows up in an assertion.
    Other(String),
}

impl Handed {
    fn from_input(input: &Input) -> Handed {
        match input {
            Input::Pointer { event, .. } => Handed::from_pointer(event),
            Input::Text { text, .. } => Handed::Text(text.clone()),
            Input::Key { key, .. } => Handed::Key(key.chord.to_string(), key.is_pressed()),
            Input::Action { request, .. } => {
                Handed::Action(request.action, request.target_node, request.data.clone())
            }
            Input::Resize { size, .. } => Handed::Resize(size.width, size.height),
            Input::Quit => Handed::Quit,
            Input::Request(request) => Handed::Request(request.command().to_line()),
            other => Handed::Other(format!("{other:?}")),
        }
    }

    fn from_pointer(event: &WindowEvent) -> Handed {
        match event {
            WindowEvent::CursorMoved { position, .. } => Handed::Move(position.x, position.y),
            WindowEvent::MouseInput { state, button, .. } => {
                Handed::Button(*button, *state == ElementState::Pressed)
            }
            WindowEvent::MouseWheel {
                delta: MouseScrollDelta::PixelDelta(p),
                ..
            } => Handed::Wheel(p.x, p.y),
            WindowEvent::ModifiersChanged(m) => Handed::Modifiers(m.state()),
            WindowEvent::Touch(t) => Handed::Touch(t.id, t.phase, t.location.x, t.location.y),
            other => Handed::Other(format!("{other:?}")),
        }
    }
}

/// One frame that was handed something.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The frame's number (what a response's `frame` line names).
    pub number: u64,
    pub handed: Vec<Handed>,
}

/// Everything the frames were handed, in order.
pub fn all(frames: &[Frame]) -> Vec<Handed> {
    frames.iter().flat_map(|f| f.handed.clone()).collect()
}

/// The texts the frames were handed (what `type` typed), in order.
pub fn typed(frames: &[Frame]) -> Vec<String> {
    all(frames)
        .into_iter()
        .filter_map(|h| match h {
            Handed::Text(text) => Some(text),
            _ => None,
        })
        .collect()
}

/// Reacts to what a frame was handed, as the app's UI would: returns a new tree for [`window_id`].
type React = Box<dyn FnMut(&[Handed]) -> Option<TreeUpdate> + Send>;

/// Starts a test app: [`TestApp::builder`].
#[must_use = "call start() or stepped()"]
pub struct TestAppBuilder {
    name: String,
    dir: Option<PathBuf>,
    window: Option<WindowState>,
    tree: Option<TreeUpdate>,
    configure: Box<dyn FnOnce(Builder) -> Builder>,
    react: Option<React>,
    applies_resize: bool,
}

impl TestAppBuilder {
    /// The app name in `ready.txt` (default `test-app`).
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.into();
        self
    }

    /// An existing drop-box directory (a restart, a directory a test prepared); by default a
    /// fresh one in a temporary directory that goes with the app.
    pub fn dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_owned());
        self
    }

    /// [`window_id`]'s state (default: "Test", 800x600, scale 1).
    pub fn window(mut self, state: WindowState) -> Self {
        self.window = Some(state);
        self
    }

    /// Starts with no window at all.
    pub fn no_window(mut self) -> Self {
        self.window = None;
        self
    }

    /// The tree [`window_id`] shows from the start.
    pub fn tree(mut self, update: TreeUpdate) -> Self {
        self.tree = Some(update);
        self
    }

    /// Changes the plugin's builder, after the harness set its name, directory, waker and
    /// `app_screenshots(true)`.
    pub fn configure(mut self, configure: impl FnOnce(Builder) -> Builder + 'static) -> Self {
        self.configure = Box::new(configure);
        self
    }

    /// The app leaves `Input::Resize` alone, as an app whose loop never resizes; by default it
    /// applies it, as a window would (a `Resized` window event of that size, scale 1).
    pub fn ignores_resize(mut self) -> Self {
        self.applies_resize = false;
        self
    }

    /// The app's UI: called each frame of the threaded loop with what the frame was handed.
    pub fn react(
        mut self,
        react: impl FnMut(&[Handed]) -> Option<TreeUpdate> + Send + 'static,
    ) -> Self {
        self.react = Some(Box::new(react));
        self
    }

    /// Starts the app with its render loop on its own thread.
    pub fn start(mut self) -> TestApp {
        let react = self.react.take();
        let applies_resize = self.applies_resize;
        let (automation, first, wake, session) = self.launch();
        // The first frame carries the initial window and tree, as a real app's first redraw would.
        first.unwrap_or_else(|| automation.frame()).finish();
        let frames = Arc::new(Mutex::new(Vec::new()));
        let (stop, stop_rx) = bounded(1);
        let (jobs, jobs_rx) = unbounded();
        let render = RenderLoop {
            automation,
            wake,
            stop: stop_rx,
            jobs: jobs_rx,
            react,
            frames: frames.clone(),
            applies_resize,
        };
        let thread = std::thread::Builder::new()
            .name("test-app render".into())
            .spawn(move || render.run())
            .expect("spawn the render thread");
        TestApp {
            session,
            frames,
            jobs,
            stop,
            thread: Some(thread),
        }
    }

    /// Starts the app with the test thread as its render thread; nothing runs until the test
    /// runs frames. The initial tree is in a frame left open: the test's first frame ends it.
    pub fn stepped(self) -> SteppedApp {
        assert!(
            self.react.is_none(),
            "react needs the threaded loop: start()"
        );
        let (automation, first, woken, session) = self.launch();
        SteppedApp {
            automation,
            open: RefCell::new(first.map(|frame| Open {
                frame,
                begun: false,
            })),
            woken,
            session,
        }
    }

    /// Starts the plugin and hands it the initial window and tree; the tree in a frame opened for
    /// it and returned unended (nothing is published yet).
    fn launch(self) -> (Automation, Option<AppFrame>, Receiver<()>, Session) {
        let (tmp, dir) = match self.dir {
            Some(dir) => (None, dir),
            None => {
                let tmp = tempfile::tempdir().expect("a temporary directory");
                let dir = tmp.path().join("box");
                (Some(tmp), dir)
            }
        };
        let (wake_tx, wake) = bounded(1);
        let builder = Automation::builder()
            .app_name(self.name)
            .app_screenshots(true)
            .dir(&dir)
            .waker(move || {
                let _ = wake_tx.try_send(());
            });
        let automation = (self.configure)(builder)
            .start()
            .expect("the test app starts");
        if let Some(state) = self.window {
            automation.window_state(window_id(), state);
        }
        let first = self.tree.map(|update| {
            let mut frame = automation.frame();
            frame.tree_update(window_id(), update);
            frame
        });
        let session = Session::connect(dir, tmp);
        (automation, first, wake, session)
    }
}

/// What both kinds of test app share: the directory and a client connected to it.
pub struct Session {
    dir: PathBuf,
    #[cfg(feature = "automation")]
    client: Client,
    /// Last: removed after the plugin stopped.
    _tmp: Option<tempfile::TempDir>,
}

impl Session {
    fn connect(dir: PathBuf, tmp: Option<tempfile::TempDir>) -> Session {
        Session {
            #[cfg(feature = "automation")]
            client: Client::connect(Some(&dir))
                .expect("a client connects to the test app")
                .with_timeout(PATIENCE),
            dir,
            _tmp: tmp,
        }
    }

    /// The drop-box directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

#[cfg(feature = "automation")]
impl Session {
    /// A client of the app, with the harness's patience as its timeout.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Sends a command and returns its response.
    #[track_caller]
    pub fn send(&self, line: &str) -> Response {
        self.client
            .send_line(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    /// Sends a command that must succeed and returns its body.
    #[track_caller]
    pub fn ok(&self, line: &str) -> String {
        let response = self.send(line);
        assert!(response.is_ok(), "{line}: {response:?}");
        response.body().to_owned()
    }

    /// Sends a command that must fail and returns its error code.
    #[track_caller]
    pub fn error_code(&self, line: &str) -> ErrorCode {
        let response = self.send(line);
        response
            .error_code()
            .unwrap_or_else(|| panic!("{line}: expected an error, got {response:?}"))
    }

    /// `snapshot ARGS` without its metrics line (timings vary).
    #[track_caller]
    pub fn snapshot(&self, args: &str) -> String {
        self.ok(&format!("snapshot {args}"))
            .lines()
            .filter(|l| !l.starts_with("metrics "))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    /// The ref `find SELECTOR` lists first.
    #[track_caller]
    pub fn found_ref(&self, selector: &str) -> String {
        let found = self.ok(&format!("find {selector}"));
        match winit_automation_protocol::NodeLine::all(&found).first() {
            Some(node) => node.r#ref.to_string(),
            None => panic!("find {selector}: {found}"),
        }
    }

    /// The last published frame, from `status`.
    pub fn published_frame(&self) -> u64 {
        let status = self.send("status");
        assert!(status.is_ok(), "{status:?}");
        status
            .frame()
            .unwrap_or_else(|| panic!("no frame line in status: {status:?}"))
    }
}

/// Work for the render thread: runs in the next frame, which reports its number back.
type Job = (
    Box<dyn FnOnce(&Automation, &mut AppFrame) + Send>,
    Sender<u64>,
);

/// The test app with its render loop on its own thread: [`TestApp::builder`]`.start()`.
pub struct TestApp {
    session: Session,
    frames: Arc<Mutex<Vec<Frame>>>,
    jobs: Sender<Job>,
    stop: Sender<()>,
    thread: Option<JoinHandle<()>>,
}

impl TestApp {
    /// A builder with the defaults: named `test-app`, a fresh directory, one 800x600 window.
    pub fn builder() -> TestAppBuilder {
        TestAppBuilder {
            name: "test-app".into(),
            dir: None,
            window: Some(window_state("Test", 1.0)),
            tree: None,
            configure: Box::new(|b| b),
            react: None,
            applies_resize: true,
        }
    }

    /// Takes the frames handed something so far, leaving none.
    pub fn take_frames(&self) -> Vec<Frame> {
        std::mem::take(&mut *self.frames.lock().unwrap())
    }

    /// Runs `job` on the render thread in its next frame (after the frame's input was handed
    /// over, before it ends); returns the frame's number once the job has run.
    pub fn run_on_render_thread(
        &self,
        job: impl FnOnce(&Automation, &mut AppFrame) + Send + 'static,
    ) -> u64 {
        let (done, frame) = bounded(1);
        self.jobs
            .send((Box::new(job), done))
            .expect("the render loop is running");
        frame
            .recv_timeout(PATIENCE)
            .expect("the render loop runs a frame")
    }

    /// Stops the loop (dropping the plugin, as an app's exit would) and returns every frame that
    /// was handed something.
    pub fn stop(mut self) -> Vec<Frame> {
        let _ = self.stop.send(());
        self.join();
        self.take_frames()
    }

    /// Waits until the loop stops by itself (on `quit`); returns every frame handed something.
    pub fn run_until_quit(mut self) -> Vec<Frame> {
        self.join();
        self.take_frames()
    }

    /// Joins the render thread; a panic there fails the test with its own message.
    fn join(&mut self) {
        if let Some(thread) = self.thread.take()
            && let Err(panic) = thread.join()
            && !std::thread::panicking()
        {
            std::panic::resume_unwind(panic);
        }
    }
}

#[cfg(feature = "automation")]
impl TestApp {
    /// Runs `feed` in the render thread's next frame (tree updates, widget records on the frame;
    /// window state on the plugin) and returns once that frame is published, so the next command
    /// sees what it fed.
    pub fn feed(&self, feed: impl FnOnce(&Automation, &mut AppFrame) + Send + 'static) {
        let frame = self.run_on_render_thread(feed);
        let deadline = std::time::Instant::now() + PATIENCE;
        // Each status is a round trip to the service thread: this polls without sleeping.
        while self.published_frame() < frame {
            assert!(
                std::time::Instant::now() < deadline,
                "frame {frame} was never published"
            );
        }
    }

    /// Shows `update` in [`window_id`]; returns once a command would see it.
    pub fn publish(&self, update: TreeUpdate) {
        self.feed(move |_, frame| frame.tree_update(window_id(), update));
    }

    /// Hands [`window_id`]'s layers over; returns once a command would see them.
    pub fn layers(&self, layers: winit_automation::Layers) {
        self.feed(move |_, frame| frame.layers(window_id(), &layers));
    }

    /// Sends a command; returns its answer and the frames handed something meanwhile.
    #[track_caller]
    pub fn send_taking_frames(&self, line: &str) -> (Response, Vec<Frame>) {
        self.take_frames();
        let response = self.send(line);
        (response, self.take_frames())
    }

    /// Sends a command that must be refused with `code` (with a hint) before anything is handed
    /// to the app; returns the message.
    #[track_caller]
    pub fn refused(&self, line: &str, code: ErrorCode) -> String {
        let (response, frames) = self.send_taking_frames(line);
        let failure = refusal(&response, code);
        assert!(!failure.hint.is_empty(), "{line}: no hint: {response:?}");
        assert!(
            frames.is_empty(),
            "{line}: a refusal hands nothing: {frames:?}"
        );
        failure.message
    }
}

/// The failure of an answer that must be an error with `code`: its message, hint and body.
#[track_caller]
pub fn refusal(response: &Response, code: ErrorCode) -> Failure {
    let failure = response
        .failure()
        .unwrap_or_else(|| panic!("refused with {code:?}, not {response:?}"));
    assert_eq!(failure.code, code, "{response:?}");
    failure
}

impl std::ops::Deref for TestApp {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = self.stop.send(());
        self.join();
    }
}

/// The render thread of a [`TestApp`].
struct RenderLoop {
    automation: Automation,
    wake: Receiver<()>,
    stop: Receiver<()>,
    jobs: Receiver<Job>,
    react: Option<React>,
    frames: Arc<Mutex<Vec<Frame>>>,
    applies_resize: bool,
}

impl RenderLoop {
    /// Runs frames until told to stop or handed `quit`.
    fn run(mut self) {
        loop {
            let mut jobs = Vec::new();
            crossbeam_channel::select! {
                recv(self.wake) -> _ => {}
                recv(self.stop) -> _ => return,
                recv(self.jobs) -> job => jobs.extend(job),
                default(TICK) => {}
            }
            jobs.extend(self.jobs.try_iter());
            if !self.frame(jobs) {
                return;
            }
        }
    }

    /// One frame: hands the input over, lets the UI react, runs the jobs, publishes. Returns
    /// whether the app goes on (it stops after the frame that carried `quit`).
    fn frame(&mut self, jobs: Vec<Job>) -> bool {
        let automation = &self.automation;
        let mut frame = automation.frame();
        let number = frame.number();
        let handed = hand_over(automation, &mut frame, self.applies_resize);
        if let Some(update) = self.react.as_mut().and_then(|react| react(&handed)) {
            frame.tree_update(window_id(), update);
        }
        let mut done = Vec::with_capacity(jobs.len());
        for (job, tell) in jobs {
            job(automation, &mut frame);
            done.push(tell);
        }
        let quit = handed.contains(&Handed::Quit);
        if !handed.is_empty() {
            let record = Frame { number, handed };
            self.frames.lock().unwrap().push(record);
        }
        frame.finish();
        for tell in done {
            let _ = tell.send(number);
        }
        !quit
    }
}

/// Takes `frame`'s input: answers the requests, applies a resize (when `resize`: the window
/// reports the new size, scale 1) and returns everything the frame was handed.
fn hand_over(automation: &Automation, frame: &mut AppFrame, resize: bool) -> Vec<Handed> {
    frame
        .input()
        .map(|input| {
            let handed = Handed::from_input(&input);
            match input {
                Input::Request(request) => answer(automation, request),
                Input::Resize { window, size } if resize => {
                    let physical = winit::dpi::PhysicalSize::new(size.width, size.height);
                    automation.window_event(window, &WindowEvent::Resized(physical.cast()));
                }
                _ => {}
            }
            handed
        })
        .collect()
}

/// Answers a request by the rules in the module doc.
fn answer(automation: &Automation, request: Request) {
    let Command::Screenshot { label, .. } = request.command().clone() else {
        let line = request.command().to_line();
        return request.reply(Ok(format!("echo {line}")));
    };
    match label.as_str() {
        "fail" => request.reply(Err(Failure::new(
            ErrorCode::AppError,
            "the test app cannot take screenshots named fail",
            "this is the test app's error path",
        ))),
        // Dropped unanswered when this function returns.
        "drop" => {}
        _ => {
            let dir = automation.dir().expect("the plugin has a directory");
            std::fs::write(dir.join(label.file_name()), b"\x89PNG fake").unwrap();
            request.reply(Ok(format!("file {}", label.file_name())));
        }
    }
}

/// The test app run frame by frame from the test thread: [`TestApp::builder`]`.stepped()`.
///
/// One frame is open at a time, kept between calls: [`SteppedApp::begin_frame`] (or the first
/// [`SteppedApp::open_frame`]) opens it, [`SteppedApp::end_frame`] ends it (publishes it). A
/// frame opened before `begin_frame` (the initial tree's, or one `open_frame` opened to take a
/// tree) is the frame `begin_frame` hands over: its input is what waits when `begin_frame` asks
/// for it (`Frame::input`).
pub struct SteppedApp {
    /// First, with the open frame: the plugin stops (once both are gone) before its directory
    /// goes.
    automation: Automation,
    open: RefCell<Option<Open>>,
    woken: Receiver<()>,
    session: Session,
}

/// The frame a [`SteppedApp`] is building.
struct Open {
    frame: AppFrame,
    /// Whether [`SteppedApp::begin_frame`] handed its input over.
    begun: bool,
}

impl SteppedApp {
    /// The plugin, to tell it what lives outside frames (window state, window events, closed
    /// windows, the adapter and surfaces).
    pub fn automation(&self) -> &Automation {
        &self.automation
    }

    /// The frame being built, opened now if none is: to hand it what a frame takes (tree
    /// updates, widget records, layers, press reports, animation, captures). Drop the guard
    /// before the next call on the app.
    pub fn open_frame(&self) -> RefMut<'_, AppFrame> {
        RefMut::map(self.open.borrow_mut(), |open| {
            &mut open
                .get_or_insert_with(|| Open {
                    frame: self.automation.frame(),
                    begun: false,
                })
                .frame
        })
    }

    /// Starts a frame (or takes over the one already open): answers the requests and returns
    /// what the frame was handed.
    pub fn begin_frame(&self) -> Vec<Handed> {
        let mut open = self.open.borrow_mut();
        let open = open.get_or_insert_with(|| Open {
            frame: self.automation.frame(),
            begun: false,
        });
        assert!(!open.begun, "begin_frame twice: call end_frame first");
        open.begun = true;
        hand_over(&self.automation, &mut open.frame, true)
    }

    /// Publishes the frame: ends the open one, or opens one and ends it at once.
    pub fn end_frame(&self) {
        let open = self.open.borrow_mut().take();
        match open {
            Some(open) => open.frame.finish(),
            None => {
                let mut frame = self.automation.frame();
                let handed = hand_over(&self.automation, &mut frame, true);
                assert!(
                    handed.is_empty(),
                    "end_frame with no frame open took this input, lost: {handed:?} \
                     (begin_frame first)"
                );
                frame.finish();
            }
        }
    }

    /// One frame: begin, `draw`, end. Returns what the frame was handed.
    pub fn frame(&self, draw: impl FnOnce(&mut AppFrame)) -> Vec<Handed> {
        let handed = self.begin_frame();
        draw(&mut self.open_frame());
        self.end_frame();
        handed
    }

    /// Whether the plugin's waker ran (since the last call) within `limit`.
    pub fn woken(&self, limit: Duration) -> bool {
        self.woken.recv_timeout(limit).is_ok()
    }
}

#[cfg(feature = "automation")]
impl SteppedApp {
    /// Runs frames, each drawn by `draw`, a few milliseconds apart, until command `seq` is
    /// answered; returns the answer.
    #[track_caller]
    pub fn frames_until_answered(&self, seq: u64, mut draw: impl FnMut(&mut AppFrame)) -> Response {
        let answer = self
            .dir()
            .join(winit_automation_protocol::response_file(seq));
        let deadline = std::time::Instant::now() + PATIENCE;
        while !answer.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "command {seq} was never answered"
            );
            self.frame(&mut draw);
            // Paced like an app that draws every few milliseconds; the loop's condition is the
            // barrier.
            std::thread::sleep(Duration::from_millis(5));
        }
        self.client().wait(seq).unwrap()
    }
}

impl std::ops::Deref for SteppedApp {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}
