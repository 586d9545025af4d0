//! Screenshots a toolkit reads back itself: [`ToolkitCapture`], from
//! [`Frame::toolkit_capture`](crate::Frame::toolkit_capture).

/// The screenshots of one window's frame, taken by a toolkit that reads its frame back itself
/// (egui's screenshot path: eframe reads back the next frame it presents). The answer names that
/// frame: the one after the frame that took them. Hand the pixels over with
/// [`ToolkitCapture::deliver`] whenever they arrive, from any thread: the PNG is encoded and
/// written on the service thread. Dropped undelivered, each screenshot is answered `unsupported`
/// with the reason, so every command still gets exactly one answer.
pub struct ToolkitCapture {
    /// Uninhabited with the feature off: no screenshot is ever taken.
    pub(crate) inner: crate::feature::ToolkitScreenshots,
}

impl std::fmt::Debug for ToolkitCapture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolkitCapture")
            .field("frame", &self.inner.frame())
            .field("screenshots", &self.inner.len())
            .finish()
    }
}

impl ToolkitCapture {
    /// The window's number, as snapshots and answers print it: the plugin's own (1, 2, ... in
    /// the order the app first named its windows), not the id the app passed, for a message
    /// that names the window.
    pub fn window(&self) -> u64 {
        self.inner.window()
    }

    /// Answers the screenshots with `failure` instead of pixels (the toolkit cannot read this
    /// window's frame back).
    pub fn refuse(mut self, failure: crate::protocol::Failure) {
        self.inner.refuse(&failure);
    }

    /// Answers the screenshots with the frame's pixels: 8-bit RGBA as the frame held them
    /// (sRGB-encoded), `width * 4` bytes a row, top row first. Never blocks and copies nothing
    /// (the pixels are shared with the service thread, which encodes them). Pixels that do not
    /// fill `width` x `height` answer `app_error`.
    pub fn deliver(
        mut self,
        width: u32,
        height: u32,
        pixels: std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>,
    ) {
        self.inner.deliver(width, height, pixels);
    }
}
