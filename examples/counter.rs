//! The smallest app that uses the plugin: a headless counter with a 60 Hz frame loop and no window.
//!
//! It shows the integration points every app has: start the plugin with a waker, take the frame's
//! injected input at the start of each frame, describe what the frame shows (widget records here),
//! and call `end_frame` once the frame is done. The same code builds with the `automation` feature
//! off; then it simply counts nothing, and no thread or file exists.
//!
//! ```text
//! cargo run --features automation --example counter -- --dir /tmp/counter-box
//! winit-automation --dir /tmp/counter-box click 'role=button name=Increment'   # count 1
//! winit-automation --dir /tmp/counter-box type "hello"                         # text "hello"
//! winit-automation --dir /tmp/counter-box quit
//! ```
#![allow(clippy::print_stderr)]

use std::sync::mpsc;
use std::time::{Duration, Instant};

use accesskit::{Action, Role};
use winit::event::{ElementState, WindowEvent};
use winit::window::WindowId;
use winit_automation::protocol::{ErrorCode, Failure};
use winit_automation::{Automation, Bounds, Input, Widget, WindowState};

const FRAME: Duration = Duration::from_micros(16_667);

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dir" => dir = args.next(),
            "--help" | "-h" => {
                eprintln!(
                    "usage: counter [--dir DIR]   (a headless app driven through its drop-box)"
                );
                return;
            }
            other => {
                eprintln!("counter: unknown argument {other:?}; try --help");
                std::process::exit(2);
            }
        }
    }

    // The waker runs on the service thread when commands arrive, so an idle loop wakes at once.
    let (wake, woken) = mpsc::sync_channel::<()>(1);
    let mut builder = Automation::builder().app_name("counter").waker(move || {
        let _ = wake.try_send(());
    });
    if let Some(dir) = dir {
        builder = builder.dir(dir);
    }
    let automation = match builder.start() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("counter: {e}");
            if let Some(hint) = e.hint() {
                eprintln!("hint: {hint}");
            }
            std::process::exit(1);
        }
    };
    if let Some(dir) = automation.dir() {
        eprintln!("counter: automation in {}", dir.display());
    } else {
        eprintln!("counter: built without the automation feature; nothing to drive");
        return;
    }

    // A headless app has no winit window; any stable id names its one "window".
    let window = WindowId::from(1);
    automation.window_state(
        window,
        WindowState {
            title: "Counter".into(),
            width: 320.0,
            height: 200.0,
            scale_factor: 1.0,
            focused: true,
        },
    );
    let increment = Bounds::new(20.0, 60.0, 120.0, 32.0);
    let (mut count, mut text) = (0u64, String::new());
    let mut cursor = (0.0, 0.0);
    let mut next_frame = Instant::now();
    'frames: loop {
        // Input for this frame: what the drop-box sent, in order. The plugin answers each command.
        for input in automation.begin_frame() {
            match input {
                Input::Pointer { event, .. } => match event {
                    WindowEvent::CursorMoved { position, .. } => cursor = (position.x, position.y),
                    WindowEvent::MouseInput {
                        state: ElementState::Released,
                        ..
                    } if increment.contains(cursor.0, cursor.1) => count += 1,
                    _ => {}
                },
                Input::Action {
                    request, widget, ..
                } if request.action == Action::Click && widget.as_deref() == Some("increment") => {
                    count += 1
                }
                Input::Text { text: typed, .. } => text.push_str(&typed),
                Input::Quit => {
                    automation.end_frame();
                    break 'frames;
                }
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
        }
        // ... update and render the frame here; then describe what it shows.
        automation.widgets(
            window,
            vec![
                Widget::new("count", Role::Label, format!("Count: {count}"))
                    .bounds(Bounds::new(20.0, 20.0, 200.0, 24.0)),
                Widget::new("increment", Role::Button, "Increment")
                    .bounds(increment)
                    .action(Action::Click),
                Widget::new("text", Role::TextInput, "Text")
                    .value(text.clone())
                    .bounds(Bounds::new(20.0, 110.0, 280.0, 28.0))
                    .action(Action::Focus),
            ],
        );
        automation.end_frame();

        next_frame += FRAME;
        let now = Instant::now();
        if next_frame > now {
            let _ = woken.recv_timeout(next_frame - now);
        } else {
            next_frame = now;
        }
    }
}
