//! Whether egui is animating, from its frame output: [`is_animating`] and
//! [`is_animating_viewport`].

/// Whether egui asks for the next frame at once (a zero repaint delay for the root viewport): it
/// is animating (a window opening or closing, a fade, a spinner). Hand it to
/// [`winit_automation::Frame::animating`] each frame, so `--settle` waits the animation out.
pub fn is_animating(output: &egui::FullOutput) -> bool {
    is_animating_viewport(output, egui::ViewportId::ROOT)
}

/// [`is_animating`] for one viewport (a window of its own).
pub fn is_animating_viewport(output: &egui::FullOutput, viewport: egui::ViewportId) -> bool {
    output
        .viewport_output
        .get(&viewport)
        .is_some_and(|v| v.repaint_delay.is_zero())
}
