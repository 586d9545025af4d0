//! Starting the plugin: the directory's checks and lock, the waker, the service thread, and the
//! render end an app's frame loop holds ([`start`]).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use winit_automation_dropbox::dir;
use winit_automation_link::{ClockMode, Idle, Options, RenderEnd, Waker};
use winit_automation_protocol::{CLOCK_ENV as CLOCK_VAR, DirError};

/// Creates or checks the directory, takes its lock and starts the service thread, which holds
/// the lock until it has removed `ready.txt` (the next app cannot take the directory while this
/// one still answers), and takes the path again if the directory goes; returns the render end for
/// the app's frame loop.
pub fn start(options: Options) -> Result<RenderEnd, StartError> {
    let clock = clock_mode(options.clock)?;
    let dir = dir::resolve_dir(options.dir.as_deref());
    let app_name = options.name.unwrap_or_else(default_name);
    let id = dir::prepare(&dir).map_err(StartError::Dir)?;
    let lock = dir::lock(&dir, &app_name).map_err(StartError::Dir)?;
    let (wake, woken) = crossbeam_channel::bounded(1);
    let user = options.waker;
    // The app's waker, and the wake-up a headless loop waits for.
    let waker: Waker = Arc::new(move || {
        let _ = wake.try_send(());
        if let Some(user) = &user {
            user();
        }
    });
    let service = crate::spawn(
        Config {
            dir: dir.clone(),
            app_name,
            queue_capacity: options.capacity,
            max_command_bytes: options.max_bytes,
            reap_after: options.reap_after,
            response_ttl: options.response_ttl,
            app_screenshots: options.app_screenshots,
            hover_frame: options.hover_frame,
            keys_without_focus: options.keys_without_focus,
        },
        (id, lock),
        waker.clone(),
    )
    .map_err(|e| StartError::Io(dir.clone(), e))?;
    Ok(RenderEnd::new(dir, service, waker, Idle(woken), clock))
}

/// The clock frames start on: `WINIT_AUTOMATION_CLOCK` (`real` or `virtual`, any case), else
/// the builder's, else real. A value that is neither is refused, not read as real.
fn clock_mode(builder: Option<ClockMode>) -> Result<ClockMode, StartError> {
    match std::env::var(CLOCK_VAR) {
        Ok(value) => ClockMode::parse(&value).ok_or(StartError::Clock(value)),
        Err(_) => Ok(builder.unwrap_or_default()),
    }
}

fn default_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "app".to_owned())
}

/// What the service needs to start.
pub(crate) struct Config {
    pub dir: PathBuf,
    pub app_name: String,
    pub queue_capacity: usize,
    pub max_command_bytes: usize,
    pub reap_after: Duration,
    /// How long a response may wait to be read before the service removes it.
    pub response_ttl: Duration,
    /// `screenshot` goes to the app as a request instead of being captured by the plugin.
    pub app_screenshots: bool,
    /// Pointer gestures move the pointer one frame before they press (`Builder::hover_frame`).
    pub hover_frame: bool,
    /// The app reads keys without a focused node (`Builder::keys_without_focus`).
    pub keys_without_focus: bool,
}

/// Why the plugin could not start.
#[derive(Debug)]
#[non_exhaustive]
pub enum StartError {
    /// A lock held by another app, a symlinked or foreign directory.
    Dir(DirError),
    /// Creating files in the directory or starting the thread failed.
    Io(PathBuf, std::io::Error),
    /// `WINIT_AUTOMATION_CLOCK` holds neither `real` nor `virtual` (its value).
    Clock(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Dir(e) => write!(f, "winit-automation cannot start: {e}"),
            StartError::Io(dir, e) => {
                write!(f, "winit-automation cannot start in {}: {e}", dir.display())
            }
            StartError::Clock(value) => write!(
                f,
                "winit-automation cannot start: {CLOCK_VAR}={value:?} names no clock"
            ),
        }
    }
}

impl StartError {
    /// How to fix it, when there is something to say.
    pub fn hint(&self) -> Option<String> {
        match self {
            StartError::Dir(e) => e.hint(),
            StartError::Io(..) => {
                Some("check the directory's permissions and free space".to_owned())
            }
            StartError::Clock(_) => Some(format!(
                "set {CLOCK_VAR} to real or virtual, or unset it (the real clock)"
            )),
        }
    }

    /// The directory's refusal (locked, symlinked, foreign, writable by others), if that is why.
    pub fn dir_error(&self) -> Option<&DirError> {
        match self {
            StartError::Dir(e) => Some(e),
            StartError::Io(..) | StartError::Clock(_) => None,
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Dir(e) => Some(e),
            StartError::Io(_, e) => Some(e),
            StartError::Clock(_) => None,
        }
    }
}
