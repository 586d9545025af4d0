//! The plugin (feature `automation`): starting it, and the render side's types under the names
//! [`crate::imp`] gives them.

use std::fmt;
use std::path::PathBuf;

use super::options::Options;
use crate::dropbox::{DirError, dir};

pub(crate) use crate::capture::{Later, Published};
pub(crate) use crate::render::RenderSide as Render;

/// Creates or checks the directory, takes its lock and starts the service thread, which holds
/// the lock until it has removed `ready.txt`.
pub(crate) fn start(options: Options) -> Result<Render, StartFailure> {
    let dir = dir::resolve_dir(options.dir.as_deref());
    let app_name = options.name.unwrap_or_else(default_name);
    dir::prepare(&dir).map_err(StartFailure::Dir)?;
    let lock = dir::lock(&dir, &app_name).map_err(StartFailure::Dir)?;
    let (wake, woken) = crossbeam_channel::bounded(1);
    let user = options.waker;
    // The app's waker, and the wake-up `Automation::run_headless` waits for.
    let waker: super::options::Waker = std::sync::Arc::new(move || {
        let _ = wake.try_send(());
        if let Some(user) = &user {
            user();
        }
    });
    let service = crate::service::start(crate::service::Config {
        dir: dir.clone(),
        app_name,
        queue_capacity: options.capacity,
        max_command_bytes: options.max_bytes,
        reap_after: options.reap_after,
        response_ttl: options.response_ttl,
        waker: Some(waker.clone()),
        app_screenshots: options.app_screenshots,
        hover_frame: options.hover_frame,
        _lock: lock,
    })
    .map_err(|e| StartFailure::Io(dir.clone(), e))?;
    Ok(Render::new(dir, service, waker, crate::idle::Idle(woken)))
}

fn default_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "app".to_owned())
}

/// Why the plugin could not start.
#[derive(Debug)]
pub(crate) enum StartFailure {
    /// A lock held by another app, a symlinked or foreign directory.
    Dir(DirError),
    /// Creating files in the directory or starting the thread failed.
    Io(PathBuf, std::io::Error),
}

impl StartFailure {
    pub fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartFailure::Dir(e) => write!(f, "winit-automation cannot start: {e}"),
            StartFailure::Io(dir, e) => {
                write!(f, "winit-automation cannot start in {}: {e}", dir.display())
            }
        }
    }

    pub fn hint(&self) -> Option<String> {
        match self {
            StartFailure::Dir(e) => e.hint(),
            StartFailure::Io(..) => {
                Some("check the directory's permissions and free space".to_owned())
            }
        }
    }

    pub fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartFailure::Dir(e) => Some(e),
            StartFailure::Io(_, e) => Some(e),
        }
    }

    pub fn dir_error(&self) -> Option<&DirError> {
        match self {
            StartFailure::Dir(e) => Some(e),
            StartFailure::Io(..) => None,
        }
    }
}
