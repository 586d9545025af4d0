//! Screenshots through Bevy's own path: a `Screenshot` entity for the window, spawned in `Last`
//! after the frame is published, so Bevy renders and reads back that very frame; its
//! `ScreenshotCaptured` hands the pixels to the service thread through link's toolkit capture,
//! which encodes them (BGRA or RGBA, as the surface holds them: no swizzle here).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use winit_automation_link::ToolkitScreenshots;
use winit_automation_protocol::{ErrorCode, Failure};

/// How long Bevy may take to read a screenshot's frame back before the screenshot is answered
/// with why (a minimized window renders nothing).
const READ_BACK: Duration = Duration::from_secs(5);

/// A screenshot handed to Bevy, shared by its observer and the plugin, which answers it if Bevy
/// takes too long: whichever takes it first answers it.
pub(crate) type Shot = Arc<Mutex<Option<ToolkitScreenshots>>>;

fn lock(shot: &Shot) -> MutexGuard<'_, Option<ToolkitScreenshots>> {
    shot.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Asks Bevy for a screenshot of `window`'s frame being published (of the image a headless
/// window is drawn into); `capture` answers it.
pub(crate) fn take(
    commands: &mut Commands,
    window: Entity,
    image: Option<Handle<Image>>,
    capture: ToolkitScreenshots,
) -> Shot {
    let shot: Shot = Arc::new(Mutex::new(Some(capture)));
    let mine = Arc::clone(&shot);
    let screenshot = match image {
        Some(image) => Screenshot::image(image),
        None => Screenshot::window(window),
    };
    commands
        .spawn(screenshot)
        .observe(move |mut captured: On<ScreenshotCaptured>| {
            let taken = lock(&mine).take();
            if let Some(capture) = taken {
                deliver(capture, &mut captured.event_mut().image);
            }
        });
    shot
}

/// Keeps the screenshots Bevy has yet to deliver, answering those it has not read back within
/// [`READ_BACK`]; returns whether any still waits (the app is then asked for frames: Bevy reads
/// a frame back in a later one, which a reactive app would not run).
pub(crate) fn expire(shots: &mut Vec<(Instant, Shot)>) -> bool {
    shots.retain(|(since, shot)| {
        if since.elapsed() < READ_BACK {
            return lock(shot).is_some();
        }
        if let Some(mut capture) = lock(shot).take() {
            let window = capture.window();
            capture.refuse(&Failure::new(
                ErrorCode::AppError,
                format!(
                    "Bevy did not read window {window}'s frame back within {} s",
                    READ_BACK.as_secs()
                ),
                "the window may be minimized or hidden; show it and try again",
            ));
        }
        false
    });
    !shots.is_empty()
}

/// Hands Bevy's image to the service thread (link's toolkit capture makes one job per
/// screenshot waiting), as Bevy read it: BGRA or RGBA, unswizzled.
fn deliver(mut capture: ToolkitScreenshots, image: &mut Image) {
    let (width, height) = (image.width(), image.height());
    let bgra = match image.texture_descriptor.format {
        TextureFormat::Bgra8Unorm | TextureFormat::Bgra8UnormSrgb => true,
        TextureFormat::Rgba8Unorm | TextureFormat::Rgba8UnormSrgb => false,
        format => {
            capture.refuse(&Failure::new(
                ErrorCode::Unsupported,
                format!(
                    "Bevy read back a {width}x{height} {format:?} frame; the plugin reads 8-bit RGBA or BGRA"
                ),
                "render the window to an 8-bit sRGB surface (Bevy's default)",
            ));
            return;
        }
    };
    let bytes = image.data.take().unwrap_or_default();
    capture.deliver_pixels(width, height, bgra, Arc::new(bytes));
}
