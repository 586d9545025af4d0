//! The smallest app that uses the plugin: a headless counter with no window and no GPU.
//!
//! It shows the integration points every app has: start the plugin, open a frame
//! (`Automation::frame`, here through `Automation::run_headless`, which runs one whenever a
//! command wakes the app), take the frame's injected input, describe what the frame shows (widget
//! records here), and let the frame go once it is done. The same code builds with the
//! `automation` feature off; then nothing can drive it, and it says so and exits.
//!
//! ```text
//! cargo run --features automation --example counter -- --dir /tmp/counter-box
//! winit-automation --dir /tmp/counter-box click 'role=button name=Increment'   # count 1
//! winit-automation --dir /tmp/counter-box type "hello"                         # text "hello"
//! winit-automation --dir /tmp/counter-box quit
//! ```
#![allow(clippy::print_stderr)]

#[path = "shared/setup.rs"]
mod setup;

use accesskit::{Action, Role};
use winit::event::{ElementState, WindowEvent};
use winit::window::WindowId;
use winit_automation::{Automation, Bounds, Input, Widget, WindowState};
use winit_automation_protocol::{ErrorCode, Failure};

const USAGE: &str =
    "usage: counter [--dir DIR] [--size WxH] [--queue-capacity N]   (a headless app driven through its drop-box)

  --dir DIR    the automation drop-box (default: $WINIT_AUTOMATION_DIR or target/winit-automation)
  --size WxH   its window's size in logical pixels (default 320x200); --headless is accepted, and
               changes nothing: the counter is always headless
  --queue-capacity N  how many commands may wait in the drop-box (default 256)";

const INCREMENT: Bounds = Bounds::new(20.0, 60.0, 120.0, 32.0);

/// The counter's state, and what its input does to it.
#[derive(Default)]
struct Counter {
    count: u64,
    text: String,
    cursor: (f64, f64),
}

impl Counter {
    /// One input of the frame's; `false` on quit.
    fn input(&mut self, input: Input) -> bool {
        match input {
            Input::Pointer { event, .. } => match event {
                WindowEvent::CursorMoved { position, .. } => self.cursor = (position.x, position.y),
                WindowEvent::MouseInput { state: ElementState::Released, .. }
                    if INCREMENT.contains(self.cursor.0, self.cursor.1) =>
                {
                    self.count += 1
                }
                _ => {}
            },
            Input::Action { request, widget, .. }
                if request.action == Action::Click && widget.as_deref() == Some("increment") =>
            {
                self.count += 1
            }
            Input::Text { text, .. } => self.text.push_str(&text),
            Input::Quit => return false,
            Input::Request(request) => {
                let verb = request.command().verb();
                request.reply(Err(Failure::new(
                    ErrorCode::Unsupported,
                    format!("the counter example does not handle {verb}"),
                    "it handles pointer input, text and quit; the demos handle the rest",
                )));
            }
            _ => {}
        }
        true
    }

    /// What the frame shows.
    fn widgets(&self) -> Vec<Widget> {
        let count = Widget::new("count", Role::Label, format!("Count: {}", self.count));
        let text = Widget::new("text", Role::TextInput, "Text").value(self.text.clone());
        vec![
            count.bounds(Bounds::new(20.0, 20.0, 200.0, 24.0)),
            Widget::new("increment", Role::Button, "Increment")
                .bounds(INCREMENT)
                .action(Action::Click),
            text.bounds(Bounds::new(20.0, 110.0, 280.0, 28.0)).action(Action::Focus),
        ]
    }
}

fn main() {
    let args = setup::Args::parse("counter", USAGE, (320, 200), |_, _| Ok(false));
    // Headless always: with the feature off, nothing could drive it, and it exits saying so.
    let args = setup::Args { headless: true, ..args };
    let automation = setup::automation("counter", Automation::builder(), &args);
    // A headless app has no winit window; any stable id names its one "window".
    let window = WindowId::from(1);
    let (width, height) = args.size;
    automation.window_state(window, WindowState::headless("Counter", width.into(), height.into()));
    let mut counter = Counter::default();
    // A frame whenever a command arrives (or an answer waits for one): its input, in command
    // order (the plugin answers each command), then what the frame shows; it ends when dropped.
    automation.run_headless(|mut frame| {
        for input in frame.input() {
            if !counter.input(input) {
                return false; // the frame ends here: `quit` is answered
            }
        }
        // ... update and render the frame here; then describe what it shows.
        frame.widgets(window, counter.widgets());
        true
    });
}
