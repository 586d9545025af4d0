//! What the app's toolkit does that planning depends on ([`Toolkit`]): a leaf the gestures and
//! the plans both read.

/// What the app's toolkit does that planning depends on, as the app's builder says.
#[derive(Debug, Clone, Copy, Default)]
pub struct Toolkit {
    /// Pointer gestures move the pointer in a frame of its own before pressing or turning the
    /// wheel (`Builder::hover_frame`); by default the move and the press share one frame.
    pub hover_frame: bool,
    /// The app reads keys without a focused node (`Builder::keys_without_focus`, a game): a key
    /// that would only type goes out with nothing focused, and the answer says so.
    pub keys_without_focus: bool,
}
