//! The repository's own rules: the docs match the code (`docs`), the render side's lint rules stay
//! in force (`render_rules`), the codebase keeps its shape (`shape`) and no crate has an import
//! cycle (`cycles`), and the crates below the plugin build no window or GPU crate (`layers`). No
//! app runs.

mod cycles;
mod docs;
mod layers;
mod render_rules;
mod shape;
