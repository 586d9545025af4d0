#![doc = include_str!("../README.md")]

mod animating;
mod input;
mod plugin;
mod scene;

pub use animating::{is_animating, is_animating_viewport};
pub use input::EguiInput;
pub use plugin::{Plugin, window_id};
pub use scene::EguiScene;
